package sbom

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/javalockfile"
	"github.com/google/osv-scalibr/inventory"
	"github.com/google/osv-scalibr/purl"
)

// A Gradle version catalog (gradle/libs.versions.toml) declares the
// versions of a build's libraries: what a Gradle project without
// lockfiles says about its dependencies. scalibr's reader wants every
// [versions] entry a string, so one rich version ({ strictly = "3.0" })
// made it refuse the file, and it took a range for a version; this reader
// keeps the file and reads each version as Gradle selects it. A project
// whose root has Gradle lockfiles is read from them, which hold the
// versions resolved, transitive ones included.

type gradleCatalog struct {
	filesystem.Extractor // scalibr's, for its name and the files it claims
}

// Extract implements filesystem.Extractor.
func (g gradleCatalog) Extract(_ context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	if in.FS != nil {
		root := path.Dir(in.Path)
		if path.Base(root) == "gradle" {
			root = path.Dir(root)
		}
		if anyFile(in.FS, root, "gradle.lockfile", "settings-gradle.lockfile", "buildscript-gradle.lockfile") {
			return inventory.Inventory{}, nil // the lockfiles are read instead
		}
	}
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	libs, refs, err := readGradleCatalog(b)
	if err != nil {
		return inventory.Inventory{}, err
	}
	var uses map[string]uint8
	if in.FS != nil && path.Base(path.Dir(in.Path)) == "gradle" {
		uses = catalogUses(in.FS, path.Dir(path.Dir(in.Path)), refs)
	}
	pkgs := make([]*extractor.Package, 0, len(libs))
	for _, l := range libs {
		groups := []string{}
		if uses[l.key] == devSeen {
			groups = []string{"dev"} // every build script that names it is a test's or a tool's
		}
		pkgs = append(pkgs, &extractor.Package{Name: l.group + ":" + l.artifact, Version: l.version, PURLType: purl.TypeMaven,
			Metadata: &javalockfile.Metadata{GroupID: l.group, ArtifactID: l.artifact, DepGroupVals: groups}, Location: extractor.LocationFromPath(in.Path)})
	}
	return inventory.Inventory{Packages: pkgs}, nil
}

// Which catalog libraries only development uses.
//
// A catalog declares libraries; the build scripts use them by accessor
// (implementation(libs.androidx.core.ktx), testImplementation
// libs.bundles.junit). A library every use of which is in a test, tool or
// annotation-processor configuration (gradleConfiguration) is marked
// development-only; one used nowhere, or in a way not read, is not.

// catalogAlias normalises a catalog key or accessor path as Gradle maps
// one to the other: "-", "_" and "." separate the same segments.
func catalogAlias(s string) string {
	return strings.NewReplacer("-", ".", "_", ".").Replace(strings.ToLower(s))
}

// gradleCatalogRef is a configuration followed by a catalog accessor,
// perhaps through platform() or testFixtures().
var gradleCatalogRef = lazyRegexp(`\b([A-Za-z_]\w*)\s*\(?\s*(?:(?:platform|enforcedPlatform|testFixtures)\s*\(\s*)?libs\.([A-Za-z_][\w.]*)`)

// catalogRefs is what a catalog names besides its libraries: each
// bundle's libraries (by normalised name and keys), and the plugins that
// make a module a test module (Android's com.android.test).
type catalogRefs struct {
	bundles     map[string][]string
	testPlugins []string
}

