package sbom_test

import (
	"path/filepath"
	"testing"
)

// TestContainerImages: the base images of real Dockerfiles (Dependabot's
// test cases and its own builds) and the images of real Compose files,
// against golden lists checked by reading each file.
func TestContainerImages(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "images"), 1)
}
