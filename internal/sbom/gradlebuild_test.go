package sbom_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGradleBuildScripts: the dependencies a build.gradle or
// build.gradle.kts declares, at the versions it writes or the properties
// it names (its own, its parent build's, gradle.properties), test and
// annotation-processor and build-script configurations for development
// only; not what comments, constraints { } blocks or platform() BOMs
// name; none where the project has Gradle lockfiles, which are read
// instead. The scripts are Dependabot's fixtures, taken from real
// projects; each expected list in testdata/gradle-build/want was checked
// by reading its script (SENTINEL_UPDATE_GOLDEN=1 rewrites them).
func TestGradleBuildScripts(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "gradle-build"), 1)
}

// checkGoldenDirs runs checkGolden, as a subtest, on each directory of
// root but want/, which holds the expected lists (want/<dir>.txt).
func checkGoldenDirs(t *testing.T, root string, least int) {
	t.Helper()
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "want" {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			checkGolden(t, filepath.Join(root, d.Name()), filepath.Join(root, "want", d.Name()+".txt"), least)
		})
	}
}

// checkGolden compares the components Extract gives for dir, marked,
// with the list in golden (one a line), which must list at least least
// components to show anything; SENTINEL_UPDATE_GOLDEN=1 rewrites it.
func checkGolden(t *testing.T, dir, golden string, least int) {
	t.Helper()
	got := marked(mustExtract(t, dir))
	if os.Getenv("SENTINEL_UPDATE_GOLDEN") != "" {
		mustWrite(t, golden, []byte(strings.Join(got, "\n")+"\n"))
	}
	want := slices.DeleteFunc(strings.Split(string(mustRead(t, golden)), "\n"), func(s string) bool { return s == "" })
	if len(want) < least {
		t.Fatalf("%d components expected: the test shows little", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestGradleInheritedProperty: a module's script takes a property its
// root build sets; the module alone does not know the version.
func TestGradleInheritedProperty(t *testing.T) {
	const stdlib = "pkg:maven/org.jetbrains.kotlin/kotlin-stdlib-jre8"
	tree := filepath.Join("testdata", "gradle-build", "inherited")
	alone := marked(mustExtract(t, filepath.Join(tree, "app")))
	if !slices.Contains(alone, stdlib) {
		t.Errorf("the module alone: %v, want %s without a version", alone, stdlib)
	}
	b, err := os.ReadFile(filepath.Join(tree, "build.gradle"))
	if err != nil {
		t.Fatal(err)
	}
	// The root's own declaration removed, the version can only come to
	// the module's from the root's ext.kotlin_version.
	dir := t.TempDir()
	root := strings.Replace(string(b), `compile "org.jetbrains.kotlin:kotlin-stdlib-jre8:$kotlin_version"`, "", 1)
	mustWrite(t, filepath.Join(dir, "build.gradle"), []byte(root))
	mustWrite(t, filepath.Join(dir, "app", "build.gradle"), mustRead(t, filepath.Join(tree, "app", "build.gradle")))
	if got := marked(mustExtract(t, dir)); !slices.Contains(got, stdlib+"@1.1.4-3") {
		t.Errorf("with the root: %v, want %s@1.1.4-3", got, stdlib)
	}
}

// TestGradleTestModuleByAlias: a module that applies Android's test plugin
// through the catalog's alias (alias(libs.plugins.android.test)) is a test
// module for the dependencies its script writes out too, not only for the
// catalog's libraries it names.
func TestGradleTestModuleByAlias(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, filepath.Join("testdata", "gradle-build", "sunflower"), dir)
	p := filepath.Join(dir, "macrobenchmark", "build.gradle.kts")
	script := string(mustRead(t, p))
	const added = `implementation("androidx.test:rules:1.5.0")`
	edited := strings.Replace(script, "implementation(libs.androidx.test.ext.junit)", "implementation(libs.androidx.test.ext.junit)\n    "+added, 1)
	if edited == script || !strings.Contains(script, "alias(libs.plugins.android.test)") {
		t.Fatal("the macrobenchmark script changed: edit the test")
	}
	mustWrite(t, p, []byte(edited))
	got := marked(mustExtract(t, dir))
	if !slices.Contains(got, "pkg:maven/androidx.test/rules@1.5.0 (dev)") {
		t.Errorf("components %v, want androidx.test:rules 1.5.0 development-only", got)
	}
}
