package sbom_test

// Independent readings of the test lockfiles. Each reader derives the set of
// "name@version" a lockfile records with the least machinery that is still
// faithful to the format (a regular expression or a JSON decode), sharing no
// code with the package under test or with scalibr. They exist only to tell
// whether Extract found what the file says, and are not lockfile parsers for
// production use.

import (
	"bufio"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// reader returns the expected "name@version" set of one case directory.
type reader func(tb testing.TB, dir string) []string

func mustRead(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func mustJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	if err := json.Unmarshal(mustRead(tb, path), v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

func lines(tb testing.TB, path string) []string {
	tb.Helper()
	var out []string
	sc := bufio.NewScanner(strings.NewReader(string(mustRead(tb, path))))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func set(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// npmLockRead: lockfileVersion 2/3 read the "packages" map (every key with a
// node_modules/ segment is an installed package; links are not), version 1
// walks the nested "dependencies".
func npmLockRead(tb testing.TB, dir string) []string {
	var lock struct {
		Packages map[string]struct {
			Name    string `json:"name"`
			Version string `json:"version"`
			Link    bool   `json:"link"`
		} `json:"packages"`
		Dependencies map[string]json.RawMessage `json:"dependencies"`
	}
	mustJSON(tb, filepath.Join(dir, "package-lock.json"), &lock)
	var out []string
	if len(lock.Packages) > 0 {
		for key, p := range lock.Packages {
			i := strings.LastIndex(key, "node_modules/")
			if i < 0 || p.Link {
				continue
			}
			name := key[i+len("node_modules/"):]
			if p.Name != "" {
				name = p.Name
			}
			out = append(out, name+"@"+p.Version)
		}
		return set(out)
	}
	type dep struct {
		Version      string                     `json:"version"`
		Dependencies map[string]json.RawMessage `json:"dependencies"`
	}
	var walk func(map[string]json.RawMessage)
	walk = func(m map[string]json.RawMessage) {
		for name, raw := range m {
			var d dep
			if err := json.Unmarshal(raw, &d); err != nil {
				tb.Fatal(err)
			}
			out = append(out, name+"@"+d.Version)
			walk(d.Dependencies)
		}
	}
	walk(lock.Dependencies)
	return set(out)
}

// yarnRead handles both layouts: v1 (`version "1.2.3"`) and berry
// (`version: 1.2.3`). The name is the first descriptor of the entry header,
// cut at its last "@" (berry's "@npm:" protocol included); workspace entries
// of berry (version 0.0.0-use.local) are the project itself.
func yarnRead(tb testing.TB, dir string) []string {
	versionRe := regexp.MustCompile(`^  version:? "?([^"\s]+)"?$`)
	var out []string
	name, version := "", ""
	flush := func() {
		if name != "" && version != "" && version != "0.0.0-use.local" {
			out = append(out, name+"@"+version)
		}
		name, version = "", ""
	}
	for _, l := range lines(tb, filepath.Join(dir, "yarn.lock")) {
		switch {
		case l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "__metadata"):
			flush()
		case !strings.HasPrefix(l, " ") && strings.HasSuffix(l, ":"):
			flush()
			first := strings.Trim(strings.SplitN(strings.TrimSuffix(l, ":"), ",", 2)[0], `"`)
			at := strings.LastIndex(first, "@")
			if at <= 0 {
				tb.Fatalf("yarn header %q", l)
			}
			name = first[:at]
			if i := strings.Index(name, "@npm:"); i > 0 {
				name = name[:i]
			}
		case strings.HasPrefix(l, "  resolution: "):
			// berry: `resolution: "name@npm:1.2.3"` names the real package
			// (aliases such as string-width-cjs@npm:string-width@^4 and
			// patch: entries resolve to it).
			r := strings.Trim(strings.TrimPrefix(l, "  resolution: "), `"`)
			if at := strings.Index(r[1:], "@"); at >= 0 {
				name = r[:at+1]
			}
		default:
			if m := versionRe.FindStringSubmatch(l); m != nil {
				version = m[1]
			}
		}
	}
	flush()
	return set(out)
}

// bunRead reads the "packages" entries of a text bun.lock: each line
// `"key": ["name@version", ...]`.
func bunRead(tb testing.TB, dir string) []string {
	re := regexp.MustCompile(`^    "[^"]+": \["((?:@[^@"/]+/)?[^@"]+)@([^"]+)"`)
	var out []string
	for _, l := range lines(tb, filepath.Join(dir, "bun.lock")) {
		if m := re.FindStringSubmatch(l); m != nil {
			if strings.HasPrefix(m[2], "workspace:") {
				continue
			}
			out = append(out, m[1]+"@"+m[2])
		}
	}
	return set(out)
}

// pnpmRead reads the keys of the top-level "packages:" map of a v9 lockfile
// (`  name@version:` or `  '@scope/name@version':`).
func pnpmRead(tb testing.TB, dir string) []string {
	re := regexp.MustCompile(`^  '?((?:@[^@/]+/)?[^@']+)@([^':(]+)`)
	var out []string
	in := false
	for _, l := range lines(tb, filepath.Join(dir, "pnpm-lock.yaml")) {
		if !strings.HasPrefix(l, " ") && l != "" {
			in = l == "packages:"
			continue
		}
		if m := re.FindStringSubmatch(l); in && m != nil {
			out = append(out, m[1]+"@"+m[2])
		}
	}
	return set(out)
}

// requirementsRead reads `name==version` lines.
func requirementsRead(tb testing.TB, dir string) []string {
	re := regexp.MustCompile(`^([A-Za-z0-9._-]+)==([^\s\\;]+)`)
	var out []string
	for _, l := range lines(tb, filepath.Join(dir, "requirements.txt")) {
		if m := re.FindStringSubmatch(l); m != nil {
			out = append(out, m[1]+"@"+m[2])
		}
	}
	return set(out)
}

// tomlPackagesRead reads `name = "..."` and `version = "..."` of every
// [[package]] table (Cargo.lock, poetry.lock, uv.lock).
func tomlPackagesRead(file string) reader {
	return func(tb testing.TB, dir string) []string {
		kv := regexp.MustCompile(`^(name|version) = "([^"]+)"`)
		var out []string
		name, version, in := "", "", false
		flush := func() {
			if in && name != "" && version != "" {
				out = append(out, name+"@"+version)
			}
			name, version = "", ""
		}
		for _, l := range lines(tb, filepath.Join(dir, file)) {
			if strings.HasPrefix(l, "[") {
				if l == "[[package]]" {
					flush()
					in = true
				} else if !strings.HasPrefix(l, "[package.") {
					flush()
					in = false
				}
				continue
			}
			if m := kv.FindStringSubmatch(l); in && m != nil {
				if m[1] == "name" && name == "" {
					name = m[2]
				} else if m[1] == "version" && version == "" {
					version = m[2]
				}
			}
		}
		flush()
		return set(out)
	}
}

// pipfileRead reads "default" and "develop" of Pipfile.lock.
func pipfileRead(tb testing.TB, dir string) []string {
	var lock map[string]json.RawMessage
	mustJSON(tb, filepath.Join(dir, "Pipfile.lock"), &lock)
	var out []string
	for _, sec := range []string{"default", "develop"} {
		var pkgs map[string]struct {
			Version string `json:"version"`
		}
		if raw, ok := lock[sec]; ok {
			if err := json.Unmarshal(raw, &pkgs); err != nil {
				tb.Fatal(err)
			}
		}
		for name, p := range pkgs {
			if p.Version != "" {
				out = append(out, name+"@"+strings.TrimPrefix(p.Version, "=="))
			}
		}
	}
	return set(out)
}

// goModRead reads require directives (block and single-line) and the Go
// toolchain version, which scalibr reports as the "stdlib" module.
func goModRead(tb testing.TB, dir string) []string {
	req := regexp.MustCompile(`^(?:require\s+)?\s*([^\s()]+)\s+(v[^\s]+)`)
	var out []string
	inBlock := false
	goVersion, toolchain := "", ""
	for _, l := range lines(tb, filepath.Join(dir, "go.mod")) {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "require ("):
			inBlock = true
			continue
		case t == ")":
			inBlock = false
			continue
		case strings.HasPrefix(t, "go "):
			goVersion = strings.TrimPrefix(t, "go ")
		case strings.HasPrefix(t, "toolchain go"):
			toolchain = strings.TrimPrefix(t, "toolchain go")
		}
		if inBlock || strings.HasPrefix(t, "require ") {
			if m := req.FindStringSubmatch(t); m != nil {
				out = append(out, m[1]+"@"+strings.TrimPrefix(m[2], "v"))
			}
		}
	}
	// The standard library's version is the toolchain's; a go directive
	// alone is a minimum, and the library is then listed without a
	// version (gostd.go).
	_ = goVersion
	out = append(out, "stdlib@"+toolchain)
	return set(out)
}

// cargoProjectRead reads the [package] of a Cargo.toml: the project
// itself, which its Cargo.lock lists among the packages but which is not a
// dependency.
func cargoProjectRead(tb testing.TB, dir string) []string {
	var m struct {
		Package struct {
			Name    string `toml:"name"`
			Version string `toml:"version"`
		} `toml:"package"`
	}
	if _, err := toml.DecodeFile(filepath.Join(dir, "Cargo.toml"), &m); err != nil {
		tb.Fatal(err)
	}
	return []string{m.Package.Name + "@" + m.Package.Version}
}

// gradleRead reads `group:artifact:version=configurations` lines of every
// *.lockfile in the case (recursively).
func gradleRead(tb testing.TB, dir string) []string {
	re := regexp.MustCompile(`^([^#=:\s]+):([^:=\s]+):([^=\s]+)=`)
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".lockfile") {
			return err
		}
		for _, l := range lines(tb, p) {
			if m := re.FindStringSubmatch(l); m != nil {
				out = append(out, m[1]+":"+m[2]+"@"+m[3])
			}
		}
		return nil
	})
	return set(out)
}

