package sbom

import (
	"io/fs"
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/javalockfile"
	"github.com/google/osv-scalibr/purl"
)

// sbt builds (Scala).
//
// An sbt project has no lockfile: build.sbt, and the Scala sources of its
// project/ directory (project/Dependencies.scala by convention), declare
// each dependency as a module ID, "group" % "artifact" % "version", or
// "group" %% "artifact" % "version" for a Scala library, whose artifact
// Maven Central names with the build's Scala binary version
// (akka-http_2.13). This reader takes the module IDs those files state,
// their versions literal or a val they name (object Version { val akka =
// "2.6.19" }, then Version.akka), with the artifact suffix of the build's
// scalaVersion (sbt's default, 2.12, where none is set), as Maven resolves
// them; a module ID in a test configuration (% Test, a config extending
// it) is development-only. project/*.sbt (sbt's own plugins) builds the
// build, and is not read. Scala.js and Native libraries (%%%) have
// platform artifacts this reader does not name.

var sbtBuild = ownExtractor{name: "scala/sbt", required: isSbtBuild, read: readSbtBuild}

func isSbtBuild(p string) bool { return path.Base(p) == "build.sbt" }

// maxSbtSources bounds the project/*.scala files read for one build.
const maxSbtSources = 32

var (
	// val akka = "2.6.19" (lazy, final, private, override too), the whole
	// right-hand side a string.
	sbtVal = lazyRegexp(`(?m)\bval\s+([A-Za-z_]\w*)\s*(?::\s*String\s*)?=\s*"([^"$\n]*)"\s*;?\s*$`)
	// scalaVersion := "2.13.8", ThisBuild / scalaVersion := ..., or
	// scalaVersion in ThisBuild := ...; the value may be a val.
	sbtScalaVersion = lazyRegexp(`\bscalaVersion\s*(?:in\s+ThisBuild\s*)?:=\s*(?:"([^"\s]+)"|([A-Za-z_][\w.]*))`)
	// "group" % "artifact" % version [% config], %% for a Scala library.
	sbtModule = lazyRegexp(`"([^"\s]+)"\s*(%%%|%%|%)\s*"([^"\s]+)"\s*%\s*(?:"([^"\s]*)"|([A-Za-z_][\w.]*))(?:\s*%\s*(?:"([^"]*)"|([A-Za-z_][\w.]*)))?`)
)

func readSbtBuild(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	sources := [][]byte{stripGradleComments(b)}
	if in.FS != nil {
		project := path.Join(path.Dir(in.Path), "project")
		if entries, err := fs.ReadDir(in.FS, project); err == nil {
			n := 0
			for _, e := range entries {
				if e.IsDir() || path.Ext(e.Name()) != ".scala" || n >= maxSbtSources {
					continue
				}
				if data, ok := readGradleFile(in.FS, path.Join(project, e.Name())); ok {
					n++
					sources = append(sources, stripGradleComments(data))
				}
			}
		}
	}
	vals := map[string]string{}
	scala := ""
	for _, src := range sources {
		for _, m := range sbtVal().FindAllSubmatch(src, -1) {
			if _, ok := vals[string(m[1])]; !ok {
				vals[string(m[1])] = string(m[2])
			}
		}
	}
	for _, src := range sources {
		for _, m := range sbtScalaVersion().FindAllSubmatch(src, -1) {
			if v := sbtValue(string(m[1]), string(m[2]), vals, ""); scala == "" && v != "" {
				scala = v
			}
		}
	}
	if scala == "" {
		scala = "2.12" // sbt 1's default
	}
	binary := scalaBinaryVersion(scala)
	var out []*extractor.Package
	for _, src := range sources {
		for _, m := range sbtModule().FindAllSubmatch(src, -1) {
			group, op, artifact := string(m[1]), string(m[2]), string(m[3])
			if op == "%%%" {
				continue // a Scala.js or Native artifact
			}
			if op == "%%" {
				artifact += "_" + binary
			}
			version := sbtValue(string(m[4]), string(m[5]), vals, scala)
			config := strings.ToLower(string(m[6]) + string(m[7]))
			groups := []string{}
			if strings.Contains(config, "test") {
				groups = []string{"dev"}
			}
			out = append(out, &extractor.Package{Name: group + ":" + artifact, Version: version, PURLType: purl.TypeMaven,
				Metadata: &javalockfile.Metadata{GroupID: group, ArtifactID: artifact, DepGroupVals: groups},
				Location: extractor.LocationFromPath(in.Path)})
		}
	}
	return out, nil
}

// sbtValue is a version written literally, or the val ident names
// (Version.akka: the val akka), or the build's Scala version for
// scalaVersion.value; "" when it is not known.
func sbtValue(literal, ident string, vals map[string]string, scala string) string {
	if ident == "" {
		if strings.ContainsAny(literal, "+[]()$,") || strings.HasPrefix(literal, "latest.") {
			return "" // dynamic, or a range
		}
		return literal
	}
	if ident == "scalaVersion.value" {
		return scala
	}
	if v, ok := vals[ident]; ok {
		return v
	}
	if i := strings.LastIndexByte(ident, '.'); i >= 0 {
		return vals[ident[i+1:]]
	}
	return ""
}

// scalaBinaryVersion is the suffix Scala libraries are published with:
// 2.13 for 2.13.8, 3 for 3.3.1.
func scalaBinaryVersion(v string) string {
	parts := strings.Split(v, ".")
	if parts[0] != "2" || len(parts) < 2 {
		return parts[0]
	}
	return parts[0] + "." + parts[1]
}
