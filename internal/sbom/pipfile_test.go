package sbom_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestPipfiles: Pipfiles of Dependabot's tests and Pipenv's own, read
// where no Pipfile.lock is beside them, against golden lists checked by
// reading each file.
func TestPipfiles(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "pipfile"), 1)
}

// TestPipfileCategoriesAndPins: a Pipenv category other than [packages]
// is development-only, and a Pipfile with pins beside it (Pipfile.lock, a
// requirements.txt) is left to them.
func TestPipfileCategoriesAndPins(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "Pipfile"), []byte(`[packages]
django = "~=4.2.1"
sphinx = "==7.2.6"

[docs]
sphinx = "==7.2.6"
furo = "==2024.1.29"

[scripts]
docs = "sphinx-build docs out"
`))
	want := []string{"pkg:pypi/django@4.2.1", "pkg:pypi/furo@2024.1.29 (dev)", "pkg:pypi/sphinx@7.2.6"}
	if got := marked(mustExtract(t, dir)); !slices.Equal(got, want) {
		t.Errorf("Pipfile alone: %v, want %v", got, want)
	}
	mustWrite(t, filepath.Join(dir, "requirements.txt"), []byte("django==4.2.11\n"))
	want = []string{"pkg:pypi/django@4.2.11"}
	if got := marked(mustExtract(t, dir)); !slices.Equal(got, want) {
		t.Errorf("with requirements.txt beside: %v, want %v", got, want)
	}
}
