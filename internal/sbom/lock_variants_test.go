package sbom_test

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"

	"gopkg.in/yaml.v3"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestLockVariants: lockfiles other tools' test suites keep for the ways
// real ones differ from the usual layout. Each gives the packages it
// records (read off the file by eye, listed here); a file with an entry
// that cannot be read gives the others, with a warning naming the file.
func TestLockVariants(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want []string
		// edges are "from -> to" pairs of the graph that must be there.
		edges []string
		warn  bool
	}{
		// Yarn 4 with a resolution ("ms": "1.0.0"): debug still asks for
		// ms 2.1.2, which has no entry; its edge is to the one ms there is,
		// development-only as debug is (TestDevelopmentResolution).
		{dir: "yarn-berry-resolution", want: []string{"debug@4.3.1", "left-pad@1.3.0", "ms@1.0.0"}, edges: []string{"debug@4.3.1 -> ms@1.0.0"}},
		// Yarn 1 with a resolution to an alias: the entry's first
		// descriptor is the replaced range ("ms@2.1.2"), the package is
		// the alias's (what node_modules/ms holds).
		{dir: "yarn-v1-resolution-alias", want: []string{"debug@4.3.1", "dry-uninstall@0.3.0"}, edges: []string{"debug@4.3.1 -> dry-uninstall@0.3.0"}},
		// pnpm 7's lockfile version 5.4, whose aliases a package's
		// dependencies name as "/string-width/4.2.3": edges to the package.
		{dir: "pnpm-v5-aliases", want: []string{"@isaacs/cliui@8.0.2", "ansi-regex@5.0.1", "ansi-regex@6.6.0", "ansi-styles@4.3.0",
			"ansi-styles@6.2.3", "color-convert@2.0.1", "color-name@1.1.4", "eastasianwidth@0.2.0", "emoji-regex@8.0.0", "emoji-regex@9.2.2",
			"is-fullwidth-code-point@3.0.0", "lodash@1.3.1", "lodash@2.4.2", "ms@0.7.1", "string-width@4.2.3", "string-width@5.1.2",
			"strip-ansi@6.0.1", "strip-ansi@7.2.0", "wrap-ansi@7.0.0", "wrap-ansi@8.1.0"},
			edges: []string{"@isaacs/cliui@8.0.2 -> wrap-ansi@7.0.0", "@isaacs/cliui@8.0.2 -> string-width@4.2.3", "@isaacs/cliui@8.0.2 -> strip-ansi@6.0.1",
				"wrap-ansi@7.0.0 -> string-width@4.2.3"}},
		// pnpm 11's lockfile whose first document is pnpm's own
		// (packageManagerDependencies: pnpm and each platform's build):
		// not the project's packages.
		{dir: "pnpm-manager-document", want: []string{"is-number@7.0.0"}},
		// yarn v1 with quoted keys, as some tools rewrite it.
		{dir: "yarn-quoted", want: []string{"jquery@3.6.0"}},
		{dir: "yarn-quoted-deps", want: []string{"concat-map@0.0.1", "concat-stream@1.6.2"}},
		// npm aliases, with and without a range after the package: the
		// component is the package installed, not the alias.
		{
			dir: "yarn-alias",
			want: []string{"@types/jsonstream@0.8.33", "@types/node@20.10.5", "@types/uuid@9.0.7", "debug@4.3.4",
				"ms@2.1.2", "ms@2.1.3", "undici-types@5.26.5"},
			edges: []string{"debug@4.3.4 -> ms@2.1.2", "@types/jsonstream@0.8.33 -> @types/node@20.10.5"},
		},
		// berry with one entry written twice: Yarn takes the last.
		{dir: "yarn-berry-duplicate", want: []string{"@babel/code-frame@7.10.4", "@types/minimatch@3.0.3", "@types/qs@6.9.4",
			"ajv@6.12.3", "asn1.js@4.10.1", "atob@2.1.2", "aws-sdk@2.706.0", "jhipster-core@7.3.4"}},
		// npm 5's lockfileVersion 1 with tarball addresses as versions:
		// the package and version come from the address ("remote" is
		// abbrev 1.1.1), a codeload address gives the commit only, and
		// an address that is neither is no version; a link to a folder
		// ("symlink": "file:./abbrev-link-target") is no package.
		{dir: "npm-v1-tarball-versions", want: []string{"@otherscope/othername@", "@scope/name@", "a@1.2.3", "abbrev@1.0.3", "abbrev@1.1.1",
			"b@1.2.3", "balanced-match@1.0.0", "brace-expansion@1.1.11", "bundler@1.2.3", "c@1.2.3", "concat-map@0.0.1", "fs.realpath@1.0.0",
			"full-git-url@", "ghshort@", "ghtgz@", "glob@7.1.4", "inflight@1.0.6", "inherits@2.0.4", "minimatch@3.0.4", "once@",
			"path-is-absolute@1.0.1", "really-bad-invalid@", "rimraf@", "tarball-no-integrity@", "tarball@",
			"unhosted-git@", "wrappy@1.0.2"}},
		// a node_modules tree pnpm installed, as npm recorded it: the
		// .pnpm folders are no packages.
		{dir: "npm-v2-pnpm-folders", want: []string{"@scope/x@1.0.0", "a@1.0.0", "b@1.0.0", "c@1.0.0"}},
		// yarn v1 writes "name" when the key does not name the package.
		{dir: "yarn-v1-name-field", want: []string{"dep-a@1.0.0", "max-safe-integer@1.0.1"}},
		// a pruned v9 lockfile keeps a local package's peer suffix in its
		// key; the local package is no dependency, nor is the workspace
		// folder its peer resolves to.
		{dir: "pnpm-pruned-peer-suffix", want: nil},
		// setup.py and setup.cfg: what setuptools is told to install, as
		// a pyproject.toml's dependencies are read (a pin is its version,
		// a bound its lowest, "==2.12.*" none). requests' own setup.py
		// keeps its lists in variables, and one package in two extras.
		{dir: "python-setup-py", want: []string{"boto3@1.3.1", "flake8@", "flask@0.12.2", "gocardless_pro@", "numpy@1.11.0", "pandas@0.19.2",
			"pep8@1.7.0", "psycopg2@2.6.1", "pytest-runner@", "pytest@2.9.1", "raven@5.32.0", "requests@", "responses@0.5.1", "scikit-learn@0.18.1",
			"scipy@0.18.1"}},
		{dir: "python-setup-vars", want: []string{"PySocks@1.5.6", "certifi@2017.4.17", "chardet@3.0.2", "cryptography@1.3.4", "idna@2.0.0", "idna@2.5",
			"pyOpenSSL@0.14", "pytest-cov@", "pytest-httpbin@0.0.7", "pytest-mock@", "pytest-xdist@", "pytest@2.8.0",
			"urllib3@1.21.1", "win_inet_pton@"}},
		// a string split into the list: """...""".split(), as mayan-edms writes it.
		{dir: "python-setup-split", want: []string{"CairoSVG@2.7.1", "Pillow@11.0.0", "black@23.12.1", "celery@5.3.4", "django@4.2.23",
			"mypy@1.7.1", "pytest@7.4.3", "requests@2.31.0"}},
		{dir: "python-setup-cfg", want: []string{"PySocks@1.5.6", "pytest@7.0", "requests@2.13.0", "setuptools@68.0", "urllib3@1.26.0"}},
		// mix.lock as Mix wrote it before Elixir 1.7: the first entry on
		// the "%{" line (distillery), read like the others; the umbrella's
		// apps are its projects.
		{dir: "mix-old-first-line", want: []string{"distillery@1.5.2", "jason@1.0.0", "mime@1.2.0", "plug@1.3.6"}},
		// mix.lock entries whose key is not the Hex package they install
		// ("hpack": {:hex, :hpack_erl, ...}): the package is the component,
		// and the graph still follows the keys.
		{dir: "mix-hex-alias", want: []string{"acceptor_pool@1.0.1", "ctx@0.6.0", "gproc@1.2.0", "grpcbox@0.18.0", "hpack_erl@0.3.0", "ts_chatterbox@0.16.0"},
			edges: []string{"grpcbox@0.18.0 -> ts_chatterbox@0.16.0", "ts_chatterbox@0.16.0 -> hpack_erl@0.3.0"}},
		// Cargo.lock with one crate version from crates.io and from a git
		// fork: two components (TestCargoGitFork).
		{dir: "cargo-git-fork", want: []string{"proc-macro2@1.0.103", "quote@1.0.42", "syn@1.0.109", "syn@2.0.111", "tao-macros@0.1.3", "tao-macros@0.1.3",
			"tao@0.34.5", "unicode-ident@1.0.22", "wry@0.53.5"}},
		// a requirements directory's constraints files (pip's -c), by
		// their names or named by -c from another file, install nothing:
		// only base.txt's pins are components.
		{dir: "requirements-constraints", want: []string{"django@4.2.1", "requests@2.31.0"}},
		// yarn v1 entries of the project's own folders ("linked@link:./linked",
		// "localpkg@file:./localpkg") are no packages (TestYarnV1LocalFolders).
		{dir: "yarn-v1-local-folders", want: []string{"@types/node@20.11.0", "ansi-regex@5.0.1", "debug@4.3.4", "emoji-regex@8.0.0",
			"is-fullwidth-code-point@3.0.0", "js-tokens@4.0.0", "loose-envify@1.4.0", "ms@2.0.0", "ms@2.1.2", "ms@2.1.3", "react-dom@18.2.0",
			"react@18.2.0", "scheduler@0.23.2", "string-width@4.2.3", "strip-ansi@6.0.1", "typescript@5.4.5", "undici-types@5.26.5"}},
		// pnpm 9 and 8: a vendored tarball of a registry package is that
		// package, at the version its entry gives; a local folder is the
		// project's.
		{dir: "pnpm-local-files", want: []string{"is-positive@3.1.0", "lodash@4.17.21", "ms@2.1.3"}},
		{dir: "pnpm-local-files-v6", want: []string{"is-positive@3.1.0", "lodash@4.17.21", "ms@2.1.3"}},
		// v9-style keys under a 6.0 version line, which pnpm reads.
		{dir: "pnpm-v6-v9-keys", want: []string{"is-negative@2.1.0", "is-positive@3.1.0"}},
		// pnpm 8 (lockfile 6.0): a peer suffix naming a scoped package
		// ("(@babel/core@7.24.5)") must not split the key at its "/".
		{dir: "pnpm-v6-scoped-peer", want: []string{"@babel/core@7.24.5", "@babel/helper-create-class-features-plugin@7.24.4",
			"@types/node@20.10.5", "react-dom@18.2.0", "react@18.2.0", "vitest@1.0.4"}},
		// berry: links into the project's tree and condition: entries
		// (a choice between two entries listed on their own) are no
		// registry packages.
		{dir: "yarn-berry-links", want: []string{"ms@2.1.3"}},
		{dir: "yarn-berry-conditions", want: []string{"semver@6.3.0", "semver@7.3.5"}},
		// pubspec.lock: a package of the project's own tree.
		{dir: "pub-path", want: []string{"path@1.9.1"}},
		// npm v1: a GitHub archive keeps its repository and tag.
		{dir: "npm-v1-github-archive", want: []string{"classlist.js@", "classnames@2.3.1"}},
		// Julia 1.9: a package depending on two packages of one name
		// lists its deps as a table; scalibr v0.5.3 refuses the file.
		{dir: "julia-shadowed"},
		{dir: "julia-shadowed-versions", want: []string{"A@1.2.0", "B@0.3.1", "B@2.0.0"}},
		// Julia's manifest format 1.0 (up to Julia 1.6): packages at the
		// top level; the standard libraries that came with Julia (no tree
		// hash: SHA 0.7.0 here) are no components.
		{dir: "julia-v1-format", want: []string{"JSON@0.20.0"}},
		// packages checked out in the project's folders are its own code.
		{dir: "julia-dev-path"},
		// SwiftPM: a repository on the developer's machine is no package;
		// a branch pin has no version (its commit is its vcs_url).
		{dir: "swift-resolved-mixed", want: []string{"github.com/apple/swift-collections@", "github.com/apple/swift-nio@2.64.0", "mona.linkedlist@1.0.0"}},
		// a Gradle version catalog: versions inline, by reference, rich
		// ({ strictly = "3.0" } in [versions]; a strictly range with a
		// prefer takes the prefer), and in "group:artifact:version"
		// strings; plugins and bundles are no libraries.
		{dir: "gradle-catalog", want: []string{"androidx.activity:activity-compose@1.3.1", "androidx.compose.material:material@1.3.0",
			"androidx.compose.ui:ui-test-junit4@1.2.0", "androidx.compose.ui:ui-test-manifest@1.2.0", "androidx.compose.ui:ui-tooling-preview@1.2.0",
			"androidx.compose.ui:ui-tooling@1.2.0", "androidx.compose.ui:ui@1.2.0", "androidx.core:core-ktx@1.7.0",
			"androidx.lifecycle:lifecycle-runtime-ktx@2.3.1", "androidx.test.espresso:espresso-core@3.5.0", "androidx.test.ext:junit@1.1.3",
			"com.mycompany:mylib-with-version-including-ref@1.4-ref", "com.mycompany:mylib@1.4", "com.util.juice:juice@3.0",
			"junit:junit@4.13.2", "org.jetbrains.kotlin:kotlin-gradle-plugin@1.7.20"}},
		// Pipfile.lock: a dependency installed from a git repository is a
		// component too, without a version (its purl carries the vcs_url).
		{dir: "pipfile-git", want: []string{"certifi@2017.11.5", "chardet@3.0.4", "idna@2.6", "pythonfinder@", "requests@2.18.4", "urllib3@1.22"}},
		// Pipfile.lock: git dependencies, and the Python it was locked for
		// (_meta.requires) as the runtime.
		{dir: "pipfile-git-develop", want: []string{"itsdangerous@", "markupsafe@", "python@3.8"}},
		// pdm.lock: a git dependency at its recorded version.
		{dir: "pdm-git", want: []string{"toml@0.10.2"}},
		// requirements.txt from pip-compile with editable installs from
		// git repositories at a release tag (2.0.0, v3.5.3): the tag's
		// release is the version.
		{dir: "requirements-git", want: []string{"attrs@17.3.0", "flaky@3.5.3", "mock@2.0.0", "pbr@5.1.1", "six@1.12.0"}},
		// rebar.lock (format 1.2.0, and 1.1.0 from 2019): Hex packages by
		// their package names (riak_core is riak_core_lite on Hex), git
		// dependencies without a version.
		{dir: "rebar-antidote", want: []string{"accept@0.3.5", "elli@3.3.0", "elli_prometheus@0.2.0", "erlzmq@", "poolboy@1.5.2",
			"prometheus@4.8.2", "prometheus_process_collector@", "quantile_estimator@0.2.1", "ranch@2.0.0", "riak_core_lite@0.10.1"}},
		{dir: "rebar-antidote-v110", want: []string{"accept@0.3.0", "antidote_crdt@", "antidote_pb@", "basho_exometer_core@1.0.2",
			"basho_poolboy@0.8.3", "basho_stats@1.0.3", "bear@0.8.5", "blume@0.1.0", "chash@0.1.2", "clique@0.3.9", "cuttlefish@2.0.12",
			"edown@0.8.1", "eleveldb@2.2.20", "elli@2.1.2", "elli_prometheus@0.1.1", "erlzmq@", "folsom@0.8.5", "getopt@0.8.2",
			"goldrush@0.1.9", "jam@1.0.0", "lager@3.6.2", "meck@", "mochiweb@", "parse_trans@2.9.0", "pbkdf2@2.0.0", "prometheus@3.4.1",
			"prometheus_process_collector@1.3.0", "protobuffs@", "rand_compat@0.0.3", "riak_api@", "riak_core@", "riak_ensemble_ng@2.4.0",
			"riak_pb@", "riak_sysmon@2.1.5", "setup@1.7.0", "vectorclock@", "webmachine@"}},
		// one unreadable entry among readable ones.
		{dir: "bun-bad-entry", want: []string{"wrappy@1.0.2"}, warn: true},
		{dir: "pnpm-bad-key", want: []string{"acorn@8.7.0"}, warn: true},
		// yarn v1 with two entry headers broken by hand ("encoding@^0.1.11"
		// without its colon, "es6-promise ^3.0.2:" without an "@"): the
		// other eight entries are read.
		{dir: "yarn-v1-bad-entry", want: []string{"etag@1.7.0", "fetch-factory@0.0.1", "iconv-lite@0.4.15", "is-stream@1.1.0",
			"isomorphic-fetch@2.2.1", "lodash@3.10.1", "node-fetch@1.6.3", "whatwg-fetch@2.0.2"}, warn: true},
	} {
		t.Run(c.dir, func(t *testing.T) {
			res, err := sbom.Extract(context.Background(), filepath.Join("testdata/lock-variants", c.dir), sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) > 0 {
				t.Fatalf("errors %v", res.Errors)
			}
			if got := len(res.Warnings) > 0; got != c.warn {
				t.Errorf("warnings %v, want some: %v", res.Warnings, c.warn)
			}
			byPurl := map[string]string{}
			var got []string
			for _, comp := range res.Components {
				got = append(got, comp.Name+"@"+comp.Version)
				byPurl[comp.Purl] = comp.Name + "@" + comp.Version
			}
			slices.Sort(got)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("components (-want +got):\n%s", diff)
			}
			var edges []string
			for _, comp := range res.Components {
				for _, d := range comp.DependsOn {
					edges = append(edges, comp.Name+"@"+comp.Version+" -> "+byPurl[d])
				}
			}
			for _, e := range c.edges {
				if !slices.Contains(edges, e) {
					t.Errorf("edge %s missing; the graph has %s", e, strings.Join(edges, ", "))
				}
			}
		})
	}
}