// catalogUses reads the build scripts of the build at root (not in
// hidden or build output directories) for the catalog's libraries they
// use: by normalised key, devSeen and/or prodSeen. Every use in a test
// module (gradleTestModule) or in the build's own logic (buildSrc, a build
// of plugins that the settings include: gradlePluginBuilds) is
// development's. The convention plugins of such a build apply
// dependencies to the modules: their sources' uses count per
// configuration (conventionUses).
func catalogUses(fsys fs.FS, root string, refs catalogRefs) map[string]uint8 {
	uses := map[string]uint8{}
	var logic []string
	for _, name := range []string{"settings.gradle", "settings.gradle.kts"} {
		if b, err := fs.ReadFile(fsys, path.Join(root, name)); err == nil {
			for _, d := range gradlePluginBuilds(stripGradleComments(plainText(b))) {
				logic = append(logic, path.Join(root, d))
			}
		}
	}
	inLogic := func(p string) bool {
		return strings.Contains("/"+p, "/buildSrc/") || slices.ContainsFunc(logic, func(d string) bool { return strings.HasPrefix(p, d+"/") })
	}
	use := func(ref string, flag uint8) {
		if name, ok := strings.CutPrefix(ref, "bundles."); ok {
			for _, key := range refs.bundles[name] {
				uses[key] |= flag
			}
			return
		}
		if strings.HasPrefix(ref, "versions.") || strings.HasPrefix(ref, "plugins.") {
			return
		}
		uses[ref] |= flag
	}
	want := func(p string) bool { return isGradleBuild(p) || inLogic(p) && conventionSource(p) }
	walkBuildFiles(fsys, root, []string{"build"}, want, func(p string, data []byte) {
		code := stripGradleComments(data)
		if !isGradleBuild(p) {
			conventionUses(code, use)
			return
		}
		devModule := inLogic(p) || gradleTestModule(code, refs.testPlugins)
		for _, m := range gradleCatalogRef().FindAllSubmatch(code, -1) {
			flag, known := configurationFlag(string(m[1]))
			if !known {
				continue
			}
			if devModule {
				flag = devSeen
			}
			use(catalogAlias(strings.TrimSuffix(string(m[2]), ".get")), flag)
		}
	})
	return uses
}

// conventionUses hands use the catalog libraries and bundles that a
// convention plugin's source (Kotlin, or a precompiled script plugin)
// adds to the modules that apply it, each with the flag of its
// configuration: "testImplementation"(libs.findLibrary("junit").get()),
// add("implementation", libs.findBundle("ktor")...), and in a precompiled
// script, implementation(libs.okhttp) where the build generates accessors.
func conventionUses(code []byte, use func(ref string, flag uint8)) {
	for _, m := range gradleConventionRef().FindAllSubmatch(code, -1) {
		conf := string(m[1]) + string(m[2]) + string(m[3])
		flag, ok := configurationFlag(conf)
		if !ok {
			continue
		}
		ref := catalogAlias(string(m[5]))
		if string(m[4]) == "Bundle" {
			ref = "bundles." + ref
		}
		use(ref, flag)
	}
	for _, m := range gradleCatalogRef().FindAllSubmatch(code, -1) {
		if flag, ok := configurationFlag(string(m[1])); ok {
			if ref := strings.TrimSuffix(string(m[2]), ".get"); !strings.HasPrefix(ref, "findLibrary") && !strings.HasPrefix(ref, "findBundle") {
				use(catalogAlias(ref), flag)
			}
		}
	}
}

// configurationFlag is devSeen for a use in a development configuration
// (gradleConfiguration), prodSeen for one in another; known is false for
// a name that is not a configuration.
func configurationFlag(conf string) (flag uint8, known bool) {
	dev, known := gradleConfiguration(conf)
	if dev {
		return devSeen, known
	}
	return prodSeen, known
}

// gradleConventionRef is a configuration, quoted ("implementation"(...)),
// as add's first argument, or called, followed by a catalog lookup by
// name, perhaps through platform().
var gradleConventionRef = lazyRegexp(`(?:"(\w+)"\s*\(|\badd\(\s*"(\w+)"\s*,|\b(\w+)\s*\()\s*(?:(?:platform|enforcedPlatform|testFixtures)\s*\(\s*)?\w+\.find(Library|Bundle)\(\s*"([^"]+)"`)

// conventionSource reports whether p is the source of a convention
// plugin in a build of plugins: Kotlin, or a precompiled script plugin
// (name.gradle.kts), under src/main.
func conventionSource(p string) bool {
	if !strings.Contains(p, "/src/main/") {
		return false
	}
	return strings.HasSuffix(p, ".kt") || strings.HasSuffix(p, ".gradle.kts") && !isGradleBuild(p)
}

