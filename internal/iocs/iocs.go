// Package iocs is supply-chain indicators: an operator defines a package
// and the versions of it that are bad, previews what applying it would do
// (a dry run, which writes nothing), and applies it, which promotes its
// matches to findings (category vulnerable_component, the indicator's id as
// the advisory, its severity, the indicator as evidence). An applied
// indicator keeps standing: every later submission and scan is matched
// against it (package finding asks IndicatorMatcher), and the CI gate fails
// on it, until it is archived, which resolves its findings.
//
// Matching reads the inverted index of live components (each host's newest
// submission, each site's newest reachable scan) for the indicator's one
// package, so a dry run costs what its matches cost, not what the
// inventory holds. Versions are compared with the ecosystem's own order
// (see ParseVersions for the grammar).
package iocs

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Store is what package iocs reads, and Update its write transaction. The
// store implements it (store.Bind[iocs.Tx]).
type Store interface {
	sentinel.OrgFinder
	FindIOC(ctx context.Context, orgID, id string) (*sentinel.IOC, error)
	FindIOCs(ctx context.Context, orgID, status string, page sentinel.Page) ([]*sentinel.IOC, string, error)
	AppliedIOCs(ctx context.Context, orgID string) ([]*sentinel.IOC, error)
	// LiveComponents returns the live components of the packages.
	LiveComponents(ctx context.Context, orgID string, pkgs []sentinel.PackageRef) ([]sentinel.LiveComponent, error)
	FindingsOfAdvisory(ctx context.Context, orgID, advisoryID string) ([]*sentinel.Finding, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what package iocs writes in one transaction.
type Tx interface {
	sentinel.AuditWriter
	CreateIOC(ctx context.Context, i *sentinel.IOC) error
	SetIOCStatus(ctx context.Context, orgID, id, status string) (*sentinel.IOC, bool, error)
}

// Findings is what package iocs needs of the findings engine.
type Findings interface {
	Reconcile(ctx context.Context, in finding.Input) (*finding.Result, error)
	Resolve(ctx context.Context, org *sentinel.Organization, fs []*sentinel.Finding, reason string, actor sentinel.Actor) (int, error)
}

// Service serves indicators.
type Service struct {
	DB       Store
	Findings Findings
}

// ecosystems maps what an operator may write (an OSV ecosystem in any
// case, or a purl type) to the OSV ecosystem.
var ecosystems = map[string]string{
	"npm": "npm", "pypi": "PyPI", "pip": "PyPI", "go": "Go", "golang": "Go", "maven": "Maven", "crates.io": "crates.io", "cargo": "crates.io", "crates": "crates.io",
	"rubygems": "RubyGems", "gem": "RubyGems", "nuget": "NuGet", "packagist": "Packagist", "composer": "Packagist",
	"pub": "Pub", "hex": "Hex", "debian": "Debian", "deb": "Debian", "ubuntu": "Ubuntu", "alpine": "Alpine", "apk": "Alpine",
	"cran": "CRAN", "bioconductor": "Bioconductor", "hackage": "Hackage", "swifturl": "SwiftURL", "swift": "SwiftURL",
}

// Ecosystem returns the OSV ecosystem name of s, or "".
func Ecosystem(s string) string { return ecosystems[strings.ToLower(strings.TrimSpace(s))] }

// CreateRequest is POST /v1/sca/iocs's body.
type CreateRequest struct {
	Ecosystem string `json:"ecosystem" maxLength:"40"`
	Name      string `json:"name" maxLength:"512"`
	// Versions is a list ("1.0.0, 1.0.1"), a range (">=1.2.0 <1.3.0"),
	// alternatives joined with "||", or "*"; or an array of versions.
	Versions  VersionList `json:"versions"`
	Reason    string      `json:"reason" maxLength:"1000"`
	Severity  string      `json:"severity" enum:"critical,high,medium,low"`
	Reference string      `json:"reference,omitempty" maxLength:"2048"`
	Malicious bool        `json:"malicious,omitempty"`
}

// Routes are the indicator operations (scope sca:ioc).
func (s *Service) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/sca/iocs", Scope: sentinel.ScopeSCAIOC, Status: http.StatusCreated,
			Summary: "Define an indicator: a package and a version expression (a draft until applied).",
			Request: CreateRequest{}, Response: sentinel.IOC{}, Handler: s.create},
		{Method: "GET", Path: "/v1/sca/iocs", Scope: sentinel.ScopeSCAIOC, Query: []string{"status", "limit", "cursor"},
			Summary: "List the organization's indicators, newest first.", Response: httpapi.ListResponse[sentinel.IOC]{}, Handler: s.list},
		{Method: "GET", Path: "/v1/sca/iocs/{id}", Scope: sentinel.ScopeSCAIOC,
			Summary: "One indicator.", Response: sentinel.IOC{}, Handler: s.get},
		{Method: "POST", Path: "/v1/sca/iocs/{id}/dry-run", Scope: sentinel.ScopeSCAIOC,
			Summary:  "What applying the indicator would do, writing nothing: its matches, and the findings it would create or leave as they are.",
			Response: Preview{}, Handler: s.dryRun},
		{Method: "POST", Path: "/v1/sca/iocs/{id}/apply", Scope: sentinel.ScopeSCAIOC,
			Summary:  "Apply the indicator: its matches become findings, and later submissions and scans are matched against it until it is archived.",
			Response: Preview{}, Handler: s.apply},
		{Method: "POST", Path: "/v1/sca/iocs/{id}/archive", Scope: sentinel.ScopeSCAIOC,
			Summary: "Archive the indicator: it matches nothing more, and its open findings are resolved.", Response: sentinel.IOC{}, Handler: s.archive},
	}
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) error {
	var req CreateRequest
	if err := httpapi.DecodeJSON(r.Body, 16<<10, &req); err != nil {
		return err
	}
	eco := Ecosystem(req.Ecosystem)
	switch {
	case eco == "":
		return sentinel.InvalidField("ecosystem", "unknown ecosystem %q: use an OSV ecosystem such as npm, PyPI, Go, Maven, crates.io, RubyGems, NuGet, Packagist", req.Ecosystem)
	case strings.TrimSpace(req.Name) == "" || len(req.Name) > 512 || !utf8.ValidString(req.Name):
		return sentinel.InvalidField("name", "name must be the package's name, 1 to 512 characters")
	case strings.TrimSpace(req.Reason) == "" || len(req.Reason) > 1000:
		return sentinel.InvalidField("reason", "reason must say why, in 1 to 1000 characters")
	case len(req.Reference) > 2048:
		return sentinel.InvalidField("reference", "reference must be at most 2048 characters")
	}
	switch req.Severity {
	case sentinel.SeverityCritical, sentinel.SeverityHigh, sentinel.SeverityMedium, sentinel.SeverityLow:
	default:
		return sentinel.InvalidField("severity", "severity must be critical, high, medium or low")
	}
	if _, err := ParseVersions(eco, string(req.Versions)); err != nil {
		return sentinel.InvalidField("versions", "%s", err.Error())
	}
	p := httpapi.PrincipalFromContext(r.Context())
	name := strings.TrimSpace(req.Name)
	i := &sentinel.IOC{ID: sentinel.NewID(sentinel.PrefixIOC), OrgID: p.OrgID, Ecosystem: eco, Name: name,
		NameKey: purl.InventoryKey(eco, name), Versions: strings.TrimSpace(string(req.Versions)), Reason: strings.TrimSpace(req.Reason),
		Severity: req.Severity, Reference: req.Reference, Malicious: req.Malicious, CreatedBy: p.KeyID}
	err := s.DB.Update(r.Context(), func(tx Tx) error {
		if err := tx.CreateIOC(r.Context(), i); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "ioc.create", i.ID, map[string]any{
			"ecosystem": eco, "name": name, "versions": i.Versions, "severity": i.Severity})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, i)
	return nil
}