// TestCargoGitFork: a crate version Cargo.lock has from crates.io and from
// a git fork is two components, the fork's purl naming its repository and
// commit, and each dependent depends on the copy its entry names.
func TestCargoGitFork(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/cargo-git-fork", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const (
		registry = "pkg:cargo/tao-macros@0.1.3"
		fork     = "pkg:cargo/tao-macros@0.1.3?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fwojtekmach%2Ftao.git%40ac4e920611d22aaffb1b0ab21206295ffd47f2bf"
	)
	deps := map[string][]string{}
	for _, c := range res.Components {
		deps[c.Purl] = c.DependsOn
	}
	for _, p := range []string{registry, fork} {
		if _, ok := deps[p]; !ok {
			t.Errorf("no component %s", p)
		}
	}
	for dependent, want := range map[string]string{"pkg:cargo/wry@0.53.5": registry} {
		if got := deps[dependent]; !slices.Contains(got, want) || slices.Contains(got, fork) {
			t.Errorf("%s depends on %v, want %s and not the fork", dependent, got, want)
		}
	}
	var tao string
	for p := range deps {
		if strings.HasPrefix(p, "pkg:cargo/tao@") {
			tao = p
		}
	}
	if got := deps[tao]; !slices.Contains(got, fork) || slices.Contains(got, registry) {
		t.Errorf("%s depends on %v, want the fork %s", tao, got, fork)
	}
}

