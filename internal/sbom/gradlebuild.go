package sbom

import (
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/javalockfile"
	"github.com/google/osv-scalibr/purl"
)

// Gradle build scripts.
//
// Most Gradle projects have neither lockfiles nor a version catalog: what
// they depend on is written in build.gradle (Groovy) or build.gradle.kts
// (Kotlin), each dependency as "group:artifact:version" or as a map of
// group, name and version, its version often a property (ext, extra,
// val, gradle.properties). The scripts are programs, not data; this reader
// takes what they state literally, as Dependabot reads them: the declared
// dependencies of each configuration, at the version written or the
// property it names, looked up in the script, the scripts it applies
// ("apply from: 'gradle/dependencies.gradle'"), the build scripts of the
// directories above it and the gradle.properties beside or above it; and
// the libraries it names from such a script (compile libraries.junit,
// where libraries.junit = 'junit:junit:4.12'; implementation(Libs.retrofit),
// where buildSrc's Kotlin defines it). A
// version it cannot resolve (a property computed at run time, a dynamic
// "1.+", a range) is left out, and the dependency listed without one;
// transitive dependencies, which only a resolution of the build knows,
// are not listed. A project that has Gradle lockfiles is read from them
// instead. Test, annotation-processor and build-script (classpath)
// configurations mark their dependencies as needed for development only.

var gradleBuild = ownExtractor{name: "java/gradlebuild", required: isGradleBuild}

// newGradleBuild builds the reader for one scan: the scripts, properties
// and buildSrc sources that a build's modules share are read once.
func newGradleBuild(*cpb.PluginConfig) (filesystem.Extractor, error) {
	e := gradleBuild
	e.read = newGradleScripts().read
	return e, nil
}

// gradleScripts holds, for one scan, each script read (its code without
// comments, and what it defines), each gradle.properties, and each
// build's buildSrc definitions and what its version catalog says.
type gradleScripts struct {
	mu       sync.Mutex
	scripts  map[string]gradleScript
	props    map[string]map[string]string
	buildSrc map[string]gradleScope
	catalogs map[string]catalogFacts // per build root
}

// gradleScript is a script's code without comments and its definitions;
// ok is false when it is not there.
type gradleScript struct {
	code  []byte
	scope gradleScope
	ok    bool
}

func newGradleScripts() *gradleScripts {
	return &gradleScripts{scripts: map[string]gradleScript{}, props: map[string]map[string]string{}, buildSrc: map[string]gradleScope{}, catalogs: map[string]catalogFacts{}}
}

// scopeOf is what the script code (comments removed) defines.
func scopeOf(code []byte) gradleScope {
	return gradleScope{props: gradleProperties(code), libs: gradleLibraries(code)}
}

// script reads the script at p once.
func (c *gradleScripts) script(fsys fs.FS, p string) gradleScript {
	return memo(&c.mu, c.scripts, p, func() gradleScript {
		data, read := readGradleFile(fsys, p)
		if !read {
			return gradleScript{}
		}
		code := stripGradleComments(data)
		return gradleScript{code: code, scope: scopeOf(code), ok: true}
	})
}

// properties reads the gradle.properties at p once (nil when absent).
func (c *gradleScripts) properties(fsys fs.FS, p string) map[string]string {
	return memo(&c.mu, c.props, p, func() map[string]string {
		if data, read := readGradleFile(fsys, p); read {
			return javaProperties(data)
		}
		return nil
	})
}

// catalogFacts is what a build's version catalog says that its build
// scripts need: the Spring Boot plugin version it declares, and the
// plugins that make a module a test module (catalogRefs).
type catalogFacts struct {
	boot        string
	testPlugins []string
}

// catalog reads the version catalog of the build at root, once.
func (c *gradleScripts) catalog(fsys fs.FS, root string) catalogFacts {
	return memo(&c.mu, c.catalogs, root, func() catalogFacts {
		data, read := readGradleFile(fsys, path.Join(root, "gradle", "libs.versions.toml"))
		if !read {
			return catalogFacts{}
		}
		_, refs, _ := readGradleCatalog(data)
		return catalogFacts{boot: catalogSpringBoot(data), testPlugins: refs.testPlugins}
	})
}

