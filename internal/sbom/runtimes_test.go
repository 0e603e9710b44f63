package sbom_test

import (
	"path/filepath"
	"testing"
)

// TestRuntimeVersions: the runtimes real projects pin (.nvmrc,
// .python-version, .ruby-version, asdf's .tool-versions) and the other
// version files, against golden lists checked by reading each file:
// components endoflife.date names (pkg:generic/node, pkg:generic/python,
// Go's pkg:golang/stdlib), aliases and other implementations left out.
func TestRuntimeVersions(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "runtimes"), 1)
}