// TestRequirementsBounds: a requirements.txt line with a lower bound gives
// that version, as scalibr and osv-scanner read it, and says it is a
// bound; a pinned line says nothing more.
func TestRequirementsBounds(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte("Flask[async]>=2.0\nrequests==2.31.0\nDjango >= 3.2, < 4.0\nurllib3==1.26.18,!=1.26.17\nidna<4,>2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range res.Components {
		got[c.Name+"@"+c.Version] = c.Properties[sbom.PropVersionConstraint]
	}
	// Several comparators ("django>=3.2,<4.0"), which scalibr leaves
	// without a version, are read the same way; only upper or exclusive
	// bounds give none.
	want := map[string]string{"Flask@2.0": ">=2.0", "requests@2.31.0": "", "Django@3.2": ">=3.2", "urllib3@1.26.18": "", "idna@": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("components and their bounds (-want +got):\n%s", diff)
	}
}

// TestNuGetBuildPropsPrivate: a packages.lock.json's packages that the
// Directory.Build.props above its project references with
// PrivateAssets="All" (versioning, SourceLink, an analyzer) are for
// development only, with what only they depend on, as the project's own
// private references are; the project's other packages are not.
func TestNuGetBuildPropsPrivate(t *testing.T) {
	checkDevelopment(t, developmentOf(t, "dotnet-build-props"), map[string]bool{
		"Nerdbank.GitVersioning": true, "Microsoft.SourceLink.GitHub": true, "Microsoft.SourceLink.Common": true,
		"Microsoft.Build.Tasks.Git": true, "Microsoft.CodeAnalysis.BannedApiAnalyzers": true,
		// the project's own PrivateAssets, then two of its runtime packages
		"Microsoft.Net.Compilers.Toolset": true, "MediatR": false, "MessagePack": false,
	})
}

