package sbom_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRequirementsDirectory: the requirements files of a requirements/
// directory (base.txt, production.txt) are read as they are when their
// names say "requirements", and a text file there that is not one (notes
// in prose) gives nothing.
func TestRequirementsDirectory(t *testing.T) {
	src := filepath.Join("testdata", "requirements-dir")
	got := marked(mustExtract(t, src))

	renamed := t.TempDir()
	files, err := filepath.Glob(filepath.Join(src, "requirements", "*.txt"))
	if err != nil || len(files) < 2 {
		t.Fatalf("requirements files: %v %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "NOTES.txt" {
			continue
		}
		// Named as scalibr finds them, the includes renamed with them.
		name := "requirements-" + filepath.Base(f)
		b = []byte(strings.ReplaceAll(string(b), "-r base.txt", "-r requirements-base.txt"))
		if err := os.WriteFile(filepath.Join(renamed, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := marked(mustExtract(t, renamed))
	if len(want) < 10 {
		t.Fatalf("%d components: the test shows little", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-named requirements-*.txt +in requirements/):\n%s", diff)
	}
}
