package intel

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/package-url/packageurl-go"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// EOLProduct is one endoflife.date product file (the product's front matter
// as JSON: identifiers and releases).
type EOLProduct struct {
	Product     string          `json:"product"`
	Identifiers []EOLIdentifier `json:"identifiers,omitempty"`
	Releases    []EOLRelease    `json:"releases"`

	// Raw is the file as it was read, for snapshots.
	Raw []byte `json:"-"`
}

// EOLIdentifier is one identifier of a product; Sentinel uses the purls.
type EOLIdentifier struct {
	Purl     string `json:"purl,omitempty"`
	CPE      string `json:"cpe,omitempty"`
	Repology string `json:"repology,omitempty"`
}

// EOLRelease is one release cycle.
type EOLRelease struct {
	ReleaseCycle string `json:"releaseCycle"`
	ReleaseDate  string `json:"releaseDate,omitempty"`
	// EOL is a date or a boolean in the source.
	EOL    DateOrBool `json:"eol"`
	Latest string     `json:"latest,omitempty"`
	LTS    DateOrBool `json:"lts,omitzero"`
}

// DateOrBool is an endoflife.date field that is either a YYYY-MM-DD date or
// a boolean.
type DateOrBool struct {
	Date string // set when the source gives a date
	Bool bool   // the boolean, when the source gives one
}

// UnmarshalJSON accepts a string, a boolean or null.
func (d *DateOrBool) UnmarshalJSON(b []byte) error {
	*d = DateOrBool{}
	switch s := string(b); {
	case s == "true":
		d.Bool = true
	case s == "false", s == "null":
	default:
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return fmt.Errorf("want date or boolean, got %s", b)
		}
		d.Date = str
	}
	return nil
}

// MarshalJSON writes the date, or the boolean when there is no date.
func (d DateOrBool) MarshalJSON() ([]byte, error) {
	if d.Date != "" {
		return json.Marshal(d.Date)
	}
	return json.Marshal(d.Bool)
}

// DecodeEOLProduct decodes one product file; name is used as the product
// name when the file has no "product" key.
func DecodeEOLProduct(name string, data []byte) (*EOLProduct, error) {
	var p EOLProduct
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("decode eol product %q: %w", name, err)
	}
	if p.Product == "" {
		p.Product = name
	}
	p.Raw = data
	return &p, nil
}

// LoadEOLDir reads every *.json file in dir as an endoflife.date product
// (named after the file). A bad file is skipped and counted.
func LoadEOLDir(ctx context.Context, dir string) ([]*EOLProduct, LoadStats, error) {
	var out []*EOLProduct
	var st LoadStats
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() || filepath.Ext(p) != ".json" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			st.skip(p, SkipRead, err)
			return nil
		}
		prod, err := DecodeEOLProduct(strings.TrimSuffix(filepath.Base(p), ".json"), data)
		if err != nil {
			st.skip(p, SkipInvalidJSON, err)
			return nil
		}
		st.Loaded++
		out = append(out, prod)
		return nil
	})
	if err != nil {
		return out, st, fmt.Errorf("load eol dir %q: %w", dir, err)
	}
	return out, st, nil
}

// eolIndex maps a package identity (purl type, namespace, name; normalised)
// to the products that name it, with cycles sorted longest first so the most
// specific cycle wins (log4j "2.12" before "2").
type eolIndex struct {
	byKey map[string][]*eolProduct
	types map[string]bool // purl types named by some product, to skip the rest cheaply
}

type eolProduct struct {
	name     string
	releases []EOLRelease
}

func newEOLIndex(products []*EOLProduct) eolIndex {
	idx := eolIndex{byKey: make(map[string][]*eolProduct), types: make(map[string]bool)}
	for _, p := range products {
		rel := append([]EOLRelease(nil), p.Releases...)
		sort.SliceStable(rel, func(i, j int) bool { return len(rel[i].ReleaseCycle) > len(rel[j].ReleaseCycle) })
		ep := &eolProduct{name: p.Product, releases: rel}
		seen := map[string]bool{}
		add := func(u packageurl.PackageURL) {
			k := eolKey(u)
			if !seen[k] {
				seen[k] = true
				idx.byKey[k] = append(idx.byKey[k], ep)
				idx.types[u.Type] = true
			}
		}
		for _, id := range p.Identifiers {
			if id.Purl == "" {
				continue
			}
			u, err := packageurl.FromString(id.Purl)
			if err != nil {
				continue
			}
			add(u)
			for _, alias := range eolAliases[u.Type+"/"+u.Namespace+"/"+u.Name] {
				add(alias)
			}
			// The external scan names server software and CMSs as Bitnami
			// does (pkg:bitnami/php): the same product as endoflife.date's
			// Bitnami image (pkg:docker/bitnami/wordpress) or generic
			// package (pkg:generic/nginx).
			if b := bitnamiName(u); b != "" {
				add(packageurl.PackageURL{Type: "bitnami", Name: b})
			}
		}
		if p.Product != "" && !strings.ContainsAny(p.Product, "/ ") {
			add(packageurl.PackageURL{Type: "bitnami", Name: p.Product}) // pkg:bitnami/tomcat
		}
	}
	return idx
}

