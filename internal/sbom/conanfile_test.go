package sbom_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConanfiles: the references of a conanfile.txt's [requires] and a
// conanfile.py's requires (attribute and self.requires), each at its exact
// version, a range without one, tool and test requirements for development
// only, comments left out; nothing where conan.lock is beside, which is
// read instead. Each expected list in testdata/conanfile/want was checked
// by reading its file (SENTINEL_UPDATE_GOLDEN=1 rewrites them).
func TestConanfiles(t *testing.T) {
	root := filepath.Join("testdata", "conanfile")
	for _, name := range []string{"openimageio", "recipe"} {
		t.Run(name, func(t *testing.T) {
			got := marked(mustExtract(t, filepath.Join(root, name)))
			golden := filepath.Join(root, "want", name+".txt")
			if os.Getenv("SENTINEL_UPDATE_GOLDEN") != "" {
				mustWrite(t, golden, []byte(strings.Join(got, "\n")+"\n"))
			}
			want := slices.DeleteFunc(strings.Split(string(mustRead(t, golden)), "\n"), func(s string) bool { return s == "" })
			if len(want) < 5 {
				t.Fatalf("%d components expected: the test shows little", len(want))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("beside conan.lock", func(t *testing.T) {
		dir := t.TempDir()
		mustWrite(t, filepath.Join(dir, "conanfile.txt"), mustRead(t, filepath.Join(root, "openimageio", "conanfile.txt")))
		mustWrite(t, filepath.Join(dir, "conan.lock"), mustRead(t, filepath.Join("testdata", "more-lockfiles", "conan-v2", "conan.lock")))
		lockOnly := marked(mustExtract(t, filepath.Join("testdata", "more-lockfiles", "conan-v2")))
		if diff := cmp.Diff(lockOnly, marked(mustExtract(t, dir))); diff != "" {
			t.Errorf("(-the lockfile alone +with the conanfile):\n%s", diff)
		}
	})
}
