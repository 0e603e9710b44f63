package sbom

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/mod/modfile"
	"gopkg.in/yaml.v3"
)

// Lockfile readers of Rust, PHP, Python, Ruby, Elixir, .NET, Dart and Go
// (see graph.go for what every reader gives).

// Cargo

// cargoLock is a parsed Cargo.lock.
type cargoLock struct {
	Package []struct {
		Name         string   `toml:"name"`
		Version      string   `toml:"version"`
		Source       string   `toml:"source"`
		Dependencies []string `toml:"dependencies"`
	} `toml:"package"`
}

func parseCargoLock(data []byte) (*cargoLock, error) {
	lock := new(cargoLock)
	if _, err := toml.Decode(string(data), lock); err != nil {
		return nil, err
	}
	return lock, nil
}

func cargoGraph(data []byte, lk *lockIndex) error {
	lock, ok := lk.pre.(*cargoLock)
	if !ok {
		var err error
		if lock, err = parseCargoLock(data); err != nil {
			return err
		}
	}
	var devOf map[string]map[string]bool
	if lk.sibling != nil {
		devOf = cargoDevelopment(lk)
	}
	copies := map[string]int{}
	for _, p := range lock.Package {
		copies[p.Name+"@"+p.Version]++
	}
	// crate finds a crate at a version from a source: where the lockfile
	// has that version twice, from the registry and from git (a fork),
	// the copy whose purl names the same repository, or none.
	crate := func(name, version, source string) (int, bool) {
		i, ok := lk.find(name, version)
		if !ok || copies[name+"@"+version] < 2 {
			return i, ok
		}
		repo := ""
		if strings.HasPrefix(source, "git+") {
			r, _ := cargoGitParts(source)
			repo = strings.TrimPrefix(vcsURL(r, ""), "git+")
		}
		for j, c := range lk.comps {
			if c.Name == name && c.Version == version && purlRepo(c.Purl) == repo {
				return j, true
			}
		}
		return i, ok
	}
	var own []int
	for _, p := range lock.Package {
		from, ok := crate(p.Name, p.Version, p.Source)
		if !ok {
			continue
		}
		if p.Source == "" {
			lk.local[from] = true // the workspace's own crates
			own = append(own, from)
		}
		for _, d := range p.Dependencies {
			// "name", "name version" or "name version (source)".
			f := strings.Fields(d)
			var to int
			switch {
			case len(f) == 1:
				to, ok = lk.find(f[0], "")
			case len(f) == 2:
				to, ok = lk.find(f[0], f[1])
			case len(f) > 2:
				to, ok = crate(f[0], f[1], strings.Trim(f[2], "()"))
			default:
				ok = false
			}
			if ok {
				lk.edge(from, to)
				if dev, known := devOf[p.Name]; known && p.Source == "" {
					lk.start(to, dev[f[0]])
					lk.startsOf(from)
				}
			}
		}
	}
	if len(own) == 1 {
		// One crate of its own: the package the lockfile is for, in its
		// directory, whether or not its Cargo.toml was scanned.
		lk.localAt[own[0]] = "."
	}
	return nil
}

// cargoDevelopment reads the Cargo.toml of the workspace beside a
// Cargo.lock (the root's and its members') for each crate's
// dev-dependencies that are not also its dependencies or build
// dependencies (a renamed one by its package name), by crate name. A
// crate whose manifest is not found is left out: its dependencies are
// taken for runtime ones.
func cargoDevelopment(lk *lockIndex) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	read := func(dir string) *cargoManifest {
		b := lk.sibling(path.Join(dir, "Cargo.toml"))
		if b == nil {
			return nil
		}
		m := new(cargoManifest)
		md, err := toml.Decode(string(trimBOM(b)), m)
		if err != nil {
			return nil
		}
		if m.Package != nil && m.Package.Name != "" {
			names := func(deps map[string]toml.Primitive) []string {
				var ns []string
				for key, prim := range deps {
					var spec struct {
						Package string `toml:"package"`
					}
					if md.PrimitiveDecode(prim, &spec) == nil && spec.Package != "" {
						key = spec.Package
					}
					ns = append(ns, key)
				}
				return ns
			}
			dev, runtime := names(m.DevDependencies), append(names(m.Dependencies), names(m.BuildDependencies)...)
			for _, t := range m.Target {
				dev = append(dev, names(t.DevDependencies)...)
				runtime = append(append(runtime, names(t.Dependencies)...), names(t.BuildDependencies)...)
			}
			d := map[string]bool{}
			for _, n := range dev {
				if !slices.Contains(runtime, n) {
					d[n] = true
				}
			}
			out[m.Package.Name] = d
		}
		return m
	}
	root := read("")
	if root == nil || root.Workspace == nil || lk.glob == nil {
		return out
	}
	for _, pattern := range root.Workspace.Members {
		for _, dir := range lk.glob(pattern) {
			if dir != "" && dir != "." {
				read(dir)
			}
		}
	}
	return out
}

