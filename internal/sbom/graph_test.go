package sbom_test

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

func componentByPurl(tb testing.TB, cs []sentinel.Component, purl string) sentinel.Component {
	tb.Helper()
	for _, c := range cs {
		if c.Purl == purl {
			return c
		}
	}
	tb.Fatalf("no component %s", purl)
	return sentinel.Component{}
}

// TestGitDependencyGraph: a git dependency keeps its edges, from the
// project and to what it needs, as the file says. bun.lock's entry is [id,
// {deps}, commit], its dependencies second where a registry package's are
// third, and records no version; pnpm refers to it by its source
// ("tiny-dep@git+http://...#<commit>") in the importer, the "packages:"
// key and the snapshot, and gives its version (1.0.0) in the entry.
func TestGitDependencyGraph(t *testing.T) {
	for _, tc := range []struct{ dir, version string }{
		{"testdata/lock-variants/bun-git", ""},
		{"testdata/lock-variants/pnpm-git", "1.0.0"},
		// bun's yarn.lock writes the source where yarn writes the version.
		{"testdata/lock-variants/yarn-v1-bun-git", ""},
	} {
		t.Run(path.Base(tc.dir), func(t *testing.T) {
			res := mustExtract(t, tc.dir)
			i := slices.IndexFunc(res.Components, func(c sentinel.Component) bool { return c.Name == "tiny-dep" })
			if i < 0 {
				t.Fatal("no tiny-dep")
			}
			git := res.Components[i]
			if git.Version != tc.version || !strings.Contains(git.Purl, "vcs_url=") {
				t.Fatalf("tiny-dep: %+v, want version %q and a vcs_url", git, tc.version)
			}
			if !slices.Equal(git.DependsOn, []string{"pkg:npm/ms@2.1.2"}) {
				t.Errorf("tiny-dep depends on %v, want ms 2.1.2", git.DependsOn)
			}
			if p := res.MainProject(); strings.HasPrefix(path.Base(tc.dir), "yarn-") {
				// The excerpt has no package.json: no project.
			} else if p == nil || !slices.Contains(p.DependsOn, git.Purl) || !slices.Contains(p.DependsOn, "pkg:npm/lodash@4.17.20") {
				t.Errorf("project %+v: want edges to tiny-dep and lodash", p)
			}
		})
	}
}

// TestPnpmLocalFiles: pnpm 9 and 8 lockfiles with a vendored tarball of
// lodash and a local folder, as pnpm wrote them. The tarball is lodash
// 4.17.21, a direct dependency; the folder is the project's own, a
// project that depends on ms.
func TestPnpmLocalFiles(t *testing.T) {
	for _, dir := range []string{"testdata/lock-variants/pnpm-local-files", "testdata/lock-variants/pnpm-local-files-v6"} {
		t.Run(path.Base(dir), func(t *testing.T) {
			res := mustExtract(t, dir)
			p := res.MainProject()
			want := []string{"pkg:npm/is-positive@3.1.0", "pkg:npm/lodash@4.17.21", "pkg:npm/shared@1.0.0"}
			if p == nil || !slices.Equal(p.DependsOn, want) {
				t.Fatalf("project %+v: want direct dependencies %v", p, want)
			}
			i := slices.IndexFunc(res.Projects, func(c sentinel.Component) bool { return c.Name == "shared" })
			if i < 0 || !slices.Equal(res.Projects[i].DependsOn, []string{"pkg:npm/ms@2.1.3"}) {
				t.Errorf("projects %+v: want shared, depending on ms 2.1.3", res.Projects)
			}
			if got := developmentOnly(res.Components); !slices.Equal(got, []string{"is-positive@3.1.0"}) {
				t.Errorf("development-only %v, want is-positive alone", got)
			}
		})
	}
}

