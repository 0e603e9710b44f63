package sbom

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/osv-scalibr/extractor/filesystem"
)

// FuzzSbtBuild: any build.sbt and project source reads without a panic,
// and every module it gives has a group and an artifact.
func FuzzSbtBuild(f *testing.F) {
	f.Add([]byte(`scalaVersion := "2.13.8"`+"\n"+`libraryDependencies += "g" %% "a" % Version.x % Test`), []byte(`object Version { val x = "1.0" }`))
	f.Add([]byte(`ThisBuild / scalaVersion := scala3`), []byte(`val scala3 = "3.1.0"`+"\n"+`"g" % "a" % scalaVersion.value`))
	f.Fuzz(func(t *testing.T, build, project []byte) {
		m := fstest.MapFS{"build.sbt": &fstest.MapFile{Data: build}, "project/Deps.scala": &fstest.MapFile{Data: project}}
		pkgs, err := readSbtBuild(&filesystem.ScanInput{FS: m, Path: "build.sbt"}, build)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			if g, a, ok := strings.Cut(p.Name, ":"); !ok || g == "" || a == "" {
				t.Fatalf("module %q", p.Name)
			}
		}
	})
}