func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	status := r.URL.Query().Get("status")
	switch status {
	case "", sentinel.IOCDraft, sentinel.IOCApplied, sentinel.IOCArchived:
	default:
		return sentinel.InvalidField("status", "status must be draft, applied or archived")
	}
	is, next, err := s.DB.FindIOCs(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, status, page)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, is, next)
	return nil
}

func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	i, err := s.DB.FindIOC(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, i)
	return nil
}

// Preview is what a dry run (or an apply) found.
type Preview struct {
	IOC *sentinel.IOC `json:"ioc"`
	// Components counts the matching live components.
	Components int `json:"components"`
	// Matches lists them: where, from which source, at which version.
	Matches []Match `json:"matches"`
	// Hosts are the agents' hosts and Sites the scanned sites with a match.
	Hosts []string `json:"hosts"`
	Sites []string `json:"sites"`
	// Submissions and Scans are the live sources that hold a match.
	Submissions []string `json:"submissions"`
	Scans       []string `json:"scans"`
	// ByVersion counts matches per version.
	ByVersion map[string]int `json:"by_version"`
	// WouldCreate counts the findings applying creates (or reopens);
	// AlreadyOpen those that exist open already and stay as they are.
	WouldCreate int `json:"would_create"`
	AlreadyOpen int `json:"already_open"`
	// Created counts what an apply did create (0 for a dry run).
	Created int `json:"created"`
}

