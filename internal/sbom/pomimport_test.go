package sbom_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// bomDir holds a service's pom.xml that imports Jackson's BOM, and a Maven
// local repository with the BOM and its parents as Jackson published
// them.
var bomDir = filepath.Join("testdata", "maven-bom")

// bomProperty reads a property's value from a POM of the repository.
func bomProperty(t *testing.T, pom, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(bomDir, "repo", pom))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<` + regexp.QuoteMeta(name) + `>([^<]+)</`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no property %s", pom, name)
	}
	return string(m[1])
}

const (
	jacksonBOM = "com/fasterxml/jackson/jackson-bom/2.12.6/jackson-bom-2.12.6.pom"
	ossParent  = "com/fasterxml/oss-parent/41/oss-parent-41.pom"
)

func extractWith(t *testing.T, dir, repo string) []string {
	t.Helper()
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{MavenRepository: repo})
	if err != nil {
		t.Fatal(err)
	}
	return marked(res)
}

// TestMavenImportedBOM: dependencies without a version take it from the
// BOM their project (or its parent) imports, found in the Maven local
// repository or in the tree, with the BOM's own parents merged (junit's
// version is a property of oss-parent, two parents above the BOM).
func TestMavenImportedBOM(t *testing.T) {
	jackson := bomProperty(t, jacksonBOM, "jackson.version")
	junit := bomProperty(t, ossParent, "version.junit")
	resolved := []string{
		"pkg:maven/com.fasterxml.jackson.core/jackson-databind@" + jackson,
		"pkg:maven/com.fasterxml.jackson.dataformat/jackson-dataformat-yaml@" + jackson,
		"pkg:maven/junit/junit@" + junit + " (dev)",
		"pkg:maven/org.apache.commons/commons-lang3@3.12.0",
	}
	app, repo := filepath.Join(bomDir, "app"), filepath.Join(bomDir, "repo")

	t.Run("nothing to import from", func(t *testing.T) {
		got := extractWith(t, app, "none-such-directory")
		want := []string{
			"pkg:maven/com.fasterxml.jackson.core/jackson-databind",
			"pkg:maven/com.fasterxml.jackson.dataformat/jackson-dataformat-yaml",
			"pkg:maven/junit/junit (dev)",
			"pkg:maven/org.apache.commons/commons-lang3@3.12.0",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("from the local repository", func(t *testing.T) {
		if diff := cmp.Diff(resolved, extractWith(t, app, repo)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("a module of the tree", func(t *testing.T) {
		tree := t.TempDir()
		mustWrite(t, filepath.Join(tree, "orders", "pom.xml"), mustRead(t, filepath.Join(app, "pom.xml")))
		mustWrite(t, filepath.Join(tree, "bom", "pom.xml"), mustRead(t, filepath.Join(repo, jacksonBOM)))
		// The BOM's parents are not in the tree: junit's version is not
		// known, the BOM's own properties are.
		got := extractWith(t, tree, "")
		want := append([]string{}, resolved...)
		want[2] = "pkg:maven/junit/junit (dev)"
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("without the repository (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(resolved, extractWith(t, tree, repo)); diff != "" {
			t.Errorf("with it (-want +got):\n%s", diff)
		}
	})
	t.Run("imported by the parent, and by a BOM the parent imports", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(app, "pom.xml"))
		if err != nil {
			t.Fatal(err)
		}
		// The service's own dependencyManagement moves to a platform BOM
		// of the project, which the parent imports.
		service := string(b)
		start, end := strings.Index(service, "<dependencyManagement>"), strings.Index(service, "</dependencyManagement>")
		imports := service[start : end+len("</dependencyManagement>")]
		service = strings.Replace(service, imports, `<parent><groupId>com.example.orders</groupId><artifactId>orders-parent</artifactId><version>1.4.0</version></parent>`, 1)
		tree := t.TempDir()
		mustWrite(t, filepath.Join(tree, "service", "pom.xml"), []byte(service))
		mustWrite(t, filepath.Join(tree, "platform", "pom.xml"), []byte(`<project><modelVersion>4.0.0</modelVersion>
