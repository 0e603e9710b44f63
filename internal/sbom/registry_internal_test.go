package sbom

import (
	"context"
	"strings"
	"testing"

	"github.com/google/osv-scalibr/extractor/filesystem"

	sentinel "github.com/sentinel-sca/sentinel"
)

// TestSwiftName: every way SwiftPM writes one repository's location names
// the same SwiftURL package, as OSV writes it.
func TestSwiftName(t *testing.T) {
	for _, in := range []string{
		"github.com/apple/swift-nio",                // scalibr's name of an https location
		"github.com:443/apple/swift-nio.git",        // the default port
		"https://github.com/apple/swift-nio.git",    // a v1 repositoryURL
		"http://github.com/apple/swift-nio",         // plain http
		"git@github.com:apple/swift-nio.git",        // scp-like SSH
		"ssh://git@github.com/apple/swift-nio.git",  // SSH URL
		"ssh://git@github.com:443/apple/swift-nio/", // trailing slash is not ours to strip: stays distinct
	}[:6] {
		if got := swiftName(in); got != "github.com/apple/swift-nio" {
			t.Errorf("swiftName(%q) = %q, want github.com/apple/swift-nio", in, got)
		}
	}
	// A port that is not the default names another server.
	if got := swiftName("git.example.com:8443/team/lib.git"); got != "git.example.com:8443/team/lib" {
		t.Errorf("swiftName with a port = %q", got)
	}
}

// TestGitRequirement: the ways a requirements.txt line installs from a
// git repository, and lines that do not.
func TestGitRequirement(t *testing.T) {
	for _, c := range []struct{ line, name, repo, ref string }{
		{"-e git+https://github.com/box/flaky.git@v3.5.3#egg=flaky", "flaky", "git+https://github.com/box/flaky.git", "v3.5.3"},
		{"git+https://github.com/requests/requests#egg=requests", "requests", "git+https://github.com/requests/requests", ""},
		{"requests @ git+https://github.com/psf/requests.git@0e322af87745eff34caffe4df68456ebc20d9068", "requests", "git+https://github.com/psf/requests.git", "0e322af87745eff34caffe4df68456ebc20d9068"},
		{"Django[bcrypt] @ git+ssh://git@github.com/django/django.git@4.2 ; python_version >= '3.8'", "Django", "git+ssh://git@github.com/django/django.git", "4.2"},
		{"--editable=git+https://gitlab.com/a/b.git@main#egg=b&subdirectory=pkg", "b", "git+https://gitlab.com/a/b.git", "main"},
		{"git+https://github.com/a/b.git@1.0#egg=b  # pinned", "b", "git+https://github.com/a/b.git", "1.0"},
	} {
		name, repo, ref, ok := gitRequirement(c.line)
		if !ok || name != c.name || repo != c.repo || ref != c.ref {
			t.Errorf("gitRequirement(%q) = %q, %q, %q, %v; want %q, %q, %q", c.line, name, repo, ref, ok, c.name, c.repo, c.ref)
		}
	}
	for _, line := range []string{"six==1.16.0", "-e ./local/pkg", "git+https://github.com/a/b.git", "Pillow @ https://example.com/Pillow-9.0.0.tar.gz", "# git+https://x/y#egg=y", "git+https://x/y#egg=bad name"} {
		if name, _, _, ok := gitRequirement(line); ok {
			t.Errorf("gitRequirement(%q) = %q; want no git requirement", line, name)
		}
	}
}

// TestPyPIReleaseTag: a git ref that is a release tag is the release's
// version; a commit, a branch or a bare number is none.
func TestPyPIReleaseTag(t *testing.T) {
	for ref, want := range map[string]string{
		"v3.5.3": "3.5.3", "22.3.0": "22.3.0", "4.2": "4.2", "V1.0": "1.0", "2.0.0rc1": "2.0.0rc1", "1.2.post1": "1.2.post1",
		"0e322af87745eff34caffe4df68456ebc20d9068": "", "main": "", "": "", "7": "", "release-1.2": "", "1.2.3-fix": "",
	} {
		if got := pypiReleaseTag(ref); got != want {
			t.Errorf("pypiReleaseTag(%q) = %q, want %q", ref, got, want)
		}
	}
}

