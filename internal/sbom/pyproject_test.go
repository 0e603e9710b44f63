package sbom_test

import (
	"path/filepath"
	"testing"
)

// TestPyprojectFiles: pyproject.toml files of Dependabot's tests (PEP 621,
// PEP 735 groups, Poetry), read where no lockfile is beside them, against
// golden lists checked by reading each file.
func TestPyprojectFiles(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "pyproject"), 1)
}