// Composer

func composerGraph(data []byte, lk *lockIndex) error {
	var lock struct {
		Packages    []composerPackage `json:"packages"`
		PackagesDev []composerPackage `json:"packages-dev"`
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		return err
	}
	composerPackagesGraph(append(lock.Packages, lock.PackagesDev...), lk)
	for k, pkgs := range [][]composerPackage{lock.Packages, lock.PackagesDev} {
		for _, p := range pkgs {
			if i, ok := lk.find(p.Name, ""); ok {
				lk.devFlag(i, k == 1)
			}
		}
	}
	return nil
}

// Poetry

func poetryGraph(data []byte, lk *lockIndex) error {
	var lock struct {
		Package []struct {
			Name         string                    `toml:"name"`
			Version      string                    `toml:"version"`
			Category     string                    `toml:"category"` // before Poetry 1.5: "main" or "dev"
			Groups       []string                  `toml:"groups"`   // from Poetry 2.0
			Dependencies map[string]toml.Primitive `toml:"dependencies"`
			Source       struct {
				Type              string `toml:"type"`
				URL               string `toml:"url"`
				ResolvedReference string `toml:"resolved_reference"`
			} `toml:"source"`
		} `toml:"package"`
	}
	if _, err := toml.Decode(string(data), &lock); err != nil {
		return err
	}
	for _, p := range lock.Package {
		from, ok := lk.find(p.Name, p.Version)
		if !ok {
			continue
		}
		switch p.Source.Type {
		case "git":
			if v := vcsURL(p.Source.URL, p.Source.ResolvedReference); v != "" {
				lk.setVCS(from, v)
			}
		case "directory", "file":
			lk.local[from] = true
			if p.Source.Type == "directory" {
				lk.placeLocal(from, p.Source.URL)
			}
		}
		for d := range p.Dependencies {
			if to, ok := lk.find(d, ""); ok {
				lk.edge(from, to)
			}
		}
		switch {
		case p.Category != "":
			lk.devFlag(from, p.Category == "dev")
		case p.Groups != nil:
			// Any group but "main" is left out by `poetry install --only main`.
			lk.devFlag(from, !slices.Contains(p.Groups, "main"))
		}
	}
	if lk.devFlags == nil {
		// Poetry 1.5 to 1.8 mark nothing: pyproject.toml says which
		// dependencies are for development.
		pyprojectStarts(lk)
	}
	return nil
}

// pyprojectStarts reads the pyproject.toml beside a lockfile for where its
// dependencies enter the graph: the project's dependencies and extras,
// Poetry's main dependencies, and for development only Poetry's
// dev-dependencies and other groups and the dependency groups of PEP 735.
func pyprojectStarts(lk *lockIndex) {
	b := lk.sibling("pyproject.toml")
	if b == nil {
		return
	}
	var m pyprojectManifest
	if _, err := toml.Decode(string(trimBOM(b)), &m); err != nil {
		return
	}
	add := func(name string, dev bool) {
		if i, ok := lk.find(name, ""); ok {
			lk.start(i, dev)
		}
	}
	addReq := func(r string, dev bool) {
		if mm := pep508Name().FindStringSubmatch(r); mm != nil {
			add(mm[1], dev)
		}
	}
	if p := m.Project; p != nil {
		for _, r := range p.Dependencies {
			addReq(r, false)
		}
		for _, g := range p.OptionalDependencies {
			for _, r := range g {
				addReq(r, false)
			}
		}
	}
	for _, g := range m.DependencyGroups {
		for _, r := range g {
			if s, ok := r.(string); ok {
				addReq(s, true)
			}
		}
	}
	if po := m.Tool.Poetry; po != nil {
		for d := range po.Dependencies {
			add(d, false)
		}
		for d := range po.DevDependencies {
			add(d, true)
		}
		for name, g := range po.Group {
			for d := range g.Dependencies {
				add(d, name != "main")
			}
		}
	}
}

