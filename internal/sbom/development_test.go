package sbom_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// developmentOnly is the name@version of every component Extract marks as
// needed by development only.
func developmentOnly(cs []sentinel.Component) []string {
	out := []string{}
	for _, c := range cs {
		if c.Development {
			out = append(out, c.Name+"@"+c.Version)
		}
	}
	return set(out)
}

// TestDevelopmentMarks: the lockfiles that mark each package say which
// ones only development needs, and Extract says the same (read off each
// file here, in its own terms).
func TestDevelopmentMarks(t *testing.T) {
	read := func(t *testing.T, p string, v any) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(lockfiles, p))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	// only returns the keys whose every entry was development-only.
	only := func(seen map[string][]bool) []string {
		out := []string{}
	next:
		for k, devs := range seen {
			for _, d := range devs {
				if !d {
					continue next
				}
			}
			out = append(out, k)
		}
		return set(out)
	}
	cases := []struct {
		dir   string
		truth func(t *testing.T) []string
		least int // a floor, so that a case cannot pass on nothing
	}{
		{"npm-v2-dependabot-npm-helpers", func(t *testing.T) []string {
			var lock struct {
				Packages map[string]struct {
					Name, Version string
					Dev, Link     bool
				}
			}
			read(t, "npm-v2-dependabot-npm-helpers/package-lock.json", &lock)
			seen := map[string][]bool{}
			for k, e := range lock.Packages {
				i := strings.LastIndex(k, "node_modules/")
				if i < 0 || e.Link {
					continue
				}
				name := k[i+len("node_modules/"):]
				if e.Name != "" {
					name = e.Name
				}
				seen[name+"@"+e.Version] = append(seen[name+"@"+e.Version], e.Dev)
			}
			return only(seen)
		}, 300},
		{"composer-dependabot-helpers-v2", func(t *testing.T) []string {
			type pkg struct{ Name, Version string }
			var lock struct {
				Packages    []pkg `json:"packages"`
				PackagesDev []pkg `json:"packages-dev"`
			}
			read(t, "composer-dependabot-helpers-v2/composer.lock", &lock)
			seen := map[string][]bool{}
			for k, ps := range [][]pkg{lock.Packages, lock.PackagesDev} {
				for _, p := range ps {
					key := p.Name + "@" + p.Version
					seen[key] = append(seen[key], k == 1)
				}
			}
			return only(seen)
		}, 10},
		{"pipenv-pipenv", func(t *testing.T) []string {
			type entry struct{ Version string }
			var lock struct {
				Default map[string]entry `json:"default"`
				Develop map[string]entry `json:"develop"`
			}
			read(t, "pipenv-pipenv/Pipfile.lock", &lock)
			seen := map[string][]bool{}
			for k, m := range []map[string]entry{lock.Default, lock.Develop} {
				for n, e := range m {
					if v, ok := strings.CutPrefix(e.Version, "=="); ok {
						seen[n+"@"+v] = append(seen[n+"@"+v], k == 1)
					}
				}
			}
			return only(seen)
		}, 50},
		{"maven-cyclonedx-spec-tools", func(t *testing.T) []string {
			var pom struct {
				Dependencies []struct {
					GroupID    string `xml:"groupId"`
					ArtifactID string `xml:"artifactId"`
					Scope      string `xml:"scope"`
				} `xml:"dependencies>dependency"`
			}
			b, err := os.ReadFile(filepath.Join(lockfiles, "maven-cyclonedx-spec-tools/pom.xml"))
			if err != nil {
				t.Fatal(err)
			}
			if err := xml.Unmarshal(b, &pom); err != nil {
				t.Fatal(err)
			}
			// Versions are properties: compared by name.
			out := []string{}
			for _, d := range pom.Dependencies {
				if d.Scope == "test" {
					out = append(out, d.GroupID+":"+d.ArtifactID)
				}
			}
			return set(out)
		}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.dir, func(t *testing.T) {
			want := tc.truth(t)
			if len(want) < tc.least {
				t.Fatalf("the file marks %d packages, want at least %d: the truth is misread", len(want), tc.least)
			}
			res := mustExtract(t, filepath.Join(lockfiles, tc.dir))
			got := developmentOnly(res.Components)
			if strings.HasPrefix(tc.dir, "maven-") {
				for i, g := range got {
					got[i], _, _ = strings.Cut(g, "@")
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("development-only components (-file +Extract):\n%s", diff)
			}
		})
	}
}

