package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/ignorefile"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// ErrInvalidIgnore is wrapped by every error for a malformed ignore file.
var ErrInvalidIgnore = errors.New("invalid ignore file")

// ErrInvalidVEX is wrapped by every error for a malformed OpenVEX document.
var ErrInvalidVEX = errors.New("invalid OpenVEX document")

// Suppressions are the ignore entries and VEX statements of one run. A nil
// *Suppressions suppresses nothing.
type Suppressions struct {
	Ignore []IgnoreEntry
	VEX    []VEXStatement
}

// IgnoreEntry is one accepted risk of the ignore file (see the package
// comment for the format).
type IgnoreEntry struct {
	ID      string `yaml:"id"`
	Purl    string `yaml:"purl"`
	Package string `yaml:"package"`
	Reason  string `yaml:"reason"`
	Expires string `yaml:"expires"`

	// Source is "file:line" of the entry.
	Source string `yaml:"-"`
	// ExpiresAt is the first instant the entry no longer applies.
	ExpiresAt time.Time `yaml:"-"`

	pkg *pkgKey
}

// LoadIgnoreFile reads an ignore file; see ParseIgnore.
func LoadIgnoreFile(name string, now time.Time) ([]IgnoreEntry, []string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInvalidIgnore, err)
	}
	return ParseIgnore(data, name, now)
}

// ParseIgnore parses an ignore file named name. It returns the entries in
// force at now and a warning for each expired entry (which suppresses
// nothing). Any malformed entry fails the whole file with ErrInvalidIgnore:
// an accepted risk needs an advisory id, a reason and an expiry.
func ParseIgnore(data []byte, name string, now time.Time) ([]IgnoreEntry, []string, error) {
	entries, lines, err := ignorefile.Decode[IgnoreEntry](data)
	if err != nil {
		return nil, nil, fmt.Errorf("%w %s: %v", ErrInvalidIgnore, name, err)
	}
	var active []IgnoreEntry
	var warnings []string
	var problems []string
	for i, e := range entries {
		e.Source = name
		if i < len(lines) {
			e.Source = fmt.Sprintf("%s:%d", name, lines[i])
		}
		e.ID = strings.TrimSpace(e.ID)
		var missing []string
		if e.ID == "" {
			missing = append(missing, "id")
		}
		if strings.TrimSpace(e.Reason) == "" {
			missing = append(missing, "reason")
		}
		if strings.TrimSpace(e.Expires) == "" {
			missing = append(missing, "expires")
		}
		if len(missing) > 0 {
			problems = append(problems, fmt.Sprintf("%s: missing %s", e.Source, strings.Join(missing, ", ")))
			continue
		}
		at, err := ignorefile.ParseExpiry(e.Expires)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: expires %q: write a date as YYYY-MM-DD or an RFC 3339 time", e.Source, e.Expires))
			continue
		}
		e.ExpiresAt = at
		if e.Purl != "" {
			k, err := parsePkgKey(e.Purl)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: purl %q: %v", e.Source, e.Purl, err))
				continue
			}
			e.pkg = k
		}
		if !now.Before(at) {
			warnings = append(warnings, fmt.Sprintf("ignore entry %s at %s expired on %s and no longer suppresses anything: fix the finding, or renew the entry with a new reason and expiry",
				e.ID, e.Source, e.Expires))
			continue
		}
		active = append(active, e)
	}
	if len(problems) > 0 {
		return nil, nil, fmt.Errorf("%w: %s (every entry needs an advisory id, a reason and an expiry date)", ErrInvalidIgnore, strings.Join(problems, "; "))
	}
	return active, warnings, nil
}

// pkgKey identifies a package across purl spellings: ecosystem, normalised
// name and (optionally) version; qualifiers and subpath are ignored.
type pkgKey struct {
	eco, name, version string
}

func parsePkgKey(p string) (*pkgKey, error) {
	eco, name, version, err := purl.ToEcosystem(p)
	if err != nil {
		return nil, err
	}
	base := purl.BaseEcosystem(eco)
	return &pkgKey{eco: base, name: purl.NormalizeName(base, name), version: version}, nil
}

