package sbom_test

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
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

// TestDevRequirements: a requirements file named for development
// (requirements-dev.txt, requirements/local.txt) lists development-only
// packages, except what it includes from a runtime one.
func TestDevRequirements(t *testing.T) {
	for name, dev := range map[string]bool{
		"requirements-dev.txt": true, "dev-requirements.txt": true, "requirements_test.txt": true,
		"test-requirements.txt": true, "requirements.dev.txt": true, "requirements-docs.txt": true,
		"requirements/dev.txt": true, "requirements/tests-min.txt": true, "requirements/local.txt": true,
		"requirements.txt": false, "requirements-prod.txt": false, "requirements/base.txt": false,
		"requirements/production.txt": false, "app/requirements.txt": false, "requirements-latest.txt": false,
	} {
		if got := sbom.DevRequirements(name); got != dev {
			t.Errorf("DevRequirements(%q) = %v, want %v", name, got, dev)
		}
	}
	got := map[string]bool{}
	for _, c := range mustExtract(t, filepath.Join("testdata", "requirements-dir")).Components {
		got[c.Name] = c.Development
	}
	for name, dev := range map[string]bool{"django-debug-toolbar": true, "pytest-django": true, "django": false, "gunicorn": false, "psycopg2-binary": false} {
		if g, ok := got[name]; !ok || g != dev {
			t.Errorf("%s: development %v (found %v), want %v", name, g, ok, dev)
		}
	}
}

// TestRequirementVersionTail: what a requirement line carries past its
// version is no part of it: a comment written without the space before it
// (pip refuses such a line, but the intent is plain), a direct reference;
// a version no PEP 440 version looks like, quoted or templated, is none.
func TestRequirementVersionTail(t *testing.T) {
	dir := t.TempDir()
	lines := "click==8.0.0\nFlask==2.0.0 #comment\nJinja2==3.0.0#comment\n" +
		"sampleproject==3.7.1 @ git+https://github.com/pypa/sampleproject@v3.7.1\n" +
		"foo=='invalid-version'\n"
	mustWrite(t, filepath.Join(dir, "requirements.txt"), []byte(lines))
	got := map[string]string{}
	for _, c := range mustExtract(t, dir).Components {
		got[c.Name] = c.Version
	}
	want := map[string]string{"click": "8.0.0", "Flask": "2.0.0", "Jinja2": "3.0.0", "sampleproject": "3.7.1", "foo": ""}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
