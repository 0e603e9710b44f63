package sbom_test

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	sentinel "github.com/sentinel-sca/sentinel"
)

// testPOM is what the tests read of a POM with encoding/xml, no code of
// the package.
type testPOM struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Version    string `xml:"version"`
	Parent     struct {
		GroupID      string `xml:"groupId"`
		Version      string `xml:"version"`
		RelativePath string `xml:"relativePath"`
	} `xml:"parent"`
	Properties   testPOMProperties `xml:"properties"`
	Dependencies []testPOMDep      `xml:"dependencies>dependency"`
	Management   []testPOMDep      `xml:"dependencyManagement>dependencies>dependency"`
	Profiles     []struct {
		ActiveByDefault bool              `xml:"activation>activeByDefault"`
		Properties      testPOMProperties `xml:"properties"`
		Dependencies    []testPOMDep      `xml:"dependencies>dependency"`
	} `xml:"profiles>profile"`
}

type testPOMProperties struct {
	Any []struct {
		XMLName xml.Name
		Value   string `xml:",chardata"`
	} `xml:",any"`
}

// add adds the properties to props.
func (tp testPOMProperties) add(props map[string]string) {
	for _, p := range tp.Any {
		props[p.XMLName.Local] = strings.TrimSpace(p.Value)
	}
}

type testPOMDep struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Version    string `xml:"version"`
	Classifier string `xml:"classifier"`
	Type       string `xml:"type"`
	Scope      string `xml:"scope"`
}

func readTestPOM(tb testing.TB, p string) (testPOM, map[string]string) {
	tb.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	var m testPOM
	if err := xml.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	props := map[string]string{}
	m.Properties.add(props)
	return m, props
}

var testProp = regexp.MustCompile(`\$\{([^}]+)\}`)

// expandTest replaces the ${name} of s that props defines, twice over.
func expandTest(s string, props map[string]string) string {
	for range 2 {
		s = testProp.ReplaceAllStringFunc(s, func(m string) string {
			if v, ok := props[m[2:len(m)-1]]; ok {
				return v
			}
			return m
		})
	}
	return s
}

// componentsAt are the components the scan read from the file at p.
func componentsAt(res []sentinel.Component, p string) []sentinel.Component {
	var out []sentinel.Component
	for _, c := range res {
		if slices.Contains(c.Locations, p) {
			out = append(out, c)
		}
	}
	return out
}

// TestPOMBOMAtRevision: apache/dubbo's parent imports its own BOM, which
// is in the tree at version ${revision} (its own property): a module's
// dependencies without a version take the version the BOM manages them
// at, unless the parent manages them itself. Expected versions are read
// from the two files.
func TestPOMBOMAtRevision(t *testing.T) {
	dir := filepath.Join("testdata", "maven-real", "dubbo")
	res := mustExtract(t, dir)
	mod, _ := readTestPOM(t, filepath.Join(dir, "dubbo-common", "pom.xml"))
	parent, parentProps := readTestPOM(t, filepath.Join(dir, "pom.xml"))
	bom, bomProps := readTestPOM(t, filepath.Join(dir, "dubbo-dependencies-bom", "pom.xml"))
	managed := map[string]string{}
	for _, d := range bom.Management {
		managed[d.GroupID+":"+d.ArtifactID] = expandTest(d.Version, bomProps)
	}
	for _, d := range parent.Management { // the importing POM's own win
		if d.Scope != "import" {
			managed[d.GroupID+":"+d.ArtifactID] = expandTest(d.Version, parentProps)
		}
	}
	got := map[string]string{}
	for _, c := range componentsAt(res.Components, "dubbo-common/pom.xml") {
		got[c.Name] = c.Version
	}
	checked := 0
	for _, d := range mod.Dependencies {
		name := d.GroupID + ":" + d.ArtifactID
		want, ok := managed[name]
		if d.Version != "" || !ok || strings.Contains(want, "${") {
			continue
		}
		checked++
		if got[name] != want {
			t.Errorf("%s = %q, want %q (managed by the BOM)", name, got[name], want)
		}
	}
	if checked < 10 {
		t.Errorf("only %d dependencies checked", checked)
	}
	if main := res.MainProject(); main == nil || main.Purl != "pkg:maven/org.apache.dubbo/dubbo-parent@"+parentProps["revision"] {
		t.Errorf("MainProject = %+v, want dubbo-parent at %s", main, parentProps["revision"])
	}
}