// covers reports whether k (from an ignore entry or a VEX product) names the
// package of c; a key without a version covers every version.
func (k *pkgKey) covers(c *pkgKey) bool {
	return k.eco == c.eco && k.name == c.name && (k.version == "" || k.version == c.version)
}

// VEXStatement is one OpenVEX statement, flattened.
type VEXStatement struct {
	// Vulnerabilities are the statement's vulnerability name and aliases.
	Vulnerabilities []string
	// Products are the purls of the products and subcomponents.
	Products      []string
	Status        string
	Justification string
	Impact        string
	Timestamp     time.Time
	Source        string
	// Order is the statement's position across every document read, to
	// break timestamp ties: the later statement wins.
	Order int

	keys []*pkgKey
}

// OpenVEX statuses.
const (
	VEXNotAffected        = "not_affected"
	VEXAffected           = "affected"
	VEXFixed              = "fixed"
	VEXUnderInvestigation = "under_investigation"
)

type vexDoc struct {
	Context    string         `json:"@context"`
	Timestamp  string         `json:"timestamp"`
	Statements []vexStatement `json:"statements"`
}

type vexStatement struct {
	Vulnerability   json.RawMessage   `json:"vulnerability"`
	Products        []json.RawMessage `json:"products"`
	Status          string            `json:"status"`
	Justification   string            `json:"justification"`
	ImpactStatement string            `json:"impact_statement"`
	Timestamp       string            `json:"timestamp"`
}

type vexVuln struct {
	Name    string   `json:"name"`
	ID      string   `json:"@id"`
	Aliases []string `json:"aliases"`
}

type vexProduct struct {
	ID          string            `json:"@id"`
	Identifiers map[string]string `json:"identifiers"`
	// Subcomponents have the same shape as products.
	Subcomponents []json.RawMessage `json:"subcomponents"`
}

// LoadOpenVEX reads an OpenVEX file; see ParseOpenVEX.
func LoadOpenVEX(name string, first int) ([]VEXStatement, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidVEX, err)
	}
	return ParseOpenVEX(data, name, first)
}

// ParseOpenVEX parses an OpenVEX JSON document named name. first numbers
// its statements (VEXStatement.Order) after those of documents read before.
func ParseOpenVEX(data []byte, name string, first int) ([]VEXStatement, error) {
	var d vexDoc
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrInvalidVEX, name, err)
	}
	if !strings.HasPrefix(d.Context, "https://openvex.dev/ns") {
		return nil, fmt.Errorf("%w %s: @context %q is not an OpenVEX context (https://openvex.dev/ns/...)", ErrInvalidVEX, name, d.Context)
	}
	docTime, _ := time.Parse(time.RFC3339, d.Timestamp)
	var out []VEXStatement
	for i, s := range d.Statements {
		where := fmt.Sprintf("%s: statement %d", name, i+1)
		st := VEXStatement{Status: s.Status, Justification: s.Justification, Impact: s.ImpactStatement,
			Timestamp: docTime, Source: name, Order: first + i}
		if s.Timestamp != "" {
			t, err := time.Parse(time.RFC3339, s.Timestamp)
			if err != nil {
				return nil, fmt.Errorf("%w %s: timestamp %q is not RFC 3339", ErrInvalidVEX, where, s.Timestamp)
			}
			st.Timestamp = t
		}
		switch s.Status {
		case VEXNotAffected:
			if s.Justification == "" && s.ImpactStatement == "" {
				return nil, fmt.Errorf("%w %s: status not_affected needs a justification or an impact_statement", ErrInvalidVEX, where)
			}
		case VEXAffected, VEXFixed, VEXUnderInvestigation:
		default:
			return nil, fmt.Errorf("%w %s: unknown status %q (not_affected, affected, fixed, under_investigation)", ErrInvalidVEX, where, s.Status)
		}
		vulns, err := vexVulnerabilities(s.Vulnerability)
		if err != nil {
			return nil, fmt.Errorf("%w %s: %v", ErrInvalidVEX, where, err)
		}
		st.Vulnerabilities = vulns
		for _, p := range s.Products {
			if err := st.addProduct(p, 0); err != nil {
				return nil, fmt.Errorf("%w %s: %v", ErrInvalidVEX, where, err)
			}
		}
		if len(st.Products) == 0 {
			return nil, fmt.Errorf("%w %s: no product names a package by purl", ErrInvalidVEX, where)
		}
		out = append(out, st)
	}
	return out, nil
}

