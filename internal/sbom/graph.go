package sbom

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path"
	"strings"

	"github.com/BurntSushi/toml"

	sentinel "github.com/sentinel-sca/sentinel"
)

// The dependency graph.
//
// scalibr v0.5.3's lockfile extractors return a flat package list: none of the
// registered ones fills extractor.Package.ParentIDs (only its network
// enrichers do). The edges below are therefore read by Sentinel, and only for
// formats that write every edge explicitly in JSON or TOML, so that reading
// them takes a struct declaration and a name lookup, not a parser:
//
//	package-lock.json v1-v3  "dependencies"/"requires" resolved the way Node
//	                         does (nearest node_modules upwards)
//	Cargo.lock               [[package]].dependencies ("name" or "name version")
//	composer.lock            packages[].require (names; composer locks one version per name)
//	poetry.lock              [package.dependencies] (names, PEP 503 normalised)
//	uv.lock                  [[package]].dependencies and optional-dependencies
//	packages.lock.json       per target framework, dependencies by name
//
// Packages are still found only by scalibr: an edge whose ends are not both
// components of the same file is dropped. yarn.lock, pnpm-lock.yaml,
// Gemfile.lock, mix.lock and bun.lock also record edges but in formats that
// would need a hand-written parser; go.mod, requirements.txt, Pipfile.lock,
// pubspec.lock, gradle lockfiles and pom.xml (offline) do not record a full
// graph. Components from those files have no DependsOn.

// graphReaders maps a file's base name to its edge reader. A reader returns
// edges as pairs of node keys built by key().
var graphReaders = map[string]func(r io.Reader, idx *nodeIndex) error{
	"package-lock.json":   npmGraph,
	"npm-shrinkwrap.json": npmGraph,
	"Cargo.lock":          cargoGraph,
	"composer.lock":       composerGraph,
	"poetry.lock":         poetryGraph,
	"uv.lock":             uvGraph,
	"packages.lock.json":  nugetGraph,
}

// GraphFormats returns the lockfile base names for which Extract reads a
// dependency graph.
func GraphFormats() []string {
	return []string{"Cargo.lock", "composer.lock", "npm-shrinkwrap.json", "package-lock.json",
		"packages.lock.json", "poetry.lock", "uv.lock"}
}

// nodeIndex finds a file's components by name (and version) and collects
// edges between them.
type nodeIndex struct {
	comps     []sentinel.Component
	byNameVer map[string]int
	byName    map[string][]int
	norm      func(string) string
	edges     map[int]map[int]bool
}

func newNodeIndex(comps []sentinel.Component, norm func(string) string) *nodeIndex {
	if norm == nil {
		norm = func(s string) string { return s }
	}
	idx := &nodeIndex{
		comps:     comps,
		byNameVer: make(map[string]int, len(comps)),
		byName:    make(map[string][]int, len(comps)),
		norm:      norm,
		edges:     map[int]map[int]bool{},
	}
	for i, c := range comps {
		n := norm(c.Name)
		idx.byNameVer[n+"@"+c.Version] = i
		idx.byName[n] = append(idx.byName[n], i)
	}
	return idx
}

// find returns the component with this name and version, or, when version is
// empty, the only component with this name.
func (idx *nodeIndex) find(name, version string) (int, bool) {
	n := idx.norm(name)
	if version != "" {
		i, ok := idx.byNameVer[n+"@"+version]
		return i, ok
	}
	if c := idx.byName[n]; len(c) == 1 {
		return c[0], true
	}
	return 0, false
}

func (idx *nodeIndex) edge(from, to int) {
	if from == to {
		return
	}
	if idx.edges[from] == nil {
		idx.edges[from] = map[int]bool{}
	}
	idx.edges[from][to] = true
}

// addGraph fills DependsOn of comps (the components of the file at p) where
// the format records a dependency graph Sentinel reads. It reports whether it
// did; a graph that cannot be read is simply absent (the components were
// already extracted).
func addGraph(ctx context.Context, p string, data []byte, comps []sentinel.Component) bool {
	read, ok := graphReaders[path.Base(p)]
	if !ok || len(comps) == 0 || ctx.Err() != nil {
		return false
	}
	var norm func(string) string
	switch path.Base(p) {
	case "poetry.lock", "uv.lock":
		norm = pep503
	case "packages.lock.json":
		norm = strings.ToLower // NuGet ids are case-insensitive
	}
	idx := newNodeIndex(comps, norm)
	if err := read(bytes.NewReader(data), idx); err != nil {
		return false
	}
	for from, tos := range idx.edges {
		for to := range tos {
			comps[from].DependsOn = append(comps[from].DependsOn, comps[to].Purl)
		}
	}
	return true
}

