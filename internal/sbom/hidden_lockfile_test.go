package sbom_test

import (
	"bytes"
	"context"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestHiddenLockfiles: a project shipped with its installed node_modules
// but without its lockfile is read from the lockfile npm or pnpm keeps
// inside node_modules, to every package it records (read off the file
// here), located there; with a lockfile of its own, that one is read.
func TestHiddenLockfiles(t *testing.T) {
	const variants = "testdata/lock-variants"
	npmWant := func(t *testing.T) []string {
		var lock struct {
			Packages map[string]struct{ Version string }
		}
		mustJSON(t, filepath.Join(variants, "npm-hidden-lockfile/node_modules/.package-lock.json"), &lock)
		var out []string
		for k, p := range lock.Packages {
			out = append(out, k[strings.LastIndex(k, "node_modules/")+len("node_modules/"):]+"@"+p.Version)
		}
		return set(out)
	}
	pnpmWant := func(t *testing.T) []string {
		b, err := os.ReadFile(filepath.Join(variants, "pnpm-hidden-lockfile/node_modules/.pnpm/lock.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var lock struct{ Packages map[string]any }
		if err := yaml.Unmarshal(b, &lock); err != nil {
			t.Fatal(err)
		}
		var out []string
		for k := range lock.Packages {
			out = append(out, k)
		}
		return set(out)
	}
	// Composer 1 wrote the list of packages, Composer 2 an object with it
	// under "packages".
	composerWant := func(dir string) func(*testing.T) []string {
		return func(t *testing.T) []string {
			b, err := os.ReadFile(filepath.Join(variants, dir, "vendor/composer/installed.json"))
			if err != nil {
				t.Fatal(err)
			}
			var pkgs []struct{ Name, Version string }
			if b[0] == '[' {
				mustJSON(t, filepath.Join(variants, dir, "vendor/composer/installed.json"), &pkgs)
			} else {
				var doc struct {
					Packages []struct{ Name, Version string }
				}
				mustJSON(t, filepath.Join(variants, dir, "vendor/composer/installed.json"), &doc)
				pkgs = doc.Packages
			}
			var out []string
			for _, p := range pkgs {
				out = append(out, p.Name+"@"+p.Version)
			}
			return set(out)
		}
	}
	for _, c := range []struct {
		dir, file string
		want      func(*testing.T) []string
	}{
		{"npm-hidden-lockfile", "node_modules/.package-lock.json", npmWant},
		{"pnpm-hidden-lockfile", "node_modules/.pnpm/lock.yaml", pnpmWant},
		{"composer-installed-v1", "vendor/composer/installed.json", composerWant("composer-installed-v1")},
		{"composer-installed-v2", "vendor/composer/installed.json", composerWant("composer-installed-v2")},
	} {
		t.Run(c.dir, func(t *testing.T) {
			want := c.want(t)
			if len(want) < 4 {
				t.Fatalf("the file records %d packages", len(want))
			}
			res, err := sbom.Extract(context.Background(), filepath.Join(variants, c.dir), sbom.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Errors) > 0 {
				t.Fatalf("errors %v", res.Errors)
			}
			var got []string
			for _, comp := range res.Components {
				got = append(got, comp.Name+"@"+comp.Version)
				if len(comp.Locations) != 1 || comp.Locations[0] != c.file {
					t.Errorf("%s at %v, want %s", comp.Purl, comp.Locations, c.file)
				}
			}
			if diff := cmp.Diff(want, set(got)); diff != "" {
				t.Errorf("components (-file +read):\n%s", diff)
			}
		})
	}

	// The project's own lockfile wins.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(variants, "npm-hidden-lockfile"))); err != nil {
		t.Fatal(err)
	}
	lock := `{"name":"hidden-lock-app","lockfileVersion":3,"requires":true,"packages":{"":{"name":"hidden-lock-app","dependencies":{"lodash":"4.17.21"}},` +
		`"node_modules/lodash":{"version":"4.17.21"}}}`
	if err := os.WriteFile(filepath.Join(dir, "package-lock.json"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 1 || res.Components[0].Purl != "pkg:npm/lodash@4.17.21" {
		t.Errorf("components %+v; want the project lockfile's lodash 4.17.21 alone", res.Components)
	}

	// A project in a folder whose name is a glob pattern's ("[slug]", as
	// web frameworks name route folders) is read as any other.
	dir = t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "app", "[slug]"), os.DirFS(filepath.Join(variants, "npm-hidden-lockfile"))); err != nil {
		t.Fatal(err)
	}
	res, err = sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(npmWant(t), set(names(res.Components))); diff != "" {
		t.Errorf("components under app/[slug] (-file +read):\n%s", diff)
	}

	// So does composer.lock beside vendor/.
	dir = t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(variants, "composer-installed-v2"))); err != nil {
		t.Fatal(err)
	}
	composerLock := `{"packages":[{"name":"guzzlehttp/guzzle","version":"7.4.5"}],"packages-dev":[]}`
	if err := os.WriteFile(filepath.Join(dir, "composer.lock"), []byte(composerLock), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 1 || res.Components[0].Purl != "pkg:composer/guzzlehttp/guzzle@7.4.5" {
		t.Errorf("components %+v; want composer.lock's guzzle 7.4.5 alone", res.Components)
	}
}

// TestComposerInstalledGraph: installed.json gives each package its
// licenses and its requirements as edges, as composer.lock does.
func TestComposerInstalledGraph(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lock-variants/composer-installed-v2", sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]sentinel.Component{}
	for _, c := range res.Components {
		byName[c.Name] = c
	}
	// From the file: guzzlehttp/guzzle 7.4.5 (MIT) requires guzzlehttp/promises,
	// guzzlehttp/psr7, psr/http-client and symfony/deprecation-contracts.
	g := byName["guzzlehttp/guzzle"]
	if g.Version != "7.4.5" || !slices.Equal(g.Licenses, []string{"MIT"}) {
		t.Errorf("guzzle %+v", g)
	}
	want := []string{"pkg:composer/guzzlehttp/promises@1.5.1", "pkg:composer/guzzlehttp/psr7@2.4.5", "pkg:composer/psr/http-client@1.0.1", "pkg:composer/symfony/deprecation-contracts@v2.5.1"}
	if diff := cmp.Diff(want, g.DependsOn); diff != "" {
		t.Errorf("guzzle depends on (-file +read):\n%s", diff)
	}
	if len(res.Files) != 1 || !res.Files[0].Graph || res.Files[0].Extractor != "php/composerinstalled" {
		t.Errorf("files %+v", res.Files)
	}
}

// TestExtractFS: a tree that is not on disk is read as one that is.
func TestExtractFS(t *testing.T) {
	lock, err := os.ReadFile("testdata/lock-variants/composer-installed-v1/vendor/composer/installed.json")
	if err != nil {
		t.Fatal(err)
	}
	npm, err := os.ReadFile("testdata/lock-variants/npm-hidden-lockfile/node_modules/.package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	mem := fstest.MapFS{
		"vendor/composer/installed.json":      {Data: lock},
		"app/node_modules/.package-lock.json": {Data: npm},
	}
	got, err := sbom.Extract(context.Background(), "example.com", sbom.Options{FS: mem})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, mem); err != nil {
		t.Fatal(err)
	}
	want, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Components) < 70 {
		t.Fatalf("%d components on disk", len(want.Components))
	}
	if diff := cmp.Diff(want.Components, got.Components); diff != "" {
		t.Errorf("components (-disk +FS):\n%s", diff)
	}
	if diff := cmp.Diff(want.Files, got.Files); diff != "" {
		t.Errorf("files (-disk +FS):\n%s", diff)
	}
}

