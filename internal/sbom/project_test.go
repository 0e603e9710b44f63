package sbom_test

import (
	"context"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
	packageurl "github.com/package-url/packageurl-go"
	"gopkg.in/yaml.v3"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// projectWant is what a case's root manifest says of the project, read
// from the files with no code of the package: its purl, and its direct
// dependencies as "name@version" (the manifest's declared names, at the
// versions the lockfile installs for them).
type projectWant struct {
	purl   string
	direct []string
}

// pomRead: a pom.xml's coordinates, the groupId and version taken from
// its <parent> element where it has none and ${properties} from its own
// and its parent's (at the relativePath) <properties>; its direct
// dependencies are the groupId:artifactId it declares (also in a profile
// active by default), without versions
// (they come through properties and the parents' management), so the
// Maven cases compare names only.
func pomRead(tb testing.TB, dir string) projectWant {
	m, own := readTestPOM(tb, filepath.Join(dir, "pom.xml"))
	props := map[string]string{}
	if rel := m.Parent.RelativePath; rel != "" {
		_, props = readTestPOM(tb, filepath.Join(dir, rel, "pom.xml"))
	}
	maps.Copy(props, own)
	deps := m.Dependencies
	for _, pr := range m.Profiles { // those active by default
		if pr.ActiveByDefault {
			pr.Properties.add(props)
			deps = append(deps, pr.Dependencies...)
		}
	}
	group, version := m.GroupID, m.Version
	if group == "" {
		group = m.Parent.GroupID
	}
	if version == "" {
		version = m.Parent.Version
	}
	props["project.groupId"], props["project.version"] = group, version
	var direct []string
	for _, d := range deps {
		direct = append(direct, expandTest(d.GroupID+":"+d.ArtifactID, props))
	}
	return projectWant{packageurl.NewPackageURL("maven", group, m.ArtifactID, version, nil, "").ToString(), set(direct)}
}

// jsonDeps are the dependency names of a package.json.
func jsonDeps(tb testing.TB, dir string) (name, version string, deps []string) {
	var m struct {
		Name, Version                                                         string
		Dependencies, DevDependencies, OptionalDependencies, PeerDependencies map[string]string
	}
	mustJSON(tb, filepath.Join(dir, "package.json"), &m)
	for _, d := range []map[string]string{m.Dependencies, m.DevDependencies, m.OptionalDependencies, m.PeerDependencies} {
		for k := range d {
			deps = append(deps, k)
		}
	}
	return m.Name, m.Version, deps
}

func npmPurl(name, version string) string {
	ns, n := "", name
	if i := strings.LastIndex(name, "/"); i >= 0 {
		ns, n = name[:i], name[i+1:]
	}
	return packageurl.NewPackageURL("npm", ns, n, version, nil, "").ToString()
}

var projectReaders = map[string]func(tb testing.TB, dir string) projectWant{
	// pip-compile: the pins that no "# via" comment says a package needs
	// (this file marks its one request "# direct").
	"requirements-bitnami-vulndb-config": func(tb testing.TB, dir string) projectWant {
		var direct []string
		pin := regexp.MustCompile(`^([A-Za-z0-9][\w.-]*)==(\S+)`)
		cur, needed := "", false
		flush := func() {
			if cur != "" && !needed {
				direct = append(direct, cur)
			}
		}
		for _, l := range lines(tb, filepath.Join(dir, "requirements.txt")) {
			if m := pin.FindStringSubmatch(l); m != nil {
				flush()
				cur, needed = m[1]+"@"+m[2], false
			} else if t := strings.TrimSpace(l); strings.HasPrefix(t, "# via") {
				needed = true
			}
		}
		flush()
		return projectWant{"", set(direct)}
	},
	// npm v2/v3: the declared names at packages["node_modules/<name>"].
	"maven-cyclonedx-spec-tools":    pomRead,
	"maven-zeppelin-server-scalibr": pomRead,
	"npm-v3-retirejs-chrome":        npmProjectRead,
	"npm-v3-pkgsite":                npmProjectRead,
	"npm-v2-dependabot-npm-helpers": npmProjectRead,
	"npm-v2-endoflife-site":         npmProjectRead,
	// npm v1: the declared names at the top level of "dependencies".
	"npm-v1-pkgsite-2020": func(tb testing.TB, dir string) projectWant {
		name, version, deps := jsonDeps(tb, dir)
		var lock struct {
			Dependencies map[string]struct{ Version string }
		}
		mustJSON(tb, filepath.Join(dir, "package-lock.json"), &lock)
		var direct []string
		for _, d := range deps {
			if p, ok := lock.Dependencies[d]; ok {
				direct = append(direct, d+"@"+p.Version)
			}
		}
		return projectWant{npmPurl(name, version), set(direct)}
	},
	// yarn v1: each declared "name@range" is a descriptor of one entry.
	"yarn-v1-d3": func(tb testing.TB, dir string) projectWant {
		var m struct {
			Name, Version                 string
			Dependencies, DevDependencies map[string]string
		}
		mustJSON(tb, filepath.Join(dir, "package.json"), &m)
		byDesc := map[string]string{}
		version := regexp.MustCompile(`(?m)^  version "([^"]+)"$`)
		for _, block := range strings.Split(string(mustRead(tb, filepath.Join(dir, "yarn.lock"))), "\n\n") {
			header, _, _ := strings.Cut(strings.TrimSpace(block), "\n")
			v := version.FindStringSubmatch(block)
			if v == nil || strings.HasPrefix(header, "#") {
				continue
			}
			for _, d := range strings.Split(strings.TrimSuffix(header, ":"), ", ") {
				byDesc[strings.Trim(d, `"`)] = v[1]
			}
		}
		var direct []string
		for _, deps := range []map[string]string{m.Dependencies, m.DevDependencies} {
			for n, r := range deps {
				direct = append(direct, n+"@"+byDesc[n+"@"+r])
			}
		}
		return projectWant{npmPurl(m.Name, m.Version), set(direct)}
	},
	// NuGet: no manifest here names the project; packages.lock.json marks
	// the direct packages ("type": "Direct") of an unnamed project.
	"nuget-bitwarden-api":      nugetProjectRead,
	"nuget-simpletweaks-small": nugetProjectRead,
	// Cargo: the root crate's own [[package]] entry lists its dependencies.
	"cargo-ripgrep": func(tb testing.TB, dir string) projectWant {
		self := cargoProjectRead(tb, dir)[0]
		name, version, _ := strings.Cut(self, "@")
		var lock struct {
			Package []struct {
				Name, Version, Source string
				Dependencies          []string
			}
		}
		if _, err := toml.DecodeFile(filepath.Join(dir, "Cargo.lock"), &lock); err != nil {
			tb.Fatal(err)
		}
		versions := map[string][]string{}
		for _, p := range lock.Package {
			versions[p.Name] = append(versions[p.Name], p.Version)
		}
		var direct []string
		for _, p := range lock.Package {
			if p.Name == name && p.Source == "" {
				for _, d := range p.Dependencies {
					f := strings.Fields(d)
					v := ""
					if len(f) > 1 {
						v = f[1]
					} else {
						v = versions[f[0]][0]
					}
					direct = append(direct, f[0]+"@"+v)
				}
			}
		}
		return projectWant{"pkg:cargo/" + name + "@" + version, set(direct)}
	},
	// pnpm: importers["."], every dependency group.
	"pnpm-v9-vuejs-core": func(tb testing.TB, dir string) projectWant {
		name, version, _ := jsonDeps(tb, dir)
		var lock struct {
			Importers map[string]map[string]map[string]struct{ Version string }
		}
		if err := yaml.Unmarshal(mustRead(tb, filepath.Join(dir, "pnpm-lock.yaml")), &lock); err != nil {
			tb.Fatal(err)
		}
		var direct []string
		for _, group := range lock.Importers["."] {
			for n, d := range group {
				v, _, _ := strings.Cut(d.Version, "(")
				if !strings.HasPrefix(v, "link:") {
					direct = append(direct, n+"@"+v)
				}
			}
		}
		p := ""
		if name != "" {
			p = npmPurl(name, version)
		}
		return projectWant{p, set(direct)}
	},
	// bun: workspaces[""] names at packages[name][0] ("name@version").
	"bun-hono": func(tb testing.TB, dir string) projectWant {
		name, version, deps := jsonDeps(tb, dir)
		var direct []string
		re := regexp.MustCompile(`(?m)^    "([^"]+)": \["([^"]+)"`)
		ids := map[string]string{}
		for _, m := range re.FindAllStringSubmatch(string(mustRead(tb, filepath.Join(dir, "bun.lock"))), -1) {
			ids[m[1]] = m[2]
		}
		for _, d := range deps {
			if id := ids[d]; id != "" {
				direct = append(direct, d+"@"+id[strings.LastIndex(id, "@")+1:])
			}
		}
		return projectWant{npmPurl(name, version), set(direct)}
	},
	// yarn berry: the "<name>@workspace:." entry's dependencies, each
	// resolved through the descriptor it names.
	"yarn-berry-reselect": func(tb testing.TB, dir string) projectWant {
		name, version, _ := jsonDeps(tb, dir)
		var lock map[string]struct {
			Version      string
			Resolution   string
			Dependencies map[string]string
		}
		if err := yaml.Unmarshal(mustRead(tb, filepath.Join(dir, "yarn.lock")), &lock); err != nil {
			tb.Fatal(err)
		}
		byDesc := map[string]string{}
		for k, e := range lock {
			for _, d := range strings.Split(k, ", ") {
				byDesc[d] = e.Version
			}
		}
		var direct []string
		for n, r := range lock[name+"@workspace:."].Dependencies {
			direct = append(direct, n+"@"+byDesc[n+"@"+r])
		}
		return projectWant{npmPurl(name, version), set(direct)}
	},
	"go-pkgsite": goProjectRead,
	"go-vulndb":  goProjectRead,
	// composer: require and require-dev names with a vendor, at the
	// locked versions.
	"composer-dependabot-helpers-v2": func(tb testing.TB, dir string) projectWant {
		var m struct {
			Name       string
			Require    map[string]string
			RequireDev map[string]string `json:"require-dev"`
		}
		mustJSON(tb, filepath.Join(dir, "composer.json"), &m)
		var lock struct {
			Packages    []struct{ Name, Version string } `json:"packages"`
			PackagesDev []struct{ Name, Version string } `json:"packages-dev"`
		}
		mustJSON(tb, filepath.Join(dir, "composer.lock"), &lock)
		versions := map[string]string{}
		for _, p := range append(lock.Packages, lock.PackagesDev...) {
			versions[p.Name] = p.Version
		}
		var direct []string
		for _, deps := range []map[string]string{m.Require, m.RequireDev} {
			for n := range deps {
				if strings.Contains(n, "/") {
					direct = append(direct, n+"@"+versions[n])
				}
			}
		}
		ns, n, _ := strings.Cut(m.Name, "/")
		return projectWant{packageurl.NewPackageURL("composer", ns, n, "", nil, "").ToString(), set(direct)}
	},
	// Poetry: [tool.poetry] and its dependency groups, at the locked
	// versions.
	"poetry-ossfuzzvulns-infra": func(tb testing.TB, dir string) projectWant {
		var m struct {
			Tool struct {
				Poetry struct {
					Name, Version string
					Dependencies  map[string]any
					Group         map[string]struct{ Dependencies map[string]any }
				}
			}
		}
		if _, err := toml.DecodeFile(filepath.Join(dir, "pyproject.toml"), &m); err != nil {
			tb.Fatal(err)
		}
		locked := map[string]string{}
		for _, nv := range tomlPackagesRead("poetry.lock")(tb, dir) {
			n, v, _ := strings.Cut(nv, "@")
			locked[strings.ToLower(n)] = nv[:len(n)] + "@" + v
		}
		var direct []string
		groups := []map[string]any{m.Tool.Poetry.Dependencies}
		for _, g := range m.Tool.Poetry.Group {
			groups = append(groups, g.Dependencies)
		}
		for _, g := range groups {
			for n := range g {
				if nv, ok := locked[strings.ToLower(n)]; ok {
					direct = append(direct, nv)
				}
			}
		}
		return projectWant{"pkg:pypi/" + m.Tool.Poetry.Name + "@" + m.Tool.Poetry.Version, set(direct)}
	},
	// Pub: pubspec.lock marks direct dependencies itself.
	"pub-localsend": func(tb testing.TB, dir string) projectWant {
		var m struct{ Name, Version string }
		if err := yaml.Unmarshal(mustRead(tb, filepath.Join(dir, "pubspec.yaml")), &m); err != nil {
			tb.Fatal(err)
		}
		var lock struct {
			Packages map[string]struct{ Dependency, Version string }
		}
		if err := yaml.Unmarshal(mustRead(tb, filepath.Join(dir, "pubspec.lock")), &lock); err != nil {
			tb.Fatal(err)
		}
		var direct []string
		for n, p := range lock.Packages {
			if strings.HasPrefix(p.Dependency, "direct") {
				direct = append(direct, n+"@"+p.Version)
			}
		}
		return projectWant{packageurl.NewPackageURL("pub", "", m.Name, m.Version, nil, "").ToString(), set(direct)}
	},
	// mix: app and version of the project keyword list; the deps tuples'
	// names at the locked versions.
	"mix-bamboo": func(tb testing.TB, dir string) projectWant {
		exs := string(mustRead(tb, filepath.Join(dir, "mix.exs")))
		app := regexp.MustCompile(`app: :(\w+)`).FindStringSubmatch(exs)[1]
		version := regexp.MustCompile(`version: "([^"]+)"`).FindStringSubmatch(exs)[1]
		deps := regexp.MustCompile(`(?s)defp deps do(.*?)\n  end`).FindStringSubmatch(exs)[1]
		locked := map[string]string{}
		for _, nv := range mixRead(tb, dir) {
			n, _, _ := strings.Cut(nv, "@")
			locked[n] = nv
		}
		var direct []string
		for _, m := range regexp.MustCompile(`\{:(\w+),`).FindAllStringSubmatch(deps, -1) {
			if nv, ok := locked[m[1]]; ok {
				direct = append(direct, nv)
			}
		}
		return projectWant{"pkg:hex/" + app + "@" + version, set(direct)}
	},
	// Bundler: no manifest names the project; the lockfile's DEPENDENCIES
	// are the direct dependencies of an unnamed project.
	"ruby-dependabot-updater": func(tb testing.TB, dir string) projectWant {
		specs := map[string]string{}
		for _, nv := range gemfileRead(tb, dir) {
			n, _, _ := strings.Cut(nv, "@")
			specs[n] = nv
		}
		var direct []string
		in := false
		for _, l := range lines(tb, filepath.Join(dir, "Gemfile.lock")) {
			switch {
			case l == "DEPENDENCIES":
				in = true
			case in && strings.HasPrefix(l, "  "):
				n := strings.TrimSuffix(strings.Fields(l)[0], "!")
				if nv, ok := specs[n]; ok {
					direct = append(direct, nv)
				}
			case in:
				in = false
			}
		}
		return projectWant{"", set(direct)}
	},
}

func nugetProjectRead(tb testing.TB, dir string) projectWant {
	var lock struct {
		Dependencies map[string]map[string]struct{ Type, Resolved string }
	}
	mustJSON(tb, filepath.Join(dir, "packages.lock.json"), &lock)
	var direct []string
	for _, fw := range lock.Dependencies {
		for n, p := range fw {
			if p.Type == "Direct" {
				direct = append(direct, n+"@"+p.Resolved)
			}
		}
	}
	return projectWant{"", set(direct)}
}

func npmProjectRead(tb testing.TB, dir string) projectWant {
	name, version, deps := jsonDeps(tb, dir)
	var lock struct {
		Name, Version string
		Packages      map[string]struct{ Name, Version string }
	}
	mustJSON(tb, filepath.Join(dir, "package-lock.json"), &lock)
	if name == "" {
		// A package.json without a name: npm names the root entry after
		// the folder it installed in, and that is the project's name.
		name, version = lock.Name, lock.Version
		if root := lock.Packages[""]; root.Name != "" {
			name, version = root.Name, root.Version
		}
	}
	var direct []string
	for _, d := range deps {
		if p, ok := lock.Packages["node_modules/"+d]; ok {
			direct = append(direct, d+"@"+p.Version)
		}
	}
	if name == "" {
		return projectWant{"", set(direct)} // an unnamed project
	}
	return projectWant{npmPurl(name, version), set(direct)}
}

// goProjectRead: the module path, and the requires without "// indirect",
// and the module of each tool directive (Go 1.24), which the project
// declares as directly as a require.
func goProjectRead(tb testing.TB, dir string) projectWant {
	var module string
	var direct, tools []string
	all := map[string]string{} // module -> version, indirect ones too
	req := regexp.MustCompile(`^(?:require\s+)?\s*([^\s()]+)\s+v(\S+)\s*(//.*)?$`)
	block := ""
	for _, l := range lines(tb, filepath.Join(dir, "go.mod")) {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "module "):
			module = strings.TrimSpace(strings.TrimPrefix(t, "module "))
		case strings.HasSuffix(t, " (") || strings.HasSuffix(t, "("):
			block = strings.TrimSpace(strings.TrimSuffix(t, "("))
		case t == ")":
			block = ""
		case block == "tool" || strings.HasPrefix(t, "tool "):
			tools = append(tools, strings.TrimSpace(strings.TrimPrefix(t, "tool ")))
		case block == "require" || strings.HasPrefix(t, "require "):
			if m := req.FindStringSubmatch(t); m != nil {
				all[m[1]] = m[2]
				if !strings.Contains(m[3], "indirect") {
					direct = append(direct, m[1]+"@"+m[2])
				}
			}
		}
	}
	for _, tool := range tools {
		best := ""
		for mod := range all {
			if (tool == mod || strings.HasPrefix(tool, mod+"/")) && len(mod) > len(best) {
				best = mod
			}
		}
		if best != "" && !slices.Contains(direct, best+"@"+all[best]) {
			direct = append(direct, best+"@"+all[best])
		}
	}
	i := strings.LastIndex(module, "/")
	return projectWant{packageurl.NewPackageURL("golang", module[:i], module[i+1:], "", nil, "").ToString(), set(direct)}
}