// pep503 normalises a Python distribution name.
func pep503(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("_", "-", ".", "-").Replace(s)
}

// npm

type npmLock struct {
	Packages     map[string]npmEntry `json:"packages"`
	Dependencies map[string]npmV1Dep `json:"dependencies"`
}

type npmEntry struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Link                 bool              `json:"link"`
	Resolved             string            `json:"resolved"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

type npmV1Dep struct {
	Version      string              `json:"version"`
	Requires     map[string]string   `json:"requires"`
	Dependencies map[string]npmV1Dep `json:"dependencies"`
}

func npmGraph(r io.Reader, idx *nodeIndex) error {
	var lock npmLock
	if err := json.NewDecoder(r).Decode(&lock); err != nil {
		return err
	}
	// Flatten both layouts to install paths ("node_modules/a/node_modules/b").
	type node struct {
		name, version string
		deps          []string
	}
	nodes := map[string]node{}
	if len(lock.Packages) > 0 {
		for key, e := range lock.Packages {
			if key == "" || e.Link {
				continue
			}
			name := e.Name
			if i := strings.LastIndex(key, "node_modules/"); i >= 0 && name == "" {
				name = key[i+len("node_modules/"):]
			}
			var deps []string
			for _, m := range []map[string]string{e.Dependencies, e.OptionalDependencies, e.PeerDependencies} {
				for d := range m {
					deps = append(deps, d)
				}
			}
			nodes[key] = node{name: name, version: e.Version, deps: deps}
		}
		// Links point to a workspace folder that holds the real entry.
		for key, e := range lock.Packages {
			if e.Link && e.Resolved != "" {
				if n, ok := nodes[e.Resolved]; ok {
					nodes[key] = n
				}
			}
		}
	} else {
		var walk func(prefix string, deps map[string]npmV1Dep)
		walk = func(prefix string, deps map[string]npmV1Dep) {
			for name, d := range deps {
				key := prefix + "node_modules/" + name
				var req []string
				for r := range d.Requires {
					req = append(req, r)
				}
				nodes[key] = node{name: name, version: d.Version, deps: req}
				walk(key+"/", d.Dependencies)
			}
		}
		walk("", lock.Dependencies)
	}
	for key, n := range nodes {
		from, ok := idx.find(n.name, n.version)
		if !ok {
			continue
		}
		for _, d := range n.deps {
			target, ok := npmResolve(nodes, key, d)
			if !ok {
				continue
			}
			t := nodes[target]
			if to, ok := idx.find(t.name, t.version); ok {
				idx.edge(from, to)
			}
		}
	}
	return nil
}

// npmResolve finds the install path that package dep resolves to when
// required from the package installed at key: the nearest node_modules/dep
// walking up the directory tree, as Node's require does.
func npmResolve[N any](nodes map[string]N, key, dep string) (string, bool) {
	dir := key
	for {
		cand := "node_modules/" + dep
		if dir != "" {
			cand = dir + "/" + cand
		}
		if _, ok := nodes[cand]; ok {
			return cand, true
		}
		if dir == "" {
			return "", false
		}
		// Up one package: drop "/node_modules/<name>" or "/node_modules/@s/<name>".
		i := strings.LastIndex(dir, "node_modules/")
		if i < 0 {
			dir = "" // a workspace folder: its parent is the root
			continue
		}
		dir = strings.TrimSuffix(dir[:i], "/")
	}
}

// Cargo

func cargoGraph(r io.Reader, idx *nodeIndex) error {
	var lock struct {
		Package []struct {
			Name         string   `toml:"name"`
			Version      string   `toml:"version"`
			Dependencies []string `toml:"dependencies"`
		} `toml:"package"`
	}
	if _, err := toml.NewDecoder(r).Decode(&lock); err != nil {
		return err
	}
	for _, p := range lock.Package {
		from, ok := idx.find(p.Name, p.Version)
		if !ok {
			continue
		}
		for _, d := range p.Dependencies {
			// "name", "name version" or "name version (source)".
			f := strings.Fields(d)
			var to int
			switch {
			case len(f) == 1:
				to, ok = idx.find(f[0], "")
			case len(f) >= 2:
				to, ok = idx.find(f[0], f[1])
			default:
				ok = false
			}
			if ok {
				idx.edge(from, to)
			}
		}
	}
	return nil
}

// Composer

func composerGraph(r io.Reader, idx *nodeIndex) error {
	type pkg struct {
		Name    string            `json:"name"`
		Version string            `json:"version"`
		Require map[string]string `json:"require"`
	}
	var lock struct {
		Packages    []pkg `json:"packages"`
		PackagesDev []pkg `json:"packages-dev"`
	}
	if err := json.NewDecoder(r).Decode(&lock); err != nil {
		return err
	}
	for _, p := range append(lock.Packages, lock.PackagesDev...) {
		from, ok := idx.find(p.Name, "")
		if !ok {
			continue
		}
		for d := range p.Require {
			if to, ok := idx.find(d, ""); ok {
				idx.edge(from, to)
			}
		}
	}
	return nil
}

// Poetry

func poetryGraph(r io.Reader, idx *nodeIndex) error {
	var lock struct {
		Package []struct {
			Name         string                    `toml:"name"`
			Version      string                    `toml:"version"`
			Dependencies map[string]toml.Primitive `toml:"dependencies"`
		} `toml:"package"`
	}
	if _, err := toml.NewDecoder(r).Decode(&lock); err != nil {
		return err
	}
	for _, p := range lock.Package {
		from, ok := idx.find(p.Name, p.Version)
		if !ok {
			continue
		}
		for d := range p.Dependencies {
			if to, ok := idx.find(d, ""); ok {
				idx.edge(from, to)
			}
		}
	}
	return nil
}

// uv

func uvGraph(r io.Reader, idx *nodeIndex) error {
	type dep struct {
		Name    string `toml:"name"`
		Version string `toml:"version"`
	}
	var lock struct {
		Package []struct {
			Name                 string           `toml:"name"`
			Version              string           `toml:"version"`
			Dependencies         []dep            `toml:"dependencies"`
			OptionalDependencies map[string][]dep `toml:"optional-dependencies"`
			DevDependencies      map[string][]dep `toml:"dev-dependencies"`
		} `toml:"package"`
	}
	if _, err := toml.NewDecoder(r).Decode(&lock); err != nil {
		return err
	}
	for _, p := range lock.Package {
		from, ok := idx.find(p.Name, p.Version)
		if !ok {
			continue
		}
		deps := p.Dependencies
		for _, g := range p.OptionalDependencies {
			deps = append(deps, g...)
		}
		for _, g := range p.DevDependencies {
			deps = append(deps, g...)
		}
		for _, d := range deps {
			if to, ok := idx.find(d.Name, d.Version); ok {
				idx.edge(from, to)
			}
		}
	}
	return nil
}

// NuGet

func nugetGraph(r io.Reader, idx *nodeIndex) error {
	var lock struct {
		Dependencies map[string]map[string]struct {
			Type         string            `json:"type"`
			Resolved     string            `json:"resolved"`
			Dependencies map[string]string `json:"dependencies"`
		} `json:"dependencies"`
	}
	if err := json.NewDecoder(r).Decode(&lock); err != nil {
		return err
	}
	for _, pkgs := range lock.Dependencies {
		resolved := make(map[string]string, len(pkgs))
		for name, p := range pkgs {
			resolved[strings.ToLower(name)] = p.Resolved
		}
		for name, p := range pkgs {
			if p.Resolved == "" {
				continue // a project reference, not a package
			}
			from, ok := idx.find(name, p.Resolved)
			if !ok {
				continue
			}
			for d := range p.Dependencies {
				v := resolved[strings.ToLower(d)]
				if v == "" {
					continue
				}
				if to, ok := idx.find(d, v); ok {
					idx.edge(from, to)
				}
			}
		}
	}
	return nil
}