// TestPythonVirtualEnvironment: a project's virtual environment is read
// for the distributions pip installed in it (one METADATA each, its Name
// and Version read off the file here) where the project has no Python
// lockfile; with one, the lockfile is read instead.
func TestPythonVirtualEnvironment(t *testing.T) {
	const dir = "testdata/lock-variants/python-venv"
	metas, err := filepath.Glob(filepath.Join(dir, ".venv/lib/python3.11/site-packages/*.dist-info/METADATA"))
	if err != nil || len(metas) < 8 {
		t.Fatalf("%d records: %v", len(metas), err)
	}
	want := []string{"pkg:pypi/flask@2.0"} // requirements.txt's, at its lowest version
	for _, m := range metas {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		var name, version string
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Name: "); ok && name == "" {
				name = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(v), "_", "-"))
			}
			if v, ok := strings.CutPrefix(line, "Version: "); ok && version == "" {
				version = strings.TrimSpace(v)
			}
		}
		want = append(want, "pkg:pypi/"+name+"@"+version)
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Purl)
	}
	if diff := cmp.Diff(set(want), set(got)); diff != "" {
		t.Errorf("components (-records +read):\n%s", diff)
	}

	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	lock := "[[package]]\nname = \"flask\"\nversion = \"2.3.3\"\n\n[metadata]\nlock-version = \"2.0\"\n"
	if err := os.WriteFile(filepath.Join(tmp, "poetry.lock"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = sbom.Extract(context.Background(), tmp, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Components {
		if strings.Contains(c.Locations[0], ".venv/") {
			t.Errorf("%s read from the environment beside poetry.lock", c.Purl)
		}
	}
}

// TestInstalledDistributions: installed records are read where pip puts
// them, not the operating system's own Python packages (dpkg or RPM lists
// those, with the distribution's patches), and not wheels, eggs or a
// project's own egg-info lying in a tree.
func TestInstalledDistributions(t *testing.T) {
	tree := fstest.MapFS{}
	meta := func(name, version string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n")}
	}
	tree["usr/local/lib/python3.11/dist-packages/requests-2.31.0.dist-info/METADATA"] = meta("requests", "2.31.0")
	tree["opt/app/env/lib/python3.11/site-packages/Jinja2-3.1.2.dist-info/METADATA"] = meta("Jinja2", "3.1.2")
	tree["opt/legacy/lib/python2.7/site-packages/six.egg-info/PKG-INFO"] = meta("six", "1.10.0")
	tree["usr/lib/python3/dist-packages/urllib3-1.26.12.dist-info/METADATA"] = meta("urllib3", "1.26.12")
	tree["usr/lib64/python3.9/site-packages/idna-2.10.dist-info/METADATA"] = meta("idna", "2.10")
	tree["src/myproject.egg-info/PKG-INFO"] = meta("myproject", "0.1.0")
	tree["dist/myproject-0.1.0.dist-info/METADATA"] = meta("myproject", "0.1.0")
	res, err := sbom.Extract(context.Background(), "host", sbom.Options{FS: tree})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Purl)
	}
	want := []string{"pkg:pypi/jinja2@3.1.2", "pkg:pypi/requests@2.31.0", "pkg:pypi/six@1.10.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("components (-want +got):\n%s", diff)
	}
}