<groupId>com.example.orders</groupId><artifactId>orders-platform</artifactId><version>1.4.0</version><packaging>pom</packaging>
<properties><jackson.version>`+jackson+`</jackson.version></properties>
`+imports+`</project>`))
		mustWrite(t, filepath.Join(tree, "pom.xml"), []byte(`<project><modelVersion>4.0.0</modelVersion>
<groupId>com.example.orders</groupId><artifactId>orders-parent</artifactId><version>1.4.0</version><packaging>pom</packaging>
<dependencyManagement><dependencies><dependency><groupId>com.example.orders</groupId><artifactId>orders-platform</artifactId>
<version>${project.version}</version><type>pom</type><scope>import</scope></dependency></dependencies></dependencyManagement>
</project>`))
		if diff := cmp.Diff(resolved, extractWith(t, tree, repo)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("BOMs that import each other", func(t *testing.T) {
		tree := t.TempDir()
		bom := func(name, imports string) string {
			return `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>` + name +
				`</artifactId><version>1</version><packaging>pom</packaging><dependencyManagement><dependencies>
<dependency><groupId>g</groupId><artifactId>` + imports + `</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>
<dependency><groupId>g</groupId><artifactId>from-` + name + `</artifactId><version>2.` + name + `</version></dependency>
</dependencies></dependencyManagement></project>`
		}
		mustWrite(t, filepath.Join(tree, "a", "pom.xml"), []byte(bom("a", "b")))
		mustWrite(t, filepath.Join(tree, "b", "pom.xml"), []byte(bom("b", "a")))
		mustWrite(t, filepath.Join(tree, "app", "pom.xml"), []byte(`<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId>
<artifactId>app</artifactId><version>1</version><dependencyManagement><dependencies>
<dependency><groupId>g</groupId><artifactId>a</artifactId><version>1</version><type>pom</type><scope>import</scope></dependency>
</dependencies></dependencyManagement><dependencies>
<dependency><groupId>g</groupId><artifactId>from-a</artifactId></dependency>
<dependency><groupId>g</groupId><artifactId>from-b</artifactId></dependency>
</dependencies></project>`))
		got := extractWith(t, tree, "")
		want := []string{"pkg:maven/g/from-a@2.a", "pkg:maven/g/from-b@2.b"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// TestSpringBootVersions: where Spring Boot's parent or BOM cannot be read
// (no repository holds it), Spring Boot's own modules still take the
// version of Spring Boot the project names; other libraries that BOM
// manages stay without one.
func TestSpringBootVersions(t *testing.T) {
	const deps = `<dependencies>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId></dependency>
    <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-test</artifactId><scope>test</scope></dependency>
    <dependency><groupId>com.h2database</groupId><artifactId>h2</artifactId><scope>runtime</scope></dependency>
  </dependencies>`
	want := []string{
		"pkg:maven/com.h2database/h2",
		"pkg:maven/org.springframework.boot/spring-boot-starter-test@2.6.5 (dev)",
		"pkg:maven/org.springframework.boot/spring-boot-starter-web@2.6.5",
	}
	for name, pom := range map[string]string{
		"the parent": `<project><modelVersion>4.0.0</modelVersion>
  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId><version>2.6.5</version></parent>
  <groupId>com.example</groupId><artifactId>store</artifactId><version>1.0.0</version>
  ` + deps + `</project>`,
		"an import": `<project><modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId><artifactId>store</artifactId><version>1.0.0</version>
  <properties><spring-boot.version>2.6.5</spring-boot.version></properties>
  <dependencyManagement><dependencies><dependency><groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-dependencies</artifactId><version>${spring-boot.version}</version><type>pom</type><scope>import</scope>
  </dependency></dependencies></dependencyManagement>
  ` + deps + `</project>`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			mustWrite(t, filepath.Join(dir, "pom.xml"), []byte(pom))
			if diff := cmp.Diff(want, extractWith(t, dir, "none-such-directory")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