// developmentOf extracts a lock-variants case and returns each library's
// development mark, by name and by name@version.
func developmentOf(t *testing.T, dir string) map[string]bool {
	t.Helper()
	res, err := sbom.Extract(context.Background(), filepath.Join("testdata/lock-variants", dir), sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dev := map[string]bool{}
	for _, c := range res.Components {
		if c.Type == "library" {
			dev[c.Name] = c.Development
			dev[c.Name+"@"+c.Version] = c.Development
		}
	}
	return dev
}

// checkDevelopment reports each component of want that is missing from
// dev or marked otherwise.
func checkDevelopment(t *testing.T, dev, want map[string]bool) {
	t.Helper()
	for k, w := range want {
		if got, ok := dev[k]; !ok {
			t.Errorf("no component %s", k)
		} else if got != w {
			t.Errorf("%s: development %v, want %v", k, got, w)
		}
	}
}

// TestUVVirtualRoot: a uv.lock whose project is virtual (an application
// uv does not build, pydantic-core's here) has no component for it, and
// still its dependency groups are for development only and its
// dependencies are not.
func TestUVVirtualRoot(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/uv-virtual-root", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var prod, dev []string
	for _, c := range res.Components {
		if c.Development {
			dev = append(dev, c.Name)
		} else {
			prod = append(prod, c.Name)
		}
	}
	if want := []string{"typing-extensions"}; !slices.Equal(prod, want) {
		t.Errorf("runtime components %v, want %v", prod, want)
	}
	for _, name := range []string{"pytest", "mypy", "maturin", "hypothesis", "coverage"} {
		if !slices.Contains(dev, name) {
			t.Errorf("%s is not development-only (development: %v)", name, dev)
		}
	}
	if len(dev) != 54 {
		t.Errorf("%d development-only components, want the groups' 54", len(dev))
	}
}

// TestPnpmDevAbsent: pnpm 5 to 8 write "dev: true" on a package only
// development needs, "dev: false" on one only production needs and no
// "dev" on one both need. postcss-nested is a development dependency of
// the root, and, as another peer variant of the same version, a
// dependency of tailwindcss, which a workspace member runs with: it is not
// development-only.
func TestPnpmDevAbsent(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/pnpm-v5-dev-absent", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, c := range res.Components {
		if c.Type != "library" {
			continue
		}
		seen++
		if c.Development {
			t.Errorf("%s@%s is development-only; every package here is production's", c.Name, c.Version)
		}
	}
	if seen != 4 {
		t.Errorf("%d packages, want 4", seen)
	}
}

// TestYarnV1LocalFolders: a folder of the project's tree that yarn v1
// installs (link:, file:) is no package, and what it needs at runtime, from
// its own package.json, is the project's runtime dependency where the
// project depends on the folder at runtime: ms 2.0.0 through localpkg.
func TestYarnV1LocalFolders(t *testing.T) {
	checkDevelopment(t, developmentOf(t, "yarn-v1-local-folders"),
		map[string]bool{"ms@2.0.0": false, "ms@2.1.3": true, "typescript@5.4.5": true, "react-dom@18.2.0": false})
}