// names are the components as name@version.
func names(comps []sentinel.Component) []string {
	var out []string
	for _, c := range comps {
		out = append(out, c.Name+"@"+c.Version)
	}
	return out
}

// TestInstalledNodeModules: a node_modules folder with no lockfile in it
// or beside it (yarn and bun keep none; an image may drop npm's) is read
// from its installed packages' own package.json files: every package at
// node_modules/<name> and node_modules/@<scope>/<name>, nested ones too,
// each at its manifest with the license it declares (read off the files
// here); a hidden lockfile, when there is one, wins; and a package the
// operating system's package manager installed is left to that package.
func TestInstalledNodeModules(t *testing.T) {
	const dir = "testdata/lock-variants/npm-installed"
	layout := regexp.MustCompile(`(^|/)node_modules/(@[^/]+/)?[^/@.][^/]*/package\.json$`)
	type manifest struct {
		Name, Version string
		License       string
	}
	var want, wantLic []string
	nested := 0
	err := filepath.WalkDir(filepath.Join(dir, "node_modules"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, dir+string(filepath.Separator)))
		if !layout.MatchString(rel) {
			return nil
		}
		if strings.Count(rel, "node_modules/") > 1 {
			nested++
		}
		var m manifest
		mustJSON(t, p, &m)
		want = append(want, m.Name+"@"+m.Version+" "+rel)
		wantLic = append(wantLic, m.Name+" "+m.License)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 40 || nested == 0 || !slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, "@") }) {
		t.Fatalf("the tree holds %d packages, %d nested: want many, nested and scoped ones", len(want), nested)
	}
	res := mustExtract(t, dir)
	if len(res.Errors) > 0 {
		t.Fatalf("errors %v", res.Errors)
	}
	var got, gotLic []string
	for _, c := range res.Components {
		if len(c.Locations) != 1 {
			t.Errorf("%s at %v, want its own package.json", c.Purl, c.Locations)
			continue
		}
		got = append(got, c.Name+"@"+c.Version+" "+c.Locations[0])
		gotLic = append(gotLic, c.Name+" "+strings.Join(c.Licenses, ","))
	}
	if diff := cmp.Diff(set(want), set(got)); diff != "" {
		t.Errorf("components (-files +read):\n%s", diff)
	}
	if diff := cmp.Diff(set(wantLic), set(gotLic)); diff != "" {
		t.Errorf("licenses (-files +read):\n%s", diff)
	}

	// npm's hidden lockfile, where there is one, is what is read.
	tmp := t.TempDir()
	if err := os.CopyFS(tmp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	hidden := `{"name":"installed-app","lockfileVersion":3,"requires":true,"packages":{"node_modules/express":{"version":"4.17.1"}}}`
	if err := os.WriteFile(filepath.Join(tmp, "node_modules", ".package-lock.json"), []byte(hidden), 0o644); err != nil {
		t.Fatal(err)
	}
	res = mustExtract(t, tmp)
	if got := names(res.Components); !slices.Equal(got, []string{"express@4.17.1"}) {
		t.Errorf("with a hidden lockfile: %v, want its express@4.17.1 alone", got)
	}

	// Installed globally by a distribution's package (as Node's own npm
	// is): the files dpkg lists are its, the others are read.
	mem := fstest.MapFS{}
	mapTree(t, mem, dir, "node_modules", "usr/lib/")
	mem["var/lib/dpkg/info/node-express.list"] = &fstest.MapFile{Data: []byte("/usr/lib/node_modules\n/usr/lib/node_modules/express\n/usr/lib/node_modules/express/package.json\n")}
	res, err = sbom.Extract(context.Background(), "host", sbom.Options{FS: mem, Kinds: sbom.Languages})
	if err != nil {
		t.Fatal(err)
	}
	read := names(res.Components)
	if slices.Contains(read, "express@4.17.1") || len(read) != len(want)-1 {
		t.Errorf("read %d packages (express among them: %v), want the %d dpkg does not list", len(read), slices.Contains(read, "express@4.17.1"), len(want)-1)
	}
}

