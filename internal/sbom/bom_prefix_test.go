package sbom_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestByteOrderMark: every real lockfile and manifest of the test data,
// saved with a UTF-8 byte order mark (as Windows editors and Visual Studio
// save files), gives what it gives without one.
func TestByteOrderMark(t *testing.T) {
	root := filepath.Join("testdata", "lockfiles")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			t.Parallel()
			src := filepath.Join(root, d.Name())
			marked0 := t.TempDir()
			err := filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
				if err != nil || e.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(src, p)
				to := filepath.Join(marked0, rel)
				if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
					return err
				}
				return os.WriteFile(to, append([]byte("\ufeff"), b...), 0o644)
			})
			if err != nil {
				t.Fatal(err)
			}
			want := marked(mustExtract(t, src))
			if len(want) == 0 {
				t.Fatal("no components without the mark either: the test shows nothing")
			}
			if diff := cmp.Diff(want, marked(mustExtract(t, marked0))); diff != "" {
				t.Errorf("with a byte order mark (-without +with):\n%s", diff)
			}
		})
	}
}
