package sbom

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzBunLockb: no input makes the bun.lockb reader, or its graph reader,
// panic or hang.
func FuzzBunLockb(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/bun-lockb/*/bun.lockb")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add([]byte(bunLockbHeader))
	f.Fuzz(func(t *testing.T, b []byte) {
		lf, err := decodeBunLockb(b)
		if err != nil {
			return
		}
		for _, p := range lf.packages {
			p.component()
			p.vcs()
		}
		_ = bunLockbGraph(b, newLockIndex(nil, nil))
	})
}
