package sbom

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/pnpmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/simplefileapi"
	"gopkg.in/yaml.v3"
)

// TestPnpmLockMatchesScalibr: Sentinel's pnpm-lock.yaml reader gives the
// packages OSV-SCALIBR's extractor gives (name, version, purl type and
// commit), and fails the files it fails, on scalibr's own cases and real
// lockfiles of versions 5.4 to 9.0.
func TestPnpmLockMatchesScalibr(t *testing.T) {
	var files []string
	for _, glob := range []string{"testdata/pnpm-scalibr/*", "testdata/pnpm-dependabot/*.yaml", "testdata/*/*/pnpm-lock.yaml"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	// Where Sentinel reads what scalibr v0.5.3 does not, on purpose
	// (TestLockVariants checks these): v9-style keys under an older
	// version line, as pnpm reads them; a local package's key with a peer
	// suffix, which scalibr takes as a version; a v6 key whose peer suffix
	// names a scoped package, which scalibr drops.
	differ := []string{"testdata/lock-variants/pnpm-v6-v9-keys/pnpm-lock.yaml", "testdata/lock-variants/pnpm-pruned-peer-suffix/pnpm-lock.yaml",
		"testdata/lock-variants/pnpm-v6-scoped-peer/pnpm-lock.yaml"}
	files = slices.DeleteFunc(files, func(f string) bool {
		return strings.HasSuffix(f, ".md") || slices.Contains(differ, filepath.ToSlash(f))
	})
	if len(files) < 45 {
		t.Fatalf("only %d pnpm lockfiles found", len(files))
	}
	type pkg struct{ Name, Version, Type, Commit string }
	norm := func(ps []*extractor.Package) []pkg {
		out := make([]pkg, 0, len(ps))
		for _, p := range ps {
			k := pkg{p.Name, p.Version, p.PURLType, ""}
			if p.SourceCode != nil {
				k.Commit = p.SourceCode.Commit
			}
			out = append(out, k)
		}
		slices.SortFunc(out, func(a, b pkg) int {
			return strings.Compare(a.Name+"@"+a.Version+"#"+a.Commit, b.Name+"@"+b.Version+"#"+b.Commit)
		})
		return out
	}
	theirs, err := pnpmlock.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	ours := pnpmLockExtractor{theirs}
	failed, compared := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		localDirs := pnpmLocalDirs(data)
		// The document pnpm 11 writes first for itself (pnpm and its
		// platform builds, importers with packageManagerDependencies and
		// no dependencies) is not the project's: scalibr is given the
		// file without it (TestLockVariants/pnpm-manager-document).
		theirData := string(data)
		if docs := strings.Split(theirData, "\n---\n"); len(docs) > 1 {
			theirData = strings.Join(slices.DeleteFunc(docs, func(d string) bool {
				_, imp, _ := strings.Cut(d, "\nimporters:\n")
				imp, _, _ = strings.Cut(imp, "\n\n"+"packages:")
				return strings.Contains(imp, "packageManagerDependencies:") && !pnpmImporterDeps.MatchString(imp)
			}), "\n---\n")
		}
		inv, theirErr := theirs.Extract(context.Background(), &filesystem.ScanInput{Path: f, Reader: strings.NewReader(theirData)})
		doc, ourErr := ours.parse(data)
		if (theirErr != nil) != (ourErr != nil) {
			t.Errorf("%s: scalibr error %v, ours %v", f, theirErr, ourErr)
			continue
		}
		// Both may fail in part: then the entries both did read are
		// compared too.
		if theirErr != nil && (doc == nil || len(inv.Packages) == 0) {
			if doc != nil && len(ours.packages(doc, f)) > 0 {
				t.Errorf("%s: scalibr read nothing, ours read %d packages", f, len(ours.packages(doc, f)))
			}
			failed++
			continue
		}
		// scalibr lists local directories ("resolution: {directory: ..,
		// type: directory}"), which are the project's own code: Sentinel
		// does not (TestLockVariants/pnpm-local-files).
		want := slices.DeleteFunc(inv.Packages, func(p *extractor.Package) bool { return localDirs[p.Name] })
		if diff := cmp.Diff(norm(want), norm(ours.packages(doc, f))); diff != "" {
			t.Errorf("%s: packages differ from scalibr's (-scalibr +ours):\n%s", f, diff)
		}
		compared++
		if !ours.FileRequired(simplefileapi.New("x/pnpm-lock.yaml", nil)) {
			t.Error("FileRequired(pnpm-lock.yaml) = false")
		}
	}
	if failed == 0 || compared < 40 {
		t.Errorf("%d files compared, %d failed in both: the cases should include both", compared, failed)
	}
}

// pnpmImporterDeps matches an importer's dependencies of any kind.
var pnpmImporterDeps = regexp.MustCompile(`(?m)^    (?:dependencies|devDependencies|optionalDependencies):`)

// pnpmLocalDirs is the names of a lockfile's "packages:" entries that are
// local directories, read from the file itself; nil when it does not
// parse.
func pnpmLocalDirs(data []byte) map[string]bool {
	var lock struct {
		Packages map[string]struct {
			Name       string
			Resolution struct{ Type string }
		}
	}
	if yaml.Unmarshal(data, &lock) != nil {
		return nil
	}
	dirs := map[string]bool{}
	for key, p := range lock.Packages {
		if p.Resolution.Type != "directory" {
			continue
		}
		if p.Name != "" {
			dirs[p.Name] = true
		} else if name, _, ok := strings.Cut(key, "@file:"); ok { // v9: "shared@file:shared"
			dirs[name] = true
		}
	}
	return dirs
}