// uv

func uvGraph(data []byte, lk *lockIndex) error {
	type dep struct {
		Name    string `toml:"name"`
		Version string `toml:"version"`
	}
	var lock struct {
		Package []struct {
			Name    string `toml:"name"`
			Version string `toml:"version"`
			Source  struct {
				Registry  string `toml:"registry"`
				Git       string `toml:"git"`
				Virtual   string `toml:"virtual"`
				Editable  string `toml:"editable"`
				Directory string `toml:"directory"`
			} `toml:"source"`
			Dependencies         []dep            `toml:"dependencies"`
			OptionalDependencies map[string][]dep `toml:"optional-dependencies"`
			DevDependencies      map[string][]dep `toml:"dev-dependencies"`
		} `toml:"package"`
		// Manifest holds a virtual workspace root's dependency groups.
		Manifest struct {
			DependencyGroups map[string][]dep `toml:"dependency-groups"`
		} `toml:"manifest"`
	}
	if _, err := toml.Decode(string(data), &lock); err != nil {
		return err
	}
	for _, p := range lock.Package {
		s := p.Source
		local := s.Virtual != "" || s.Editable != "" || s.Directory != ""
		from, ok := lk.find(p.Name, p.Version)
		if !ok && !local {
			continue
		}
		if !ok {
			// The project's own package without a component: a virtual
			// root (an application uv does not build) has no version.
			// What it declares still starts the graph.
			from = -1
		}
		switch {
		case s.Git != "" && from >= 0:
			if v := cargoGitSource(s.Git); v != "" {
				lk.setVCS(from, v)
			}
		case local && from >= 0:
			lk.local[from] = true
			lk.placeLocal(from, s.Virtual+s.Editable+s.Directory)
		}
		deps := p.Dependencies
		for _, g := range p.OptionalDependencies {
			deps = append(deps, g...)
		}
		runtime := len(deps)
		for _, g := range p.DevDependencies {
			deps = append(deps, g...)
		}
		for k, d := range deps {
			to, ok := lk.find(d.Name, d.Version)
			if !ok {
				continue
			}
			if from < 0 {
				lk.start(to, k >= runtime)
				continue
			}
			lk.edge(from, to)
			if lk.local[from] {
				// The project's own: its dependency groups (uv's
				// dev-dependencies) are for development only.
				lk.start(to, k >= runtime)
				lk.startsOf(from)
			}
		}
	}
	for _, g := range lock.Manifest.DependencyGroups {
		for _, d := range g {
			if to, ok := lk.find(d.Name, d.Version); ok {
				lk.start(to, true)
			}
		}
	}
	return nil
}

// Bundler

// gemSpec is "    name (version)" in a specs block; gemDep "      name (constraints)".
var (
	gemSpec = lazyRegexp(`^    ([^ ]+) \(([^)]+)\)$`)
	gemDep  = lazyRegexp(`^      ([^ ]+)(?: \(.*\))?$`)
	gemRoot = lazyRegexp(`^  ([^ !]+)!?(?: \(.*\))?$`)
)

