package sbom_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSbtBuilds: the module IDs an sbt build declares in build.sbt and
// project/*.scala, their versions literal or a val they name, a Scala
// library's artifact suffixed with the build's Scala binary version,
// test configurations for development only; not sbt's own plugins
// (project/plugins.sbt), comments, Scala.js artifacts or a range. The
// akka-http-animal-service build is a real project's; each expected list in
// testdata/sbt/want was checked by reading the build (SENTINEL_UPDATE_GOLDEN=1
// rewrites them).
func TestSbtBuilds(t *testing.T) {
	root := filepath.Join("testdata", "sbt")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "want" {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			checkGolden(t, filepath.Join(root, d.Name()), filepath.Join(root, "want", d.Name()+".txt"), 1)
		})
	}
}