// TestDevelopmentReachability: where the lockfile marks nothing, the
// packages reachable only from what the manifest declares for development
// are development-only; a package a runtime dependency also needs is not.
// The poetry.lock here (Poetry 1.5 to 1.8) has neither category nor groups.
func TestDevelopmentReachability(t *testing.T) {
	res := mustExtract(t, filepath.Join(lockfiles, "poetry-ossfuzzvulns-infra"))
	// pyproject.toml's dev group is pylint, yapf and pyright; the rest
	// is what poetry.lock says those need, and nothing in the main group
	// needs (platformdirs comes with both yapf and pylint; colorama with
	// pylint on Windows).
	want := []string{"astroid", "colorama", "dill", "isort", "mccabe", "nodeenv", "platformdirs", "pylint", "pyright", "tomlkit", "yapf"}
	var got []string
	for _, nv := range developmentOnly(res.Components) {
		n, _, _ := strings.Cut(nv, "@")
		got = append(got, n)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("development-only (-want +got):\n%s", diff)
	}
}

// TestDevelopmentMerge: a package is development-only when every file that
// lists it says so; the mark survives an SBOM written and read back, and
// OmitDevelopment removes the marked components and the edges to them.
func TestDevelopmentMerge(t *testing.T) {
	lock := func(devLodash bool) string {
		return `{"name": "x", "lockfileVersion": 3, "packages": {
  "": {"name": "x", "dependencies": {"ms": "2.1.3"}, "devDependencies": {"lodash": "4.17.21", "mocha-ish": "1.0.0"}},
  "node_modules/ms": {"version": "2.1.3"},
  "node_modules/mocha-ish": {"version": "1.0.0", "dev": true, "dependencies": {"lodash": "4.17.21"}},
  "node_modules/lodash": {"version": "4.17.21"` + map[bool]string{true: `, "dev": true`, false: ``}[devLodash] + `}}}`
	}
	fsys := fstest.MapFS{
		"a/package-lock.json": {Data: []byte(lock(true))},
		"b/package-lock.json": {Data: []byte(lock(false))},
		"c/package-lock.json": {Data: []byte(lock(true))},
	}
	res, err := sbom.Extract(context.Background(), "tree", sbom.Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := developmentOnly(res.Components), []string{"mocha-ish@1.0.0"}; !cmp.Equal(got, want) {
		t.Errorf("development-only = %v, want %v (lodash is a runtime package in b)", got, want)
	}
	// Without b, lodash is development-only.
	delete(fsys, "b/package-lock.json")
	if res, err = sbom.Extract(context.Background(), "tree", sbom.Options{FS: fsys}); err != nil {
		t.Fatal(err)
	}
	if got, want := developmentOnly(res.Components), []string{"lodash@4.17.21", "mocha-ish@1.0.0"}; !cmp.Equal(got, want) {
		t.Errorf("development-only = %v, want %v", got, want)
	}

	// Written (scope "excluded") and read back.
	var buf bytes.Buffer
	if err := sbom.Encode(&buf, sbom.NewBOM(res.Components, sbom.BOMOptions{Projects: res.Projects})); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), `"scope": "excluded"`); n != 2 {
		t.Errorf("the SBOM has %d components of scope excluded, want 2", n)
	}
	back, err := sbom.ReadSBOM(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := developmentOnly(back.Components), developmentOnly(res.Components); !cmp.Equal(got, want) {
		t.Errorf("read back: development-only = %v, want %v", got, want)
	}

	if n := back.OmitDevelopment(nil); n != 2 {
		t.Errorf("OmitDevelopment removed %d, want 2", n)
	}
	for _, c := range append(back.Components, back.Projects...) {
		if c.Development {
			t.Errorf("%s kept", c.Purl)
		}
		for _, d := range c.DependsOn {
			if strings.Contains(d, "lodash") || strings.Contains(d, "mocha-ish") {
				t.Errorf("%s still depends on %s", c.Purl, d)
			}
		}
	}
	if got := nameVersions(back.Components); !cmp.Equal(got, []string{"ms@2.1.3"}) {
		t.Errorf("kept %v, want ms only", got)
	}
}

