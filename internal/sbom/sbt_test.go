package sbom_test

import (
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
	checkGoldenDirs(t, filepath.Join("testdata", "sbt"), 1)
}