// eolAliases are the purls Sentinel gives a product whose endoflife.date
// identifiers name it otherwise, by the identifier ("type/namespace/name")
// they stand beside: Go's toolchain is pkg:generic/go there, and the
// standard library a Go program or module was built with is
// pkg:golang/stdlib here, at the toolchain's version.
var eolAliases = map[string][]packageurl.PackageURL{
	"generic//go": {{Type: "golang", Name: "stdlib"}},
}

// bitnamiName is the Bitnami product an endoflife.date identifier names:
// pkg:docker/bitnami/<name> or pkg:generic/<name>; "" for anything else.
func bitnamiName(u packageurl.PackageURL) string {
	switch {
	case u.Type == "docker" && u.Namespace == "bitnami":
		return u.Name
	case u.Type == "generic" && u.Namespace == "":
		return u.Name
	}
	return ""
}

// eolKey is the identity of a purl without version and qualifiers, with the
// name normalised as its ecosystem compares names: for purls with an OSV
// ecosystem the same key as the advisory index uses (packageKey).
func eolKey(u packageurl.PackageURL) string {
	if eco, name, err := purl.FromPackageURL(u); err == nil {
		return packageKey(eco, name)
	}
	return strings.ToLower(u.Type + "\x00" + u.Namespace + "/" + u.Name)
}

// status returns the EOL status of u's version, or nil when no product or
// cycle is known for it.
func (idx eolIndex) status(u packageurl.PackageURL, now time.Time) *sentinel.EOLStatus {
	if !idx.types[u.Type] || u.Version == "" {
		return nil
	}
	return idx.statusByKey(eolKey(u), u, now)
}

// statusByKey is status with the key already computed (the match path
// computes the same key for advisories).
func (idx eolIndex) statusByKey(key string, u packageurl.PackageURL, now time.Time) *sentinel.EOLStatus {
	if !idx.types[u.Type] || u.Version == "" {
		return nil
	}
	prods := idx.byKey[key]
	if len(prods) == 0 {
		return nil
	}
	v := upstreamVersion(u.Type, purl.Version(u))
	for _, p := range prods {
		for _, r := range p.releases {
			if !cycleMatches(r.ReleaseCycle, v) {
				continue
			}
			st := &sentinel.EOLStatus{
				Product:      p.name,
				ReleaseCycle: r.ReleaseCycle,
				Latest:       r.Latest,
				EOLDate:      r.EOL.Date,
			}
			if r.EOL.Date != "" {
				if d, err := time.Parse(time.DateOnly, r.EOL.Date); err == nil {
					st.EOL = !now.Before(d)
				}
			} else {
				st.EOL = r.EOL.Bool
			}
			return st
		}
	}
	return nil
}

// upstreamVersion strips what distributions add around the upstream
// version: a leading "v", a Debian/RPM epoch ("1:") and revision ("-3ubuntu1"),
// an Alpine release ("-r0").
func upstreamVersion(typ, v string) string {
	v = strings.TrimPrefix(v, "v")
	switch typ {
	case "deb", "rpm", "apk", "alpm":
		if i := strings.IndexByte(v, ':'); i >= 0 {
			v = v[i+1:]
		}
		if i := strings.LastIndexByte(v, '-'); i >= 0 {
			v = v[:i]
		}
		if i := strings.IndexByte(v, '+'); i >= 0 {
			v = v[:i]
		}
		if i := strings.Index(v, "~"); i >= 0 {
			v = v[:i]
		}
	}
	return v
}

// cycleMatches reports whether version v belongs to release cycle c: equal,
// or c followed by a non-digit ("1.9.3" matches "1.9.3p551" and "1.9.3.1",
// "2.1" does not match "2.12.0").
func cycleMatches(c, v string) bool {
	if c == "" || !strings.HasPrefix(v, c) {
		return false
	}
	if len(v) == len(c) {
		return true
	}
	next := v[len(c)]
	return next < '0' || next > '9'
}
