package sbom_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestExclude: patterns against paths relative to the root, "**" across
// directories, a directory pattern skipping all below it.
func TestExclude(t *testing.T) {
	all := mustExtract(t, lockfiles)
	filesOf := func(res *sbom.Result) []string {
		var out []string
		for _, f := range res.Files {
			out = append(out, f.Path)
		}
		return set(out)
	}
	tests := []struct {
		name    string
		exclude []string
		keep    func(path string) bool // which of all's files remain
	}{
		{"double_star_dir", []string{"**/bip39-lib/**"}, func(p string) bool { return !strings.Contains(p, "/bip39-lib/") }},
		{"dir_prefix", []string{"npm-*"}, func(p string) bool { return !strings.HasPrefix(p, "npm-") }},
		{"file_glob", []string{"**/*.lock"}, func(p string) bool { return !strings.HasSuffix(p, ".lock") }},
		{"exact_file", []string{"cargo-ripgrep/Cargo.lock"}, func(p string) bool { return p != "cargo-ripgrep/Cargo.lock" }},
		{"several", []string{"yarn-*/**", "./pnpm-v9-vuejs-core/"}, func(p string) bool {
			return !strings.HasPrefix(p, "yarn-") && !strings.HasPrefix(p, "pnpm-")
		}},
		{"no_match", []string{"**/nothing-here/**"}, func(string) bool { return true }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := sbom.Extract(context.Background(), lockfiles, sbom.Options{Exclude: tc.exclude})
			if err != nil {
				t.Fatal(err)
			}
			want := slices.DeleteFunc(filesOf(all), func(p string) bool { return !tc.keep(p) })
			if diff := cmp.Diff(want, filesOf(res)); diff != "" {
				t.Errorf("Extract(Exclude %q) files mismatch (-want +got):\n%s", tc.exclude, diff)
			}
		})
	}
	if _, err := sbom.Extract(context.Background(), lockfiles, sbom.Options{Exclude: []string{"[bad"}}); !errors.Is(err, sbom.ErrBadPattern) {
		t.Errorf("Extract with an invalid pattern: %v, want ErrBadPattern", err)
	}
}

// TestExcludeTestdata: this repository scanned whole reports every test
// fixture; with **/testdata/** only its own go.mod is left.
func TestExcludeTestdata(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Skip("not in the repository")
	}
	all := mustExtract(t, root)
	res, err := sbom.Extract(context.Background(), root, sbom.Options{Exclude: []string{"**/testdata/**"}})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range res.Files {
		files = append(files, f.Path)
		if strings.Contains(f.Path, "testdata/") {
			t.Errorf("read %s", f.Path)
		}
	}
	if !slices.Contains(files, "go.mod") {
		t.Errorf("files %v lack the repository's go.mod", files)
	}
	want := goModRead(t, root)
	if diff := cmp.Diff(want, nameVersions(res.Components)); diff != "" {
		t.Errorf("components of the repository without its test data mismatch (-go.mod +got):\n%s", diff)
	}
	t.Logf("whole repository: %d components from %d files; without testdata: %d from %d",
		len(all.Components), len(all.Files), len(res.Components), len(res.Files))
	if main := res.MainProject(); main == nil || main.Name != "github.com/sentinel-sca/sentinel" {
		t.Errorf("MainProject = %+v, want the repository's module", main)
	}
}

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		want    []string
		wantErr bool
	}{
		{"excludes", "exclude:\n  - \"**/testdata/**\"\n  - docs/*.json\n", []string{"**/testdata/**", "docs/*.json"}, false},
		{"empty_file", "", nil, false},
		{"comment_only", "# nothing yet\n", nil, false},
		{"unknown_key", "exclude: []\nexlude: [x]\n", nil, true},
		{"bad_pattern", "exclude: [\"[oops\"]\n", nil, true},
		{"not_a_list", "exclude: \"**/testdata/**\"\n", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := sbom.ParseConfig([]byte(tc.doc))
			if (err != nil) != tc.wantErr {
				t.Fatalf("ParseConfig(%q) error = %v, want error %v", tc.doc, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, c.Exclude); diff != "" {
				t.Errorf("ParseConfig(%q) Exclude mismatch (-want +got):\n%s", tc.doc, diff)
			}
		})
	}
}

func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	if _, found, err := sbom.ReadConfig(dir); found || err != nil {
		t.Errorf("ReadConfig(no file) = found %v, %v", found, err)
	}
	mustWrite(t, filepath.Join(dir, sbom.ConfigFileName), []byte("exclude:\n  - \"**/testdata/**\"\n"))
	c, found, err := sbom.ReadConfig(dir)
	if !found || err != nil || !slices.Equal(c.Exclude, []string{"**/testdata/**"}) {
		t.Errorf("ReadConfig = %+v, %v, %v", c, found, err)
	}
}