// TestArchiveRequirement: a direct reference to a wheel or an sdist
// names its version in the file name; other direct references do not.
func TestArchiveRequirement(t *testing.T) {
	for _, c := range []struct{ line, name, version string }{
		{"pillow @ https://files.pythonhosted.org/packages/x/Pillow-9.0.0-cp39-cp39-manylinux_2_17_x86_64.whl", "pillow", "9.0.0"},
		{"Pillow @ https://example.com/Pillow-9.0.0.tar.gz", "Pillow", "9.0.0"},
		{"typing_extensions @ https://h/typing_extensions-4.7.1-py3-none-any.whl#sha256=abc ; python_version < '3.11'", "typing_extensions", "4.7.1"},
		{"zope.interface[test] @ https://h/zope.interface-6.0.zip  # pinned", "zope.interface", "6.0"},
		{"ruamel-yaml @ https://h/ruamel.yaml-0.17.21.tar.gz", "ruamel-yaml", "0.17.21"},
		{"tensorflow @ https://h/tensorflow-2.13.0-1-cp311-cp311-linux_x86_64.whl", "tensorflow", "2.13.0"},
	} {
		name, version, ok := archiveRequirement(c.line)
		if !ok || name != c.name || version != c.version {
			t.Errorf("archiveRequirement(%q) = %q, %q, %v; want %q, %q", c.line, name, version, ok, c.name, c.version)
		}
	}
	for _, line := range []string{
		"six==1.16.0", "requests @ git+https://github.com/psf/requests.git@v2.31.0",
		"pkg @ https://example.com/other-1.0.tar.gz", "pkg @ https://example.com/pkg/archive/main.zip",
		"pkg @ file:///src/pkg", "pkg @ https://h/pkg-latest.tar.gz", "pkg @ https://h/pkg-1.0.whl",
	} {
		if name, version, ok := archiveRequirement(line); ok {
			t.Errorf("archiveRequirement(%q) = %q, %q; want none", line, name, version)
		}
	}
}

// TestRepoArchiveRequirement: a direct reference to GitHub's or GitLab's
// archive of a repository at a ref reads as the git requirement of that
// ref; a file's address, a git address or another host's archive does not.
func TestRepoArchiveRequirement(t *testing.T) {
	for _, c := range []struct{ line, name, repo, ref string }{
		{"django @ https://github.com/django/django/archive/refs/tags/4.2.1.zip", "django", "git+https://github.com/django/django.git", "4.2.1"},
		{"Flask[async] @ https://github.com/pallets/flask/archive/refs/heads/main.tar.gz ; python_version >= '3.8'", "Flask", "git+https://github.com/pallets/flask.git", "main"},
		{"attrs @ https://github.com/python-attrs/attrs/archive/0e322af87745eff34caffe4df68456ebc20d9068.zip#sha256=00", "attrs", "git+https://github.com/python-attrs/attrs.git", "0e322af87745eff34caffe4df68456ebc20d9068"},
		{"click @ https://codeload.github.com/pallets/click/zip/refs/tags/8.1.7", "click", "git+https://github.com/pallets/click.git", "8.1.7"},
		{"click @ https://codeload.github.com/pallets/click/tar.gz/v8.1.7  # pinned", "click", "git+https://github.com/pallets/click.git", "v8.1.7"},
		{"lib @ https://gitlab.com/group/sub/lib/-/archive/v1.2.0/lib-v1.2.0.tar.gz", "lib", "git+https://gitlab.com/group/sub/lib.git", "v1.2.0"},
		{"lib @ https://git.example.com:8443/team/lib/-/archive/1.0/lib-1.0.zip", "lib", "git+https://git.example.com:8443/team/lib.git", "1.0"},
	} {
		name, repo, ref, ok := repoArchiveRequirement(c.line)
		if !ok || name != c.name || repo != c.repo || ref != c.ref {
			t.Errorf("repoArchiveRequirement(%q) = %q, %q, %q, %v; want %q, %q, %q", c.line, name, repo, ref, ok, c.name, c.repo, c.ref)
		}
	}
	for _, line := range []string{
		"six==1.16.0", "requests @ git+https://github.com/psf/requests.git@v2.31.0",
		"Pillow @ https://example.com/Pillow-9.0.0.tar.gz", "pkg @ https://example.com/pkg/archive/main.zip",
		"pkg @ https://github.com/o/r/releases/download/v1.0/pkg-1.0.tar.gz", "pkg @ https://github.com/o/r/archive/",
		"pkg @ https://codeload.github.com/o/r/zip/", "bad name @ https://github.com/o/r/archive/v1.zip",
	} {
		if name, repo, ref, ok := repoArchiveRequirement(line); ok {
			t.Errorf("repoArchiveRequirement(%q) = %q, %q, %q; want none", line, name, repo, ref)
		}
	}
}

