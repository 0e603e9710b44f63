package sbom_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/simplefileapi"

	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

const moreLockfiles = "testdata/more-lockfiles"

// moreCases maps each directory of testdata/more-lockfiles to the
// extractor that must read it and the OSV ecosystem of its packages ("" when
// OSV has none: CocoaPods).
var moreCases = map[string]struct{ extractor, ecosystem string }{
	"pdm":                 {"python/pdmlock", "PyPI"},
	"pdm-optional":        {"python/pdmlock", "PyPI"},
	"pylock":              {"python/pylock", "PyPI"},
	"packagesconfig":      {"dotnet/packagesconfig", "NuGet"},
	"paket":               {"dotnet/paketlock", "NuGet"},
	"gradle-verification": {"java/gradleverificationmetadataxml", "Maven"},
	"conan-v1":            {"cpp/conanlock", "ConanCenter"},
	"conan-v2":            {"cpp/conanlock", "ConanCenter"},
	"renv":                {"r/renvlock", "CRAN"},
	"stack":               {"haskell/stacklock", "Hackage"},
	"cabal":               {"haskell/cabal", "Hackage"},
	"podfile":             {"swift/podfilelock", ""},
	"julia-dependabot":    {"julia/manifesttoml", "Julia"},
}

// TestMoreLockfiles: for each lockfile of the formats read through
// OSV-SCALIBR alone, Extract gives every package the extractor itself
// reads from the file (none lost in conversion), with a purl that maps to
// the file's OSV ecosystem, so that the matcher finds its advisories.
func TestMoreLockfiles(t *testing.T) {
	dirs, err := os.ReadDir(moreLockfiles)
	if err != nil {
		t.Fatal(err)
	}
	for name := range moreCases {
		if !slices.ContainsFunc(dirs, func(d os.DirEntry) bool { return d.Name() == name }) {
			t.Errorf("case %s has no directory in testdata/more-lockfiles", name)
		}
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		c, ok := moreCases[d.Name()]
		if !ok {
			t.Errorf("testdata/more-lockfiles/%s has no case", d.Name())
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			dir := filepath.Join(moreLockfiles, d.Name())
			res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) > 0 || len(res.Files) != 1 || res.Files[0].Extractor != c.extractor {
				t.Fatalf("files %+v, errors %v; want one file read by %s", res.Files, res.Errors, c.extractor)
			}
			// What the extractor itself reads from the file.
			ex, err := sbom.NewExtractor(c.extractor)
			if err != nil {
				t.Fatal(err)
			}
			rel := res.Files[0].Path
			f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			info, _ := f.Stat()
			if !ex.FileRequired(simplefileapi.New(rel, info)) {
				t.Fatalf("%s does not claim %s", c.extractor, rel)
			}
			inv, err := ex.Extract(context.Background(), &filesystem.ScanInput{Path: rel, Root: dir, Reader: f, Info: info})
			if err != nil {
				t.Fatal(err)
			}
			var want, got []string
			for _, p := range inv.Packages {
				if p.Name != "" && p.Version != "" {
					want = append(want, strings.ToLower(p.Name)+"@"+p.Version)
				}
			}
			for _, comp := range res.Components {
				if comp.Version != "" {
					got = append(got, strings.ToLower(comp.Name)+"@"+comp.Version)
				}
				if c.ecosystem == "" || strings.HasPrefix(comp.Purl, "pkg:github/") {
					continue // CocoaPods, or a paket dependency taken from GitHub: no OSV ecosystem
				}
				_, eco, _, err := purl.Resolve(comp.Purl)
				if err != nil || eco != c.ecosystem {
					t.Errorf("%s resolves to ecosystem %q (%v), want %s", comp.Purl, eco, err, c.ecosystem)
				}
			}
			slices.Sort(want)
			want = slices.Compact(want)
			slices.Sort(got)
			got = slices.Compact(got)
			if len(want) == 0 {
				t.Fatal("the extractor reads no versioned package: the case proves nothing")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("components differ from the extractor's packages (-extractor +Extract):\n%s", diff)
			}
		})
	}
}

// TestNPMv1LocalFolder: npm 6 records a dependency on the project's own
// folder as "version": "file:local-lib". The folder is one of the project's
// packages (its package.json), not a library without a version; the
// packages it needs are still locked.
func TestNPMv1LocalFolder(t *testing.T) {
	res := mustExtract(t, "testdata/lock-variants/npm-v1-local-folder")
	if diff := cmp.Diff([]string{"pkg:npm/ms@2.0.0", "pkg:npm/ms@2.1.3"}, purlSet(res.Components)); diff != "" {
		t.Errorf("components (-want +got):\n%s", diff)
	}
	if !slices.Contains(purlSet(res.Projects), "pkg:npm/local-lib@1.2.3") {
		t.Errorf("projects %v, want local-lib@1.2.3 among them", purlSet(res.Projects))
	}
}
