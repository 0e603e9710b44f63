package sbom_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	sentinel "github.com/sentinel-sca/sentinel"
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
	// Composer 1 wrote the list of packages, Composer 2 an object with it
	// under "packages".
	composerWant := func(dir string) func(*testing.T) []string {
		return func(t *testing.T) []string {
			b, err := os.ReadFile(filepath.Join(variants, dir, "vendor/composer/installed.json"))
			if err != nil {
				t.Fatal(err)
			}
			var pkgs []struct{ Name, Version string }
			if b[0] == '[' {
				mustJSON(t, filepath.Join(variants, dir, "vendor/composer/installed.json"), &pkgs)
			} else {
				var doc struct {
					Packages []struct{ Name, Version string }
				}
				mustJSON(t, filepath.Join(variants, dir, "vendor/composer/installed.json"), &doc)
				pkgs = doc.Packages
			}
			var out []string
			for _, p := range pkgs {
				out = append(out, p.Name+"@"+p.Version)
			}
			return set(out)
		}
	}
	for _, c := range []struct {
		dir, file string
		want      func(*testing.T) []string
	}{
		{"npm-hidden-lockfile", "node_modules/.package-lock.json", npmWant},
		{"pnpm-hidden-lockfile", "node_modules/.pnpm/lock.yaml", pnpmWant},
		{"composer-installed-v1", "vendor/composer/installed.json", composerWant("composer-installed-v1")},
		{"composer-installed-v2", "vendor/composer/installed.json", composerWant("composer-installed-v2")},
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

	// So does composer.lock beside vendor/.
	dir = t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(variants, "composer-installed-v2"))); err != nil {
		t.Fatal(err)
	}
	composerLock := `{"packages":[{"name":"guzzlehttp/guzzle","version":"7.4.5"}],"packages-dev":[]}`
	if err := os.WriteFile(filepath.Join(dir, "composer.lock"), []byte(composerLock), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 1 || res.Components[0].Purl != "pkg:composer/guzzlehttp/guzzle@7.4.5" {
		t.Errorf("components %+v; want composer.lock's guzzle 7.4.5 alone", res.Components)
	}
}

// TestComposerInstalledGraph: installed.json gives each package its
// licenses and its requirements as edges, as composer.lock does.
func TestComposerInstalledGraph(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/composer-installed-v2", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]sentinel.Component{}
	for _, c := range res.Components {
		byName[c.Name] = c
	}
	// From the file: guzzlehttp/guzzle 7.4.5 (MIT) requires guzzlehttp/promises,
	// guzzlehttp/psr7, psr/http-client and symfony/deprecation-contracts.
	g := byName["guzzlehttp/guzzle"]
	if g.Version != "7.4.5" || !slices.Equal(g.Licenses, []string{"MIT"}) {
		t.Errorf("guzzle %+v", g)
	}
	want := []string{"pkg:composer/guzzlehttp/promises@1.5.1", "pkg:composer/guzzlehttp/psr7@2.4.5", "pkg:composer/psr/http-client@1.0.1", "pkg:composer/symfony/deprecation-contracts@v2.5.1"}
	if diff := cmp.Diff(want, g.DependsOn); diff != "" {
		t.Errorf("guzzle depends on (-file +read):\n%s", diff)
	}
	if len(res.Files) != 1 || !res.Files[0].Graph || res.Files[0].Extractor != "php/composerinstalled" {
		t.Errorf("files %+v", res.Files)
	}
}

// TestExtractFS: a tree that is not on disk is read as one that is.
func TestExtractFS(t *testing.T) {
	lock, err := os.ReadFile("testdata/lock-variants/composer-installed-v1/vendor/composer/installed.json")
	if err != nil {
		t.Fatal(err)
	}
	npm, err := os.ReadFile("testdata/lock-variants/npm-hidden-lockfile/node_modules/.package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	mem := fstest.MapFS{
		"vendor/composer/installed.json":      {Data: lock},
		"app/node_modules/.package-lock.json": {Data: npm},
	}
	got, err := sbom.Extract(context.Background(), "example.com", sbom.Options{FS: mem})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, mem); err != nil {
		t.Fatal(err)
	}
	want, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Components) < 70 {
		t.Fatalf("%d components on disk", len(want.Components))
	}
	if diff := cmp.Diff(want.Components, got.Components); diff != "" {
		t.Errorf("components (-disk +FS):\n%s", diff)
	}
	if diff := cmp.Diff(want.Files, got.Files); diff != "" {
		t.Errorf("files (-disk +FS):\n%s", diff)
	}
}
