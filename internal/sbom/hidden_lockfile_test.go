package sbom_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestHiddenLockfiles: a project shipped with its installed node_modules
// but without its lockfile is read from the lockfile npm or pnpm keeps
// inside node_modules, to every package it records (read off the file
// here), located there; with a lockfile of its own, that one is read.
func TestHiddenLockfiles(t *testing.T) {
	const variants = "testdata/lock-variants"
	npmWant := func(t *testing.T) []string {
		var lock struct {
			Packages map[string]struct{ Version string }
		}
		mustJSON(t, filepath.Join(variants, "npm-hidden-lockfile/node_modules/.package-lock.json"), &lock)
		var out []string
		for k, p := range lock.Packages {
			out = append(out, k[strings.LastIndex(k, "node_modules/")+len("node_modules/"):]+"@"+p.Version)
		}
		return set(out)
	}
	pnpmWant := func(t *testing.T) []string {
		b, err := os.ReadFile(filepath.Join(variants, "pnpm-hidden-lockfile/node_modules/.pnpm/lock.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var lock struct{ Packages map[string]any }
		if err := yaml.Unmarshal(b, &lock); err != nil {
			t.Fatal(err)
		}
		var out []string
		for k := range lock.Packages {
			out = append(out, k)
		}
		return set(out)
	}
	for _, c := range []struct {
		dir, file string
		want      func(*testing.T) []string
	}{
		{"npm-hidden-lockfile", "node_modules/.package-lock.json", npmWant},
		{"pnpm-hidden-lockfile", "node_modules/.pnpm/lock.yaml", pnpmWant},
	} {
		t.Run(c.dir, func(t *testing.T) {
			want := c.want(t)
			if len(want) < 4 {
				t.Fatalf("the file records %d packages", len(want))
			}
			res, err := sbom.Extract(context.Background(), filepath.Join(variants, c.dir), sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) > 0 {
				t.Fatalf("errors %v", res.Errors)
			}
			var got []string
			for _, comp := range res.Components {
				got = append(got, comp.Name+"@"+comp.Version)
				if len(comp.Locations) != 1 || comp.Locations[0] != c.file {
					t.Errorf("%s at %v, want %s", comp.Purl, comp.Locations, c.file)
				}
			}
			if diff := cmp.Diff(want, set(got)); diff != "" {
				t.Errorf("components (-file +read):\n%s", diff)
			}
		})
	}

	// The project's own lockfile wins.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(variants, "npm-hidden-lockfile"))); err != nil {
		t.Fatal(err)
	}
	lock := `{"name":"hidden-lock-app","lockfileVersion":3,"requires":true,"packages":{"":{"name":"hidden-lock-app","dependencies":{"lodash":"4.17.21"}},` +
		`"node_modules/lodash":{"version":"4.17.21"}}}`
	if err := os.WriteFile(filepath.Join(dir, "package-lock.json"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 1 || res.Components[0].Purl != "pkg:npm/lodash@4.17.21" {
		t.Errorf("components %+v; want the project lockfile's lodash 4.17.21 alone", res.Components)
	}
}
