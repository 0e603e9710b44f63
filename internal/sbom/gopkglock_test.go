package sbom_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestGopkgLock: a real project's Gopkg.lock (dep), against a golden list
// checked by reading the file: tagged projects at their version, branch
// projects without one and with their revision, forks with theirs.
func TestGopkgLock(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "gopkglock"), 30)
}

// TestGopkgLockBesideGoMod: a project that moved to modules keeps its old
// Gopkg.lock at times; its go.mod is what it builds with.
func TestGopkgLockBesideGoMod(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "Gopkg.lock"), mustRead(t, filepath.Join("testdata", "gopkglock", "0x-mesh", "Gopkg.lock")))
	mustWrite(t, filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.21\n\nrequire github.com/sirupsen/logrus v1.9.3\n"))
	got := marked(mustExtract(t, dir))
	want := []string{"pkg:golang/github.com/sirupsen/logrus@1.9.3", "pkg:golang/stdlib"} // a go line is a minimum, not the toolchain
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