// gemfileRead reads the four-space-indented `name (version)` lines of the
// specs of every source section (GEM, GIT, PATH).
func gemfileRead(tb testing.TB, dir string) []string {
	re := regexp.MustCompile(`^    ([^\s(]+) \(([^)]+)\)$`)
	var out []string
	for _, l := range lines(tb, filepath.Join(dir, "Gemfile.lock")) {
		if m := re.FindStringSubmatch(l); m != nil {
			// Platform gems ("1.2.3-x86_64-linux"): RubyGems versions have no
			// "-", so the version is what precedes the platform.
			v, _, _ := strings.Cut(m[2], "-")
			out = append(out, m[1]+"@"+v)
		}
	}
	return set(out)
}

// composerRead reads "packages" and "packages-dev".
func composerRead(tb testing.TB, dir string) []string {
	var lock map[string]json.RawMessage
	mustJSON(tb, filepath.Join(dir, "composer.lock"), &lock)
	var out []string
	for _, sec := range []string{"packages", "packages-dev"} {
		var pkgs []struct{ Name, Version string }
		if raw, ok := lock[sec]; ok {
			if err := json.Unmarshal(raw, &pkgs); err != nil {
				tb.Fatal(err)
			}
		}
		for _, p := range pkgs {
			out = append(out, p.Name+"@"+p.Version)
		}
	}
	return set(out)
}

