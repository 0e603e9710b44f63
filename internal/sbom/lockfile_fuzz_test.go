package sbom

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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
		if base == "package-lock.json" {
			npmDecodersAgree(t, data)
		}
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

// npmDecodersAgree: the JSON v2 decoding of a package-lock.json
// (unmarshalLock) accepts what encoding/json accepts, with the same
// result.
func npmDecodersAgree(t *testing.T, data []byte) {
	t.Helper()
	var v1 *npmLock
	if json.Unmarshal(data, &v1) != nil {
		return
	}
	var v2 *npmLock
	if err := unmarshalLock(data, &v2); err != nil {
		t.Fatalf("encoding/json reads %q, unmarshalLock fails: %v", data, err)
	}
	if diff := cmp.Diff(v1, v2, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("unmarshalLock(%q) differs from encoding/json (-v1 +v2):\n%s", data, diff)
	}
}

// TestNpmLockLenient: what encoding/json forgives in a package-lock.json,
// the reader forgives the same way.
func TestNpmLockLenient(t *testing.T) {
	for _, doc := range []string{
		`{"packages":{"node_modules/a":{"version":"1.0.0","version":"2.0.0"}}}`,                   // duplicate key: the last wins
		"{\"packages\":{\"node_modules/a\":{\"version\":\"1.0.0\",\"license\":\"MIT\xff\"}}}",     // invalid UTF-8
		`{"Packages":{"node_modules/a":{"Version":"1.0.0","LICENSE":{"type":"MIT"}}}}`,            // keys in another case
		`{"packages":{"node_modules/a":{"version":"1.0.0","license":["MIT","ISC"],"link":null}}}`, // raw license, null
		`{"lockfileVersion":1,"dependencies":{"a":{"version":"1.0.0","dependencies":{"b":{"version":"2.0.0"}}}}}`,
		`null`,
	} {
		npmDecodersAgree(t, []byte(doc))
	}
}