// TestDevelopmentPackageManagers: one workspace whose development trees
// overlap its production ones, installed by npm, pnpm, Yarn 4, Yarn 1 and
// bun; each tool's own production install (prod.txt) and full install
// (all.txt) are the truth. A package the tool installs for production is
// not development-only, one it installs only with development is, and so
// is one its lockfile lists that it never installs here (fsevents, macOS
// only, under mocha; Yarn 4's node-gyp for it).
func TestDevelopmentPackageManagers(t *testing.T) {
	for _, tool := range []string{"npm", "pnpm", "yarn", "yarn-v1", "bun"} {
		t.Run(tool, func(t *testing.T) {
			checkInstalls(t, "testdata/package-managers/dev/"+tool, func(c sentinel.Component) string { return c.Name + "@" + c.Version }, 70)
		})
	}
}

// TestDevelopmentPython: one project with a development group that shares
// click with flask, locked by Poetry 2.3 (groups), Poetry 1.8 (no marks:
// pyproject.toml's groups through the graph) and pipenv; the truth is
// each tool's export without and with development.
func TestDevelopmentPython(t *testing.T) {
	pep503 := func(c sentinel.Component) string {
		return strings.ToLower(regexp.MustCompile(`[-_.]+`).ReplaceAllString(c.Name, "-")) + "==" + c.Version
	}
	for _, tool := range []string{"poetry2", "poetry18", "pipenv"} {
		t.Run(tool, func(t *testing.T) {
			checkInstalls(t, "testdata/python-dev/"+tool, pep503, 10)
		})
	}
}

// checkInstalls holds the components Extract finds in dir to what the
// tool that wrote its lockfile installs for production (prod.txt) and
// with development (all.txt), one key a line: installed for production
// is not development-only, installed only with development is, and a
// package the lockfile lists that the tool does not install here (for
// another platform) is development-only too.
func checkInstalls(t *testing.T, dir string, key func(sentinel.Component) string, least int) {
	t.Helper()
	lines := func(p string) map[string]bool {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, l := range strings.Fields(string(b)) {
			m[l] = true
		}
		return m
	}
	prod, all := lines("prod.txt"), lines("all.txt")
	if len(prod) < least {
		t.Fatalf("prod.txt lists %d packages: misread", len(prod))
	}
	res := mustExtract(t, dir)
	devs := 0
	for _, c := range res.Components {
		if strings.HasPrefix(c.Purl, "pkg:generic/") {
			continue // the runtime the project pins (runtimes.go), which the package manager does not install
		}
		k, dev := key(c), c.Development
		if dev {
			devs++
		}
		switch {
		case prod[k] && dev:
			t.Errorf("%s is marked development-only; the tool installs it for production", k)
		case all[k] && !prod[k] && !dev:
			t.Errorf("%s is not marked development-only; the tool installs it only with development", k)
		case !all[k] && !dev:
			t.Errorf("%s, which the tool does not install here, is not marked development-only", k)
		}
	}
	if want := len(all) - len(prod); devs < want {
		t.Errorf("%d components marked development-only, the tool installs %d only with development", devs, want)
	}
}

// TestDevelopmentGradle: a Gradle lockfile's configurations say what a
// package serves. bip39 is a Kotlin multiplatform library: what it ships
// with is okio for each platform, the Kotlin standard library and
// JetBrains' annotations; its tests, linters (ktlint, detekt), docs
// (dokka) and build script (buildscript-gradle.lockfile) are development.
func TestDevelopmentGradle(t *testing.T) {
	res := mustExtract(t, filepath.Join(lockfiles, "gradle-kotlin-bip39"))
	var runtime []string
	devs := 0
	for _, c := range res.Components {
		if c.Development {
			devs++
		} else {
			runtime = append(runtime, c.Name)
		}
	}
	want := []string{"org.jetbrains.kotlin:kotlin-stdlib", "org.jetbrains:annotations", "com.squareup.okio:okio"}
	for _, p := range []string{"iosarm64", "iossimulatorarm64", "iosx64", "linuxx64", "macosarm64", "macosx64", "mingwx64",
		"tvosarm64", "tvossimulatorarm64", "tvosx64", "watchosarm32", "watchosarm64", "watchossimulatorarm64", "watchosx64"} {
		want = append(want, "com.squareup.okio:okio-"+p)
	}
	if diff := cmp.Diff(set(want), set(runtime)); diff != "" {
		t.Errorf("runtime components (-want +got):\n%s", diff)
	}
	if devs < 300 {
		t.Errorf("%d development-only components, want the 300 and more of the build, tests and linters", devs)
	}
}