// FuzzGitRequirement: any line either is no git requirement or gives a
// valid distribution name and a git+ repository.
func FuzzGitRequirement(f *testing.F) {
	f.Add("-e git+https://github.com/box/flaky.git@v3.5.3#egg=flaky")
	f.Add("x @ git+ssh://git@h/r.git@1 ; python_version<'3'")
	f.Add("pillow @ https://h/Pillow-9.0.0-cp39-cp39-manylinux_2_17_x86_64.whl#sha256=0")
	f.Add("django @ https://github.com/django/django/archive/refs/tags/4.2.1.zip")
	f.Add("lib @ https://gitlab.com/g/lib/-/archive/v1/lib-v1.tar.gz")
	f.Fuzz(func(t *testing.T, line string) {
		name, repo, _, ok := gitRequirement(line)
		if ok && (!validPyPIName(name) || !strings.HasPrefix(repo, "git+")) {
			t.Fatalf("gitRequirement(%q) = %q, %q", line, name, repo)
		}
		name, version, ok := archiveRequirement(line)
		if ok && (!validPyPIName(name) || version == "" || version[0] < '0' || version[0] > '9') {
			t.Fatalf("archiveRequirement(%q) = %q, %q", line, name, version)
		}
		name, repo, ref, ok := repoArchiveRequirement(line)
		if ok && (!validPyPIName(name) || !strings.HasPrefix(repo, "git+") || ref == "") {
			t.Fatalf("repoArchiveRequirement(%q) = %q, %q, %q", line, name, repo, ref)
		}
	})
}

// TestDenoNpmPackage: deno.lock's npm keys, scoped, with an underscore in
// the name, and with the suffix of a copy made for peer dependencies.
func TestDenoNpmPackage(t *testing.T) {
	for _, c := range []struct{ key, name, version string }{
		{"express@4.17.1", "express", "4.17.1"},
		{"@types/node@26.6.6", "@types/node", "26.6.6"},
		{"string_decoder@1.1.1", "string_decoder", "1.1.1"},
		{"react-dom@18.2.0_react@18.2.0", "react-dom", "18.2.0"},
		{"@tanstack/react-query@5.0.0_@types+react@18.2.0_react@18.2.0", "@tanstack/react-query", "5.0.0"},
	} {
		name, version, ok := denoNpmPackage(c.key)
		if !ok || name != c.name || version != c.version {
			t.Errorf("denoNpmPackage(%q) = %q, %q, %v", c.key, name, version, ok)
		}
	}
	for _, key := range []string{"", "@", "express", "express@", "@scope/x@"} {
		if _, _, ok := denoNpmPackage(key); ok {
			t.Errorf("denoNpmPackage(%q) ok", key)
		}
	}
}

