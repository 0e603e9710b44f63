package sbom_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

const lockfiles = "testdata/lockfiles"

// lockCase is one directory of testdata/lockfiles.
type lockCase struct {
	dir       string
	ecosystem string
	read      reader
	// missing are packages the file records that scalibr v0.5.3 does not
	// report, with the reason in a comment. The test checks that they are
	// still missing, so an upgrade that finds them is noticed.
	missing []string
	// project, when set, reads the project's own manifest: the lockfile
	// lists the project among its packages, and Extract reports it as the
	// project (Result.Projects), not as a component.
	project reader
}

// lockCases lists every case directory; TestLockCasesComplete checks that no
// directory is missing.
var lockCases = []lockCase{
	{"bun-hono", "npm", bunRead, nil, nil},
	{"cargo-ripgrep", "crates.io", tomlPackagesRead("Cargo.lock"), nil, cargoProjectRead},
	{"composer-dependabot-helpers-v2", "Packagist", composerRead, nil, nil},
	{"go-pkgsite", "Go", goModRead, nil, nil},
	{"go-vulndb", "Go", goModRead, nil, nil},
	{"gradle-kotlin-bip39", "Maven", gradleRead, nil, nil},
	{"maven-cyclonedx-spec-tools", "Maven", pomCycloneDXTools, nil, nil},
	{"maven-zeppelin-server-scalibr", "Maven", pomZeppelin, nil, nil},
	{"mix-bamboo", "Hex", mixRead, nil, nil},
	{"npm-v1-pkgsite-2020", "npm", npmLockRead, nil, nil},
	{"npm-v2-dependabot-npm-helpers", "npm", npmLockRead, nil, nil},
	{"npm-v2-endoflife-site", "npm", npmLockRead, nil, nil},
	{"npm-v3-pkgsite", "npm", npmLockRead, nil, nil},
	{"npm-v3-retirejs-chrome", "npm", npmLockRead, nil, nil},
	{"nuget-bitwarden-api", "NuGet", nugetRead, nil, nil},
	{"nuget-simpletweaks-small", "NuGet", nugetRead, nil, nil},
	{"pipenv-pipenv", "PyPI", pipfileRead, nil, nil},
	{"pnpm-v9-vuejs-core", "npm", pnpmRead, nil, nil},
	{"poetry-ossfuzzvulns-infra", "PyPI", tomlPackagesRead("poetry.lock"), nil, nil},
	{"pub-localsend", "Pub", pubRead, nil, nil},
	{"requirements-bitnami-vulndb-config", "PyPI", requirementsRead, nil, nil},
	{"ruby-dependabot-updater", "RubyGems", gemfileRead, nil, nil},
	{"swift-dependabot-example", "SwiftURL", swiftRead, nil, nil},
	{"swift-v1-dependabot-conflicts", "SwiftURL", swiftRead, nil, nil},
	{"uv-fullstack-fastapi-template", "PyPI", tomlPackagesRead("uv.lock"), nil, nil},
	{"yarn-berry-reselect", "npm", yarnRead, nil, nil},
	{"yarn-v1-d3", "npm", yarnRead, nil, nil},
	{"yarn-v1-osvdetector-e2e-large", "npm", yarnRead, nil, nil},
}

// lockGitSources are the packages of lockCases that their lockfile has
// from git, by case.
var lockGitSources = map[string][]string{
	"pub-localsend": {"device_apps", "pasteboard", "permission_handler_windows"},
	// pins of a branch, or of a revision alone
	"swift-dependabot-example": {"github.com/pointfreeco/swift-case-paths", "github.com/pointfreeco/swift-custom-dump"},
}

// writeFiles writes files (slash-separated paths under root -> content).
func writeFiles(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

func mustExtract(tb testing.TB, root string) *sbom.Result {
	tb.Helper()
	res, err := sbom.Extract(context.Background(), root, sbom.Options{})
	if err != nil {
		tb.Fatalf("Extract(%q): %v", root, err)
	}
	return res
}

func nameVersions(cs []sentinel.Component) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name+"@"+c.Version)
	}
	return set(out)
}

func TestLockCasesComplete(t *testing.T) {
	entries, err := os.ReadDir(lockfiles)
	if err != nil {
		t.Fatal(err)
	}
	var dirs, listed []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	for _, c := range lockCases {
		listed = append(listed, c.dir)
	}
	if diff := cmp.Diff(dirs, listed); diff != "" {
		t.Errorf("lockCases do not match testdata/lockfiles (-dirs +listed):\n%s", diff)
	}
}