// TestYarnBerryCatalog: Yarn 4.10's catalogs leave "catalog:" in the
// lockfile's workspace entry and the range in .yarnrc.yml; the dependency
// is followed through it: is-number, from the "dev" catalog in
// devDependencies, is development-only, and ms is not.
func TestYarnBerryCatalog(t *testing.T) {
	dev := developmentOf(t, "yarn-berry-catalog")
	checkDevelopment(t, dev, map[string]bool{"is-number@7.0.0": true, "ms@2.1.3": false})
	if len(dev) != 4 {
		t.Errorf("components %v, want is-number and ms", dev)
	}
}

// TestPythonGitDevelopment: a git dependency of Pipfile.lock's develop
// group is for development only, as the group's other packages are; one
// of the default group is not.
func TestPythonGitDevelopment(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/pipfile-git-develop", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dev := map[string]bool{}
	for _, c := range res.Components {
		dev[c.Name] = c.Development
	}
	if want := map[string]bool{"itsdangerous": true, "markupsafe": false, "python": false}; !maps.Equal(dev, want) {
		t.Errorf("development marks %v, want %v", dev, want)
	}
}

// TestPDMGitSource: a git dependency of a pdm.lock names its repository
// and commit in its purl's vcs_url, as Pipfile.lock's do.
func TestPDMGitSource(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/pdm-git", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "pkg:pypi/toml@0.10.2?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fuiri%2Ftoml.git%4065bab7582ce14c55cdeec2244c65ea23039c9e6f"
	if len(res.Components) != 1 || res.Components[0].Purl != want {
		t.Errorf("components %v, want one: %s", res.Components, want)
	}
}

// TestPipfileGitSource: the git dependency of a Pipfile.lock names its
// repository and commit in its purl's vcs_url.
func TestPipfileGitSource(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/pipfile-git", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Components {
		if c.Name == "pythonfinder" {
			if want := "pkg:pypi/pythonfinder?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fsarugaku%2Fpythonfinder.git%40e63ef4351b3a2757c374cd1b828a1adef87bb15e"; c.Purl != want {
				t.Errorf("purl %s, want %s", c.Purl, want)
			}
			return
		}
	}
	t.Error("no pythonfinder component")
}

// TestPubGitSource: a pubspec.lock package from git names its repository
// and the commit pub resolved in its purl's vcs_url, as other lockfiles'
// git dependencies do.
func TestPubGitSource(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lockfiles/pub-localsend", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"device_apps": "pkg:pub/device_apps@2.2.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2FTienisto%2Fdevice_apps.git%405dc7956d938541254d2e175766b3b84ea38bb85b",
		"pasteboard":  "pkg:pub/pasteboard@0.3.0?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2FSeidko%2Fflutter-plugins.git%4058748dae405df5e68a131e4905d48e75d0624be2",
	}
	for _, c := range res.Components {
		if w, ok := want[c.Name]; ok {
			if c.Purl != w {
				t.Errorf("purl %s, want %s", c.Purl, w)
			}
			delete(want, c.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("no components %v", want)
	}
}

// TestOwnPackageIsProject: a lockfile that lists the package it is for
// makes it the project, with its dependencies, not a dependency of its
// own: a gem's repository lists the gem itself under PATH, remote: .
// (where several gems share that remote, as in rails', the one whose
// gemspec is there is the project and the others stay); a Cargo.lock
// found without its Cargo.toml has one crate without a source.
func TestOwnPackageIsProject(t *testing.T) {
	for _, c := range []struct {
		dir, project, direct, kept string
	}{
		{dir: "gem-own-repository", project: "pkg:gem/devise@5.0.3", direct: "pkg:gem/bcrypt@3.1.22"},
		{dir: "gem-path-monorepo", project: "pkg:gem/rails@7.1.3", direct: "pkg:gem/actioncable@7.1.3", kept: "pkg:gem/actioncable@7.1.3"},
		{dir: "cargo-alone", project: "pkg:cargo/hyperfine@1.20.0", direct: "pkg:cargo/clap@4.5.52"},
		// the full-stack FastAPI template's uv.lock, its app moved from
		// backend/ to the lockfile's directory.
		{dir: "uv-alone", project: "pkg:pypi/app@0.1.0", direct: "pkg:pypi/fastapi@0.141.1"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			dir := filepath.Join("testdata/lock-variants", c.dir)
			if c.dir == "uv-alone" {
				b, err := os.ReadFile("testdata/lockfiles/uv-fullstack-fastapi-template/uv.lock")
				if err != nil {
					t.Fatal(err)
				}
				dir = t.TempDir()
				b = bytes.Replace(b, []byte(`source = { editable = "backend" }`), []byte(`source = { editable = "." }`), 1)
				if err := os.WriteFile(filepath.Join(dir, "uv.lock"), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			main := res.MainProject()
			if main == nil || main.Purl != c.project {
				t.Fatalf("main project %+v, want %s", main, c.project)
			}
			if !slices.Contains(main.DependsOn, c.direct) || slices.Contains(main.DependsOn, c.project) {
				t.Errorf("the project depends on %v, want %s and not itself", main.DependsOn, c.direct)
			}
			var purls []string
			for _, comp := range res.Components {
				purls = append(purls, comp.Purl)
			}
			if slices.Contains(purls, c.project) {
				t.Errorf("the project %s is among its own components", c.project)
			}
			if c.kept != "" && !slices.Contains(purls, c.kept) {
				t.Errorf("%s, another gem of the PATH remote, is not a component: %v", c.kept, purls)
			}
		})
	}
}

// TestRenvSources: every package of a renv.lock is installed, whatever its
// source: a CRAN mirror's (RSPM) and Bioconductor's too, and one from
// GitHub with its repository and commit; a local folder's is no release.
func TestRenvSources(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/renv-sources", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Purl)
	}
	want := []string{
		"pkg:bioconductor/BiocGenerics@0.50.0",
		"pkg:cran/gtsummary@2.0.2.9009?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fddsjoberg%2Fgtsummary%40c34ce6d645664f5c5f0624701489b773b450a44b",
		"pkg:cran/jsonlite@1.8.8",
		"pkg:cran/later@1.3.2",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("components %v, want %v", got, want)
	}
	for _, c := range res.Components {
		if want := map[bool]string{true: "Bioconductor", false: "CRAN"}[c.Name == "BiocGenerics"]; c.Ecosystem != want {
			t.Errorf("%s is of ecosystem %q, want %s", c.Purl, c.Ecosystem, want)
		}
	}
}

// TestPodfileExternal: a subspec is its pod, listed once; a pod from a
// folder of the project is no component; one from git carries the
// repository and the commit CHECKOUT OPTIONS records.
func TestPodfileExternal(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/podfile-external", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	purls := map[string]string{}
	for _, c := range res.Components {
		count[c.Name]++
		purls[c.Name] = c.Purl
		if strings.Contains(c.Name, "/") {
			t.Errorf("%s is a subspec, not a pod", c.Purl)
		}
	}
	if count["ARAnalytics"] != 1 || count["Moya"] != 1 {
		t.Errorf("ARAnalytics listed %d times, Moya %d, want once each", count["ARAnalytics"], count["Moya"])
	}
	if count["Keys"] != 0 {
		t.Errorf("Keys, a pod from the project's Pods/CocoaPodsKeys, is a component: %s", purls["Keys"])
	}
	if want := "vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Forta%2FDZNWebViewController.git%409121386901af95072fb19eaa3df7060ca46fc337"; !strings.Contains(purls["DZNWebViewController"], want) {
		t.Errorf("DZNWebViewController is %s, want its repository and commit (%s)", purls["DZNWebViewController"], want)
	}
}

// TestPackagesConfigDevelopment: a packages.config package marked
// developmentDependency="true" is for development only; the others are
// the project's direct dependencies.
func TestPackagesConfigDevelopment(t *testing.T) {
	checkDevelopment(t, developmentOf(t, "packagesconfig-dev"), map[string]bool{
		"Newtonsoft.Json@13.0.1": false, "StyleCop.Analyzers@1.1.118": true, "Microsoft.CodeAnalysis.NetAnalyzers@7.0.0": true,
	})
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/packagesconfig-dev", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if main := res.MainProject(); main == nil || len(main.DependsOn) != 3 {
		t.Errorf("main project %+v, want one depending on the three packages", main)
	}
}