// TestDevelopmentCargo: a Cargo workspace's dev-dependencies (lapce-app's
// criterion, for benchmarks) and the crates only they need are
// development-only; Cargo.lock's edges, read here on their own, say which
// those are: reachable from criterion, and not from any other dependency
// of the workspace's crates. A member whose Cargo.toml is not there
// (ripgrep's crates/*, left out of its test data) counts as runtime.
func TestDevelopmentCargo(t *testing.T) {
	const dir = "testdata/sources/cargo-lapce"
	var lock struct {
		Package []struct {
			Name, Version, Source string
			Dependencies          []string
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "Cargo.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(b, &lock); err != nil {
		t.Fatal(err)
	}
	byName := map[string][]string{} // name -> name@version
	for _, p := range lock.Package {
		byName[p.Name] = append(byName[p.Name], p.Name+"@"+p.Version)
	}
	next := map[string][]string{}
	var local []string
	for _, p := range lock.Package {
		k := p.Name + "@" + p.Version
		if p.Source == "" {
			local = append(local, k)
		}
		for _, d := range p.Dependencies {
			f := strings.Fields(d)
			if len(f) >= 2 {
				next[k] = append(next[k], f[0]+"@"+f[1])
			} else if vs := byName[f[0]]; len(vs) == 1 {
				next[k] = append(next[k], vs[0])
			}
		}
	}
	// The workspace's crates are not followed: each one's own
	// dependencies are the starts.
	reach := func(from []string) map[string]bool {
		seen := map[string]bool{}
		stack := slices.Clone(from)
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[k] || slices.Contains(local, k) {
				continue
			}
			seen[k] = true
			stack = append(stack, next[k]...)
		}
		return seen
	}
	// Runtime: everything the workspace's crates need but criterion.
	var starts []string
	for _, l := range local {
		for _, d := range next[l] {
			if !strings.HasPrefix(d, "criterion@") {
				starts = append(starts, d)
			}
		}
	}
	runtime := reach(starts)
	var want []string
	for k := range reach(byName["criterion"]) {
		if !runtime[k] {
			want = append(want, k)
		}
	}
	want = set(want)
	if len(want) < 5 {
		t.Fatalf("criterion alone needs %d crates: misread", len(want))
	}
	res := mustExtract(t, dir)
	if diff := cmp.Diff(want, developmentOnly(res.Components)); diff != "" {
		t.Errorf("development-only crates (-Cargo.lock +Extract):\n%s", diff)
	}
	if got := developmentOnly(mustExtract(t, filepath.Join(lockfiles, "cargo-ripgrep")).Components); len(got) != 0 {
		t.Errorf("ripgrep: development-only %v; its members' manifests are not there, so nothing is known", got)
	}
}

// TestDevelopmentFromSBOMs: the SBOMs npm and cyclonedx-npm wrote of one
// project say what its lockfile says. npm's SPDX names the project's
// devDependencies with DEV_DEPENDENCY_OF (the rest follows its graph);
// cyclonedx-npm marks each installed copy cdx:npm:package:development.
// npm's own CycloneDX marks a package by one of its copies: one the
// lockfile installs both for development and for production (ms 2.1.3,
// also under send) is marked there, and only there.
func TestDevelopmentFromSBOMs(t *testing.T) {
	const dir = "testdata/sboms"
	want := developmentOnly(mustExtract(t, filepath.Join(dir, "express-tree")).Components)
	if len(want) < 200 {
		t.Fatalf("the lockfile gives %d development-only packages: misread", len(want))
	}
	read := func(t *testing.T, name string) []string {
		res, err := sbom.ReadSBOMFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return developmentOnly(res.Components)
	}
	for _, name := range []string{"npm-11.19.1-express.spdx.json", "cyclonedx-npm-express.cdx.json", "cyclonedx-npm-express.cdx.xml"} {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(want, read(t, name)); diff != "" {
				t.Errorf("development-only (-lockfile +SBOM):\n%s", diff)
			}
		})
	}
	t.Run("npm-11.19.1-express.cdx.json", func(t *testing.T) {
		var lock struct {
			Packages map[string]struct {
				Version string
				Dev     bool
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, "express-tree/package-lock.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &lock); err != nil {
			t.Fatal(err)
		}
		ways := map[string]map[bool]bool{}
		for k, e := range lock.Packages {
			if i := strings.LastIndex(k, "node_modules/"); i >= 0 {
				nv := k[i+len("node_modules/"):] + "@" + e.Version
				if ways[nv] == nil {
					ways[nv] = map[bool]bool{}
				}
				ways[nv][e.Dev] = true
			}
		}
		both := slices.Clone(want)
		for nv, w := range ways {
			if w[true] && w[false] {
				both = append(both, nv)
			}
		}
		if diff := cmp.Diff(set(both), read(t, "npm-11.19.1-express.cdx.json")); diff != "" {
			t.Errorf("development-only (-lockfile, with the packages installed both ways +SBOM):\n%s", diff)
		}
	})
}