// TestExtractLockfiles compares, for every real lockfile case, what Extract
// finds with what the file itself records (read independently in
// lockread_test.go).
func TestExtractLockfiles(t *testing.T) {
	for _, tc := range lockCases {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join(lockfiles, tc.dir)
			res := mustExtract(t, dir)
			if len(res.Errors) > 0 {
				t.Errorf("Extract(%q) errors: %v", dir, res.Errors)
			}
			want := tc.read(t, dir)
			if len(want) == 0 {
				t.Fatalf("independent reading of %s found nothing", dir)
			}
			got := nameVersions(res.Components)
			if tc.project != nil {
				self := tc.project(t, dir)
				want = slices.DeleteFunc(want, func(s string) bool { return slices.Contains(self, s) })
				var projects []string
				for _, p := range res.Projects {
					projects = append(projects, p.Name+"@"+p.Version)
				}
				for _, s := range self {
					if !slices.Contains(projects, s) {
						t.Errorf("project %s is not among Result.Projects %v", s, projects)
					}
				}
			}
			for _, m := range tc.missing {
				if !slices.Contains(want, m) {
					t.Errorf("known-missing %s is not in the file's own reading", m)
				}
				if slices.Contains(got, m) {
					t.Errorf("known-missing %s is now found: update lockCases", m)
				}
				want = slices.DeleteFunc(want, func(s string) bool { return s == m })
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Extract(%q) name@version mismatch (-want +got):\n%s", dir, diff)
			}
			for _, c := range res.Components {
				if c.Ecosystem != tc.ecosystem {
					t.Errorf("%s: ecosystem %q, want %q", c.Purl, c.Ecosystem, tc.ecosystem)
				}
				if c.Type != "library" || c.Purl == "" || !strings.HasPrefix(c.Purl, "pkg:") {
					t.Errorf("bad component %+v", c)
				}
				if c.Version != "" && !strings.Contains(c.Purl, "@") {
					t.Errorf("%s: purl has no version", c.Purl)
				}
				// Only the cases' git dependencies have a git source
				// (TestGitSources has more).
				if git := slices.Contains(lockGitSources[tc.dir], c.Name); strings.Contains(c.Purl, "vcs_url=") != git {
					t.Errorf("%s: a git source in the purl: %v, want %v (the lockfile's)", c.Purl, !git, git)
				}
				for _, l := range c.Locations {
					if filepath.IsAbs(l) || strings.Contains(l, `\`) {
						t.Errorf("%s: location %q is not relative and slash-separated", c.Purl, l)
					}
					if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(l))); err != nil {
						t.Errorf("%s: location %q: %v", c.Purl, l, err)
					}
				}
			}
		})
	}
}

// TestExtractOSVDetectorListing compares the large yarn case with
// osv-detector's recorded output for the same file: the package count it
// prints, and every package it lists as vulnerable.
func TestExtractOSVDetectorListing(t *testing.T) {
	dir := filepath.Join(lockfiles, "yarn-v1-osvdetector-e2e-large")
	out := string(mustRead(t, filepath.Join(dir, "osv-detector-expected.out.txt")))
	m := regexp.MustCompile(`found (\d+) packages`).FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no package count in osv-detector output")
	}
	wantCount, _ := strconv.Atoi(m[1])
	res := mustExtract(t, dir)
	if len(res.Files) != 1 || res.Files[0].Packages != wantCount {
		t.Errorf("Extract(%q) files = %+v, want one file with %d packages", dir, res.Files, wantCount)
	}
	got := map[string]bool{}
	for _, c := range res.Components {
		got[c.Name+"@"+c.Version] = true
	}
	listed := regexp.MustCompile(`(?m)^  (\S+@\S+) is affected by`).FindAllStringSubmatch(out, -1)
	if len(listed) == 0 {
		t.Fatal("no vulnerable packages in osv-detector output")
	}
	for _, l := range listed {
		if !got[l[1]] {
			t.Errorf("osv-detector lists %s; Extract did not find it", l[1])
		}
	}
}

// TestExtractWholeTree runs once over every case together: components are
// merged by purl across files, sorted, and each location points at a file.
func TestExtractWholeTree(t *testing.T) {
	res := mustExtract(t, lockfiles)
	if len(res.Errors) > 0 {
		t.Errorf("errors: %v", res.Errors)
	}
	if !slices.IsSortedFunc(res.Components, func(a, b sentinel.Component) int { return strings.Compare(a.Purl, b.Purl) }) {
		t.Error("components not sorted by purl")
	}
	seen := map[string]bool{}
	for _, c := range res.Components {
		if seen[c.Purl] {
			t.Errorf("duplicate purl %s", c.Purl)
		}
		seen[c.Purl] = true
	}
	// Every registered extractor read at least one real file, here, in
	// testdata/more-lockfiles (TestMoreLockfiles) or in
	// testdata/lock-variants (TestLockVariants).
	used := map[string]bool{}
	for _, f := range res.Files {
		used[f.Extractor] = true
	}
	variants, err := sbom.Extract(context.Background(), "testdata/lock-variants", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range variants.Files {
		used[f.Extractor] = true
	}
	for _, c := range moreCases {
		used[c.extractor] = true
	}
	for _, name := range sbom.ExtractorNames() {
		if strings.HasPrefix(name, "os/") {
			continue // TestExtractOSPackages
		}
		if name == "go/binary" || name == "java/archive" || name == "rust/cargoauditable" {
			continue // TestExtractBinaries, TestExtractRustProgram
		}
		if name == "javascript/bunlockb" {
			continue // TestBunLockb (testdata/bun-lockb)
		}
		if name == "java/gradlebuild" || name == "scala/sbt" || name == "cpp/conanfile" || name == "go/gopkglock" || name == "containers/images" || name == "kubernetes/manifests" || strings.HasPrefix(name, "clojure/") || name == "python/condaenv" || strings.HasPrefix(name, "runtime/") {
			continue // TestGradleBuildScripts, TestSbtBuilds, TestConanfiles, TestGopkgLock, TestContainerImages, TestRuntimeVersions, TestDepsEDN, TestCondaEnvironments
		}
		if !used[name] {
			t.Errorf("extractor %s read no file in %s, %s or testdata/lock-variants", name, lockfiles, moreLockfiles)
		}
	}
	// lodash 4.17.20 is in the npm v1 lockfile only; minimist 1.2.5 in
	// several npm lockfiles: both keep every location.
	for _, c := range res.Components {
		if c.Purl == "pkg:npm/lodash@4.17.20" {
			if diff := cmp.Diff([]string{"npm-v1-pkgsite-2020/package-lock.json"}, c.Locations); diff != "" {
				t.Errorf("lodash locations (-want +got):\n%s", diff)
			}
		}
	}
}

// TestExtractBrokenLockfiles: a malformed or unreadable lockfile is reported
// with its path and skipped; the rest of the tree is still extracted.
func TestExtractBrokenLockfiles(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good/Cargo.lock", string(mustRead(t, filepath.Join(lockfiles, "cargo-ripgrep", "Cargo.lock"))))
	write("bad/package-lock.json", `{"lockfileVersion": 3, "packages": {`)
	write("bad/composer.lock", `not json at all`)
	write("bad/Pipfile.lock", `{"default": []}`)
	write("bad/poetry.lock", "[[package]\nname = ")
	write("node_modules/left-pad/package-lock.json", `{"lockfileVersion": 3, "packages": {"node_modules/x": {"version": "1.0.0"}}}`)
	write(".git/Cargo.lock", "garbage")
	write("vendor/github.com/x/y/go.mod", "module x\n")

	var progress bytes.Buffer
	res, err := sbom.Extract(context.Background(), root, sbom.Options{Progress: &progress, Workers: 2})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	var errPaths []string
	for _, e := range res.Errors {
		errPaths = append(errPaths, e.Path)
		if e.Reason == "" || e.Extractor == "" {
			t.Errorf("error without reason or extractor: %+v", e)
		}
	}
	wantErr := []string{"bad/Pipfile.lock", "bad/composer.lock", "bad/package-lock.json", "bad/poetry.lock"}
	if diff := cmp.Diff(wantErr, errPaths); diff != "" {
		t.Errorf("error paths mismatch (-want +got):\n%s", diff)
	}
	want := tomlPackagesRead("Cargo.lock")(t, filepath.Join(root, "good"))
	if diff := cmp.Diff(want, nameVersions(res.Components)); diff != "" {
		t.Errorf("components of the good file (-want +got):\n%s", diff)
	}
	if !strings.Contains(progress.String(), "sbom: done:") {
		t.Errorf("progress output %q lacks the summary line", progress.String())
	}
}

func TestExtractMaxFileSize(t *testing.T) {
	res, err := sbom.Extract(context.Background(), filepath.Join(lockfiles, "cargo-ripgrep"), sbom.Options{MaxFileSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range res.Errors {
		paths = append(paths, e.Path)
	}
	if len(res.Components) != 0 || !slices.Equal(paths, []string{"Cargo.lock", "Cargo.toml"}) {
		t.Errorf("Extract with a 100-byte limit: components %d, errors %+v; want 0 and errors for Cargo.lock and Cargo.toml", len(res.Components), res.Errors)
	}
}

func TestExtractNotADirectory(t *testing.T) {
	for _, root := range []string{filepath.Join(lockfiles, "cargo-ripgrep", "Cargo.lock"), filepath.Join(t.TempDir(), "missing")} {
		if _, err := sbom.Extract(context.Background(), root, sbom.Options{}); err == nil {
			t.Errorf("Extract(%q) = nil error, want one", root)
		}
	}
}

func TestExtractCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sbom.Extract(ctx, lockfiles, sbom.Options{}); err == nil {
		t.Error("Extract with a canceled context = nil error")
	}
}

// TestNpmResolvedFalse: an npm 6 lockfile with "resolved": false (as npm
// 6 wrote for some private registries' packages) gives every package it
// records, the odd one included, instead of failing whole.
func TestNpmResolvedFalse(t *testing.T) {
	dir := filepath.Join("testdata", "npm-resolved-false")
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Name+"@"+c.Version)
	}
	slices.Sort(got)
	want := []string{"encoding@0.1.12", "es6-promise@3.3.1", "etag@1.8.1", "fetch-factory@0.0.1", "iconv-lite@0.4.19",
		"is-stream@1.1.0", "isomorphic-fetch@2.2.1", "lodash@3.10.1", "node-fetch@1.7.3", "whatwg-fetch@2.0.3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("components (-want +got):\n%s", diff)
	}
}
