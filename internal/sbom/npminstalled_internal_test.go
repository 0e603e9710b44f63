package sbom

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestInstalledManifestLayout: only node_modules/<name>/package.json and
// node_modules/@<scope>/<name>/package.json are installed packages'
// manifests; the package.json files inside a package, npm's and pnpm's
// dot folders and links are not.
func TestInstalledManifestLayout(t *testing.T) {
	for p, want := range map[string]bool{
		"node_modules/express/package.json":                true,
		"app/node_modules/@types/node/package.json":        true,
		"node_modules/send/node_modules/ms/package.json":   true,
		"node_modules/@a/b/node_modules/@c/d/package.json": true,
		"package.json":                                        false,
		"app/package.json":                                    false,
		"node_modules/package.json":                           false,
		"node_modules/@types/package.json":                    false,
		"node_modules/uuid/dist/esm-browser/package.json":     false,
		"node_modules/x/test/fixtures/app/package.json":       false,
		"node_modules/.pnpm/ms@2.1.3/package.json":            false,
		"node_modules/.cache/x/package.json":                  false,
		"node_modules/@/x/package.json":                       false,
		"node_modules/express/package.json.bak":               false,
		"node_modules/express/node_modules/package.json":      false,
		"src/node_modules_old/express/package.json":           false,
		"node_modules/@scope/name/lib/node_modules/x/README":  false,
		"node_modules/@scope/name/lib/node_modules.json":      false,
		"vendor/node_modules/@scope/name/package.json":        true,
		"node_modules/@scope/name/node_modules/.bin/x/p.json": false,
	} {
		if got := isInstalledManifest(p); got != want {
			t.Errorf("isInstalledManifest(%q) = %v, want %v", p, got, want)
		}
	}

	pkg := &fstest.MapFile{Data: []byte(`{"name":"x","version":"1.0.0"}`)}
	mem := fstest.MapFS{
		"node_modules/a/package.json":                            pkg,
		"node_modules/a/dist/package.json":                       pkg,
		"node_modules/a/node_modules/b/package.json":             pkg,
		"node_modules/@s/c/package.json":                         pkg,
		"node_modules/@s/c/node_modules/@t/d/package.json":       pkg,
		"node_modules/.pnpm/e@1.0.0/node_modules/e/package.json": pkg,
		"node_modules/.bin/f":                                    pkg,
		"node_modules/nomanifest/index.js":                       pkg,
		"node_modules/linked":                                    &fstest.MapFile{Data: []byte("../packages/linked"), Mode: fs.ModeSymlink},
		"packages/linked/package.json":                           pkg,
	}
	got := installedManifests(mem, "node_modules")
	want := []string{
		"node_modules/@s/c/package.json",
		"node_modules/@s/c/node_modules/@t/d/package.json",
		"node_modules/a/package.json",
		"node_modules/a/node_modules/b/package.json",
	}
	if !slices.Equal(got, want) {
		t.Errorf("installedManifests = %q, want %q", got, want)
	}
	for _, p := range got {
		if !isInstalledManifest(p) {
			t.Errorf("listed %s, which isInstalledManifest refuses", p)
		}
	}
}

// FuzzInstalledRecords: the license readers of installed packages'
// records (package.json, a gem's specification) and the path tests take
// any input without panicking, and a license read is never empty.
func FuzzInstalledRecords(f *testing.F) {
	for _, p := range []string{
		"testdata/lock-variants/npm-installed/node_modules/utils-merge/package.json",
		"testdata/lock-variants/npm-installed/node_modules/@sindresorhus/is/package.json",
		"testdata/lock-variants/ruby-installed/usr/local/lib/ruby/gems/3.1.0/specifications/default/uri-0.11.0.gemspec",
	} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"license":{"type":"BSD"},"licenses":[{"type":"MIT"},"ISC",3]}`))
	f.Add([]byte("  s.license = 'MIT'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, ls := range [][]string{manifestLicenses(data), gemspecLicenses(data)} {
			for _, l := range ls {
				if strings.TrimSpace(l) == "" {
					t.Fatalf("an empty license in %q", ls)
				}
			}
		}
		isInstalledManifest(string(data))
		isInstalledGemspec(string(data))
	})
}
