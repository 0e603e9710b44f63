package sbom_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/unicode"
)

// textEncodings are the ways Windows tools save a text file: with a UTF-8
// byte order mark (Visual Studio, Notepad), or in UTF-16 with its mark
// (Windows PowerShell 5's ">" and Out-File).
var textEncodings = map[string]func([]byte) []byte{
	"utf-8 with a byte order mark": func(b []byte) []byte { return append([]byte("\ufeff"), b...) },
	"utf-16le": func(b []byte) []byte {
		out, _ := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes(b)
		return out
	},
	"utf-16be": func(b []byte) []byte {
		out, _ := unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder().Bytes(b)
		return out
	},
}

// copyEncoded copies the tree src to a new directory, each text file in
// the encoding enc.
func copyEncoded(t *testing.T, src string, enc func([]byte) []byte) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if utf8.Valid(b) {
			b = enc(b)
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestTextEncodings: every real lockfile and manifest of the test data,
// saved as Windows tools save it, gives what it gives in plain UTF-8.
func TestTextEncodings(t *testing.T) {
	root := filepath.Join("testdata", "lockfiles")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			t.Parallel()
			src := filepath.Join(root, d.Name())
			want := marked(mustExtract(t, src))
			if len(want) == 0 {
				t.Fatal("no components in plain UTF-8: the test shows nothing")
			}
			for name, enc := range textEncodings {
				if diff := cmp.Diff(want, marked(mustExtract(t, copyEncoded(t, src, enc)))); diff != "" {
					t.Errorf("%s (-plain +encoded):\n%s", name, diff)
				}
			}
		})
	}
}

// TestReadSBOMTextEncodings: an SBOM another tool wrote through
// PowerShell's redirection (UTF-16) reads as the same file in UTF-8.
func TestReadSBOMTextEncodings(t *testing.T) {
	dir := filepath.Join("testdata", "sboms")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SBOMs in %s: %v", dir, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := readResult(t, f)
		for name, enc := range textEncodings {
			p := filepath.Join(t.TempDir(), filepath.Base(f))
			if err := os.WriteFile(p, enc(b), 0o644); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.Components, readResult(t, p).Components); diff != "" {
				t.Errorf("%s in %s (-utf-8 +encoded):\n%s", filepath.Base(f), name, diff)
			}
		}
	}
}

// TestUTF16POM: a pom.xml saved in UTF-16, its declaration saying so,
// reads as in UTF-8.
func TestUTF16POM(t *testing.T) {
	src := filepath.Join("testdata", "maven-bom", "app")
	b, err := os.ReadFile(filepath.Join(src, "pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `encoding="UTF-8"`) {
		t.Fatal("the pom.xml declares no encoding")
	}
	want := marked(mustExtract(t, src))
	for _, name := range []string{"utf-16le", "utf-16be"} {
		dir := t.TempDir()
		declared := strings.Replace(string(b), `encoding="UTF-8"`, `encoding="UTF-16"`, 1)
		if err := os.WriteFile(filepath.Join(dir, "pom.xml"), textEncodings[name]([]byte(declared)), 0o644); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, marked(mustExtract(t, dir))); diff != "" {
			t.Errorf("%s (-utf-8 +utf-16):\n%s", name, diff)
		}
	}
}