// Match is one matching live component.
type Match struct {
	Host     string `json:"host"`
	Kind     string `json:"kind"` // sbom or scan
	SourceID string `json:"source_id"`
	Purl     string `json:"purl"`
	Version  string `json:"version"`
	// Development is set when the host's source marks the component as
	// needed only for development.
	Development bool `json:"development,omitempty"`
	// Finding is the existing finding of this indicator on the host, if
	// any; Action is what applying does: create, reopen or unchanged.
	Finding string `json:"finding_id,omitempty"`
	Action  string `json:"action"`
}

// Preview computes what applying the indicator would do, writing nothing.
func (s *Service) Preview(ctx context.Context, i *sentinel.IOC) (*Preview, error) {
	vs, err := ParseVersions(i.Ecosystem, i.Versions)
	if err != nil {
		return nil, err
	}
	live, err := s.DB.LiveComponents(ctx, i.OrgID, []sentinel.PackageRef{{Ecosystem: purl.BaseEcosystem(i.Ecosystem), Name: i.NameKey}})
	if err != nil {
		return nil, err
	}
	existing, err := s.DB.FindingsOfAdvisory(ctx, i.OrgID, i.ID)
	if err != nil {
		return nil, err
	}
	have := map[string]*sentinel.Finding{}
	for _, f := range existing {
		have[f.AssetName+"\x00"+f.Purl] = f
	}
	p := &Preview{IOC: i, Matches: []Match{}, Hosts: []string{}, Sites: []string{}, Submissions: []string{}, Scans: []string{},
		ByVersion: map[string]int{}}
	for _, c := range live {
		if c.Purl == "" || !vs.Contains(c.Version) {
			continue
		}
		m := Match{Host: c.Host, Kind: c.Kind, SourceID: c.SourceID, Purl: c.Purl, Version: c.Version, Development: c.Development, Action: "create"}
		if f := have[c.Host+"\x00"+c.Purl]; f != nil {
			m.Finding = f.ID
			switch f.Status {
			case sentinel.StatusOpen, sentinel.StatusAccepted, sentinel.StatusFalsePositive:
				m.Action = "unchanged"
			default:
				m.Action = "reopen"
			}
		}
		if m.Action == "unchanged" {
			p.AlreadyOpen++
		} else {
			p.WouldCreate++
		}
		p.Matches = append(p.Matches, m)
		p.ByVersion[c.Version]++
		if c.Kind == sentinel.SourceScan {
			p.Sites, p.Scans = appendNew(p.Sites, c.Host), appendNew(p.Scans, c.SourceID)
		} else {
			p.Hosts, p.Submissions = appendNew(p.Hosts, c.Host), appendNew(p.Submissions, c.SourceID)
		}
	}
	sort.Slice(p.Matches, func(a, b int) bool {
		x, y := p.Matches[a], p.Matches[b]
		if x.Host != y.Host {
			return x.Host < y.Host
		}
		return x.Purl < y.Purl
	})
	for _, l := range []*[]string{&p.Hosts, &p.Sites, &p.Submissions, &p.Scans} {
		slices.Sort(*l)
	}
	p.Components = len(p.Matches)
	return p, nil
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

func (s *Service) dryRun(w http.ResponseWriter, r *http.Request) error {
	i, err := s.DB.FindIOC(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	p, err := s.Preview(r.Context(), i)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, p)
	return nil
}

func (s *Service) apply(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	pr := httpapi.PrincipalFromContext(ctx)
	org, err := s.DB.FindOrgByID(ctx, pr.OrgID)
	if err != nil {
		return err
	}
	var i *sentinel.IOC
	err = s.DB.Update(ctx, func(tx Tx) (err error) {
		var changed bool
		if i, changed, err = tx.SetIOCStatus(ctx, pr.OrgID, r.PathValue("id"), sentinel.IOCApplied); err != nil || !changed {
			return err
		}
		return tx.Audit(ctx, pr.OrgID, httpapi.Actor(r), "ioc.apply", i.ID, nil)
	})
	if err != nil {
		return err
	}
	p, err := s.Preview(ctx, i)
	if err != nil {
		return err
	}
	// Each host's matches are reconciled as that host's own source would
	// be, limited to the matching components: the indicator is applied,
	// so the findings engine matches it like an advisory.
	type group struct{ host, kind, source string }
	comps := map[group][]sentinel.Component{}
	for _, m := range p.Matches {
		g := group{m.Host, m.Kind, m.SourceID}
		comps[g] = append(comps[g], sentinel.Component{Purl: m.Purl, Version: m.Version, Development: m.Development})
	}
	keys := make([]group, 0, len(comps))
	for g := range comps {
		keys = append(keys, g)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a].host < keys[b].host })
	for _, g := range keys {
		in := finding.Input{Org: org, Asset: g.host, Source: g.kind, Components: comps[g], Partial: true, Actor: httpapi.Actor(r),
			Evidence: map[string][]sentinel.FindingEvidence{}}
		in.AssetKind = sentinel.AssetHost
		if g.kind == sentinel.SourceScan {
			in.AssetKind = sentinel.AssetSite
		} else {
			in.SubmissionID = g.source
		}
		for _, c := range comps[g] {
			in.Evidence[c.Purl] = []sentinel.FindingEvidence{{Kind: "ioc", Source: i.ID, Detail: i.Reason},
				{Kind: g.kind, Source: g.source}}
		}
		res, err := s.Findings.Reconcile(ctx, in)
		if err != nil {
			return err
		}
		for _, c := range res.Changes {
			if c.Advisory == i.ID && (c.Reason == "new_advisory" || c.Reason == "reopened") {
				p.Created++
			}
		}
	}
	p.IOC = i
	httpapi.WriteJSON(w, http.StatusOK, p)
	return nil
}