// TestConanLock: a conan.lock's build tools (Conan 2's build_requires,
// Conan 1's build context, or what only a build_requires edge of its
// graph leads to) are for development; a reference's user and
// channel stay in the purl, which then names no ConanCenter package.
func TestConanLock(t *testing.T) {
	checkDevelopment(t, developmentOf(t, "conan-v1-build"), map[string]bool{"openssl@1.1.1k": false, "cmake@3.20.0": true})
	// Conan 1 without a build profile: the consumer's build_requires
	// (gtest) in the host context, a build tool all the same.
	checkDevelopment(t, developmentOf(t, "conan-v1-build-requires"), map[string]bool{
		"grpc@1.50.1": false, "zlib@1.3.1": false, "openssl@3.3.2": false, "rapidjson@1.1.0": false, "gtest@1.13.0": true,
	})
	checkDevelopment(t, developmentOf(t, "conan-v2-build"), map[string]bool{
		"zlib@1.3.1": false, "boost@1.79.0": false, "cmake@3.28.1": true, "ninja@1.11.1": true, "m4@1.4.19": true,
	})
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/conan-v1-user-channel", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 1 || res.Components[0].Purl != "pkg:conan/pkga@0.1?channel=testing&user=user" {
		t.Fatalf("components %+v, want pkga with its user and channel", res.Components)
	}
	if _, _, _, err := purl.Resolve(res.Components[0].Purl); err == nil {
		t.Errorf("%s resolves to an OSV ecosystem; a user's package is not ConanCenter's", res.Components[0].Purl)
	}
}

// TestGoWorkspace: the modules a go.work uses are built in workspace
// mode: its toolchain is every module's (the standard library once, at
// that version, and no warning about a module without its own), and its
// replace directives win over the modules' requirements.
func TestGoWorkspace(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/go-workspace", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var purls []string
	for _, c := range res.Components {
		purls = append(purls, c.Purl)
	}
	for _, want := range []string{"pkg:golang/stdlib@1.22.5", "pkg:golang/github.com/google/uuid@1.5.0"} {
		if !slices.Contains(purls, want) {
			t.Errorf("no %s among %v", want, purls)
		}
	}
	for _, p := range purls {
		if p == "pkg:golang/stdlib" || p == "pkg:golang/github.com/google/uuid@1.6.0" {
			t.Errorf("%s is listed: the workspace decides", p)
		}
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings %v, want none: the go.work names the toolchain", res.Warnings)
	}
}