// TestPOMClassifiers: jenkinsci/git-plugin depends on scm-api and
// workflow-step-api, and on their "tests" classifier for its tests: each
// is a component of its own, the library for production, the test jar for
// development only.
func TestPOMClassifiers(t *testing.T) {
	dir := filepath.Join("testdata", "maven-real", "git-plugin")
	res := mustExtract(t, dir)
	pom, _ := readTestPOM(t, filepath.Join(dir, "pom.xml"))
	kinds := map[string]int{}
	for _, d := range pom.Dependencies {
		kinds[d.GroupID+":"+d.ArtifactID]++
	}
	twice := 0
	for name, n := range kinds {
		if n < 2 {
			continue
		}
		twice++
		var prod, tests bool
		for _, c := range res.Components {
			if c.Name != name {
				continue
			}
			switch {
			case strings.Contains(c.Purl, "classifier=tests"):
				tests = c.Development
			default:
				prod = !c.Development
			}
		}
		if !prod || !tests {
			t.Errorf("%s: production library %v, development test jar %v; want both", name, prod, tests)
		}
	}
	if twice != 2 {
		t.Errorf("%d dependencies declared twice, want scm-api and workflow-step-api", twice)
	}
}

// TestPOMBesideGradle: spring-petclinic builds with Maven and with Gradle;
// the project's direct dependencies are every dependency its pom.xml
// declares, whatever build.gradle beside it says.
func TestPOMBesideGradle(t *testing.T) {
	dir := filepath.Join("testdata", "maven-real", "spring-petclinic")
	res := mustExtract(t, dir)
	pom, _ := readTestPOM(t, filepath.Join(dir, "pom.xml"))
	main := res.MainProject()
	if main == nil || main.Ecosystem != "Maven" {
		t.Fatalf("MainProject = %+v, want the pom.xml's", main)
	}
	var want, got []string
	for _, d := range pom.Dependencies {
		want = append(want, d.GroupID+":"+d.ArtifactID)
	}
	byPurl := map[string]string{}
	for _, c := range res.Components {
		byPurl[c.Purl] = c.Name
	}
	for _, d := range main.DependsOn {
		got = append(got, byPurl[d])
	}
	if !slices.Equal(set(want), set(got)) {
		t.Errorf("direct dependencies %v, want %v", set(got), set(want))
	}
}

// TestPOMUnresolvedVersion: apache/commons-lang's jmh dependencies are at
// ${commons.jmh.version}, which only its parent on Maven Central defines:
// they are components without a version (development-only, test scope),
// not left out; the project inherits its groupId from that parent's
// <parent> element.
func TestPOMUnresolvedVersion(t *testing.T) {
	dir := filepath.Join("testdata", "maven-real", "commons-lang")
	res := mustExtract(t, dir)
	pom, props := readTestPOM(t, filepath.Join(dir, "pom.xml"))
	n := 0
	for _, d := range pom.Dependencies {
		if !strings.Contains(expandTest(d.Version, props), "${") {
			continue
		}
		n++
		name := d.GroupID + ":" + d.ArtifactID
		i := slices.IndexFunc(res.Components, func(c sentinel.Component) bool { return c.Name == name })
		if i < 0 {
			t.Errorf("%s (at %s) left out", name, d.Version)
			continue
		}
		if c := res.Components[i]; c.Version != "" || c.Development != (d.Scope == "test") {
			t.Errorf("%s: version %q development %v, want none and %v", name, c.Version, c.Development, d.Scope == "test")
		}
	}
	if n == 0 {
		t.Fatal("no dependency with an unresolved version")
	}
	if main := res.MainProject(); main == nil || !strings.HasPrefix(main.Purl, "pkg:maven/org.apache.commons/commons-lang3@") {
		t.Errorf("MainProject = %+v, want org.apache.commons:commons-lang3", main)
	}
}