// TestDevelopmentSPDX3: an SPDX 3 dependency whose lifecycle scope is
// development (or test, build, design) is for development only, and so
// is what only it needs.
func TestDevelopmentSPDX3(t *testing.T) {
	doc := `{
  "@context": "https://spdx.org/rdf/3.0.1/spdx-context.jsonld",
  "@graph": [
    {"type": "CreationInfo", "@id": "_:ci", "specVersion": "3.0.1"},
    {"type": "SpdxDocument", "spdxId": "urn:doc", "rootElement": ["urn:app"]},
    {"type": "software_Package", "spdxId": "urn:app", "name": "app", "software_packageVersion": "1.0.0", "software_packageUrl": "pkg:npm/app@1.0.0", "software_primaryPurpose": "application"},
    {"type": "software_Package", "spdxId": "urn:ms", "name": "ms", "software_packageVersion": "2.1.3", "software_packageUrl": "pkg:npm/ms@2.1.3"},
    {"type": "software_Package", "spdxId": "urn:mocha", "name": "mocha", "software_packageVersion": "10.2.0", "software_packageUrl": "pkg:npm/mocha@10.2.0"},
    {"type": "software_Package", "spdxId": "urn:diff", "name": "diff", "software_packageVersion": "5.0.0", "software_packageUrl": "pkg:npm/diff@5.0.0"},
    {"type": "Relationship", "spdxId": "urn:r1", "from": "urn:app", "relationshipType": "dependsOn", "to": ["urn:ms"]},
    {"type": "LifecycleScopedRelationship", "spdxId": "urn:r2", "from": "urn:app", "relationshipType": "dependsOn", "to": ["urn:mocha"], "scope": "development"},
    {"type": "Relationship", "spdxId": "urn:r3", "from": "urn:mocha", "relationshipType": "dependsOn", "to": ["urn:diff", "urn:ms"]}
  ]
}`
	res, err := sbom.ReadSBOM([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := developmentOnly(res.Components), []string{"diff@5.0.0", "mocha@10.2.0"}; !cmp.Equal(got, want) {
		t.Errorf("development-only = %v, want %v (ms is the application's too)", got, want)
	}
}

// TestDevelopmentBundler: rubygems.org's Rails application; the truth is
// Bundler's own resolution of its Gemfile and Gemfile.lock for every group
// but development and test (prod.txt) and for all (all.txt). minitest and
// rack-test, in the test group, are Rails' own dependencies too; racc
// comes with nokogiri, listed once per platform.
func TestDevelopmentBundler(t *testing.T) {
	checkInstalls(t, "testdata/ruby-dev/rubygems.org", func(c sentinel.Component) string { return c.Name + "@" + c.Version }, 200)
	// Its Gemfile.lock records the Ruby it runs on (RUBY VERSION).
	if !slices.Contains(purlsOf(mustExtract(t, "testdata/ruby-dev/rubygems.org")), "pkg:generic/ruby@4.0.6") {
		t.Error("the Ruby of RUBY VERSION (4.0.6) is not a component")
	}
}

// TestDevelopmentMix: bamboo's mix.exs declares its test and
// documentation tools "only: [:dev, :test]", ":dev" or ":test"; they and
// what only they need (mix.lock's dependency lists) are development-only,
// read here off the two files line by line.
func TestDevelopmentMix(t *testing.T) {
	const dir = lockfiles + "/mix-bamboo"
	exs, lock := mustRead(t, dir+"/mix.exs"), mustRead(t, dir+"/mix.lock")
	var devRoots, prodRoots []string
	inDeps := false
	for _, line := range strings.Split(string(exs), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "defp deps do"):
			inDeps = true
		case inDeps && line == "end":
			inDeps = false
		case inDeps && strings.HasPrefix(line, "{:"):
			name, _, _ := strings.Cut(line[2:], ",")
			if strings.Contains(line, "only:") && !strings.Contains(line, "prod") {
				devRoots = append(devRoots, name)
			} else {
				prodRoots = append(prodRoots, name)
			}
		}
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(string(lock), "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), `": {:hex, `)
		if !ok {
			continue
		}
		name = strings.TrimPrefix(name, `"`)
		deps[name] = []string{}
		for _, f := range strings.Split(rest, "{:")[1:] {
			d, _, _ := strings.Cut(f, ",")
			deps[name] = append(deps[name], d)
		}
	}
	reach := func(from []string) map[string]bool {
		seen := map[string]bool{}
		for len(from) > 0 {
			n := from[len(from)-1]
			from = from[:len(from)-1]
			if !seen[n] {
				seen[n] = true
				from = append(from, deps[n]...)
			}
		}
		return seen
	}
	if len(devRoots) < 5 || len(prodRoots) < 4 {
		t.Fatalf("mix.exs misread: development %v, runtime %v", devRoots, prodRoots)
	}
	prod := reach(prodRoots)
	want := []string{}
	for n := range reach(devRoots) {
		if _, locked := deps[n]; locked && !prod[n] { // an optional dependency not installed is not locked
			want = append(want, n)
		}
	}
	res := mustExtract(t, dir)
	got := []string{}
	for _, c := range res.Components {
		if c.Development {
			got = append(got, c.Name)
		}
	}
	if diff := cmp.Diff(set(want), set(got)); diff != "" {
		t.Errorf("development-only (-files +Extract):\n%s", diff)
	}
}

// TestDevelopmentSetuptools: what setup.py and setup.cfg give
// tests_require and setup_requires is development-only, unless another
// list needs it too (requests' PySocks, a test requirement and the socks
// extra); read by hand from the files.
func TestDevelopmentSetuptools(t *testing.T) {
	for dir, want := range map[string][]string{
		"python-setup-py":   {"numpy@1.11.0", "pytest-runner@", "pytest@2.9.1", "responses@0.5.1"},
		"python-setup-vars": {"pytest-cov@", "pytest-httpbin@0.0.7", "pytest-mock@", "pytest-xdist@", "pytest@2.8.0"},
		"python-setup-cfg":  {"pytest@7.0", "setuptools@68.0"},
	} {
		t.Run(dir, func(t *testing.T) {
			res := mustExtract(t, "testdata/lock-variants/"+dir)
			if diff := cmp.Diff(set(want), developmentOnly(res.Components)); diff != "" {
				t.Errorf("development-only (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDevelopmentMixUmbrella: in an umbrella, the apps declare most
// dependencies. credo, "only: :dev" at the root, needs jason, which the
// web app needs at runtime: jason is not development-only. Without the
// apps' mix.exs files, what they need is unknown, and nothing is called
// development-only.
func TestDevelopmentMixUmbrella(t *testing.T) {
	lock := `%{
  "credo": {:hex, :credo, "1.7.0", "aaaa", [:mix], [{:jason, "~> 1.0", [hex: :jason, repo: "hexpm", optional: false]}], "hexpm", "bbbb"},
  "ex_doc": {:hex, :ex_doc, "0.30.0", "aaaa", [:mix], [], "hexpm", "bbbb"},
  "jason": {:hex, :jason, "1.4.0", "aaaa", [:mix], [], "hexpm", "bbbb"},
}
`
	root := `defmodule Umbrella.MixProject do
  use Mix.Project
  def project do
    [apps_path: "apps", deps: deps()]
  end
  defp deps do
    [{:credo, "~> 1.7", only: [:dev, :test], runtime: false}]
  end
end
`
	web := `defmodule Web.MixProject do
  use Mix.Project
  def project do
    [app: :web, version: "0.1.0", deps: deps()]
  end
  defp deps do
    [{:jason, "~> 1.4"}, {:ex_doc, "~> 0.30", only: :dev}]
  end
end
`
	fsys := fstest.MapFS{"mix.lock": {Data: []byte(lock)}, "mix.exs": {Data: []byte(root)}, "apps/web/mix.exs": {Data: []byte(web)}}
	res, err := sbom.Extract(context.Background(), "umbrella", sbom.Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if got := developmentOnly(res.Components); !cmp.Equal(got, []string{"credo@1.7.0", "ex_doc@0.30.0"}) {
		t.Errorf("development-only %v, want credo and ex_doc", got)
	}
	delete(fsys, "apps/web/mix.exs")
	if res, err = sbom.Extract(context.Background(), "umbrella", sbom.Options{FS: fsys}); err != nil {
		t.Fatal(err)
	}
	if got := developmentOnly(res.Components); len(got) != 0 {
		t.Errorf("development-only %v without the apps' manifests, want none", got)
	}
}

// TestDevelopmentGoTool: a go.mod that Go 1.26 wrote for a module that
// imports golang.org/x/mod and runs stringer as a tool ("go get -tool",
// "go mod tidy"): the tool's module, which the code does not import (its
// requirement is "// indirect"), is development-only; x/sync, which
// go.mod does not say who needs, is not.
func TestDevelopmentGoTool(t *testing.T) {
	res := mustExtract(t, "testdata/lock-variants/go-tool")
	if got := developmentOnly(res.Components); !cmp.Equal(got, []string{"golang.org/x/tools@0.30.0"}) {
		t.Errorf("development-only %v, want golang.org/x/tools alone", got)
	}
	if p := res.MainProject(); p == nil || !slices.Contains(p.DependsOn, "pkg:golang/golang.org/x/tools@0.30.0") {
		t.Errorf("project %+v: want the tool's module among its direct dependencies", p)
	}
}

// TestDevelopmentPnpmMarks: pnpm 5 to 8 mark every package "dev: true" or
// "dev: false"; Extract says what the file says.
func TestDevelopmentPnpmMarks(t *testing.T) {
	for _, name := range []string{"mixed-groups.v53.yaml", "mixed-groups.v54.yaml", "mixed-groups.v6.yaml"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata/pnpm-scalibr", name))
			if err != nil {
				t.Fatal(err)
			}
			var lock struct {
				Packages map[string]struct{ Dev bool }
			}
			if err := yaml.Unmarshal(b, &lock); err != nil {
				t.Fatal(err)
			}
			want := []string{}
			for k, p := range lock.Packages {
				if p.Dev {
					// "/is-number@7.0.0" (v6) or "/is-number/7.0.0" (v5)
					k = strings.TrimPrefix(k, "/")
					if i := strings.LastIndex(k, "@"); i > 0 {
						want = append(want, k)
					} else if i := strings.LastIndex(k, "/"); i > 0 {
						want = append(want, k[:i]+"@"+k[i+1:])
					}
				}
			}
			if len(want) == 0 {
				t.Fatal("the file marks no package dev: misread")
			}
			res, err := sbom.Extract(context.Background(), "p", sbom.Options{FS: fstest.MapFS{"pnpm-lock.yaml": {Data: b}}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(set(want), developmentOnly(res.Components)); diff != "" {
				t.Errorf("development-only (-file +Extract):\n%s", diff)
			}
		})
	}
}

// TestDevelopmentUV: uv.lock records the project's dependency groups on
// its own entry (and a virtual workspace root's under [manifest]); the
// packages reachable only from those, read here off uv.lock's own edges,
// are development-only.
func TestDevelopmentUV(t *testing.T) {
	const dir = lockfiles + "/uv-fullstack-fastapi-template"
	type dep struct {
		Name  string
		Extra []string
	}
	var lock struct {
		Package []struct {
			Name   string
			Source struct {
				Virtual, Editable string
			}
			Dependencies         []dep
			OptionalDependencies map[string][]dep `toml:"optional-dependencies"`
			DevDependencies      map[string][]dep `toml:"dev-dependencies"`
		}
		Manifest struct {
			DependencyGroups map[string][]dep `toml:"dependency-groups"`
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "uv.lock"))
	if err != nil {
		t.Fatal(err)
	}
	if err := toml.Unmarshal(b, &lock); err != nil {
		t.Fatal(err)
	}
	// A dependency with extras ("fastapi[standard]") needs the packages
	// those extras name too.
	deps := map[string][]dep{}
	extras := map[string]map[string][]dep{}
	local := map[string]bool{}
	var runtime, dev []dep
	for _, p := range lock.Package {
		deps[p.Name], extras[p.Name] = p.Dependencies, p.OptionalDependencies
		if p.Source.Virtual == "" && p.Source.Editable == "" {
			continue
		}
		local[p.Name] = true
		runtime = append(runtime, p.Dependencies...)
		for _, g := range p.OptionalDependencies {
			runtime = append(runtime, g...)
		}
		for _, g := range p.DevDependencies {
			dev = append(dev, g...)
		}
	}
	for _, g := range lock.Manifest.DependencyGroups {
		dev = append(dev, g...)
	}
	reach := func(from []dep) map[string]bool {
		seen := map[string]bool{}
		for stack := slices.Clone(from); len(stack) > 0; {
			d := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if local[d.Name] {
				continue
			}
			for _, e := range d.Extra {
				stack = append(stack, extras[d.Name][e]...)
			}
			if !seen[d.Name] {
				seen[d.Name] = true
				stack = append(stack, deps[d.Name]...)
			}
		}
		return seen
	}
	run := reach(runtime)
	want := []string{}
	for n := range reach(dev) {
		if !run[n] {
			want = append(want, n)
		}
	}
	want = set(want)
	if len(want) < 5 {
		t.Fatalf("uv.lock's groups alone need %d packages: misread", len(want))
	}
	var got []string
	for _, nv := range developmentOnly(mustExtract(t, dir).Components) {
		n, _, _ := strings.Cut(nv, "@")
		got = append(got, n)
	}
	if diff := cmp.Diff(want, set(got)); diff != "" {
		t.Errorf("development-only (-uv.lock +Extract):\n%s", diff)
	}
}

// TestDevelopmentWorkspaceInstalled: npm installs a workspace member's own
// copy of a devDependency (is-number 6.0.0, where the root has 7.0.0) in
// the member's node_modules. The root's package-lock.json records it, dev
// included; the installed manifest, which says nothing of development, is
// not read as well (it was: the copy came out needed at runtime, and
// --omit-dev kept it).
func TestDevelopmentWorkspaceInstalled(t *testing.T) {
	res := mustExtract(t, "testdata/lock-variants/npm-workspace-installed")
	if diff := cmp.Diff([]string{"is-number@6.0.0", "is-number@7.0.0"}, developmentOnly(res.Components)); diff != "" {
		t.Errorf("development-only (-want +got):\n%s", diff)
	}
	for _, c := range res.Components {
		if !slices.Equal(c.Locations, []string{"package-lock.json"}) {
			t.Errorf("%s@%s found in %v, want the lockfile only", c.Name, c.Version, c.Locations)
		}
	}
}

// TestDevelopmentMixComments: a comment in mix.exs names nothing: bamboo's
// mix.exs with its credo tuple spread over lines around a "# prod" note,
// and a dependency commented out, gives what the file as written gives.
func TestDevelopmentMixComments(t *testing.T) {
	const src = lockfiles + "/mix-bamboo"
	exs := string(mustRead(t, src+"/mix.exs"))
	const credo = `{:credo, ">= 0.0.0", only: [:dev, :test]},`
	if !strings.Contains(exs, credo) {
		t.Fatal("bamboo's mix.exs has no credo tuple")
	}
	exs = strings.Replace(exs, credo, "# {:poison, \"~> 3.0\", only: :prod},\n      {:credo, \">= 0.0.0\", only:\n        [:test,\n         # prod,\n         :dev]},", 1)
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "mix.exs"), []byte(exs))
	mustWrite(t, filepath.Join(dir, "mix.lock"), mustRead(t, src+"/mix.lock"))
	summary := func(res *sbom.Result) []string {
		var out []string
		for _, c := range res.Components {
			out = append(out, fmt.Sprintf("%s %v", c.Purl, c.Development))
		}
		slices.Sort(out)
		return out
	}
	want, got := summary(mustExtract(t, src)), summary(mustExtract(t, dir))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-as written +with comments):\n%s", diff)
	}
}