// inPluginBuild reports whether dir is in a build of plugins that the
// settings of a build above it include (gradlePluginBuilds): its
// build-logic.
func (c *gradleScripts) inPluginBuild(fsys fs.FS, dir string) bool {
	for d := path.Dir(dir); ; d = path.Dir(d) {
		for _, name := range []string{"settings.gradle", "settings.gradle.kts"} {
			if set := c.script(fsys, path.Join(d, name)); set.ok {
				for _, b := range gradlePluginBuilds(set.code) {
					if b := path.Join(d, b); dir == b || strings.HasPrefix(dir, b+"/") {
						return true
					}
				}
			}
		}
		if d == "." || d == "/" {
			return false
		}
	}
}

// buildSrcOf reads the buildSrc definitions of the build at root once.
func (c *gradleScripts) buildSrcOf(fsys fs.FS, root string) gradleScope {
	return memo(&c.mu, c.buildSrc, root, func() gradleScope { return buildSrcScope(fsys, root) })
}

func isGradleBuild(p string) bool {
	b := path.Base(p)
	return b == "build.gradle" || b == "build.gradle.kts"
}

// gradleLockfiles are the lockfiles that, at a project's root or in its
// module, hold what it resolved.
var gradleLockfiles = []string{"gradle.lockfile", "settings-gradle.lockfile", "buildscript-gradle.lockfile"}

func (c *gradleScripts) read(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	dir := path.Dir(in.Path)
	script := stripGradleComments(b)
	own := scopeOf(script)   // the module's own: merged into, not shared
	var above [][]byte       // the build scripts above the module, nearest first, then the build's settings
	var catalog catalogFacts // what the build's version catalog says
	if in.FS != nil {
		if gradleLocked(in.FS, dir) {
			return nil, nil // the lockfiles are read instead
		}
		// The nearest definition wins: the script's own and those of the
		// scripts it applies, then those of the directories above (and
		// what they apply), then gradle.properties beside and above.
		root := gradleRoot(in.FS, dir)
		seen := map[string]bool{in.Path: true}
		own.apply(c, in.FS, dir, root, script, seen, 0)
		for d := path.Dir(dir); d != dir; d = path.Dir(d) {
			for _, name := range []string{"build.gradle", "build.gradle.kts"} {
				p := path.Join(d, name)
				if up := c.script(in.FS, p); up.ok && !seen[p] {
					seen[p] = true
					own.merge(up.scope)
					own.apply(c, in.FS, d, root, up.code, seen, 0)
					above = append(above, up.code)
				}
			}
			if d == "." || d == "/" {
				break
			}
		}
		for _, name := range []string{"settings.gradle", "settings.gradle.kts"} {
			if set := c.script(in.FS, path.Join(root, name)); set.ok {
				above = append(above, set.code) // pluginManagement's versions
			}
		}
		catalog = c.catalog(in.FS, root)
		for d := dir; ; d = path.Dir(d) {
			mergeMissing(own.props, c.properties(in.FS, path.Join(d, "gradle.properties")))
			if d == "." || d == "/" {
				break
			}
		}
		own.merge(c.buildSrcOf(in.FS, root))
	}
	var out []*extractor.Package
	// buildSrc, and a build of plugins that the settings include, hold
	// the build's own logic: what they depend on builds the project and
	// does not ship with it.
	buildLogic := dir == "buildSrc" || strings.HasPrefix(dir, "buildSrc/") || strings.Contains(dir, "/buildSrc/") || strings.HasSuffix(dir, "/buildSrc")
	buildLogic = buildLogic || in.FS != nil && c.inPluginBuild(in.FS, dir)
	// An Android test module builds only tests (the plugin applied by id,
	// or by the catalog's alias).
	buildLogic = buildLogic || gradleTestModule(script, catalog.testPlugins)
	boot := springBootVersion(script, above, own.props)
	if boot == "" {
		boot = catalog.boot // alias(libs.plugins.spring.boot)
	}
	for _, d := range gradleDependencies(withoutBlocks(script, gradleConstraintsBlock()), own.libs) {
		version := resolveGradleVersion(d.version, own.props)
		if d.version == "" && d.group == "org.springframework.boot" {
			version = boot // the plugin's own dependency management: its version
		}
		groups := []string{}
		if d.development || buildLogic {
			groups = []string{"dev"}
		}
		out = append(out, &extractor.Package{Name: d.group + ":" + d.artifact, Version: version, PURLType: purl.TypeMaven,
			Metadata: &javalockfile.Metadata{GroupID: d.group, ArtifactID: d.artifact, DepGroupVals: groups},
			Location: extractor.LocationFromPath(in.Path)})
	}
	return out, nil
}

