package sbom_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/sbom"
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

// TestLargeYAMLNotAManifest: a YAML file larger than any manifest (an API
// description) is not read as one, and is no error either, whatever the
// file size limit.
func TestLargeYAMLNotAManifest(t *testing.T) {
	dir := t.TempDir()
	big := []byte("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - image: nginx:1.2.3\n#" + strings.Repeat("x", 2<<20) + "\n")
	mustWrite(t, filepath.Join(dir, "openapi.yaml"), big)
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{MaxFileSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 0 || len(res.Errors) != 0 {
		t.Errorf("a 2 MiB YAML file: %d components, errors %v; want none", len(res.Components), res.Errors)
	}
}