func (s *Service) archive(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	pr := httpapi.PrincipalFromContext(ctx)
	org, err := s.DB.FindOrgByID(ctx, pr.OrgID)
	if err != nil {
		return err
	}
	var i *sentinel.IOC
	err = s.DB.Update(ctx, func(tx Tx) (err error) {
		var changed bool
		if i, changed, err = tx.SetIOCStatus(ctx, pr.OrgID, r.PathValue("id"), sentinel.IOCArchived); err != nil || !changed {
			return err
		}
		return tx.Audit(ctx, pr.OrgID, httpapi.Actor(r), "ioc.archive", i.ID, nil)
	})
	if err != nil {
		return err
	}
	fs, err := s.DB.FindingsOfAdvisory(ctx, pr.OrgID, i.ID)
	if err != nil {
		return err
	}
	if _, err := s.Findings.Resolve(ctx, org, fs, "the indicator was archived", httpapi.Actor(r)); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, i)
	return nil
}

// IndicatorMatcher returns a matcher of the organization's applied
// indicators: purl -> the indicators its package and version match, as
// advisory matches whose ID is the indicator's.
func (s *Service) IndicatorMatcher(ctx context.Context, orgID string) (func(string) []sentinel.AdvisoryMatch, error) {
	applied, err := s.DB.AppliedIOCs(ctx, orgID)
	if err != nil || len(applied) == 0 {
		return nil, err
	}
	type compiled struct {
		ioc *sentinel.IOC
		vs  *Versions
	}
	byKey := map[sentinel.PackageRef][]compiled{}
	for _, i := range applied {
		vs, err := ParseVersions(i.Ecosystem, i.Versions)
		if err != nil {
			continue // stored only after parsing: a version of the library that reads it differently
		}
		k := sentinel.PackageRef{Ecosystem: purl.BaseEcosystem(i.Ecosystem), Name: i.NameKey}
		byKey[k] = append(byKey[k], compiled{i, vs})
	}
	return func(p string) []sentinel.AdvisoryMatch {
		it := purl.ItemFromPurl(p, "", "")
		cs := byKey[sentinel.PackageRef{Ecosystem: it.Ecosystem, Name: it.Name}]
		var out []sentinel.AdvisoryMatch
		for _, c := range cs {
			if !c.vs.Contains(it.Version) {
				continue
			}
			out = append(out, sentinel.AdvisoryMatch{ID: c.ioc.ID, Summary: "Indicator: " + c.ioc.Reason, Severity: c.ioc.Severity,
				Aliases: []string{}, CWEs: []string{}, FixedVersions: []string{}, Malicious: c.ioc.Malicious, Indicator: true})
		}
		return out
	}, nil
}
