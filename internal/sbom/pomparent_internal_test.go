package sbom

import (
	"bytes"
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/osv-scalibr/extractor/filesystem"
)

func pomFile(group, artifact, version, packaging, parent string) *fstest.MapFile {
	p := ""
	if parent != "" {
		p = "<parent><groupId>g</groupId><artifactId>" + parent + "</artifactId><version>1</version></parent>"
	}
	return &fstest.MapFile{Data: []byte(`<project>` + p + `<groupId>` + group + `</groupId><artifactId>` + artifact +
		`</artifactId><version>` + version + `</version><packaging>` + packaging + `</packaging></project>`)}
}

// TestLocateParents: parents are found by their coordinates nearby, in
// place of another project at the relative path; a cycle of parents and
// a file of the right coordinates that is not a "pom" project end the
// chain.
func TestLocateParents(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fsys  fstest.MapFS
		repo  fstest.MapFS // a Maven local repository
		child string
		want  []string
	}{{
		name: "an aggregator at ../pom.xml, the parent in a sibling directory, its own parent beside it",
		fsys: fstest.MapFS{
			"pom.xml":              pomFile("g", "aggregator", "1", "pom", ""),
			"app/pom.xml":          pomFile("g", "app", "1", "jar", "base"),
			"base/pom.xml":         pomFile("g", "base", "1", "pom", "root"),
			"base/root-pom.xml":    pomFile("g", "root", "1", "pom", ""),
			"node_modules/pom.xml": pomFile("g", "base", "1", "pom", ""),
		},
		child: "app/pom.xml",
		want:  []string{"base/pom.xml", "base/root-pom.xml"},
	}, {
		name: "from the local repository, and the rest of the chain from there too",
		fsys: fstest.MapFS{
			"pom.xml":       pomFile("g", "app", "1", "jar", "base"),
			"root-pom.xml":  pomFile("g", "root", "1", "pom", ""),
			"other/pom.xml": pomFile("g", "other", "1", "pom", ""),
		},
		repo: fstest.MapFS{
			"g/base/1/base-1.pom": pomFile("g", "base", "1", "pom", "root"),
			"g/root/1/root-1.pom": pomFile("g", "root", "1", "pom", ""),
		},
		child: "pom.xml",
		want:  []string{repoMark + "g/base/1/base-1.pom", repoMark + "g/root/1/root-1.pom"},
	}, {
		name: "a cycle",
		fsys: fstest.MapFS{
			"pom.xml":   pomFile("g", "app", "1", "jar", "a"),
			"a-pom.xml": pomFile("g", "a", "1", "pom", "b"),
			"b-pom.xml": pomFile("g", "b", "1", "pom", "a"),
		},
		child: "pom.xml",
		want:  []string{"a-pom.xml", "b-pom.xml"},
	}, {
		name: "not a pom project",
		fsys: fstest.MapFS{
			"pom.xml":     pomFile("g", "app", "1", "jar", "lib"),
			"lib-pom.xml": pomFile("g", "lib", "1", "jar", ""),
		},
		child: "pom.xml",
		want:  nil,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			cache := newPOMCache()
			if tc.repo != nil {
				cache.repo = tc.repo
			}
			got := locateParents(tc.fsys, tc.child, tc.fsys[tc.child].Data, cache)
			if !slices.Equal(got, tc.want) {
				t.Errorf("locateParents = %v, want %v", got, tc.want)
			}
		})
	}
}

// FuzzLocateParents: whatever the child POM says of its parent, the
// chain ends, and each path shown is a POM file of the tree.
func FuzzLocateParents(f *testing.F) {
	f.Add(pomFile("g", "app", "1", "jar", "base").Data)
	f.Add([]byte(`<project><parent><groupId>g</groupId><artifactId>a</artifactId><version>1</version><relativePath>../../../x</relativePath></parent><artifactId>app</artifactId></project>`))
	f.Add([]byte(`<project><parent><groupId>g</groupId><artifactId>root</artifactId><version>1</version><relativePath>/abs/pom.xml</relativePath></parent><artifactId>app</artifactId></project>`))
	fsys := fstest.MapFS{
		"pom.xml":           pomFile("g", "aggregator", "1", "pom", ""),
		"base/pom.xml":      pomFile("g", "base", "1", "pom", "root"),
		"base/root-pom.xml": pomFile("g", "root", "1", "pom", "a"),
		"a-pom.xml":         pomFile("g", "a", "1", "pom", "root"),
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := fstest.MapFS{"app/pom.xml": &fstest.MapFile{Data: data}}
		maps.Copy(m, fsys)
		chain := locateParents(m, "app/pom.xml", data, newPOMCache())
		if len(chain) > maxParents {
			t.Fatalf("%d parents", len(chain))
		}
		for _, f := range chain {
			if _, ok := fsys[f]; !ok {
				t.Fatalf("parent %s is not a POM of the tree", f)
			}
		}
	})
}