// FuzzDenoLock: any bytes either are no deno.lock or give npm packages
// with a name and a version.
func FuzzDenoLock(f *testing.F) {
	f.Add([]byte(`{"version":"5","npm":{"a@1.0.0":{},"@s/b@2.0.0_a@1.0.0":{}}}`))
	f.Add([]byte(`{"version":"3","packages":{"npm":{"x_y@1.0.0":{}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		keys, err := denoNpmKeys(b)
		if err != nil {
			return
		}
		for _, k := range keys {
			if name, version, ok := denoNpmPackage(k); ok && (name == "" || version == "") {
				t.Fatalf("denoNpmPackage(%q) = %q, %q", k, name, version)
			}
		}
	})
}

// TestRebarLockForms: the lockfile of rebar3 before format versions (a
// bare list), a git_subdir source, and a file that is no lockfile.
func TestRebarLockForms(t *testing.T) {
	old := `[{<<"cowboy">>,{pkg,<<"cowboy">>,<<"2.9.0">>},0},
 {<<"sub">>,{git_subdir,"https://github.com/o/r.git",{tag,"v1.0.0"},"apps/sub"},0}].`
	inv, err := rebarLock.Extract(context.Background(), &filesystem.ScanInput{Path: "rebar.lock", Reader: strings.NewReader(old)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range inv.Packages {
		got = append(got, p.Name+"@"+p.Version)
		if p.Name == "sub" && (p.SourceCode == nil || p.SourceCode.Commit != "v1.0.0") {
			t.Errorf("git_subdir source %+v", p.SourceCode)
		}
	}
	if strings.Join(got, " ") != "cowboy@2.9.0 sub@" {
		t.Errorf("packages %v", got)
	}
	if _, err := rebarLock.Extract(context.Background(), &filesystem.ScanInput{Path: "rebar.lock", Reader: strings.NewReader("{deps, []}.")}); err == nil {
		t.Error("a rebar.config read as a lockfile")
	}
}

// FuzzRebarLock: any bytes either are no rebar.lock or give packages with
// a name.
func FuzzRebarLock(f *testing.F) {
	f.Add([]byte(`{"1.2.0",[{<<"a">>,{pkg,<<"a">>,<<"1.0.0">>},0},{<<"b">>,{git,"https://x/b",{ref,"abc"}},1}]}.`))
	f.Fuzz(func(t *testing.T, b []byte) {
		inv, err := rebarLock.Extract(context.Background(), &filesystem.ScanInput{Path: "rebar.lock", Reader: strings.NewReader(string(b))})
		if err != nil {
			return
		}
		for _, p := range inv.Packages {
			if p.Name == "" {
				t.Fatalf("package without a name: %+v", p)
			}
		}
	})
}

// FuzzWorkflowUses: any bytes either are no YAML or give actions with an
// owner/repo name and a version.
func FuzzWorkflowUses(f *testing.F) {
	f.Add([]byte("jobs:\n  a:\n    steps:\n      - uses: actions/checkout@0123456789abcdef0123456789abcdef01234567 # v4.1.1\n      - uses: ./local\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		uses, err := workflowUses(b)
		if err != nil {
			return
		}
		for _, u := range uses {
			a, ok := parseUses(u.value, u.comment)
			if ok && (a.version == "" || strings.Count(a.name, "/") != 1) {
				t.Fatalf("parseUses(%q, %q) = %+v", u.value, u.comment, a)
			}
		}
	})
}

// TestParseUses: the release a pinned commit's comment names, and comments
// that name none.
func TestParseUses(t *testing.T) {
	const sha = "3d3c42e5aac5ba805825da76410c181273ba90b1"
	for _, c := range []struct{ value, comment, name, version string }{
		{"actions/checkout@" + sha, "# v4.1.1", "actions/checkout", "v4.1.1"},
		{"actions/checkout@" + sha, "#v4", "actions/checkout", "v4"},
		{"actions/checkout@" + sha, "# tag=4.1.1", "actions/checkout", "4.1.1"},
		{"actions/checkout@" + sha, "# pinned 2024-01-01", "actions/checkout", sha},
		{"actions/checkout@" + sha, "", "actions/checkout", sha},
		{"Actions/Checkout@v4", "", "actions/checkout", "v4"},
		{"github/codeql-action/init@v3", "", "github/codeql-action", "v3"},
	} {
		a, ok := parseUses(c.value, c.comment)
		if !ok || a.name != c.name || a.version != c.version {
			t.Errorf("parseUses(%q, %q) = %+v, %v; want %s@%s", c.value, c.comment, a, ok, c.name, c.version)
		}
	}
	for _, v := range []string{"./.github/actions/x", "docker://alpine:3", "actions/checkout", "${{ matrix.action }}@v1", "noslash@v1"} {
		if a, ok := parseUses(v, ""); ok {
			t.Errorf("parseUses(%q) = %+v", v, a)
		}
	}
}

// FuzzDotnetBuild: any bytes as project.assets.json or .deps.json give
// an error or packages with a name and a version, and their graph
// readers never fail on what the packages reader read.
func FuzzDotnetBuild(f *testing.F) {
	f.Add([]byte(`{"version":3,"targets":{"net8.0":{"A/1.0.0":{"type":"package","dependencies":{"B":"[2.0.0, )"}},"B/2.0.0":{"type":"package"}}},"libraries":{"A/1.0.0":{"type":"package"},"B/2.0.0":{"type":"package"},"P/1.0.0":{"type":"project"}},"project":{"frameworks":{"net8.0":{"dependencies":{"A":{"target":"Package","version":"[1.0.0, )"}}}}}}`))
	f.Add([]byte(`{"runtimeTarget":{"name":".NETCoreApp,Version=v8.0/linux-x64"},"targets":{".NETCoreApp,Version=v8.0/linux-x64":{"app/1.0.0":{"dependencies":{"A":"1.0.0","runtimepack.Microsoft.NETCore.App.Runtime.linux-x64":"8.0.1"}},"A/1.0.0":{}}},"libraries":{"app/1.0.0":{"type":"project"},"A/1.0.0":{"type":"package"},"runtimepack.Microsoft.NETCore.App.Runtime.linux-x64/8.0.1":{"type":"runtimepack"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, c := range []struct {
			ex    ownExtractor
			path  string
			graph func([]byte, *lockIndex) error
		}{{dotnetAssets, "obj/project.assets.json", projectAssetsGraph}, {dotnetDeps, "App.deps.json", depsJSONGraph}} {
			inv, err := c.ex.Extract(context.Background(), &filesystem.ScanInput{Path: c.path, Reader: strings.NewReader(string(b))})
			if err != nil {
				continue
			}
			var comps []sentinel.Component
			for _, p := range inv.Packages {
				if p.Name == "" || p.Version == "" {
					t.Fatalf("%s: package without a name or version: %+v", c.path, p)
				}
				comps = append(comps, sentinel.Component{Name: p.Name, Version: p.Version, Purl: "pkg:nuget/" + p.Name + "@" + p.Version})
			}
			if err := c.graph(b, newLockIndex(comps, strings.ToLower)); err != nil {
				t.Fatalf("%s: the graph reader fails on what the packages reader read: %v", c.path, err)
			}
		}
	})
}

// FuzzComposerInstalled: any bytes read as an installed.json give packages
// with names and versions, or an error; never a panic.
func FuzzComposerInstalled(f *testing.F) {
	f.Add([]byte(`[{"name":"a/b","version":"v1.0.0","license":"MIT","require":{"c/d":"^1"}},{"name":"c/d","version":"1.2.0"}]`))
	f.Add([]byte(`{"packages":[{"name":"a/b","version":"1.0.0","license":["MIT","GPL-2.0"]}],"dev":true,"dev-package-names":[]}`))
	f.Add([]byte(`{"packages":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		pkgs, err := readComposerInstalled(&filesystem.ScanInput{Path: composerInstalledPath}, b)
		if err != nil {
			return
		}
		var comps []sentinel.Component
		for _, p := range pkgs {
			if p.Name == "" || p.Version == "" {
				t.Fatalf("a package without a name or version: %+v", p)
			}
			if c, ok := toComponent(p, composerInstalledPath, composerInstalled.name); ok {
				comps = append(comps, c)
			}
		}
		annotate(context.Background(), nil, composerInstalledPath, b, nil, comps)
	})
}

// FuzzProjectFiles: any bytes read as a Dockerfile, a Compose file, a
// runtime version file, an Azure Linux RPM manifest, a deps.edn, a
// project.clj, a conda environment or a Kubernetes manifest fail with an
// error or give packages with a name (an image's a valid repository path)
// and, but for a project.clj's computed versions and a conda range, a
// version or a commit.
func FuzzProjectFiles(f *testing.F) {
	names := []string{"Dockerfile", "compose.yaml", ".python-version", "runtime.txt", ".ruby-version", "var/lib/rpmmanifest/container-manifest-2", "deps.edn", "k8s/deploy.yaml", "project.clj", "environment.yml"}
	f.Add([]byte("ARG BASE=python:3.12-slim\nFROM --platform=$BUILDPLATFORM ${BASE} AS build\nFROM build\nFROM ghcr.io/o/app:v1@sha256:abc \\\n  AS final\n"), uint8(0))
	f.Add([]byte("services:\n  db:\n    image: mariadb:10.5\n  web:\n    build: .\n"), uint8(1))
	f.Add([]byte("3.11.4\npypy3.9-7.3.9 # other\nsystem\n"), uint8(2))
	f.Add([]byte("python-3.7.13\n"), uint8(3))
	f.Add([]byte("ruby-2.7.2\n"), uint8(4))
	f.Add([]byte("glibc\t2.35-2.cm2\t1653816591\t1653628955\tMicrosoft Corporation\t(none)\t10855265\tx86_64\t0\tglibc-2.35-2.cm2.src.rpm\n"), uint8(5))
	f.Add([]byte("{:deps {org.clojure/clojure {:mvn/version \"1.10.2\"} a/b {:local/root \"b\"} io.github.c/d {:git/tag \"v1\" :git/sha \"abc\"}}\n :aliases {:test {:extra-deps {ring {:mvn/version \"1.9.0\"}}}}}"), uint8(6))
	f.Add([]byte("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - image: nginx:1.2.34\n---\napiVersion: batch/v1\nkind: CronJob\nspec: {jobTemplate: {spec: {template: {spec: {initContainers: [{image: 'ghcr.io/a/b:v1'}]}}}}}\n"), uint8(7))
	f.Add([]byte("(defproject a \"1\" :dependencies [^:x [b/c \"2\"] #_[d \"3\"] [e ~v]] :profiles {:dev [:base {:dependencies [[f \"4\"]]}]} :x #\"re\" :y \\( :z #=(eval))"), uint8(8))
	f.Add([]byte("dependencies:\n  - python=3.10.9=he550d4f_0\n  - conda-forge::numpy>=1.2\n  - pip\n  - pip:\n    - requests==2.31.0\n    - -r requirements.txt\n"), uint8(9))
	f.Fuzz(func(t *testing.T, b []byte, which uint8) {
		name := names[int(which)%len(names)]
		read := readImages
		if isRuntimeFile(name) {
			read = readRuntimeFile
		} else if isRPMManifest(name) {
			read = readRPMManifest
		} else if isDepsEDN(name) {
			read = readDepsEDN
		} else if k8sFile(name) {
			read = readK8sManifests
		} else if isProjectClj(name) {
			read = readProjectClj
		} else if isCondaEnv(name) {
			read = readCondaEnv
		}
		pkgs, err := read(&filesystem.ScanInput{Path: name}, b)
		if err != nil {
			return
		}
		for _, p := range pkgs {
			versionless := name == "project.clj" || name == "environment.yml" // a computed version, a range
			if p.Name == "" || p.Version == "" && p.SourceCode == nil && !versionless || p.PURLType == "docker" && !imageRepo().MatchString(p.Name) {
				t.Fatalf("%s: package %q at %q", name, p.Name, p.Version)
			}
		}
	})
}