// TestLockfileAloneMembers: a JavaScript lockfile found without the
// package.json files of its workspace names the root and each member
// itself (package-lock's folder entries and links, bun.lock's
// workspaces): they are the projects, at their versions, and no member
// is left as a dependency without a version. bun's "root:" entry for the
// root package is the root, not a dependency.
func TestLockfileAloneMembers(t *testing.T) {
	npmAlone := t.TempDir()
	mustWrite(t, filepath.Join(npmAlone, "package-lock.json"), mustRead(t, "testdata/lock-variants/npm-workspace-installed/package-lock.json"))
	for _, c := range []struct {
		name, dir, main string
		members, deps   []string
	}{
		{"npm", npmAlone, "pkg:npm/ws-small@1.0.0", []string{"pkg:npm/%40ws-small/tool@1.0.0"},
			[]string{"pkg:npm/is-number@6.0.0", "pkg:npm/is-number@7.0.0", "pkg:npm/ms@2.1.3"}},
		{"bun", "testdata/lock-variants/bun-workspace-alone", "pkg:npm/my-monorepo" /* bun.lock has no root version */, []string{"pkg:npm/%40my/util@1.0.0"},
			[]string{"pkg:npm/is-number@7.0.0", "pkg:npm/left-pad@1.3.0"}},
		{"bun-root-entry", "testdata/lock-variants/bun-root-entry", "pkg:npm/my-monorepo", []string{"pkg:npm/%40my/util@1.0.0"},
			[]string{"pkg:npm/axios@1.6.0", "pkg:npm/follow-redirects@1.15.3",
				"pkg:npm/ghostty-web?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Frcarmo%2Fghostty-web%406c1c75b",
				"pkg:npm/tracestrings?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Foven-sh%2Fbun.report%40912ca63"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := sbom.Extract(context.Background(), c.dir, sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if m := res.MainProject(); m == nil || m.Purl != c.main {
				t.Errorf("main project %+v, want %s", m, c.main)
			}
			var members, deps []string
			for _, p := range res.Projects[1:] {
				members = append(members, p.Purl)
			}
			for _, d := range res.Components {
				deps = append(deps, d.Purl)
			}
			slices.Sort(members)
			slices.Sort(deps)
			if !slices.Equal(members, c.members) {
				t.Errorf("members %v, want %v", members, c.members)
			}
			if !slices.Equal(deps, c.deps) {
				t.Errorf("dependencies %v, want %v", deps, c.deps)
			}
		})
	}
}

// TestPDMDevelopmentGroups: a pdm.lock package is development-only when
// every group it is in is one for development: one the pyproject.toml
// beside it declares in [dependency-groups] or [tool.pdm.dev-dependencies]
// (PDM's own project: test, tox, doc, workflow), not the default group
// nor an extra of [project.optional-dependencies]; without the
// pyproject.toml, a group named for development (test, tox, doc).
func TestPDMDevelopmentGroups(t *testing.T) {
	const dir = "testdata/lock-variants/pdm-dev-groups"
	lockBytes := mustRead(t, filepath.Join(dir, "pdm.lock"))
	var lock struct {
		Package []struct {
			Name   string   `toml:"name"`
			Groups []string `toml:"groups"`
		} `toml:"package"`
	}
	if _, err := toml.Decode(string(lockBytes), &lock); err != nil {
		t.Fatal(err)
	}
	alone := t.TempDir()
	mustWrite(t, filepath.Join(alone, "pdm.lock"), lockBytes)
	for _, c := range []struct {
		dir string
		dev []string
	}{{dir, []string{"doc", "test", "tox", "workflow"}}, {alone, []string{"doc", "test", "tox"}}} {
		groups := map[string][]string{}
		for _, p := range lock.Package {
			n := purl.NormalizeName("PyPI", p.Name)
			groups[n] = append(groups[n], p.Groups...)
		}
		res, err := sbom.Extract(context.Background(), c.dir, sbom.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Components) != len(groups) {
			t.Errorf("%d components, want %d", len(res.Components), len(groups))
		}
		devs := 0
		for _, comp := range res.Components {
			gs := groups[purl.NormalizeName("PyPI", comp.Name)]
			want := len(gs) > 0 && !slices.ContainsFunc(gs, func(g string) bool { return !slices.Contains(c.dev, g) })
			if comp.Development != want {
				t.Errorf("%s (groups %v): development %v, want %v", comp.Name, gs, comp.Development, want)
			}
			if want {
				devs++
			}
		}
		if devs == 0 {
			t.Errorf("no development-only package")
		}
	}
}

// TestPnpmPeerVariantsDevelopment: one version of a package installed
// twice with different peers, once under a runtime dependency and once
// under a development tool (jest-pnp-resolver 1.2.3 with jest-resolve
// 30.0.2 and with 27.5.1), leads to what each needs apart: what is not
// development-only is what pnpm itself installs with --prod (its
// node_modules/.pnpm directories, "name@version_peers", "@scope+name"),
// but for the packages of other platforms (an entry with os or cpu),
// which pnpm left out on the machine it ran on.
func TestPnpmPeerVariantsDevelopment(t *testing.T) {
	const dir = "testdata/lock-variants/pnpm-peer-variants-dev"
	var lock struct {
		Packages map[string]struct {
			OS  []string `yaml:"os"`
			CPU []string `yaml:"cpu"`
		} `yaml:"packages"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "pnpm-lock.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &lock); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join(dir, "pnpm-prod-installed.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, d := range strings.Fields(string(b)) {
		scoped := strings.HasPrefix(d, "@")
		name, rest, _ := strings.Cut(strings.TrimPrefix(d, "@"), "@")
		version, _, _ := strings.Cut(rest, "_")
		if scoped {
			name = "@" + strings.Replace(name, "+", "/", 1)
		}
		want = append(want, name+"@"+version)
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	dev := 0
	for _, c := range res.Components {
		if c.Development {
			dev++
			continue
		}
		if p := lock.Packages[c.Name+"@"+c.Version]; len(p.OS)+len(p.CPU) > 0 && !slices.Contains(want, c.Name+"@"+c.Version) {
			continue
		}
		got = append(got, c.Name+"@"+c.Version)
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(slices.Compact(want), got); diff != "" {
		t.Errorf("runtime packages (-pnpm --prod +ours):\n%s", diff)
	}
	if dev < 100 {
		t.Errorf("%d development-only packages: the test shows little", dev)
	}
}

// TestWorkspaceMemberPyproject: the pyproject.toml of a uv workspace's
// member (the full-stack FastAPI template's backend/) is not read for
// packages: the workspace's uv.lock, above it, pins what it declares;
// reading it too would add each package again at its lowest bound
// ("fastapi>=0.114.2" beside the locked version).
func TestWorkspaceMemberPyproject(t *testing.T) {
	const src = "testdata/lockfiles/uv-fullstack-fastapi-template"
	dir := t.TempDir()
	for from, to := range map[string]string{"uv.lock": "uv.lock", "pyproject.toml": "pyproject.toml", "backend.pyproject.toml": "backend/pyproject.toml"} {
		mustWrite(t, filepath.Join(dir, to), mustRead(t, filepath.Join(src, from)))
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) < 50 {
		t.Fatalf("%d components", len(res.Components))
	}
	for _, c := range res.Components {
		if !slices.Equal(c.Locations, []string{"uv.lock"}) {
			t.Errorf("%s found in %v, want uv.lock alone", c.Purl, c.Locations)
		}
	}
	if !slices.ContainsFunc(res.Projects, func(p sentinel.Component) bool { return p.Name == "app" && p.Locations[0] == "backend/pyproject.toml" }) {
		t.Errorf("no project app at backend/pyproject.toml in %v", res.Projects)
	}
}

// TestNPMBundledUnderDevelopment: a package installed in the node_modules
// of a development-only package is development-only: npm 8.3.2, a
// devDependency, bundles its own dependencies (213 entries of npm 6's
// lockfile). npm marks them "dev" itself; read without those marks, as
// other writers leave bundled entries, they are development-only still.
func TestNPMBundledUnderDevelopment(t *testing.T) {
	const src = "testdata/lock-variants/npm-v1-bundled-dev"
	lock := mustRead(t, filepath.Join(src, "package-lock.json"))
	unmarked := regexp.MustCompile(`("bundled": true),\s*"dev": true`).ReplaceAll(lock, []byte("$1"))
	if bytes.Contains(unmarked, []byte(`"bundled": true, "dev"`)) || bytes.Count(unmarked, []byte(`"dev": true`)) > 10 {
		t.Fatalf("the bundled entries keep their dev marks: %d left", bytes.Count(unmarked, []byte(`"dev": true`)))
	}
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "package.json"), mustRead(t, filepath.Join(src, "package.json")))
	mustWrite(t, filepath.Join(dir, "package-lock.json"), unmarked)
	for _, d := range []string{src, dir} {
		var runtime []string
		res := mustExtract(t, d)
		for _, c := range res.Components {
			if !c.Development {
				runtime = append(runtime, c.Purl)
			}
		}
		if len(res.Components) < 200 || !slices.Equal(runtime, []string{"pkg:npm/ms@2.1.3"}) {
			t.Errorf("%s: %d components, runtime %v; want ms alone", d, len(res.Components), runtime)
		}
	}
}

// TestGemspecDevelopmentDependencies: a Gemfile that says "gemspec"
// brings the gemspec's development dependencies (webpacker's rubocop and
// rubocop-performance) into the development group, as Bundler does:
// they, and what only they and the Gemfile's test group need, are
// development-only. Worked out here from the three files: the gemspec's
// add_development_dependency names and the Gemfile's test group are the
// development roots, the other DEPENDENCIES the runtime ones, followed
// through the lockfile's specs.
func TestGemspecDevelopmentDependencies(t *testing.T) {
	const dir = "testdata/lock-variants/gem-gemspec-dev"
	devRoots := map[string]bool{"minitest": true, "byebug": true} // the Gemfile's group :test
	for _, m := range regexp.MustCompile(`add_development_dependency\s+"([^"]+)"`).FindAllStringSubmatch(string(mustRead(t, dir+"/webpacker.gemspec")), -1) {
		devRoots[m[1]] = true
	}
	deps := map[string][]string{}
	var roots []string
	section, cur := "", ""
	for _, line := range strings.Split(string(mustRead(t, dir+"/Gemfile.lock")), "\n") {
		switch {
		case line != "" && line[0] != ' ':
			section = line
		case section == "DEPENDENCIES" && strings.HasPrefix(line, "  "):
			name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
			roots = append(roots, strings.TrimSuffix(name, "!"))
		case strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "      "):
			cur, _, _ = strings.Cut(strings.TrimSpace(line), " ")
			deps[cur] = nil
		case strings.HasPrefix(line, "      "):
			d, _, _ := strings.Cut(strings.TrimSpace(line), " ")
			deps[cur] = append(deps[cur], d)
		}
	}
	reach := func(dev bool) map[string]bool {
		seen := map[string]bool{}
		var stack []string
		for _, r := range roots {
			if devRoots[r] == dev {
				stack = append(stack, r)
			}
		}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !seen[n] {
				seen[n] = true
				stack = append(stack, deps[n]...)
			}
		}
		return seen
	}
	prod, dev := reach(false), reach(true)
	res := mustExtract(t, dir)
	devs := 0
	for _, c := range res.Components {
		want := dev[c.Name] && !prod[c.Name]
		if c.Development != want {
			t.Errorf("%s: development %v, want %v", c.Name, c.Development, want)
		}
		if want {
			devs++
		}
	}
	if devs < 8 || !dev["rubocop"] {
		t.Errorf("%d development-only gems: the test shows little", devs)
	}
}