func gemGraph(data []byte, lk *lockIndex) error {
	type spec struct {
		name, version string
		deps          []string
	}
	var specs []spec
	var section, remote, revision string
	var inDeps bool
	var gf *gemfileInfo
	paths := map[string][]int{} // PATH gems by remote
	pathGems := map[string]bool{}
	gemfile := func() *gemfileInfo {
		if gf == nil {
			gf = &gemfileInfo{}
			manifest := "Gemfile"
			if path.Base(lk.file) == "gems.locked" {
				manifest = "gems.rb"
			}
			if b := lk.sibling(manifest); b != nil {
				*gf = readGemfile(b)
			}
		}
		return gf
	}
	findGem := func(name, version string) (int, bool) {
		if i, ok := lk.find(name, version); ok {
			return i, true
		}
		// "nokogiri (1.15.4-x86_64-linux)": the platform is not part of
		// the version scalibr reports.
		if v, _, cut := strings.Cut(version, "-"); cut {
			if i, ok := lk.find(name, v); ok {
				return i, true
			}
		}
		return lk.find(name, "")
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 16<<10), 1<<20) // grows to 1 MiB for a long line only
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line != "" && line[0] != ' ' {
			section, remote, revision, inDeps = line, "", "", false
			continue
		}
		switch section {
		case "GEM", "GIT", "PATH", "PLUGIN SOURCE":
			if r, ok := strings.CutPrefix(line, "  remote: "); ok {
				remote = r
				continue
			}
			if r, ok := strings.CutPrefix(line, "  revision: "); ok {
				revision = r
				continue
			}
			if m := gemSpec().FindStringSubmatch(line); m != nil {
				specs = append(specs, spec{name: m[1], version: m[2]})
				if i, ok := findGem(m[1], m[2]); ok {
					switch section {
					case "GIT":
						lk.setVCS(i, vcsURL(remote, revision))
					case "PATH":
						lk.local[i] = true
						paths[remote] = append(paths[remote], i)
						pathGems[m[1]] = true
					}
				}
				inDeps = true
				continue
			}
			if m := gemDep().FindStringSubmatch(line); m != nil && inDeps && len(specs) > 0 {
				s := &specs[len(specs)-1]
				s.deps = append(s.deps, m[1])
			}
		case "DEPENDENCIES":
			if m := gemRoot().FindStringSubmatch(line); m != nil {
				// With "gemspec", Bundler adds the gemspec's development
				// dependencies to the development group: the ones the
				// lockfile lists here that the Gemfile does not declare
				// (the gemspec's runtime dependencies are its PATH gem's).
				g := gemfile()
				fromGemspec := g.gemspec && !g.declared[m[1]] && !pathGems[m[1]]
				if i, ok := lk.find(m[1], ""); ok && (g.dev[m[1]] || fromGemspec) {
					lk.devRoot("", i)
				} else if ok {
					lk.root("", i)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, s := range specs {
		from, ok := findGem(s.name, s.version)
		if !ok {
			continue
		}
		for _, d := range s.deps {
			if to, ok := lk.find(d, ""); ok {
				lk.edge(from, to)
			}
		}
	}
	// A PATH gem is at its remote when it is the only gem there, or when
	// its gemspec is (a gem's own repository: remote: ., whose Gemfile
	// says gemspec; rails lists all its gems under remote: ., and only
	// rails.gemspec is there).
	for remote, gems := range paths {
		for _, i := range gems {
			if len(gems) == 1 || lk.sibling(path.Join(remote, lk.comps[i].Name+".gemspec")) != nil {
				lk.placeLocal(i, remote)
			}
		}
	}
	return nil
}

// Mix

// mixEntry is one line of mix.lock: `"name": {:hex, :name, "version", ...,
// [deps...], ...}` or `"name": {:git, "url", "commit", [...]}`.
var (
	mixHex     = lazyRegexp(`^\s*"([^"]+)":\s*\{:hex,\s*:"?([a-zA-Z0-9_]+)"?,\s*"([^"]+)",\s*"[^"]*",\s*\[[^\]]*\],\s*\[(.*)\],\s*"`)
	mixGit     = lazyRegexp(`^\s*"([^"]+)":\s*\{:git,\s*"([^"]+)",\s*"([0-9a-f]+)"`)
	mixDepAtom = lazyRegexp(`\{:([a-zA-Z0-9_]+),`)
)

func mixGraph(data []byte, lk *lockIndex) error {
	// Entries and mix.exs name a package by the project's name for it,
	// the components by the package's name on Hex (mixLock): hex maps
	// the one to the other where they differ, filled as the entries are
	// read.
	hex := map[string]string{}
	find := func(name, version string) (int, bool) {
		if n, ok := hex[name]; ok {
			name = n
		}
		return lk.find(name, version)
	}
	type entry struct {
		name, version string
		deps          []string
	}
	var entries []entry
	sc := bufio.NewScanner(bytes.NewReader(mixLockOpened(data)))
	sc.Buffer(make([]byte, 0, 16<<10), 1<<20) // grows to 1 MiB for a long line only
	for sc.Scan() {
		line := sc.Text()
		if m := mixHex().FindStringSubmatch(line); m != nil {
			e := entry{name: m[1], version: m[3]}
			if m[1] != m[2] {
				hex[m[1]] = m[2]
			}
			for _, d := range mixDepAtom().FindAllStringSubmatch(m[4], -1) {
				e.deps = append(e.deps, d[1])
			}
			entries = append(entries, e)
			continue
		}
		if m := mixGit().FindStringSubmatch(line); m != nil {
			if i, ok := find(m[1], ""); ok {
				lk.setVCS(i, vcsURL(m[2], m[3]))
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if lk.sibling != nil {
		mixRoots(lk, find)
	}
	for _, e := range entries {
		from, ok := find(e.name, e.version)
		if !ok {
			continue
		}
		for _, d := range e.deps {
			if to, ok := find(d, ""); ok {
				lk.edge(from, to)
			}
		}
	}
	return nil
}

// mixRoots reads the roots of a mix.lock from the mix.exs files of the
// projects it locks: the one beside it, an umbrella's apps (apps_path:
// "apps") and the folders its dependencies name (path: "apps/web"), each
// a workspace member the root links to. A dependency "only:" for
// environments other than :prod is one a production build leaves out: a
// development root. Where a member's mix.exs cannot be read, what it
// needs is not known, and no dependency is called development-only (one
// a dev tool shares with that member would wrongly be).
func mixRoots(lk *lockIndex, find func(name, version string) (int, bool)) {
	root := lk.sibling("mix.exs")
	if root == nil {
		return
	}
	type member struct {
		dir  string
		deps []mixDep
	}
	members := []member{{".", mixDeclared(root)}}
	seen := map[string]bool{".": true}
	complete := true
	add := func(dir string) {
		dir = path.Clean(dir)
		if seen[dir] {
			return
		}
		seen[dir] = true
		lk.link(".", dir)
		b := lk.sibling(path.Join(dir, "mix.exs"))
		if b == nil {
			complete = false
			return
		}
		members = append(members, member{dir, mixDeclared(b)})
	}
	if m := mixAppsPath().FindSubmatch(root); m != nil {
		apps := lk.glob(path.Join(globQuote(string(m[1])), "*", "mix.exs"))
		for _, p := range apps {
			add(path.Dir(p))
		}
		if len(apps) == 0 {
			complete = false // an umbrella whose apps are not here
		}
	}
	for i := 0; i < len(members); i++ { // members grows: a member's own path dependencies
		for _, d := range members[i].deps {
			if d.path != "" {
				add(path.Join(members[i].dir, d.path))
			}
		}
	}
	for _, m := range members {
		for _, d := range m.deps {
			if i, ok := find(d.name, ""); ok && d.dev && complete {
				lk.devRoot(m.dir, i)
			} else if ok {
				lk.root(m.dir, i)
			}
		}
	}
}

// NuGet

// nugetGraph reads packages.lock.json: per target framework, each
// package's dependencies, the direct ones ("Direct") as roots. A test
// project's packages are all development-only, and so is a
// direct dependency its project file keeps private (msbuildProject);
// packages.lock.json records neither, the project file beside it does.
func nugetGraph(data []byte, lk *lockIndex) error {
	var lock struct {
		Dependencies map[string]map[string]struct {
			Type         string            `json:"type"`
			Resolved     string            `json:"resolved"`
			Dependencies map[string]string `json:"dependencies"`
		} `json:"dependencies"`
	}
	if err := json.Unmarshal(trimBOM(data), &lock); err != nil {
		return err
	}
	proj := nugetSiblingProject(lk)
	for _, pkgs := range lock.Dependencies {
		for name, p := range pkgs {
			if p.Type == "Direct" && testPackage(name) {
				proj.test = true
			}
		}
	}
	if proj.test {
		lk.allDevelopment()
	}
	for _, pkgs := range lock.Dependencies {
		resolved := make(map[string]string, len(pkgs))
		for name, p := range pkgs {
			resolved[strings.ToLower(name)] = p.Resolved
		}
		for name, p := range pkgs {
			if p.Resolved == "" {
				// A project reference, not a package: the packages it
				// references are the project's too, for its runtime.
				for d := range p.Dependencies {
					if v := resolved[strings.ToLower(d)]; v != "" {
						if to, ok := lk.find(d, v); ok {
							lk.start(to, false)
						}
					}
				}
				continue
			}
			from, ok := lk.find(name, p.Resolved)
			if !ok {
				continue
			}
			if p.Type == "Direct" {
				if proj.private[strings.ToLower(name)] {
					lk.devRoot("", from)
				} else {
					lk.root("", from)
				}
			}
			for d := range p.Dependencies {
				v := resolved[strings.ToLower(d)]
				if v == "" {
					continue
				}
				if to, ok := lk.find(d, v); ok {
					lk.edge(from, to)
				}
			}
		}
	}
	return nil
}

// Pub

func pubRoots(data []byte, lk *lockIndex) error {
	var lock struct {
		Packages map[string]struct {
			Dependency string `yaml:"dependency"`
			Version    string `yaml:"version"`
		} `yaml:"packages"`
	}
	if err := yaml.Unmarshal(data, &lock); err != nil {
		return err
	}
	for name, p := range lock.Packages {
		if strings.HasPrefix(p.Dependency, "direct") {
			if i, ok := lk.find(name, p.Version); ok {
				lk.root("", i)
			}
		}
	}
	return nil
}

// NuGet's packages.config

// packagesConfigRoots: every package of a packages.config is the
// project's own reference (NuGet installs the closure and lists it flat,
// so the file records no graph); one marked developmentDependency="true"
// (analyzers, build tools) is for development only, as NuGet leaves it out
// of the package the project packs.
func packagesConfigRoots(data []byte, lk *lockIndex) error {
	var doc struct {
		Packages []struct {
			ID          string `xml:"id,attr"`
			Version     string `xml:"version,attr"`
			Development string `xml:"developmentDependency,attr"`
		} `xml:"package"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		return err
	}
	for _, p := range doc.Packages {
		i, ok := lk.find(p.ID, p.Version)
		if !ok {
			continue
		}
		if strings.EqualFold(p.Development, "true") {
			lk.devRoot("", i)
		} else {
			lk.root("", i)
		}
	}
	return nil
}

// Go

func goRoots(data []byte, lk *lockIndex) error {
	f, err := parseGoMod("go.mod", data)
	if err != nil {
		return err
	}
	for _, r := range f.Require {
		if r.Indirect {
			continue
		}
		// A replace directive swaps the module for another version, or
		// for a folder of the project: that module, or that folder's.
		mod := r.Mod
		for _, rp := range f.Replace {
			if rp.Old.Path == mod.Path && (rp.Old.Version == "" || rp.Old.Version == mod.Version) {
				mod = rp.New
			}
		}
		if mod.Version == "" && (strings.HasPrefix(mod.Path, "./") || strings.HasPrefix(mod.Path, "../")) {
			lk.link("", mod.Path)
			continue
		}
		i, ok := lk.find(mod.Path, strings.TrimPrefix(mod.Version, "v"))
		if !ok {
			i, ok = lk.find(mod.Path, "") // another version a go.work's replace chose (goWorkspace)
		}
		if ok {
			lk.root("", i)
		}
	}
	// A tool directive (Go 1.24: "tool golang.org/x/tools/cmd/stringer")
	// names a program the module's developers run with go tool. Its
	// module, where the module's own code imports nothing of it (go mod
	// tidy then keeps its requirement "// indirect"), is there for
	// development: a development root. What only the tool needs is not
	// known from go.mod, which records no graph, and stays runtime.
	for _, t := range f.Tool {
		var provider *modfile.Require
		for _, r := range f.Require {
			if (t.Path == r.Mod.Path || strings.HasPrefix(t.Path, r.Mod.Path+"/")) &&
				(provider == nil || len(r.Mod.Path) > len(provider.Mod.Path)) {
				provider = r
			}
		}
		if provider == nil || !provider.Indirect {
			continue
		}
		mod := provider.Mod
		for _, rp := range f.Replace {
			if rp.Old.Path == mod.Path && (rp.Old.Version == "" || rp.Old.Version == mod.Version) {
				mod = rp.New
			}
		}
		if i, ok := lk.find(mod.Path, strings.TrimPrefix(mod.Version, "v")); ok {
			lk.devRoot("", i)
		}
	}
	return nil
}

// gemfileBlock opens a Ruby block that ends with "end": a group, a
// platform, a source or git block, a conditional.
var (
	gemfileGem      = lazyRegexp(`^gem\s*\(?\s*["']([^"']+)["'](.*)$`)
	gemfileGroup    = lazyRegexp(`^group\s*\(?(.*?)\)?\s*do\b`)
	gemfileOpens    = lazyRegexp(`(^(if|unless|case|begin|while|until|for)\b)|\bdo\s*(\|[^|]*\|)?\s*$`)
	gemfileEnd      = lazyRegexp(`^end\b`)
	gemfileGemspec  = lazyRegexp(`^gemspec\b`)
	gemfileGroupOpt = lazyRegexp(`(?:\bgroups?:|:groups?\s*=>)\s*(\[[^\]]*\]|:\w+|["'][^"']*["'])`)
	gemfileName     = lazyRegexp(`:(\w+)|["']([^"']*)["']`)
)

// gemfileDevelopment reads a Gemfile (Ruby, read here line by line as
// Bundler's DSL is written) for the gems declared only in the
// development and test groups, those a production install
// (BUNDLE_WITHOUT=development:test) leaves out. A gem declared by code
// (a loop over a gemspec) is not seen, and so counts as a runtime one.
func gemfileDevelopment(data []byte) map[string]bool { return readGemfile(data).dev }

// gemfileInfo is what gemGraph reads of a Gemfile: the gems declared only
// for development (gemfileDevelopment), every gem it declares, and
// whether it says "gemspec" (the gems of the gemspec beside it).
type gemfileInfo struct {
	dev, declared map[string]bool
	gemspec       bool
}

func readGemfile(data []byte) gemfileInfo {
	type block struct{ groups []string }
	gemspec := false
	var stack []block
	decl := map[string][]bool{} // per declaration: development-only?
	names := func(s string) []string {
		var out []string
		for _, m := range gemfileName().FindAllStringSubmatch(s, -1) {
			out = append(out, m[1]+m[2])
		}
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if gemfileGemspec().MatchString(line) {
			gemspec = true
			continue
		}
		if gemfileEnd().MatchString(line) {
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if m := gemfileGroup().FindStringSubmatch(line); m != nil {
			opts, _, _ := strings.Cut(m[1], "optional:")
			stack = append(stack, block{groups: names(opts)})
			continue
		}
		if m := gemfileGem().FindStringSubmatch(line); m != nil {
			var groups []string
			for _, b := range stack {
				groups = append(groups, b.groups...)
			}
			if o := gemfileGroupOpt().FindStringSubmatch(m[2]); o != nil {
				groups = append(groups, names(o[1])...)
			}
			devOnly := len(groups) > 0
			for _, g := range groups {
				if g != "development" && g != "test" {
					devOnly = false
				}
			}
			decl[m[1]] = append(decl[m[1]], devOnly)
			if gemfileOpens().MatchString(line) {
				stack = append(stack, block{})
			}
			continue
		}
		if gemfileOpens().MatchString(line) {
			stack = append(stack, block{})
		}
	}
	info := gemfileInfo{dev: map[string]bool{}, declared: map[string]bool{}, gemspec: gemspec}
	for name, ds := range decl {
		info.declared[name] = true
		if !slices.Contains(ds, false) {
			info.dev[name] = true
		}
	}
	return info
}

// Gradle

// gradleConfigurations reads the configurations a Gradle lockfile lists
// for each package ("group:artifact:version=conf1,conf2"): a package all
// of whose configurations are a test source set's, the build script's
// ("classpath", buildscript-gradle.lockfile) or a build tool's (a linter,
// a documentation or coverage tool, an annotation processor, the Kotlin
// compiler) is development-only. Any other configuration, a custom one
// included, is taken for the application's.
func gradleConfigurations(data []byte, lk *lockIndex) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "empty=") {
			continue
		}
		coord, confs, ok := strings.Cut(line, "=")
		i := strings.LastIndexByte(coord, ':')
		if !ok || i < 0 {
			continue
		}
		c, found := lk.find(coord[:i], coord[i+1:])
		if !found {
			continue
		}
		dev := true
		for _, conf := range strings.Split(confs, ",") {
			if !gradleBuildOnly(strings.TrimSpace(conf)) {
				dev = false
				break
			}
		}
		lk.devFlag(c, dev)
	}
	return sc.Err()
}

// gradleToolConfigurations are the names of configurations that build
// tools resolve for themselves, in lower case: a configuration is one
// when one of its words starts one of them, as the plugin names it
// ("annotationProcessor", "kspDebugKotlinProcessorClasspath") or as the
// Android plugin does, after the variant or a plugin's name
// ("debugLintChecksClasspath", "hiltAnnotationProcessorDebug",
// "_agp_internal_release_kspClasspath").
var gradleToolConfigurations = []string{
	"annotationprocessor", "kapt", "ksp", "ktlint", "detekt", "dokka", "jacoco", "kover", "spotless",
	"checkstyle", "pmd", "spotbugs", "errorprone", "lint", "developmentonly", "kotlincompiler",
	"kotlinnativecompiler", "kotlinnativebundle", "kotlinklibcommonizer", "kotlinbuildtools", "kotlinscriptdef",
}

// gradleBuildOnly reports whether a configuration serves the build or
// its tests, not the application.
func gradleBuildOnly(conf string) bool {
	lower := strings.ToLower(conf)
	if conf == "classpath" || strings.Contains(lower, "test") {
		return true
	}
	for i := range len(conf) {
		// A word starts at the name's start, after "_", and at an upper
		// case letter after a lower case one.
		start := i == 0 || conf[i-1] == '_' && conf[i] != '_' ||
			isUpperASCII(conf[i]) && !isUpperASCII(conf[i-1]) && conf[i-1] != '_'
		if !start {
			continue
		}
		for _, p := range gradleToolConfigurations {
			if strings.HasPrefix(lower[i:], p) {
				return true
			}
		}
	}
	return false
}

func isUpperASCII(c byte) bool { return 'A' <= c && c <= 'Z' }

// nugetProjectMarks is what a NuGet lockfile's project says of
// development: whether it is a test project, and the (lower-cased)
// packages it keeps private.
type nugetProjectMarks struct {
	test    bool
	private map[string]bool
}

// nugetSiblingProject reads the project files beside a packages.lock.json
// (one, in practice) for their development marks.
func nugetSiblingProject(lk *lockIndex) nugetProjectMarks {
	marks := nugetProjectMarks{private: map[string]bool{}}
	if lk.glob == nil {
		return marks
	}
	for _, pattern := range []string{"*.csproj", "*.fsproj", "*.vbproj"} {
		for _, name := range lk.glob(pattern) {
			proj, err := readMSBuild(lk.sibling(name))
			if err != nil {
				continue
			}
			marks.test = marks.test || proj.test
			marks.addPrivate(proj)
		}
	}
	// MSBuild imports the Directory.Build.props and .targets above a
	// project into it (the nearest, which often imports its parent's):
	// a reference they keep private (SourceLink, analyzers, versioning)
	// is the project's too. Only their private references are read: the
	// test packages such a file adds are usually under a condition, for
	// the test projects alone.
	dir := path.Dir(lk.file)
	for up := ""; ; up += "../" {
		for _, name := range []string{"Directory.Build.props", "Directory.Build.targets"} {
			if b := lk.sibling(up + name); b != nil {
				if proj, err := readMSBuild(b); err == nil {
					marks.addPrivate(proj)
				}
			}
		}
		if dir == "." || dir == "/" || dir == "" {
			break
		}
		dir = path.Dir(dir)
	}
	return marks
}

// addPrivate adds the references proj keeps private.
func (m *nugetProjectMarks) addPrivate(proj *msbuildProject) {
	for _, r := range proj.refs {
		if r.private && r.kind != "PackageVersion" {
			m.private[strings.ToLower(r.name)] = true
		}
	}
}