// TestInstalledGems: the gems a gem home records (Ruby 3.1's own default
// and bundled gems here, as Debian's libruby3.1 installs them, moved to
// /usr/local as a Ruby built from source has them) are components with
// the name, version and licenses each specification states (read off the
// files here); the same records installed by dpkg are its package's.
func TestInstalledGems(t *testing.T) {
	const dir = "testdata/lock-variants/ruby-installed"
	const home = "usr/local/lib/ruby/gems/3.1.0"
	field := regexp.MustCompile(`(?m)^\s*s\.(name|version) = "([^"]+)"`)
	var want []string
	licensed := map[string]bool{} // gems whose specification names a license
	walk := func(fn func(rel string, b []byte)) {
		t.Helper()
		err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(os.DirFS(dir), p)
			if err == nil {
				fn(p, b)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	defaults := 0
	walk(func(rel string, b []byte) {
		kv := map[string]string{}
		for _, m := range field.FindAllSubmatch(b, -1) {
			kv[string(m[1])] = string(m[2])
		}
		want = append(want, kv["name"]+"@"+kv["version"]+" "+rel)
		licensed[kv["name"]] = bytes.Contains(b, []byte("s.licenses = [")) || bytes.Contains(b, []byte("s.license = "))
		if strings.Contains(rel, "/specifications/default/") {
			defaults++
		}
	})
	if len(want) < 80 || defaults < 40 {
		t.Fatalf("the tree records %d gems, %d default ones", len(want), defaults)
	}
	res := mustExtract(t, dir)
	if len(res.Errors) > 0 {
		t.Fatalf("errors %v", res.Errors)
	}
	var got []string
	lic := map[string][]string{}
	for _, c := range res.Components {
		if !strings.HasPrefix(c.Purl, "pkg:gem/") || len(c.Locations) != 1 {
			t.Errorf("%s at %v", c.Purl, c.Locations)
			continue
		}
		got = append(got, c.Name+"@"+c.Version+" "+c.Locations[0])
		lic[c.Name] = c.Licenses
		if licensed[c.Name] != (len(c.Licenses) > 0) {
			t.Errorf("%s: licenses %q, the specification names one: %v", c.Name, c.Licenses, licensed[c.Name])
		}
	}
	if diff := cmp.Diff(set(want), set(got)); diff != "" {
		t.Errorf("components (-files +read):\n%s", diff)
	}
	// As two of the files write them.
	if !slices.Equal(lic["uri"], []string{"Ruby", "BSD-2-Clause"}) || !slices.Equal(lic["bundler"], []string{"MIT"}) {
		t.Errorf("uri %q, bundler %q", lic["uri"], lic["bundler"])
	}

	// The same gem home where Debian's package put it: dpkg's.
	mem := fstest.MapFS{}
	var list strings.Builder
	walk(func(rel string, b []byte) {
		p := strings.Replace(rel, home, "usr/lib/ruby/gems/3.1.0", 1)
		mem[p] = &fstest.MapFile{Data: b}
		if !strings.Contains(p, "/uri-") {
			list.WriteString("/" + p + "\n")
		}
	})
	mem["var/lib/dpkg/info/libruby3.1:amd64.list"] = &fstest.MapFile{Data: []byte(list.String())}
	res, err := sbom.Extract(context.Background(), "host", sbom.Options{FS: mem, Kinds: sbom.Languages})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(res.Components); !slices.Equal(got, []string{"uri@0.11.0"}) {
		t.Errorf("read %v, want only the gem dpkg does not list, uri@0.11.0", got)
	}
}

// TestVendoredGems: a deployment's vendor/bundle (bundler's --deployment
// path, the same specifications a gem home keeps: the real ones of
// Ruby 3.1's bundled gems here) is read when the project has no
// Gemfile.lock, and left to the Gemfile.lock when it has one; composer's
// record in the same vendor folder is decided by composer.lock alone.
func TestVendoredGems(t *testing.T) {
	const specs = "testdata/lock-variants/ruby-installed/usr/local/lib/ruby/gems/3.1.0/specifications"
	ents, err := os.ReadDir(specs)
	if err != nil {
		t.Fatal(err)
	}
	field := regexp.MustCompile(`(?m)^\s*s\.(name|version) = "([^"]+)"`)
	mem := fstest.MapFS{"app/Gemfile": &fstest.MapFile{Data: []byte("source \"https://rubygems.org\"\n")}}
	var want []string
	for _, e := range ents {
		if e.IsDir() { // specifications/default: Ruby's own, never vendored
			continue
		}
		b, err := os.ReadFile(filepath.Join(specs, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		mem["app/vendor/bundle/ruby/3.1.0/specifications/"+e.Name()] = &fstest.MapFile{Data: b}
		kv := map[string]string{}
		for _, m := range field.FindAllSubmatch(b, -1) {
			kv[string(m[1])] = string(m[2])
		}
		want = append(want, kv["name"]+"@"+kv["version"])
	}
	if len(want) < 10 {
		t.Fatalf("%d specifications", len(want))
	}
	installed, err := os.ReadFile("testdata/lock-variants/composer-installed-v2/vendor/composer/installed.json")
	if err != nil {
		t.Fatal(err)
	}
	mem["app/vendor/composer/installed.json"] = &fstest.MapFile{Data: installed}
	extract := func() (gems []string, composer int) {
		t.Helper()
		res, err := sbom.Extract(context.Background(), "app", sbom.Options{FS: mem, Kinds: sbom.Languages})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Components {
			switch {
			case strings.HasPrefix(c.Purl, "pkg:gem/"):
				gems = append(gems, c.Name+"@"+c.Version)
			case strings.HasPrefix(c.Purl, "pkg:composer/"):
				composer++
			default:
				t.Errorf("unexpected %s", c.Purl)
			}
		}
		return gems, composer
	}

	gems, composer := extract()
	if diff := cmp.Diff(set(want), set(gems)); diff != "" {
		t.Errorf("vendored gems (-specifications +read):\n%s", diff)
	}
	if composer == 0 {
		t.Error("composer's installed.json beside them was not read")
	}

	mem["app/Gemfile.lock"] = &fstest.MapFile{Data: []byte("GEM\n  remote: https://rubygems.org/\n  specs:\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n")}
	gems, composer2 := extract()
	if len(gems) != 0 {
		t.Errorf("with a Gemfile.lock, vendor/bundle was read too: %v", gems)
	}
	if composer2 != composer {
		t.Errorf("composer components %d with a Gemfile.lock, %d without", composer2, composer)
	}
}

// TestBunBinaryLockfile: a bun.lockb, bun's binary lockfile, that reads
// is read instead of the node_modules beside it; one that does not read is
// an error saying how to write the text one, and the node_modules bun
// installed is read as for a project without a lockfile. Beside a
// bun.lock (read instead) it is not read.
func TestBunBinaryLockfile(t *testing.T) {
	const installed = "testdata/lock-variants/npm-installed"
	mem := fstest.MapFS{}
	mapTree(t, mem, installed, ".", "app/")
	extract := func() *sbom.Result {
		t.Helper()
		res, err := sbom.Extract(context.Background(), "app", sbom.Options{FS: mem, Kinds: sbom.Languages})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	want := names(extract().Components)
	if len(want) < 50 {
		t.Fatalf("node_modules alone: %d components", len(want))
	}

	// The first bytes bun writes, and no more: truncated.
	mem["app/bun.lockb"] = &fstest.MapFile{Data: []byte("#!/usr/bin/env bun\nbun-lockfile-format-v0\n\x02\x00\x00\x00")}
	res := extract()
	if got := names(res.Components); !slices.Equal(got, want) {
		t.Errorf("with a truncated bun.lockb: %d components, %d without", len(got), len(want))
	}
	if len(res.Errors) != 1 || path.Base(res.Errors[0].Path) != "bun.lockb" || !strings.Contains(res.Errors[0].Reason, "--save-text-lockfile") {
		t.Errorf("errors %v, want one on bun.lockb saying how to write bun.lock", res.Errors)
	}

	// One bun 1.1.38 wrote is read, node_modules not.
	lockb, err := os.ReadFile("testdata/bun-lockb/mix-1.1.38/bun.lockb")
	if err != nil {
		t.Fatal(err)
	}
	mem["app/bun.lockb"] = &fstest.MapFile{Data: lockb}
	res = extract()
	for _, c := range res.Components {
		if !slices.Equal(c.Locations, []string{"app/bun.lockb"}) {
			t.Errorf("with a readable bun.lockb: %s from %v", c.Purl, c.Locations)
		}
	}
	if len(res.Components) != 10 || len(res.Errors)+len(res.Warnings) != 0 {
		t.Errorf("with a readable bun.lockb: %d components, want its 10; errors %v, warnings %v", len(res.Components), res.Errors, res.Warnings)
	}

	mem["app/bun.lock"] = &fstest.MapFile{Data: []byte(`{"lockfileVersion": 1, "workspaces": {"": {"name": "app"}}, "packages": {}}`)}
	res = extract()
	if len(res.Warnings) != 0 || len(res.Components) != 0 {
		t.Errorf("beside bun.lock: warnings %v, %d components (node_modules read despite the lockfile)", res.Warnings, len(res.Components))
	}
}

// TestHiddenRecordsGraph: a deployed project's records inside node_modules
// speak for the project beside it. Its package.json's dependencies are its
// direct dependencies, found in npm's hidden lockfile or among the
// installed packages; pnpm's copy of its lockfile gives the whole graph,
// as pnpm-lock.yaml does.
func TestHiddenRecordsGraph(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		edge [2]string // one edge between packages, read off the record
	}{
		{"npm-hidden-lockfile", [2]string{"pkg:npm/express@4.17.1", "pkg:npm/body-parser@1.19.0"}},
		{"pnpm-hidden-lockfile", [2]string{"pkg:npm/debug@4.3.1", "pkg:npm/ms@2.1.2"}},
		{"npm-installed", [2]string{}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join("testdata/lock-variants", tc.dir)
			var manifest struct{ Dependencies map[string]string }
			mustJSON(t, filepath.Join(dir, "package.json"), &manifest)
			res := mustExtract(t, dir)
			p := res.MainProject()
			if p == nil {
				t.Fatal("no project")
			}
			var direct []string
			for _, d := range p.DependsOn {
				for _, c := range res.Components {
					if c.Purl == d {
						direct = append(direct, c.Name)
					}
				}
			}
			if diff := cmp.Diff(slices.Sorted(maps.Keys(manifest.Dependencies)), set(direct)); diff != "" {
				t.Errorf("%s's direct dependencies (-package.json +read):\n%s", p.Name, diff)
			}
			if tc.edge[0] == "" {
				return
			}
			i := slices.IndexFunc(res.Components, func(c sentinel.Component) bool { return c.Purl == tc.edge[0] })
			if i < 0 {
				t.Fatalf("no component %s", tc.edge[0])
			}
			if c := res.Components[i]; !slices.Contains(c.DependsOn, tc.edge[1]) {
				t.Errorf("%s depends on %v, want %s among them", c.Purl, c.DependsOn, tc.edge[1])
			}
		})
	}
}

// mapTree copies the files under sub of the directory dir into mem, each
// at prefix and its path from dir.
func mapTree(tb testing.TB, mem fstest.MapFS, dir, sub, prefix string) {
	tb.Helper()
	err := fs.WalkDir(os.DirFS(dir), sub, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(os.DirFS(dir), p)
		mem[prefix+p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
}