// TestPnpmRushTemp: Rush packs each of its projects into a "@rush-temp/"
// tarball that its pnpm lockfile lists like a vendored one; those are the
// repository's own projects, not components.
func TestPnpmRushTemp(t *testing.T) {
	const lock = `lockfileVersion: '9.0'
importers:
  .:
    dependencies:
      '@rush-temp/api':
        specifier: file:./projects/api.tgz
        version: file:projects/api.tgz
packages:
  '@rush-temp/api@file:projects/api.tgz':
    resolution: {integrity: sha512-AAAA, tarball: file:projects/api.tgz}
    version: 0.0.0
  ms@2.1.3:
    resolution: {integrity: sha512-BBBB}
snapshots:
  '@rush-temp/api@file:projects/api.tgz':
    dependencies:
      ms: 2.1.3
  ms@2.1.3: {}
`
	res, err := sbom.Extract(context.Background(), "rush", sbom.Options{FS: fstest.MapFS{"common/config/rush/pnpm-lock.yaml": {Data: []byte(lock)}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Name+"@"+c.Version)
	}
	if !slices.Equal(got, []string{"ms@2.1.3"}) {
		t.Errorf("components %v, want ms 2.1.3 alone", got)
	}
}

// TestNpmV1Roots: lockfile version 1 names no root; the project's direct
// dependencies are the packages installed at the top for each name its
// package.json gives, an alias ("old-lodash": lodash 4.17.15) too, even
// where two versions of one package make the name alone ambiguous.
func TestNpmV1Roots(t *testing.T) {
	res := mustExtract(t, "testdata/lock-variants/npm-v1-alias")
	p := res.MainProject()
	want := []string{"pkg:npm/lodash@4.17.15", "pkg:npm/lodash@4.17.20"}
	if p == nil || !slices.Equal(p.DependsOn, want) {
		t.Errorf("project %+v: want direct dependencies %v", p, want)
	}
}

// TestGraph checks edges read by hand from the lockfiles. Where a lockfile
// installs two versions of a package, the edge must go to the one Node (or
// the package manager) would load, not to the top-level one.
func TestGraph(t *testing.T) {
	tests := []struct {
		name string
		dir  string
		from string
		// want are exact purls, or prefixes ending in "@" when the version is
		// not the point of the check.
		want []string
		// notWant are purls that must not be edges (the wrong version).
		notWant []string
	}{
		{
			name: "cargo_name_only_dependency",
			dir:  "cargo-ripgrep",
			from: "pkg:cargo/aho-corasick@1.1.5",
			want: []string{"pkg:cargo/memchr@2.8.3"},
		},
		{
			name: "cargo_several",
			dir:  "cargo-ripgrep",
			from: "pkg:cargo/grep-cli@0.1.12",
			want: []string{"pkg:cargo/bstr@", "pkg:cargo/globset@", "pkg:cargo/libc@", "pkg:cargo/log@", "pkg:cargo/termcolor@", "pkg:cargo/winapi-util@"},
		},
		{
			// css-color 3.2.0 needs @csstools/css-calc ^2.1.3 and lru-cache
			// ^10.4.3; both are installed nested under it, while the
			// top-level copies are 3.2.0 and 6.0.0.
			name:    "npm_v3_nested_resolution",
			dir:     "npm-v3-pkgsite",
			from:    "pkg:npm/%40asamuzakjp/css-color@3.2.0",
			want:    []string{"pkg:npm/%40csstools/css-calc@2.1.4", "pkg:npm/lru-cache@10.4.3"},
			notWant: []string{"pkg:npm/%40csstools/css-calc@3.2.0", "pkg:npm/lru-cache@6.0.0"},
		},
		{
			// v1: @babel/core 7.12.10 requires semver, installed nested as 5.7.1.
			name: "npm_v1_requires",
			dir:  "npm-v1-pkgsite-2020",
			from: "pkg:npm/%40babel/core@7.12.10",
			want: []string{"pkg:npm/semver@5.7.1", "pkg:npm/lodash@", "pkg:npm/debug@"},
		},
		{
			name: "composer_require_skips_php_and_extensions",
			dir:  "composer-dependabot-helpers-v2",
			from: "pkg:composer/composer/class-map-generator@1.7.1",
			want: []string{"pkg:composer/composer/pcre@", "pkg:composer/symfony/finder@"},
		},
		{
			name: "uv_dependencies",
			dir:  "uv-fullstack-fastapi-template",
			from: "pkg:pypi/alembic@1.18.5",
			want: []string{"pkg:pypi/mako@1.3.12", "pkg:pypi/sqlalchemy@2.0.51", "pkg:pypi/typing-extensions@4.15.0"},
		},
		{
			name: "poetry_dependencies",
			dir:  "poetry-ossfuzzvulns-infra",
			from: "pkg:pypi/deprecated@1.2.15",
			want: []string{"pkg:pypi/wrapt@"},
		},
		{
			// yarn v1: "@algolia/autocomplete-shared" "1.9.3" is the
			// descriptor "@algolia/autocomplete-shared@1.9.3".
			name: "yarn_v1_descriptors",
			dir:  "yarn-v1-d3",
			from: "pkg:npm/%40algolia/autocomplete-core@1.9.3",
			want: []string{"pkg:npm/%40algolia/autocomplete-plugin-algolia-insights@1.9.3", "pkg:npm/%40algolia/autocomplete-shared@1.9.3"},
		},
		{
			// berry: "lru-cache": "npm:^10.4.3" is one of three descriptors
			// of lru-cache 10.4.3.
			name: "yarn_berry_npm_protocol",
			dir:  "yarn-berry-reselect",
			from: "pkg:npm/%40asamuzakjp/css-color@3.1.1",
			want: []string{"pkg:npm/lru-cache@10.4.3", "pkg:npm/%40csstools/css-calc@2.1.2"},
		},
		{
			// pnpm v9: snapshots give exact versions, peer suffixes dropped.
			name: "pnpm_v9_snapshots",
			dir:  "pnpm-v9-vuejs-core",
			from: "pkg:npm/%40asamuzakjp/css-color@6.0.5",
			want: []string{"pkg:npm/lru-cache@11.5.2", "pkg:npm/%40csstools/css-tokenizer@4.0.0", "pkg:npm/%40csstools/css-calc@3.3.0"},
		},
		{
			// bun: @babel/highlight's own copies ("@babel/highlight/chalk",
			// ".../@babel/helper-validator-identifier", ".../picocolors")
			// win over the top-level 7.28.5 and 1.1.1.
			name:    "bun_nested_keys",
			dir:     "bun-hono",
			from:    "pkg:npm/%40babel/highlight@7.24.7",
			want:    []string{"pkg:npm/%40babel/helper-validator-identifier@7.24.7", "pkg:npm/chalk@2.4.2", "pkg:npm/picocolors@1.1.0"},
			notWant: []string{"pkg:npm/%40babel/helper-validator-identifier@7.28.5", "pkg:npm/picocolors@1.1.1"},
		},
		{
			name: "gemfile_specs",
			dir:  "ruby-dependabot-updater",
			from: "pkg:gem/aws-sdk-codecommit@1.102.0",
			want: []string{"pkg:gem/aws-sdk-core@3.254.0", "pkg:gem/aws-sigv4@"},
		},
		{
			name: "mix_lock_deps",
			dir:  "mix-bamboo",
			from: "pkg:hex/cowboy@1.1.2",
			want: []string{"pkg:hex/cowlib@1.0.2", "pkg:hex/ranch@"},
		},
		{
			name: "nuget_per_framework",
			dir:  "nuget-bitwarden-api",
			from: "pkg:nuget/AspNetCore.HealthChecks.SqlServer@8.0.2",
			want: []string{"pkg:nuget/Microsoft.Data.SqlClient@"},
		},
	}
	results := map[string]*sbom.Result{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, ok := results[tc.dir]
			if !ok {
				res = mustExtract(t, filepath.Join(lockfiles, tc.dir))
				results[tc.dir] = res
			}
			c := componentByPurl(t, res.Components, tc.from)
			for _, w := range tc.want {
				found := slices.ContainsFunc(c.DependsOn, func(d string) bool {
					return d == w || (strings.HasSuffix(w, "@") && strings.HasPrefix(d, w))
				})
				if !found {
					t.Errorf("%s DependsOn = %v, want an edge to %s", tc.from, c.DependsOn, w)
				}
			}
			for _, nw := range tc.notWant {
				if slices.Contains(c.DependsOn, nw) {
					t.Errorf("%s DependsOn has %s (wrong version)", tc.from, nw)
				}
			}
			for _, d := range c.DependsOn {
				componentByPurl(t, res.Components, d) // every edge ends at a component
			}
		})
	}
}