// gradleBootPlugin is the Spring Boot plugin applied with its version:
// id 'org.springframework.boot' version '3.0.4', or the Kotlin DSL's
// id("org.springframework.boot") version "3.0.4".
var gradleBootPlugin = lazyRegexp(`\bid\s*\(?\s*["']org\.springframework\.boot["']\s*\)?\s*version\s*\(?\s*(?:["']([^"']+)["']|([A-Za-z_][\w.]*))`)

// gradleBootClasspath is the Spring Boot plugin put on the build's
// classpath the older way, applied by id without a version
// (buildscript { dependencies { classpath "org.springframework.boot:
// spring-boot-gradle-plugin:${springBootVersion}" } }).
var gradleBootClasspath = lazyRegexp(`["']org\.springframework\.boot:spring-boot-gradle-plugin:([^"'\s]+)["']`)

// springBootVersion is the version of the Spring Boot plugin that builds
// the module, "" when none is known: the plugin manages the versions of
// Spring Boot's own modules (org.springframework.boot:*) at its own. A
// multi-module build declares it once, for its modules to apply by id: in
// the root script's plugins block (apply false), on its buildscript
// classpath, or in the settings' pluginManagement; the module's own
// script wins, then the nearest script above it, then the settings.
func springBootVersion(script []byte, above [][]byte, props map[string]string) string {
	for _, code := range append([][]byte{script}, above...) {
		if m := gradleBootPlugin().FindSubmatch(code); m != nil {
			if len(m[1]) > 0 {
				return resolveGradleVersion(string(m[1]), props)
			}
			return resolveGradleVersion("${"+string(m[2])+"}", props)
		}
		if m := gradleBootClasspath().FindSubmatch(code); m != nil {
			return resolveGradleVersion(string(m[1]), props)
		}
	}
	return ""
}

// maxGradleScript bounds a build script or properties file read for
// properties (the largest real ones are tens of kilobytes).
const maxGradleScript = 1 << 20

// maxGradleApply bounds how deep "apply from" is followed.
const maxGradleApply = 4

