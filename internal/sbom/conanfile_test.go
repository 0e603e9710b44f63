package sbom_test

import (
	"path/filepath"
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
			checkGolden(t, filepath.Join(root, name), filepath.Join(root, "want", name+".txt"), 5)
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