// nugetRead reads every resolved package of every target framework (project
// references have no resolved version).
func nugetRead(tb testing.TB, dir string) []string {
	var lock struct {
		Dependencies map[string]map[string]struct {
			Resolved string `json:"resolved"`
		} `json:"dependencies"`
	}
	mustJSON(tb, filepath.Join(dir, "packages.lock.json"), &lock)
	var out []string
	for _, pkgs := range lock.Dependencies {
		for name, p := range pkgs {
			if p.Resolved != "" {
				out = append(out, name+"@"+p.Resolved)
			}
		}
	}
	return set(out)
}

// pubRead reads `  name:` entries under "packages:" and their
// `    version: "x"`.
func pubRead(tb testing.TB, dir string) []string {
	nameRe := regexp.MustCompile(`^  ([a-z0-9_]+):$`)
	verRe := regexp.MustCompile(`^    version: "([^"]+)"`)
	// A package with "source: path" is of the project's own tree, one
	// with "source: sdk" of the Flutter SDK, not pub.dev's: not components.
	var out []string
	in, name, version, source := false, "", "", ""
	flush := func() {
		if name != "" && version != "" && source != "path" && source != "sdk" {
			out = append(out, name+"@"+version)
		}
		name, version, source = "", "", ""
	}
	for _, l := range lines(tb, filepath.Join(dir, "pubspec.lock")) {
		if !strings.HasPrefix(l, " ") && l != "" {
			flush()
			in = l == "packages:"
			continue
		}
		if !in {
			continue
		}
		if m := nameRe.FindStringSubmatch(l); m != nil {
			flush()
			name = m[1]
		} else if m := verRe.FindStringSubmatch(l); m != nil && name != "" {
			version = m[1]
		} else if s, ok := strings.CutPrefix(l, "    source: "); ok {
			source = strings.TrimSpace(s)
		}
	}
	flush()
	return set(out)
}

// mixRead reads hex entries: `"name": {:hex, :name, "version", ...`.
func mixRead(tb testing.TB, dir string) []string {
	re := regexp.MustCompile(`^\s*"([^"]+)": \{:hex, :([^,]+), "([^"]+)"`)
	var out []string
	for _, l := range lines(tb, filepath.Join(dir, "mix.lock")) {
		if m := re.FindStringSubmatch(l); m != nil {
			out = append(out, m[2]+"@"+m[3])
		}
	}
	return set(out)
}

// fixed returns a hand-written expected set, read off a small file.
func fixed(want ...string) reader {
	return func(testing.TB, string) []string { return set(want) }
}

