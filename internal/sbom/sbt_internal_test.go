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

// FuzzConanfile: any conanfile.txt or conanfile.py reads without a panic,
// and every package it gives has a name.
func FuzzConanfile(f *testing.F) {
	f.Add([]byte("[requires]\nzlib/1.2.11@conan/stable#rev\nfmt/[>=8 <9]\n[tool_requires]\ncmake/3.22\n"), false)
	f.Add([]byte("requires = (\"a/1.0\",\n  \"b/2.0\")\n    def requirements(self):\n        self.requires(\"c/3\")  # note\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, py bool) {
		name := "conanfile.txt"
		if py {
			name = "conanfile.py"
		}
		pkgs, err := readConanfile(&filesystem.ScanInput{Path: name}, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			if p.Name == "" {
				t.Fatalf("a package without a name from %q", data)
			}
		}
	})
}
