package sbom_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestContainerImages: the base images of real Dockerfiles (Dependabot's
// test cases and its own builds) and the images of real Compose files,
// against golden lists checked by reading each file.
func TestContainerImages(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "images"), 1)
}

// TestImageFileForms: a Compose image with a variable's default is that
// image; one without a default is left out; a document named after a
// Dockerfile is not read as one.
func TestImageFileForms(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "docker-compose.yml"), []byte("services:\n  db:\n    image: postgres:${PG_VERSION:-11}\n  app:\n    image: ghcr.io/acme/app:${TAG}\n"))
	mustWrite(t, filepath.Join(dir, "Dockerfile.md"), []byte("Write `FROM ubuntu:18.04` in your Dockerfile.\nFROM ubuntu:18.04\n"))
	want := []string{"pkg:docker/library/postgres@11"}
	if got := marked(mustExtract(t, dir)); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