// vexVulnerabilities reads "vulnerability": an object (v0.2.0) or a string.
func vexVulnerabilities(raw json.RawMessage) ([]string, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		if name == "" {
			return nil, errors.New("empty vulnerability")
		}
		return []string{name}, nil
	}
	var v vexVuln
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("vulnerability: %v", err)
	}
	var out []string
	if v.Name != "" {
		out = append(out, v.Name)
	}
	out = append(out, v.Aliases...)
	if len(out) == 0 {
		return nil, errors.New("vulnerability without a name")
	}
	return out, nil
}

// addProduct reads a product or subcomponent: a string or an object. Ids
// that are not purls (an image digest, a URL) are kept out: they cannot
// name a component of a lockfile.
func (st *VEXStatement) addProduct(raw json.RawMessage, depth int) error {
	if depth > 1 {
		return nil
	}
	var ids []string
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		ids = append(ids, s)
	} else {
		var p vexProduct
		if err := json.Unmarshal(raw, &p); err != nil {
			return fmt.Errorf("product: %v", err)
		}
		ids = append(ids, p.ID, p.Identifiers["purl"])
		for _, sub := range p.Subcomponents {
			if err := st.addProduct(sub, depth+1); err != nil {
				return err
			}
		}
	}
	for _, id := range ids {
		if !strings.HasPrefix(id, "pkg:") {
			continue
		}
		k, err := parsePkgKey(id)
		if err != nil {
			continue
		}
		st.Products = append(st.Products, id)
		st.keys = append(st.keys, k)
	}
	return nil
}

// ids are the advisory's id and aliases, upper-cased.
func ids(f *Finding) map[string]bool {
	m := map[string]bool{strings.ToUpper(f.Advisory.ID): true}
	for _, a := range f.Advisory.Aliases {
		m[strings.ToUpper(a)] = true
	}
	return m
}

// match returns the suppression of f, or nil. A VEX statement (a statement
// of fact) is looked at before an ignore entry (an accepted risk).
func (s *Suppressions) match(f *Finding) *Suppression {
	if s == nil {
		return nil
	}
	names := ids(f)
	comp, err := parsePkgKey(f.Purl)
	if err != nil {
		return nil
	}
	var best *VEXStatement
	for i := range s.VEX {
		st := &s.VEX[i]
		if !st.names(names) || !st.covers(comp) {
			continue
		}
		if best == nil || st.Timestamp.After(best.Timestamp) || (st.Timestamp.Equal(best.Timestamp) && st.Order > best.Order) {
			best = st
		}
	}
	if best != nil && (best.Status == VEXNotAffected || best.Status == VEXFixed) {
		return &Suppression{Kind: "vex", Source: best.Source, Reason: best.Impact, Status: best.Status, Justification: best.Justification}
	}
	for i := range s.Ignore {
		e := &s.Ignore[i]
		if !names[strings.ToUpper(e.ID)] {
			continue
		}
		if e.pkg != nil && !e.pkg.covers(comp) {
			continue
		}
		if e.Package != "" && !strings.EqualFold(e.Package, f.Name) {
			continue
		}
		return &Suppression{Kind: "ignore", Source: e.Source, Reason: e.Reason, Expires: e.Expires}
	}
	return nil
}

func (st *VEXStatement) names(ids map[string]bool) bool {
	for _, v := range st.Vulnerabilities {
		if ids[strings.ToUpper(v)] {
			return true
		}
	}
	return false
}

func (st *VEXStatement) covers(c *pkgKey) bool {
	for _, k := range st.keys {
		if k.covers(c) {
			return true
		}
	}
	return false
}