// TestPOMSiblingModule: a module that another module of the build depends
// on is one component, the project its pom.xml names, which the other
// depends on; not also a library of the same coordinates.
func TestPOMSiblingModule(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"pom.xml": `<project><groupId>org.example</groupId><artifactId>parent</artifactId><version>1.0</version><packaging>pom</packaging>
<modules><module>core</module><module>web</module></modules></project>`,
		"core/pom.xml": `<project><parent><groupId>org.example</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
<artifactId>core</artifactId><dependencies><dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>33.0.0-jre</version></dependency></dependencies></project>`,
		"web/pom.xml": `<project><parent><groupId>org.example</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
<artifactId>web</artifactId><dependencies><dependency><groupId>${project.groupId}</groupId><artifactId>core</artifactId><version>${project.version}</version></dependency></dependencies></project>`,
	})
	res := mustExtract(t, root)
	const core = "pkg:maven/org.example/core@1.0"
	for _, c := range res.Components {
		if c.Purl == core {
			t.Errorf("the module core is also a component: %+v", c)
		}
	}
	var web *sentinel.Component
	n := 0
	for i, p := range res.Projects {
		switch p.Purl {
		case core:
			n++
		case "pkg:maven/org.example/web@1.0":
			web = &res.Projects[i]
		}
	}
	if n != 1 || web == nil || !slices.Contains(web.DependsOn, core) {
		t.Errorf("projects %+v: want core once, and web depending on it", res.Projects)
	}
}

// TestPOMFixturesNotModules: the POMs inside a Maven project's src/ folder
// (test fixtures under src/test/resources and src/it, an archetype's
// template) are not modules: the project reads as it does without them.
// A module the root pom.xml places under src/ is still read.
func TestPOMFixturesNotModules(t *testing.T) {
	real := func(p string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "maven-real", p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"pom.xml":                           real("commons-lang/pom.xml"),
		"src/test/resources/plugin/pom.xml": real("git-plugin/pom.xml"),
		"src/it/petclinic/pom.xml":          real("spring-petclinic/pom.xml"),
		"src/main/resources/archetype-resources/pom.xml": `<project><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version>
<dependencies><dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version></dependency></dependencies></project>`,
	})
	bare := mustExtract(t, filepath.Join("testdata", "maven-real", "commons-lang"))
	res := mustExtract(t, root)
	if !slices.Equal(purlSet(bare.Components), purlSet(res.Components)) || !slices.Equal(purlSet(bare.Projects), purlSet(res.Projects)) {
		t.Errorf("with fixtures: %d components, %d projects; without: %d, %d",
			len(res.Components), len(res.Projects), len(bare.Components), len(bare.Projects))
	}

	mod := t.TempDir()
	writeFiles(t, mod, map[string]string{
		"pom.xml": `<project><groupId>org.example</groupId><artifactId>parent</artifactId><version>1.0</version><packaging>pom</packaging>
<modules><module>src/core</module></modules></project>`,
		"src/core/pom.xml": `<project><parent><groupId>org.example</groupId><artifactId>parent</artifactId><version>1.0</version></parent>
<artifactId>core</artifactId><dependencies><dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>33.0.0-jre</version></dependency></dependencies></project>`,
	})
	if got := purlSet(mustExtract(t, mod).Components); !slices.Contains(got, "pkg:maven/com.google.guava/guava@33.0.0-jre") {
		t.Errorf("a module under src/ was not read: %v", got)
	}
}