// TestGraphFormats: files report Graph exactly for the formats documented in
// GraphFormats and for requirements files that pip-compile annotated, and
// components from other files have no edges.
func TestGraphFormats(t *testing.T) {
	res := mustExtract(t, lockfiles)
	formats := sbom.GraphFormats()
	var got, want []string
	for _, f := range res.Files {
		if f.Graph {
			got = append(got, f.Path)
		}
		if slices.Contains(formats, filepath.Base(f.Path)) || compiledRequirements(t, filepath.Join(lockfiles, f.Path)) {
			want = append(want, f.Path)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files with a graph (-want +got):\n%s", diff)
	}
	for _, c := range res.Components {
		if len(c.DependsOn) == 0 {
			continue
		}
		ok := false
		for _, l := range c.Locations {
			ok = ok || slices.Contains(formats, filepath.Base(l)) || compiledRequirements(t, filepath.Join(lockfiles, l))
		}
		if !ok {
			t.Errorf("%s has edges but comes from %v", c.Purl, c.Locations)
		}
	}
}

// compiledRequirements reports whether the file at p is a requirements file
// with pip-compile's "# via" comments.
func compiledRequirements(tb testing.TB, p string) bool {
	tb.Helper()
	if !strings.HasPrefix(filepath.Base(p), "requirements") || filepath.Ext(p) != ".txt" {
		return false
	}
	return strings.Contains(string(mustRead(tb, p)), "# via")
}