// gradlePluginBuilds are the builds that settings include for their
// plugins (pluginManagement { includeBuild("build-logic") }), as
// directories relative to the settings', cleaned: their dependencies
// build the project, as buildSrc's do.
func gradlePluginBuilds(settings []byte) []string {
	var out []string
	for _, blk := range gradleBlocks(settings, gradlePluginManagementBlock()) {
		for _, m := range gradleIncludeBuild().FindAllSubmatch(blk, -1) {
			if d := path.Clean(string(m[1])); d != "." && !strings.HasPrefix(d, "../") && !path.IsAbs(d) {
				out = append(out, d)
			}
		}
	}
	return out
}

var (
	gradleIncludeBuild = lazyRegexp(`\bincludeBuild\s*\(?\s*["']([^"'$]+)["']`)
	// The starts of the blocks the Gradle readers look into or leave out.
	gradlePluginManagementBlock = lazyRegexp(`\bpluginManagement\s*\{`)
	gradleConstraintsBlock      = lazyRegexp(`\bconstraints\s*\{`)
)

// gradleBlocks returns the contents of each block of a script that re
// finds the start of ("name {").
func gradleBlocks(b []byte, re *regexp.Regexp) [][]byte {
	var out [][]byte
	for _, loc := range re.FindAllIndex(b, -1) {
		if c := closingBrace(b, loc[1]-1); c >= 0 {
			out = append(out, b[loc[1]:c])
		}
	}
	return out
}

// walkBuildFiles reads each file under root that want selects (at most
// maxBuildFile bytes, as UTF-8: plainText) and hands it to visit; it
// does not enter hidden directories, node_modules or those skip names
// (build output), and stops after maxUsesWalk entries.
func walkBuildFiles(fsys fs.FS, root string, skip []string, want func(p string) bool, visit func(p string, data []byte)) {
	visited := 0
	_ = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if visited++; visited > maxUsesWalk {
			return fs.SkipAll
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "node_modules" || slices.Contains(skip, n)) {
				return fs.SkipDir
			}
			return nil
		}
		if !want(p) {
			return nil
		}
		if info, err := d.Info(); err != nil || !info.Mode().IsRegular() || info.Size() > maxBuildFile {
			return nil
		}
		if data, err := fs.ReadFile(fsys, p); err == nil {
			visit(p, plainText(data))
		}
		return nil
	})
}

// maxUsesWalk bounds the directory entries walkBuildFiles visits; a
// build file larger than maxBuildFile is not read.
const (
	maxUsesWalk  = 50000
	maxBuildFile = 4 << 20
)

// catalogLib is one [libraries] entry; key is its normalised name
// (catalogAlias).
type catalogLib struct{ key, group, artifact, version string }

// readGradleCatalog reads the [libraries] of a version catalog, in name
// order: "group:artifact:version" strings, and tables with module (or
// group and name) and a version written inline, as version.ref into
// [versions], or as a rich version. [bundles] and [plugins] name no
// library of their own.
// refs has its bundles and test plugins.
func readGradleCatalog(b []byte) (libs []catalogLib, refs catalogRefs, err error) {
	var doc catalogDoc
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return nil, refs, fmt.Errorf("not a TOML version catalog: %w", err)
	}
	refs.bundles = map[string][]string{}
	for name, v := range doc.Bundles {
		list, _ := v.([]any)
		for _, e := range list {
			if key, ok := e.(string); ok {
				refs.bundles[catalogAlias(name)] = append(refs.bundles[catalogAlias(name)], catalogAlias(key))
			}
		}
	}
	for name, v := range doc.Plugins {
		id, _ := v.(string)
		if m, ok := v.(map[string]any); ok {
			id, _ = m["id"].(string)
		}
		if id, _, _ = strings.Cut(id, ":"); strings.TrimSpace(id) == androidTestPlugin {
			refs.testPlugins = append(refs.testPlugins, catalogAlias(name))
		}
	}
	boot := doc.springBoot()
	var out []catalogLib
	for _, key := range slices.Sorted(maps.Keys(doc.Libraries)) {
		l := catalogLib{key: catalogAlias(key)}
		switch v := doc.Libraries[key].(type) {
		case string:
			parts := strings.Split(v, ":")
			if len(parts) < 2 || len(parts) > 3 {
				continue
			}
			l.group, l.artifact = parts[0], parts[1]
			if len(parts) == 3 {
				l.version = gradleVersion(parts[2])
			}
		case map[string]any:
			if m, ok := v["module"].(string); ok {
				g, a, ok := strings.Cut(m, ":")
				if !ok {
					continue
				}
				l.group, l.artifact = g, a
			} else {
				l.group, _ = v["group"].(string)
				l.artifact, _ = v["name"].(string)
			}
			l.version = catalogVersion(v["version"], doc.Versions)
		}
		if l.group = strings.TrimSpace(l.group); l.group == "" || strings.TrimSpace(l.artifact) == "" {
			continue
		}
		l.artifact = strings.TrimSpace(l.artifact)
		if l.version == "" && l.group == "org.springframework.boot" {
			l.version = boot // the plugin's dependency management sets it
		}
		out = append(out, l)
	}
	return out, refs, nil
}

