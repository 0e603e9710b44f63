package sbom_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestGradleCatalogBesideLockfiles: a project with Gradle lockfiles is read
// from them; its version catalog adds nothing (the lockfiles hold the
// versions Gradle resolved).
func TestGradleCatalogBesideLockfiles(t *testing.T) {
	dir := t.TempDir()
	for src, dst := range map[string]string{
		"testdata/lockfiles/gradle-kotlin-bip39/gradle.lockfile":          "gradle.lockfile",
		"testdata/lock-variants/gradle-catalog/gradle/libs.versions.toml": "gradle/libs.versions.toml",
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) == 0 {
		t.Fatal("no components from the lockfile")
	}
	for _, c := range res.Components {
		for _, l := range c.Locations {
			if l != "gradle.lockfile" {
				t.Errorf("%s from %s; only the lockfile is read", c.Purl, l)
			}
		}
	}
}