// TestDevelopmentResolution: what a resolution puts below a development
// tool (Yarn 4, "resolutions": {"ms": "1.0.0"} under debug, a
// devDependency) is development-only, the rest runtime.
func TestDevelopmentResolution(t *testing.T) {
	got := map[string]bool{}
	for _, c := range mustExtract(t, "testdata/lock-variants/yarn-berry-resolution").Components {
		got[c.Name+"@"+c.Version] = c.Development
	}
	want := map[string]bool{"debug@4.3.1": true, "ms@1.0.0": true, "left-pad@1.3.0": false}
	if !maps.Equal(got, want) {
		t.Errorf("development %v, want %v", got, want)
	}
}

// TestSwiftResolvedV1Branch: a version 1 Package.resolved's branch pin has
// no version; it keeps its repository and the commit it resolved to, as
// versions 2 and 3 do.
func TestSwiftResolvedV1Branch(t *testing.T) {
	var purls []string
	for _, c := range mustExtract(t, "testdata/lock-variants/swift-resolved-v1-branch").Components {
		purls = append(purls, c.Purl)
	}
	const want = "pkg:swift/github.com/apple/swift-cmark?vcs_url=git%2Bhttps:%2F%2Fgithub.com%2Fapple%2Fswift-cmark.git%4086aeb491675de6f077a3a6df6cbcac1a25dcbee1"
	if !slices.Contains(purls, want) || !slices.Contains(purls, "pkg:swift/github.com/apple/swift-argument-parser@1.0.3") {
		t.Errorf("components %v, want %s among them", purls, want)
	}
}