func readGradleFile(fsys fs.FS, p string) ([]byte, bool) {
	info, err := fs.Stat(fsys, p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxGradleScript {
		return nil, false
	}
	data, err := fs.ReadFile(fsys, p)
	return plainText(data), err == nil
}

// gradleScope is what a script can name: properties, and libraries (a
// name bound to a "group:artifact:version" string, as the
// dependencies.gradle of many builds keeps them: libraries.junit =
// 'junit:junit:4.12').
type gradleScope struct {
	props map[string]string
	libs  map[string]string
}

// merge adds what other defines and s does not.
func (s *gradleScope) merge(other gradleScope) {
	mergeMissing(s.props, other.props)
	mergeMissing(s.libs, other.libs)
}

var gradleApplyFrom = lazyRegexp(`\bapply\s*\(?\s*from\s*[:=]\s*(?:file\(\s*)?["']([^"']+\.gradle(?:\.kts)?)["']`)

// apply merges the scripts that script (in dir) applies with "apply from",
// and those they apply, into s. $rootDir and ${rootDir} are root.
func (s *gradleScope) apply(c *gradleScripts, fsys fs.FS, dir, root string, script []byte, seen map[string]bool, depth int) {
	if depth >= maxGradleApply {
		return
	}
	for _, m := range gradleApplyFrom().FindAllSubmatch(script, -1) {
		ref, base := string(m[1]), dir
		for _, prefix := range []string{"$rootDir/", "${rootDir}/", "$rootProject.projectDir/", "${rootProject.projectDir}/"} {
			if r, ok := strings.CutPrefix(ref, prefix); ok {
				ref, base = r, root
			}
		}
		if strings.Contains(ref, "$") || strings.Contains(ref, "://") || path.IsAbs(ref) {
			continue // computed, remote or outside the tree
		}
		p := path.Join(base, ref)
		if seen[p] || !fs.ValidPath(p) {
			continue
		}
		seen[p] = true
		applied := c.script(fsys, p)
		if !applied.ok {
			continue
		}
		s.merge(applied.scope)
		s.apply(c, fsys, path.Dir(p), root, applied.code, seen, depth+1)
	}
}

// maxBuildSrcFiles bounds the Kotlin sources of buildSrc read.
const maxBuildSrcFiles = 64

// buildSrcScope is what the Kotlin sources of a build's buildSrc define:
// Android builds keep their versions and libraries there as constants
// (object Libs { const val retrofit = "com.squareup.retrofit2:retrofit:
// ${Versions.retrofit}" }), named in the scripts as Libs.retrofit.
func buildSrcScope(fsys fs.FS, root string) gradleScope {
	s := gradleScope{props: map[string]string{}, libs: map[string]string{}}
	src := path.Join(root, "buildSrc", "src", "main", "kotlin")
	n := 0
	_ = fs.WalkDir(fsys, src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || n >= maxBuildSrcFiles {
			return fs.SkipDir
		}
		if d.IsDir() || path.Ext(p) != ".kt" {
			return nil
		}
		n++
		if data, ok := readGradleFile(fsys, p); ok {
			s.merge(scopeOf(stripGradleComments(data)))
		}
		return nil
	})
	return s
}

// gradleRoot is the root directory of the build dir belongs to: the
// nearest directory above with settings.gradle, else the top of the scan.
func gradleRoot(fsys fs.FS, dir string) string {
	for d := dir; ; d = path.Dir(d) {
		if anyFile(fsys, d, "settings.gradle", "settings.gradle.kts") || d == "." || d == "/" {
			return d
		}
	}
}

// gradleLibrary binds a name to a coordinate string: libraries.junit =
// 'junit:junit:4.12', val okhttp = "com.squareup.okhttp3:okhttp:$v", or a
// map's junit: 'junit:junit:4.12'.
var gradleLibrary = lazyRegexp(`(?m)(?:^|[\s\[,(])((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)["']?[ \t]*(?::[ \t]*String[ \t]*)?(?:=|:)[ \t]*["']([^"'\s:$@]+:[^"'\s:$@]+:[^"'\s]+)["']`)

// gradleIndexedLibrary is the Kotlin DSL's map form of a library:
// libraries["junit4"] = "junit:junit:4.12", named libraries.junit4.
var gradleIndexedLibrary = lazyRegexp(`\b([A-Za-z_]\w*)\[\s*["']([\w.-]+)["']\s*\]\s*=\s*["']([^"'\s:$@]+:[^"'\s:$@]+:[^"'\s]+)["']`)

// gradleLibraries are the libraries a script names.
func gradleLibraries(script []byte) map[string]string {
	libs := map[string]string{}
	for _, m := range gradleLibrary().FindAllSubmatch(script, -1) {
		name := string(m[1])
		name = strings.TrimPrefix(strings.TrimPrefix(name, "ext."), "project.ext.")
		if _, ok := libs[name]; !ok {
			libs[name] = string(m[2])
		}
	}
	for _, m := range gradleIndexedLibrary().FindAllSubmatch(script, -1) {
		if name := string(m[1]) + "." + string(m[2]); libs[name] == "" {
			libs[name] = string(m[3])
		}
	}
	return libs
}

