package sbom

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestCatalogVersion: the version a catalog entry selects, as Gradle does.
func TestCatalogVersion(t *testing.T) {
	versions := map[string]any{"plain": "1.2.3", "rich": map[string]any{"strictly": "3.0"}, "range": "[1.0,2.0)"}
	for _, c := range []struct {
		raw  any
		want string
	}{
		{"1.0.0", "1.0.0"},
		{"1.+", ""},
		{"latest.release", ""},
		{"[1.0,2.0)", ""},
		{map[string]any{"ref": "plain"}, "1.2.3"},
		{map[string]any{"ref": "rich"}, "3.0"},
		{map[string]any{"ref": "range"}, ""},
		{map[string]any{"ref": "missing"}, ""},
		{map[string]any{"strictly": "[1.2.0, 1.3.1[", "prefer": "1.3.0"}, "1.3.0"},
		{map[string]any{"require": "2.0"}, "2.0"},
		{map[string]any{"strictly": "]1.0, 2.0["}, ""},
		{nil, ""},
		{int64(3), ""},
	} {
		if got := catalogVersion(c.raw, versions); got != c.want {
			t.Errorf("catalogVersion(%v) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// FuzzGradleCatalog: any bytes either fail as TOML or give libraries with
// a group and an artifact and a version that is no range.
func FuzzGradleCatalog(f *testing.F) {
	f.Add([]byte("[versions]\na = \"1.0\"\nb = { strictly = \"2.0\" }\n[libraries]\nx = { module = \"g:a\", version.ref = \"a\" }\ny = \"g:b:1.+\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		libs, _, err := readGradleCatalog(b)
		if err != nil {
			return
		}
		for _, l := range libs {
			if l.group == "" || l.artifact == "" || strings.ContainsAny(l.version, "[]()+,") {
				t.Fatalf("library %+v", l)
			}
		}
	})
}

// TestConventionUses: the configurations a convention plugin's source adds
// catalog libraries and bundles to, in the forms Kotlin convention plugins
// and precompiled script plugins write them.
func TestConventionUses(t *testing.T) {
	src := []byte(`
class AndroidLibraryConventionPlugin : Plugin<Project> {
    override fun apply(target: Project) {
        dependencies {
            "testImplementation"(libs.findLibrary("junit").get())
            "androidTestImplementation"(
                libs.findLibrary("androidx.test-runner").get(),
            )
            add("implementation", platform(libs.findLibrary("compose_bom").get()))
            add("testImplementation", libs.findBundle("mockk").get())
            "implementation"(libs.findLibrary("junit").get())
            val bom = libs.findLibrary("firebase-bom").get()
            "ksp"(libs.findLibrary("hilt.compiler").get())
            implementation(libs.okhttp)
            testImplementation(libs.findLibrary("turbine").get())
            "customThing"(libs.findLibrary("ignored").get())
        }
    }
}`)
	got := map[string]uint8{}
	conventionUses(src, func(ref string, flag uint8) { got[ref] |= flag })
	want := map[string]uint8{
		"junit":                devSeen | prodSeen,
		"androidx.test.runner": devSeen,
		"compose.bom":          prodSeen,
		"bundles.mockk":        devSeen,
		"hilt.compiler":        devSeen,
		"okhttp":               prodSeen,
		"turbine":              devSeen,
	}
	if !maps.Equal(got, want) {
		t.Errorf("uses %v, want %v", got, want)
	}
	if got := gradlePluginBuilds([]byte(`pluginManagement {
    includeBuild("build-logic")
    includeBuild("gradle/plugins")
    repositories { gradlePluginPortal() }
}
includeBuild("../shared-library")
includeBuild("libraries")`)); !slices.Equal(got, []string{"build-logic", "gradle/plugins"}) {
		t.Errorf("plugin builds %v, want build-logic and gradle/plugins (not the included library builds)", got)
	}
}

// TestGradleBuildOnly: the configurations build tools resolve for
// themselves, by their plugins' names and as the Android plugin names them
// after a variant or another plugin (the names are those of a real Android
// app's gradle.lockfile: Hilt, KSP, Room, lint checks, jacoco), are the
// build's; those the application compiles and runs with are not.
func TestGradleBuildOnly(t *testing.T) {
	build := []string{"classpath", "annotationProcessor", "kapt", "ktlint", "ktlintRuleset", "lintChecks", "lintPublish",
		"debugLintChecksClasspath", "releaseLintChecksClasspath", "hiltAnnotationProcessorRelease", "debugAnnotationProcessorClasspath",
		"releaseAnnotationProcessorClasspath", "_agp_internal_release_kspClasspath", "kspReleaseKotlinProcessorClasspath",
		"kspPluginClasspath", "kotlinCompilerPluginClasspathRelease", "kotlinBuildToolsApiClasspath", "androidJacocoAnt",
		"debugUnitTestRuntimeClasspath", "testRuntimeClasspath", "developmentOnly", "detekt", "dokkaHtmlPlugin"}
	app := []string{"compileClasspath", "runtimeClasspath", "releaseRuntimeClasspath", "releaseCompileClasspath",
		"debugRuntimeClasspath", "releaseImplementationDependenciesMetadata", "coreLibraryDesugaring", "hiltCompileOnlyRelease",
		"productionRuntimeClasspath", "jvmMainCompileClasspath", "releaseReverseMetadataValues", "kotlin-extension"}
	for _, c := range build {
		if !gradleBuildOnly(c) {
			t.Errorf("%s: not the build's, want the build's", c)
		}
	}
	for _, c := range app {
		if gradleBuildOnly(c) {
			t.Errorf("%s: the build's, want the application's", c)
		}
	}
}