// FuzzImportBOMs: whatever a pom.xml imports (BOMs that import each
// other, that are not there, that are its own parent), the extraction
// ends, and each version it gives a dependency is written in one of the
// files (unless the pom.xml composes versions of its own properties).
func FuzzImportBOMs(f *testing.F) {
	imp := func(a string) string {
		return `<dependency><groupId>g</groupId><artifactId>` + a + `</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>`
	}
	f.Add([]byte(`<project><groupId>g</groupId><artifactId>app</artifactId><version>1</version><dependencyManagement><dependencies>` +
		imp("a") + `</dependencies></dependencyManagement><dependencies><dependency><groupId>g</groupId><artifactId>x</artifactId></dependency></dependencies></project>`))
	f.Add([]byte(`<project><parent><groupId>g</groupId><artifactId>a</artifactId><version>1</version></parent><artifactId>app</artifactId>` +
		`<dependencies><dependency><groupId>g</groupId><artifactId>y</artifactId></dependency></dependencies></project>`))
	bom := func(name, imports, managed string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`<project><groupId>g</groupId><artifactId>` + name + `</artifactId><version>1</version><packaging>pom</packaging>` +
			`<properties><v>${v}</v></properties><dependencyManagement><dependencies>` + imp(imports) +
			`<dependency><groupId>g</groupId><artifactId>` + managed + `</artifactId><version>3.` + name + `</version></dependency></dependencies></dependencyManagement></project>`)}
	}
	fsys := fstest.MapFS{
		"a/pom.xml": bom("a", "b", "x"),
		"b/pom.xml": bom("b", "a", "y"),
		"pom.xml":   bom("app", "app", "z"),
	}
	ex, err := newPOMXML(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := fstest.MapFS{"app/pom.xml": &fstest.MapFile{Data: data}}
		maps.Copy(m, fsys)
		inv, err := ex.Extract(context.Background(), &filesystem.ScanInput{FS: m, Path: "app/pom.xml", Reader: bytes.NewReader(data)})
		if err != nil || bytes.Contains(data, []byte("${")) {
			return
		}
		for _, p := range inv.Packages {
			if p.Version == "" || bytes.Contains(data, []byte(p.Version)) {
				continue
			}
			if !slices.ContainsFunc(slices.Collect(maps.Values(fsys)), func(f *fstest.MapFile) bool { return bytes.Contains(f.Data, []byte(p.Version)) }) {
				t.Fatalf("%s@%s: a version in no file", p.Name, p.Version)
			}
		}
	})
}

// FuzzGradleBuild: any script reads without a panic, and no version it
// gives still names a property.
func FuzzGradleBuild(f *testing.F) {
	f.Add([]byte("ext.v = '1.0'\ndependencies {\n implementation \"g:a:$v\"\n constraints { api 'g:b:2' }\n}\n"))
	f.Add([]byte("dependencies { testImplementation(group = \"g\", name = \"a\", version = \"${x.y}\") }"))
	fsys := fstest.MapFS{"gradle.properties": &fstest.MapFile{Data: []byte("x.y=3\nv: 4")}}
	f.Fuzz(func(t *testing.T, data []byte) {
		m := fstest.MapFS{"app/build.gradle": &fstest.MapFile{Data: data}}
		maps.Copy(m, fsys)
		pkgs, err := newGradleScripts().read(&filesystem.ScanInput{FS: m, Path: "app/build.gradle"}, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			if strings.Contains(p.Version, "$") || p.Name == ":" {
				t.Fatalf("%q@%q", p.Name, p.Version)
			}
		}
	})
}