// lookupLibrary finds a reference (libraries.junit, deps.test.junit) among
// libs: by its whole name, without its first part, or by its last.
func lookupLibrary(libs map[string]string, ref string) (string, bool) {
	for r := ref; ; {
		if v, ok := libs[r]; ok {
			return v, true
		}
		i := strings.IndexByte(r, '.')
		if i < 0 {
			break
		}
		r = r[i+1:]
	}
	if i := strings.LastIndexByte(ref, '.'); i >= 0 {
		for _, name := range slices.Sorted(maps.Keys(libs)) {
			if strings.HasSuffix(name, ref[i:]) || name == ref[i+1:] {
				return libs[name], true
			}
		}
	}
	return "", false
}

// gradleLocked reports whether the module at dir, or the build it belongs
// to (the directories above, up to the one with settings.gradle), has
// Gradle lockfiles.
func gradleLocked(fsys fs.FS, dir string) bool {
	for d := dir; ; d = path.Dir(d) {
		if anyFile(fsys, d, gradleLockfiles...) {
			return true
		}
		if anyFile(fsys, d, "settings.gradle", "settings.gradle.kts") || d == "." || d == "/" {
			return false
		}
	}
}

func mergeMissing(into, from map[string]string) {
	for k, v := range from {
		if _, ok := into[k]; !ok {
			into[k] = v
		}
	}
}

var (
	gradleBlockComment = lazyRegexp(`(?s)/\*.*?\*/`)
	// A line comment: "//" not inside a URL ("https://").
	gradleLineComment = lazyRegexp(`(?m)(^|[^:"'])//.*$`)
)

// stripGradleComments removes a script's comments, which often quote
// dependencies that are not declared.
func stripGradleComments(b []byte) []byte {
	b = gradleBlockComment().ReplaceAll(b, nil)
	return gradleLineComment().ReplaceAll(b, []byte("$1"))
}

// withoutBlocks removes each block of a script that re finds the start
// of ("name {"): a dependencies { constraints { ... } } block constrains
// versions, it declares no dependency.
func withoutBlocks(b []byte, re *regexp.Regexp) []byte {
	for {
		loc := re.FindIndex(b)
		if loc == nil {
			return b
		}
		end := len(b)
		if c := closingBrace(b, loc[1]-1); c >= 0 {
			end = c + 1
		}
		b = append(b[:loc[0]:loc[0]], b[end:]...)
	}
}

