package sbom

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/pnpmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/rust/cargolock"

	sentinel "github.com/sentinel-sca/sentinel"
)

// lockfileBases are the lockfile names Sentinel reads itself (graph.go's
// readers, onepass.go's extractors), in a fixed order: the fuzz input's
// first byte picks one.
func lockfileBases() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for b := range lockReaders {
			if !yield(b) {
				return
			}
		}
	})
}

// onePassFor is Sentinel's own extractor of a lockfile name, or nil.
func onePassFor(tb testing.TB, base string) onePass {
	switch base {
	case "package-lock.json", "npm-shrinkwrap.json":
		return npmLockExtractor{}
	case "yarn.lock":
		return yarnLockExtractor{}
	case "pnpm-lock.yaml":
		ex, err := pnpmlock.New(nil)
		if err != nil {
			tb.Fatal(err)
		}
		return pnpmLockExtractor{ex}
	case "Cargo.lock":
		ex, err := cargolock.New(nil)
		if err != nil {
			tb.Fatal(err)
		}
		return cargoLockExtractor{ex}
	}
	return nil
}

// FuzzLockfile runs Sentinel's own lockfile readers on any bytes: the
// package reading of the formats it parses itself, then the graph,
// source and license reading of every format. None may panic (Extract
// would turn a panic into a skipped file, but a panic is a bug), and
// every package read has a name.
func FuzzLockfile(f *testing.F) {
	bases := lockfileBases()
	// Seeds: every small lockfile of the test data, under its own name.
	_ = filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		base := path.Base(filepath.ToSlash(p))
		if strings.HasPrefix(p, filepath.Join("testdata", "pnpm-")) {
			base = "pnpm-lock.yaml"
		}
		i := slices.Index(bases, base)
		if i < 0 {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 8<<10 {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(uint8(i), b)
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		base := bases[int(which)%len(bases)]
		p := "app/" + base
		comps := []sentinel.Component{{Name: "a", Version: "1.0.0", Purl: "pkg:npm/a@1.0.0"}, {Name: "b", Version: "2.0.0", Purl: "pkg:npm/b@2.0.0"}}
		var pre any
		if op := onePassFor(t, base); op != nil {
			doc, err := op.parse(data)
			if err != nil {
				return
			}
			pre = doc
			for _, pk := range op.packages(doc, p) {
				if pk.Name == "" {
					t.Fatalf("%s: a package without a name: %+v", base, pk)
				}
				if c, ok := toComponent(pk, p, op.Name()); ok {
					comps = append(comps, c)
				}
			}
		}
		annotate(context.Background(), nil, p, data, pre, comps)
	})
}