// pomCycloneDXTools: the <dependencies> of tools/pom.xml, versions from its
// <properties> and <dependencyManagement> (slf4j-api is only managed, not a
// dependency; slf4j-simple takes its managed version).
var pomCycloneDXTools = fixed(
	"com.mashape.unirest:unirest-java@1.4.9",
	"com.networknt:json-schema-validator@1.5.5",
	"commons-io:commons-io@2.17.0",
	"org.apache.commons:commons-lang3@3.18.0",
	"org.apache.commons:commons-text@1.12.0",
	"org.junit.jupiter:junit-jupiter-api@5.11.4",
	"org.slf4j:slf4j-simple@2.0.16",
)

// pomZeppelin: the <dependencies> of zeppelin-server's pom.xml plus those of
// its activeByDefault profile (hadoop3), versions resolved by hand from its
// properties and from parent/pom.xml's properties and
// <dependencyManagement>. The sibling module zeppelin-zengine is named
// ${project.groupId}:zeppelin-zengine at ${project.version}, the groupId
// and version the POM inherits from its parent.
var pomZeppelin = fixed(
	"ch.qos.reload4j:reload4j@1.2.25",
	"com.fasterxml.jackson.core:jackson-databind@2.12.6.1",
	"com.google.code.gson:gson@2.8.9",
	"com.nimbusds:nimbus-jose-jwt@9.13",
	"commons-beanutils:commons-beanutils@1.9.4",
	"commons-collections:commons-collections@3.2.2",
	"io.dropwizard.metrics:metrics-jmx@4.1.14",
	"io.dropwizard.metrics:metrics-servlets@4.1.14",
	"io.micrometer:micrometer-registry-jmx@1.6.0",
	"io.micrometer:micrometer-registry-prometheus@1.6.0",
	"javax.ws.rs:javax.ws.rs-api@2.1",
	"net.java.dev.jna:jna@4.1.0",
	"org.apache.directory.server:apacheds-kerberos-codec@2.0.0-M15",
	"org.apache.hadoop:hadoop-client-runtime@3.2.4",
	"org.apache.httpcomponents:httpclient@4.5.13",
	"org.apache.shiro:shiro-core@1.10.0",
	"org.apache.shiro:shiro-web@1.10.0",
	"org.apache.zeppelin:zeppelin-zengine@0.11.1",
	"org.bitbucket.cowwoc:diff-match-patch@1.1",
	"org.bouncycastle:bcpkix-jdk15on@1.70",
	"org.eclipse.jetty.websocket:javax-websocket-server-impl@9.4.52.v20230823",
	"org.eclipse.jetty:jetty-jmx@9.4.52.v20230823",
	"org.eclipse.jetty:jetty-webapp@9.4.52.v20230823",
	"org.glassfish.jersey.containers:jersey-container-servlet-core@2.30",
	"org.glassfish.jersey.core:jersey-client@2.30",
	"org.glassfish.jersey.core:jersey-server@2.30",
	"org.glassfish.jersey.inject:jersey-hk2@2.30",
	"org.glassfish.jersey.media:jersey-media-json-jackson@2.30",
	"org.hamcrest:hamcrest@2.2",
	"org.junit.jupiter:junit-jupiter-engine@5.7.1",
	"org.kohsuke:libpam4j@1.11",
	"org.mockito:mockito-core@3.12.4",
	"org.quartz-scheduler:quartz@2.3.2",
	"org.seleniumhq.selenium:selenium-java@2.48.2",
	"org.slf4j:jcl-over-slf4j@1.7.35",
	"org.slf4j:slf4j-reload4j@1.7.35",
	"xml-apis:xml-apis@1.4.01",
)

// swiftRead reads the pins of a SwiftPM Package.resolved (v1: object.pins
// with repositoryURL; v2 and v3: pins with location), each named by its
// location without scheme, default port or ".git", at its pinned version
// ("" for a branch or revision pin).
func swiftRead(tb testing.TB, dir string) []string {
	type pin struct {
		Location, RepositoryURL string
		State                   struct{ Version string }
	}
	var f struct {
		Pins   []pin
		Object struct{ Pins []pin }
	}
	mustJSON(tb, filepath.Join(dir, "Package.resolved"), &f)
	var out []string
	for _, p := range append(f.Pins, f.Object.Pins...) {
		loc := p.Location
		if loc == "" {
			loc = p.RepositoryURL
		}
		u, err := url.Parse(loc)
		if err != nil {
			tb.Fatalf("pin location %q: %v", loc, err)
		}
		out = append(out, u.Hostname()+strings.TrimSuffix(u.Path, ".git")+"@"+p.State.Version)
	}
	return set(out)
}
