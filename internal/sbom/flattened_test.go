package sbom_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestFlattenedLayouts reads projects whose files were moved out of their
// directories, renamed for where they came from (a module's
// gradle.lockfile as bip39-lib.gradle.lockfile, a parent POM as
// parent-pom.xml), or moved where their references do not reach (a
// parent POM that is not at the child's relativePath): each gives the
// components, versions and development marks of its real layout.
func TestFlattenedLayouts(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  string            // under testdata/lockfiles, in its real layout
		flat map[string]string // file in the real layout -> its flat name
	}{
		{"gradle module lockfile", "gradle-kotlin-bip39", map[string]string{"bip39-lib/gradle.lockfile": "bip39-lib.gradle.lockfile"}},
		// zeppelin-server's parent is at ./parent: here it is beside it,
		// or in a sibling directory.
		{"maven parent beside its child", "maven-zeppelin-server-scalibr", map[string]string{"parent/pom.xml": "parent-pom.xml"}},
		{"maven parent in a sibling directory", "maven-zeppelin-server-scalibr", map[string]string{"pom.xml": "zeppelin-server/pom.xml", "parent/pom.xml": "parent/pom.xml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			real := filepath.Join("testdata", "lockfiles", tc.dir)
			flat := t.TempDir()
			err := filepath.WalkDir(real, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(real, p)
				name, ok := tc.flat[filepath.ToSlash(rel)]
				if !ok {
					name = filepath.Base(rel)
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				if err := os.MkdirAll(filepath.Dir(filepath.Join(flat, name)), 0o755); err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(flat, name), b, 0o644)
			})
			if err != nil {
				t.Fatal(err)
			}
			want, got := marked(mustExtract(t, real)), marked(mustExtract(t, flat))
			if len(want) == 0 {
				t.Fatal("the real layout gives no components")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("flat layout (-real +flat):\n%s", diff)
			}
		})
	}
}

// marked lists each component's purl, with " (dev)" when only
// development needs it, sorted.
func marked(res *sbom.Result) []string {
	var out []string
	for _, c := range res.Components {
		s := c.Purl
		if c.Development {
			s += " (dev)"
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TestMavenLocalRepository: a pom.xml alone, its parent in the Maven local
// repository where a build fetched it, gives what the parent beside it
// gives.
func TestMavenLocalRepository(t *testing.T) {
	real := filepath.Join("testdata", "lockfiles", "maven-zeppelin-server-scalibr")
	dir, repo := t.TempDir(), t.TempDir()
	child, err := os.ReadFile(filepath.Join(real, "pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	parent, err := os.ReadFile(filepath.Join(real, "parent", "pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pom.xml"), child, 0o644); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(repo, "org", "apache", "zeppelin", "zeppelin", "0.11.1")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "zeppelin-0.11.1.pom"), parent, 0o644); err != nil {
		t.Fatal(err)
	}
	want := marked(mustExtract(t, real))
	alone := marked(mustExtract(t, dir))
	if slices.Equal(alone, want) {
		t.Fatal("the parent changes nothing: the test shows nothing")
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{MavenRepository: repo})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, marked(res)); diff != "" {
		t.Errorf("with the repository (-parent beside +repository):\n%s", diff)
	}
}
