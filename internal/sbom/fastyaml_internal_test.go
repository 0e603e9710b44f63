package sbom

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// sameNodes reports the first difference between fastYAML's node and
// yaml.v3's, or "" (comments aside, which decoding never reads).
func sameNodes(fast, want *yaml.Node, at string) string {
	if fast.Kind != want.Kind || fast.Style != want.Style || fast.Tag != want.Tag || fast.Value != want.Value ||
		fast.Line != want.Line || fast.Column != want.Column || len(fast.Content) != len(want.Content) {
		return fmt.Sprintf("%s: fastYAML kind %d style %d tag %q value %q at %d:%d with %d children; yaml.v3 kind %d style %d tag %q value %q at %d:%d with %d children",
			at, fast.Kind, fast.Style, fast.Tag, fast.Value, fast.Line, fast.Column, len(fast.Content),
			want.Kind, want.Style, want.Tag, want.Value, want.Line, want.Column, len(want.Content))
	}
	for i := range fast.Content {
		if d := sameNodes(fast.Content[i], want.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// longKey reports whether a node holds a key of more than 1,024
// characters, which yaml.v3 refuses and fastYAML reads.
func longKey(n *yaml.Node) bool {
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && len(c.Value) > 1000 || longKey(c) {
			return true
		}
	}
	return false
}

// checkFastYAML holds fastYAML's reading of data to yaml.v3's; accepted
// reports whether fastYAML read it.
func checkFastYAML(t *testing.T, name string, data []byte) (accepted bool) {
	t.Helper()
	fast, ok := fastYAML(data)
	if !ok {
		return false
	}
	want, err := yamlV3Docs(data)
	if err != nil {
		for _, d := range fast {
			if longKey(d) {
				return true
			}
		}
		t.Fatalf("%s: fastYAML read what yaml.v3 refuses (%v):\n%s", name, err, data)
	}
	if len(fast) != len(want) {
		t.Fatalf("%s: fastYAML read %d documents, yaml.v3 %d:\n%s", name, len(fast), len(want), data)
	}
	for i := range fast {
		if d := sameNodes(fast[i], want[i], fmt.Sprintf("document %d", i)); d != "" {
			t.Fatalf("%s: %s\n%s", name, d, data)
		}
	}
	return true
}

// TestFastYAMLRealLockfiles reads every YAML lockfile and workflow in
// testdata both ways. Every pnpm and berry lockfile yaml.v3 reads is
// read by fastYAML too, except those listed with what makes it decline.
func TestFastYAMLRealLockfiles(t *testing.T) {
	declined := map[string]string{}
	var checked, accepted int
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		base := d.Name()
		if !strings.HasSuffix(base, ".yaml") && !strings.HasSuffix(base, ".yml") && base != "yarn.lock" && base != "pubspec.lock" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if base == "yarn.lock" && !bytes.Contains(data, []byte("__metadata:")) {
			return nil // yarn v1 is not YAML
		}
		checked++
		if checkFastYAML(t, p, data) {
			accepted++
			return nil
		}
		if _, err := yamlV3Docs(data); err == nil && (base == "pnpm-lock.yaml" || base == "yarn.lock") {
			declined[p] = "declined"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range declined {
		t.Errorf("%s: a lockfile yaml.v3 reads that fastYAML declines", p)
	}
	t.Logf("%d YAML files, %d read by fastYAML", checked, accepted)
	if accepted == 0 {
		t.Fatal("fastYAML read no file")
	}
}

func TestFastYAMLSubset(t *testing.T) {
	for _, c := range []struct {
		in     string
		accept bool
	}{
		{"a: 1\nb:\n  c: 'x''y'\n  d: \"q\"\n", true},
		{"lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      a:\n        specifier: ^1.0.0\n        version: 1.0.0(b@2.0.0)\n", true},
		{"p:\n  resolution: {integrity: sha512-abc==}\n  engines: {node: '>=6.9.0'}\n  cpu: [arm64, x64]\n  os: []\n", true},
		{"os:\n- darwin\n- linux\nx: 1\n", true},
		{"os:\n  - darwin\n", true},
		{"a: 1 # comment\n# line\n---\nb: 2\n", true},
		{"a: b#c\nd: e:f\n", true},
		{"a: 1\r\nb: 2\r\n", true},
		{"a: é\n  # ünïcode — comment\nb: '测试'\n", true},
		{"a: {tarball: https://x, b: c:d}\n", true},
		{"a: [b:c]\n", true},
		{"- a: b\n  c: d\n- e\n- f: [g]\n", true},
		{"a:\n  - resolution:\n      archive: tarball\n    version: 1\n", true},
		{"a: &x 1\n", false},              // anchor
		{"a: *x\n", false},                // alias
		{"a: !!str 1\n", false},           // tag
		{"a: |\n  text\n", false},         // block scalar
		{"a: one\n  two\n", false},        // multi-line plain scalar
		{"a: \"x\\ty\"\n", false},         // escape
		{"a: 'x\n  y'\n", false},          // multi-line quoted
		{"a:\tb\n", false},                // tab
		{"a: {b: c,\n  d: e}\n", false},   // flow over two lines
		{"a: {b: c?d}\n", false},          // '?' ends a flow scalar
		{"\ufeffa: 1\n", false},           // byte order mark
		{"a: b\u2028c\n", false},          // a line separator
		{"a: b\xffc\n", false},            // not UTF-8
		{"- - a\n", false},                // a sequence in a sequence
		{"a: b: c\n", false},              // an error in YAML
		{"a:\n    b: 1\n  c: 2\n", false}, // an indentation error
		{"", false},                       // no document
		{"# only a comment\n", false},
		{"---\n", false},
		{"%YAML 1.2\n---\na: 1\n", false},
		{"a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[b]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n", false},
	} {
		got := checkFastYAML(t, fmt.Sprintf("%q", c.in), []byte(c.in))
		if got != c.accept {
			t.Errorf("fastYAML(%q): accepted %v, want %v", c.in, got, c.accept)
		}
	}
}

// TestFastYAMLLongKey: a berry entry whose key is longer than the 1,024
// characters yaml.v3 allows is read, as yarn reads it.
func TestFastYAMLLongKey(t *testing.T) {
	var ranges []string
	for i := range 60 {
		ranges = append(ranges, fmt.Sprintf("debug@npm:^2.%d.0", i))
	}
	lock := "__metadata:\n  version: 6\n  cacheKey: 8\n\n\"" + strings.Join(ranges, ", ") +
		"\":\n  version: 2.6.9\n  resolution: \"debug@npm:2.6.9\"\n  dependencies:\n    ms: 2.0.0\n  languageName: node\n  linkType: hard\n"
	if _, err := yamlV3Docs([]byte(lock)); err == nil {
		t.Fatal("yaml.v3 now reads long keys: fastYAML's exception is no longer needed")
	}
	y, err := parseYarnLock([]byte(lock))
	if err != nil {
		t.Fatalf("parseYarnLock: %v", err)
	}
	if len(y.entries) != 1 || y.entries[0].version != "2.6.9" || len(y.entries[0].descriptors) != 60 || y.entries[0].deps["ms"] != "2.0.0" {
		t.Fatalf("entries: %+v", y.entries)
	}
}

// FuzzFastYAML: whatever fastYAML reads, yaml.v3 reads to the same nodes.
func FuzzFastYAML(f *testing.F) {
	for _, s := range []string{
		"a: 1\nb:\n  c: 'x''y'\n  d: \"q\"\n",
		"p:\n  resolution: {integrity: sha512-abc==}\n  engines: {node: '>=6.9.0'}\n  cpu: [arm64, x64]\n",
		"os:\n- darwin\n- linux\nx: 1\n---\ny: [a, {b: c}]\n",
		"\"a@npm:^1.0.0, a@npm:^1.1.0\":\n  version: 1.1.0\n  dependencies:\n    b: \"npm:^2\"\n",
		"a:\nb: ~\nc: null\nd: 0x1F\ne: 1e3\nf: true\ng: 2001-12-14\n",
		"---\nimporters:\n  .:\n    packageManagerDependencies:\n      pnpm:\n        specifier: 10.0.0\n---\npackages:\n  x@1.0.0:\n    resolution: {tarball: https://r/x.tgz}\n",
		"a:\n  - resolution:\n      archive: tarball\n    version: 1\n  - b\n",
		"'p/测试':\n  x: 'it''s'  # ünïcode\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastYAML(t, "input", data)
	})
}

// TestYAMLLockfilesExtract extracts the large real pnpm and berry
// lockfiles with fastYAML and with yaml.v3 alone: the same components
// (with their graph and sources), files and warnings. The pnpm lockfile's
// second document, the workspace's own lockfile, is read.
func TestYAMLLockfilesExtract(t *testing.T) {
	extract := func(fast bool) *Result {
		t.Helper()
		fastYAMLOn = fast
		defer func() { fastYAMLOn = true }()
		res, err := Extract(context.Background(), "testdata/yaml-lockfiles", Options{Kinds: Languages})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	fast, slow := extract(true), extract(false)
	if len(fast.Errors) > 0 {
		t.Fatalf("errors: %v", fast.Errors)
	}
	if d := cmp.Diff(slow, fast); d != "" {
		t.Fatalf("fastYAML against yaml.v3 (-yaml.v3 +fastYAML):\n%s", d)
	}
	per := map[string]int{}
	for _, f := range fast.Files {
		per[f.Path] = f.Packages
	}
	// pnpm's first document lists only pnpm itself; the second, the
	// workspace's 1,000-odd packages.
	if per["pnpm-pnpm/pnpm-lock.yaml"] < 1000 || per["prettier-berry/yarn.lock"] < 500 {
		t.Fatalf("packages per file: %v", per)
	}
	found := false
	for _, c := range fast.Components {
		found = found || c.Purl == "pkg:npm/%40babel/core@7.29.7"
	}
	if !found {
		t.Errorf("pkg:npm/%%40babel/core@7.29.7 (pnpm's second document) is not among the components")
	}
}

// BenchmarkYAMLLockfiles reads the large real pnpm and berry lockfiles
// into nodes with yaml.v3 and with fastYAML.
func BenchmarkYAMLLockfiles(b *testing.B) {
	for _, f := range []string{"pnpm-pnpm/pnpm-lock.yaml", "prettier-berry/yarn.lock"} {
		data, err := os.ReadFile(filepath.Join("testdata/yaml-lockfiles", f))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.Split(f, "/")[0]+"/yaml.v3", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := yamlV3Docs(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(strings.Split(f, "/")[0]+"/fastYAML", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, ok := fastYAML(data); !ok {
					b.Fatal("declined")
				}
			}
		})
	}
}

// BenchmarkYAMLLockfileParse reads the large real lockfiles as the
// extractors do (nodes, then decoding), with fastYAML and without.
func BenchmarkYAMLLockfileParse(b *testing.B) {
	pnpm, err := os.ReadFile("testdata/yaml-lockfiles/pnpm-pnpm/pnpm-lock.yaml")
	if err != nil {
		b.Fatal(err)
	}
	berry, err := os.ReadFile("testdata/yaml-lockfiles/prettier-berry/yarn.lock")
	if err != nil {
		b.Fatal(err)
	}
	for _, fast := range []bool{false, true} {
		name := map[bool]string{false: "yaml.v3", true: "fastYAML"}[fast]
		b.Run("pnpm/"+name, func(b *testing.B) {
			fastYAMLOn = fast
			defer func() { fastYAMLOn = true }()
			b.SetBytes(int64(len(pnpm)))
			for b.Loop() {
				if _, err := parsePnpmLock(pnpm); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("berry/"+name, func(b *testing.B) {
			fastYAMLOn = fast
			defer func() { fastYAMLOn = true }()
			b.SetBytes(int64(len(berry)))
			for b.Loop() {
				if _, err := parseYarnLock(berry); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