// closingBrace returns the index of the brace that closes the one at
// open, or -1 when the script ends first.
func closingBrace(b []byte, open int) int {
	depth := 0
	for i := open; i < len(b); i++ {
		switch b[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

var (
	// name = 'value', ext.name = "value", def/val/var name = "value",
	// project.ext.name = ..., rootProject.ext.name = ...
	gradleAssign = lazyRegexp(`(?m)^[ \t]*(?:(?:project\.|rootProject\.)?ext\.|(?:const[ \t]+)?(?:def|val|var)[ \t]+)?([A-Za-z_][\w.]*)[ \t]*(?::[ \t]*String[ \t]*)?(?:=|by[ \t]+extra\()[ \t]*["']([^"'$\n]+)["']`)
	// extra["name"] = "value", ext["name"] = 'value'
	gradleExtraIndex = lazyRegexp(`\b(?:extra|ext)\[\s*["']([\w.-]+)["']\s*\]\s*=\s*["']([^"'$\n]+)["']`)
	// set("name", "value"), extra.set("name", "value")
	gradleSet = lazyRegexp(`\bset\(\s*["']([\w.-]+)["']\s*,\s*["']([^"'$\n]+)["']\s*\)`)
	// "name" to "value" in a Kotlin map (val versions = mapOf("okhttp" to "4.9.0")).
	gradleKotlinPair = lazyRegexp(`["']([A-Za-z_][\w.-]*)["'][ \t]+to[ \t]+["']([^"'$\n]+)["']`)
	// name: 'value' inside a map of versions (ext.versions = [spring: '5.0']).
	gradleMapEntry = lazyRegexp(`(?:\[|,)\s*['"]?([A-Za-z_][\w-]*)['"]?\s*:\s*["']([^"'$\n]+)["']`)
)

// gradleProperties are the properties a script sets to a literal value,
// each by its name and by its last dotted part (versions.spring, spring).
func gradleProperties(script []byte) map[string]string {
	props := map[string]string{}
	set := func(k, v string) {
		props[k] = v
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			if _, ok := props[k[i+1:]]; !ok {
				props[k[i+1:]] = v
			}
		}
	}
	for _, re := range []*regexp.Regexp{gradleAssign(), gradleExtraIndex(), gradleSet()} {
		for _, m := range re.FindAllSubmatch(script, -1) {
			set(string(m[1]), strings.TrimSpace(string(m[2])))
		}
	}
	for _, m := range gradleKotlinPair().FindAllSubmatch(script, -1) {
		if _, ok := props[string(m[1])]; !ok {
			props[string(m[1])] = strings.TrimSpace(string(m[2]))
		}
	}
	for _, m := range gradleMapEntry().FindAllSubmatch(script, -1) {
		switch k := string(m[1]); k {
		case "group", "name", "version", "module", "classifier", "ext", "path", "configuration", "dir", "include", "exclude":
		default:
			if _, ok := props[k]; !ok {
				props[k] = strings.TrimSpace(string(m[2]))
			}
		}
	}
	return props
}

// javaProperties reads a gradle.properties file: key=value or key: value.
func javaProperties(b []byte) map[string]string {
	props := map[string]string{}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		i := strings.IndexAny(line, "=:")
		if i <= 0 {
			continue
		}
		props[strings.TrimSpace(line[:i])] = strings.TrimSpace(line[i+1:])
	}
	return props
}

// gradleDep is one dependency a script declares.
type gradleDep struct {
	group, artifact, version string
	development              bool
}

var (
	// configuration "group:artifact[:version[:classifier]][@ext]", with
	// or without parentheses; platform(...) BOMs are not dependencies.
	gradleStringDep = lazyRegexp(`(?m)(?:^|[\s{;(])([A-Za-z][\w]*)[ \t]*\(?[ \t]*(platform\(|enforcedPlatform\()?[ \t]*["']([^"'\s:$@]+):([^"'\s:$@]+)(?::([^"'\s:@]+))?(?::[^"'\s:@]+)?(?:@\w+)?["']`)
	// configuration group: 'g', name: 'a', version: 'v' (Groovy), or
	// configuration(group = "g", name = "a", version = "v") (Kotlin).
	gradleMapDep = lazyRegexp(`(?m)(?:^|[\s{;(])([A-Za-z][\w]*)[ \t]*\(*[ \t]*group[ \t]*[:=][ \t]*["']([^"']+)["'][ \t]*,[ \t]*name[ \t]*[:=][ \t]*["']([^"']+)["'](?:[ \t]*,[ \t]*version[ \t]*[:=][ \t]*["']([^"']+)["'])?`)
)

// gradleLibraryRefs is a configuration given libraries by name:
// "compile libraries.bytebuddy, libraries.bytebuddyagent",
// "testImplementation(deps.junit)".
// gradleIndexedRef names a library of a map: implementation(libraries["junit4"]).
var gradleIndexedRef = lazyRegexp(`(?m)(?:^|[\s{;])([A-Za-z]\w*)[ \t]*\(?[ \t]*([A-Za-z_]\w*)\[\s*["']([\w.-]+)["']\s*\][ \t]*\)?[ \t]*(?:\{|$)`)

var gradleLibraryRefs = lazyRegexp(`(?m)(?:^|[\s{;])([A-Za-z]\w*)[ \t]*\(?[ \t]*((?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*(?:[ \t]*,[ \t]*(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*)*)[ \t]*\)?[ \t]*(?:\{|$)`)

// gradleDependencies lists the dependencies of a script (comments and
// constraints removed), in order, each once; libs are the libraries it
// can name.
func gradleDependencies(script []byte, libs map[string]string) []gradleDep {
	var out []gradleDep
	seen := map[gradleDep]bool{}
	add := func(conf, g, a, v string) {
		dev, ok := gradleConfiguration(conf)
		if !ok || strings.Contains(g, "$") || strings.Contains(a, "$") {
			return
		}
		d := gradleDep{group: g, artifact: a, version: v, development: dev}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, m := range gradleStringDep().FindAllSubmatch(script, -1) {
		if len(m[2]) > 0 {
			continue // a platform: a BOM, not a dependency
		}
		add(string(m[1]), string(m[3]), string(m[4]), string(m[5]))
	}
	for _, m := range gradleMapDep().FindAllSubmatch(script, -1) {
		add(string(m[1]), string(m[2]), string(m[3]), string(m[4]))
	}
	if len(libs) > 0 {
		for _, m := range gradleIndexedRef().FindAllSubmatch(script, -1) {
			if coord, ok := libs[string(m[2])+"."+string(m[3])]; ok {
				if parts := strings.Split(coord, ":"); len(parts) >= 3 {
					add(string(m[1]), parts[0], parts[1], parts[2])
				}
			}
		}
		for _, m := range gradleLibraryRefs().FindAllSubmatch(script, -1) {
			for ref := range strings.SplitSeq(string(m[2]), ",") {
				coord, ok := lookupLibrary(libs, strings.TrimSpace(ref))
				if !ok {
					continue
				}
				parts := strings.Split(coord, ":")
				if len(parts) >= 3 {
					add(string(m[1]), parts[0], parts[1], parts[2])
				}
			}
		}
	}
	return out
}

// gradleConfiguration reports whether conf is a configuration that
// declares dependencies, and whether it is one only development uses
// (tests, annotation processors, the build script's own classpath, lint
// and static-analysis plugins).
func gradleConfiguration(conf string) (development, ok bool) {
	lc := strings.ToLower(conf)
	known := slices.ContainsFunc([]string{"implementation", "api", "compile", "compileonly", "runtime", "runtimeonly",
		"classpath", "annotationprocessor", "providedcompile", "providedruntime", "androidtestutil", "lintchecks", "detektplugins",
		"developmentonly"},
		func(s string) bool { return strings.HasSuffix(lc, s) }) || strings.HasPrefix(lc, "kapt") || strings.HasPrefix(lc, "ksp")
	if !known {
		return false, false
	}
	dev := strings.Contains(lc, "test") || strings.HasPrefix(lc, "kapt") || strings.HasPrefix(lc, "ksp") ||
		lc == "classpath" || lc == "annotationprocessor" || lc == "lintchecks" || lc == "detektplugins" ||
		strings.HasSuffix(lc, "developmentonly") // Spring Boot's devtools configuration
	return dev, true
}

var gradleRef = lazyRegexp(`\$\{([^}]+)\}|\$([A-Za-z_][\w.]*)`)

// resolveGradleVersion is a declared version with the properties it names
// filled in: "" when one is not known, or when the version is dynamic
// ("1.+", "latest.release") or a range, which only a resolution decides.
func resolveGradleVersion(v string, props map[string]string) string {
	if v == "" {
		return ""
	}
	unknown := false
	v = gradleRef().ReplaceAllStringFunc(v, func(ref string) string {
		m := gradleRef().FindStringSubmatch(ref)
		name := strings.TrimSpace(m[1] + m[2])
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".get()"), ".toString()")
		if val, ok := props[name]; ok {
			return val
		}
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			if val, ok := props[name[i+1:]]; ok {
				return val
			}
		}
		unknown = true
		return ref
	})
	v = strings.TrimSuffix(v, "!!") // Kotlin DSL's strict version
	if unknown || strings.ContainsAny(v, "+[]()$,") || strings.HasPrefix(v, "latest.") {
		return ""
	}
	return v
}