// catalogDoc is what Sentinel reads of a version catalog.
type catalogDoc struct {
	Versions  map[string]any `toml:"versions"`
	Libraries map[string]any `toml:"libraries"`
	Plugins   map[string]any `toml:"plugins"`
	Bundles   map[string]any `toml:"bundles"`
}

// springBoot is the version of the Spring Boot plugin the catalog
// declares ("" when none): the version of Spring Boot's own modules
// (org.springframework.boot:*), which a catalog lists without one. A
// plugin is "id:version", or a table with id and version.
func (doc *catalogDoc) springBoot() string {
	for _, key := range slices.Sorted(maps.Keys(doc.Plugins)) {
		switch v := doc.Plugins[key].(type) {
		case string:
			if id, ver, ok := strings.Cut(v, ":"); ok && strings.TrimSpace(id) == "org.springframework.boot" {
				return gradleVersion(ver)
			}
		case map[string]any:
			if id, _ := v["id"].(string); strings.TrimSpace(id) == "org.springframework.boot" {
				return catalogVersion(v["version"], doc.Versions)
			}
		}
	}
	return ""
}

// catalogSpringBoot is springBoot of the catalog b; "" when b is not one.
func catalogSpringBoot(b []byte) string {
	var doc catalogDoc
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return ""
	}
	return doc.springBoot()
}

// catalogVersion is the version a library entry's version field selects:
// a string; a table with ref (into [versions], whose entry may itself be
// rich); or a rich version, of which Gradle takes prefer, else an exact
// strictly or require. A range, a dynamic version ("1.+") or an unknown
// ref selects none that can be known from the file.
func catalogVersion(raw any, versions map[string]any) string {
	switch v := raw.(type) {
	case string:
		return gradleVersion(v)
	case map[string]any:
		if ref, ok := v["ref"].(string); ok {
			if r, ok := versions[ref]; ok {
				if _, nested := r.(map[string]any); nested || isString(r) {
					return catalogVersion(r, nil)
				}
			}
			return ""
		}
		for _, k := range []string{"prefer", "strictly", "require"} {
			if s, ok := v[k].(string); ok {
				if ver := gradleVersion(s); ver != "" {
					return ver
				}
			}
		}
	}
	return ""
}

func isString(v any) bool { _, ok := v.(string); return ok }

// gradleVersion is s when it names one version: not a range ("[1.0,2.0)",
// "]1.0, 2.0["), not dynamic ("1.+", "latest.release"), not empty.
func gradleVersion(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "[]()+,") || strings.HasPrefix(s, "latest.") {
		return ""
	}
	return s
}

// androidTestPlugin makes a Gradle module an Android test module: all
// it builds is tests (instrumented tests, benchmarks), whatever the
// configurations of its dependencies.
const androidTestPlugin = "com.android.test"

// gradleTestModule reports whether a build script applies the Android
// test plugin: by id, or by the alias of a catalog plugin with that id
// (alias(libs.plugins.android.test)).
func gradleTestModule(code []byte, testPlugins []string) bool {
	if gradleAndroidTest().Match(code) {
		return true
	}
	for _, m := range gradlePluginAlias().FindAllSubmatch(code, -1) {
		if slices.Contains(testPlugins, catalogAlias(string(m[1]))) {
			return true
		}
	}
	return false
}

var (
	gradleAndroidTest = lazyRegexp(`\b(?:id|plugin)\s*[(:=]?\s*["']com\.android\.test["']`)
	gradlePluginAlias = lazyRegexp(`\balias\s*\(\s*libs\.plugins\.([\w.]+)\s*\)`)
)
