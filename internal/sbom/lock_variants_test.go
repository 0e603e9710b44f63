package sbom_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestLockVariants: lockfiles other tools' test suites keep for the ways
// real ones differ from the usual layout. Each gives the packages it
// records (read off the file by eye, listed here); a file with an entry
// that cannot be read gives the others, with a warning naming the file.
func TestLockVariants(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want []string
		// edges are "from -> to" pairs of the graph that must be there.
		edges []string
		warn  bool
	}{
		// yarn v1 with quoted keys, as some tools rewrite it.
		{dir: "yarn-quoted", want: []string{"jquery@3.6.0"}},
		{dir: "yarn-quoted-deps", want: []string{"concat-map@0.0.1", "concat-stream@1.6.2"}},
		// npm aliases, with and without a range after the package: the
		// component is the package installed, not the alias.
		{
			dir: "yarn-alias",
			want: []string{"@types/jsonstream@0.8.33", "@types/node@20.10.5", "@types/uuid@9.0.7", "debug@4.3.4",
				"ms@2.1.2", "ms@2.1.3", "undici-types@5.26.5"},
			edges: []string{"debug@4.3.4 -> ms@2.1.2", "@types/jsonstream@0.8.33 -> @types/node@20.10.5"},
		},
		// berry with one entry written twice: Yarn takes the last.
		{dir: "yarn-berry-duplicate", want: []string{"@babel/code-frame@7.10.4", "@types/minimatch@3.0.3", "@types/qs@6.9.4",
			"ajv@6.12.3", "asn1.js@4.10.1", "atob@2.1.2", "aws-sdk@2.706.0", "jhipster-core@7.3.4"}},
		// Julia 1.9: a package depending on two packages of one name
		// lists its deps as a table; scalibr v0.5.3 refuses the file.
		{dir: "julia-shadowed"},
		{dir: "julia-shadowed-versions", want: []string{"A@1.2.0", "B@0.3.1", "B@2.0.0"}},
		// one unreadable entry among readable ones.
		{dir: "bun-bad-entry", want: []string{"wrappy@1.0.2"}, warn: true},
		{dir: "pnpm-bad-key", want: []string{"acorn@8.7.0"}, warn: true},
	} {
		t.Run(c.dir, func(t *testing.T) {
			res, err := sbom.Extract(context.Background(), filepath.Join("testdata/lock-variants", c.dir), sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) > 0 {
				t.Fatalf("errors %v", res.Errors)
			}
			if got := len(res.Warnings) > 0; got != c.warn {
				t.Errorf("warnings %v, want some: %v", res.Warnings, c.warn)
			}
			byPurl := map[string]string{}
			var got []string
			for _, comp := range res.Components {
				got = append(got, comp.Name+"@"+comp.Version)
				byPurl[comp.Purl] = comp.Name + "@" + comp.Version
			}
			slices.Sort(got)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("components (-want +got):\n%s", diff)
			}
			var edges []string
			for _, comp := range res.Components {
				for _, d := range comp.DependsOn {
					edges = append(edges, comp.Name+"@"+comp.Version+" -> "+byPurl[d])
				}
			}
			for _, e := range c.edges {
				if !slices.Contains(edges, e) {
					t.Errorf("edge %s missing; the graph has %s", e, strings.Join(edges, ", "))
				}
			}
		})
	}
}