// TestProjects: the project a case's root manifest names is the scan's
// main project (not a component), with its direct dependencies; the
// expectations are read from the manifests and lockfiles. Cases without a
// manifest have no main project, or an unnamed one when their lockfile
// says which dependencies are direct.
func TestProjects(t *testing.T) {
	for _, tc := range lockCases {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join(lockfiles, tc.dir)
			res := mustExtract(t, dir)
			main := res.MainProject()
			read, ok := projectReaders[tc.dir]
			if !ok {
				if main != nil {
					t.Errorf("MainProject = %+v, want none", main)
				}
				return
			}
			want := read(t, dir)
			if main == nil {
				t.Fatalf("no main project; want %s", want.purl)
			}
			if main.Purl != want.purl || main.Type != "application" {
				t.Errorf("MainProject purl %q type %q, want %q application", main.Purl, main.Type, want.purl)
			}
			byPurl := map[string]string{}
			for _, c := range res.Components {
				byPurl[c.Purl] = c.Name + "@" + c.Version
				if main.Purl != "" && c.Purl == main.Purl {
					t.Errorf("the project %s is also a component", c.Purl)
				}
			}
			var got []string
			for _, d := range main.DependsOn {
				nv := byPurl[d]
				if strings.HasPrefix(tc.dir, "maven-") { // names only (pomRead)
					nv = nv[:strings.LastIndex(nv, "@")]
				}
				got = append(got, nv)
			}
			if diff := cmp.Diff(want.direct, set(got)); diff != "" {
				t.Errorf("direct dependencies mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestProjectsCargoWorkspace: every member of lapce's workspace is a
// project with the version and license it inherits from the workspace
// root, and none of them is a component.
func TestProjectsCargoWorkspace(t *testing.T) {
	res := mustExtract(t, filepath.Join("testdata", "sources", "cargo-lapce"))
	var got []string
	for _, p := range res.Projects {
		got = append(got, p.Purl+" "+strings.Join(p.Licenses, ",")+" "+p.Locations[0])
		if len(p.DependsOn) == 0 {
			t.Errorf("%s: no direct dependencies", p.Purl)
		}
	}
	want := []string{
		"pkg:cargo/lapce@0.4.6 Apache-2.0 Cargo.toml",
		"pkg:cargo/lapce-app@0.4.6 Apache-2.0 lapce-app/Cargo.toml",
		"pkg:cargo/lapce-core@0.4.6 Apache-2.0 lapce-core/Cargo.toml",
		"pkg:cargo/lapce-proxy@0.4.6 Apache-2.0 lapce-proxy/Cargo.toml",
		"pkg:cargo/lapce-rpc@0.4.6 Apache-2.0 lapce-rpc/Cargo.toml",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("projects mismatch (-want +got):\n%s", diff)
	}
	for _, c := range res.Components {
		switch c.Name {
		case "lapce", "lapce-app", "lapce-core", "lapce-proxy", "lapce-rpc":
			t.Errorf("workspace member %s is a component", c.Purl)
		}
	}
	// The root's direct dependencies are the two members it names.
	if diff := cmp.Diff([]string{"pkg:cargo/lapce-app@0.4.6", "pkg:cargo/lapce-proxy@0.4.6"}, res.MainProject().DependsOn); diff != "" {
		t.Errorf("lapce DependsOn mismatch (-want +got):\n%s", diff)
	}
	// In the SBOM they are the metadata component and applications.
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{Projects: res.Projects, Now: fixedNow})
	if m := bom.Metadata.Component; m.Name != "lapce" || m.Version != "0.4.6" || m.PackageURL != "pkg:cargo/lapce@0.4.6" {
		t.Errorf("metadata.component = %+v", m)
	}
}

// TestProjectFallback: without a manifest the metadata component is named
// after the folder, as before.
func TestProjectFallback(t *testing.T) {
	res, err := sbom.Extract(context.Background(), filepath.Join(lockfiles, "requirements-bitnami-vulndb-config"), sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{Projects: res.Projects, Root: "requirements-bitnami-vulndb-config", Now: fixedNow})
	if m := bom.Metadata.Component; m.Name != "requirements-bitnami-vulndb-config" || m.BOMRef != "sentinel:root" {
		t.Errorf("metadata.component = %+v", m)
	}
}
