package sbom

import (
	"strings"
	"testing"
)

// TestCatalogVersion: the version a catalog entry selects, as Gradle does.
func TestCatalogVersion(t *testing.T) {
	versions := map[string]any{"plain": "1.2.3", "rich": map[string]any{"strictly": "3.0"}, "range": "[1.0,2.0)"}
	for _, c := range []struct {
		raw  any
		want string
	}{
		{"1.0.0", "1.0.0"},
		{"1.+", ""},
		{"latest.release", ""},
		{"[1.0,2.0)", ""},
		{map[string]any{"ref": "plain"}, "1.2.3"},
		{map[string]any{"ref": "rich"}, "3.0"},
		{map[string]any{"ref": "range"}, ""},
		{map[string]any{"ref": "missing"}, ""},
		{map[string]any{"strictly": "[1.2.0, 1.3.1[", "prefer": "1.3.0"}, "1.3.0"},
		{map[string]any{"require": "2.0"}, "2.0"},
		{map[string]any{"strictly": "]1.0, 2.0["}, ""},
		{nil, ""},
		{int64(3), ""},
	} {
		if got := catalogVersion(c.raw, versions); got != c.want {
			t.Errorf("catalogVersion(%v) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// FuzzGradleCatalog: any bytes either fail as TOML or give libraries with
// a group and an artifact and a version that is no range.
func FuzzGradleCatalog(f *testing.F) {
	f.Add([]byte("[versions]\na = \"1.0\"\nb = { strictly = \"2.0\" }\n[libraries]\nx = { module = \"g:a\", version.ref = \"a\" }\ny = \"g:b:1.+\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		libs, _, err := readGradleCatalog(b)
		if err != nil {
			return
		}
		for _, l := range libs {
			if l.group == "" || l.artifact == "" || strings.ContainsAny(l.version, "[]()+,") {
				t.Fatalf("library %+v", l)
			}
		}
	})
}
