package sbom

import (
	"maps"
	"path"
	"slices"
	"strings"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// linkProjects relates the projects to the components: a local package
// that is a project leaves the components and gives the project its edges;
// a lockfile's roots for a project's directory become its direct
// dependencies; without them, the manifest's declared names are looked up
// among the components of the nearest lockfile of the project's ecosystem.
// It returns the remaining components and the projects, sorted by
// directory depth, manifest priority, then path.
//
// A directory whose lockfile says which packages are direct but where no
// manifest names a project (a Gemfile.lock beside a Gemfile, a lockfile
// whose manifest was excluded) gets an unnamed project: named after the
// directory (rootName for the root), without a purl, located at the
// lockfile, so that its direct dependencies are still told apart from the
// transitive ones.
func linkProjects(comps []sentinel.Component, projects []project, locals []local, roots map[string][]string, rootFile map[string]string, links map[string][]string, rootName string) ([]sentinel.Component, []sentinel.Component) {
	claimed := map[string]bool{}
	for _, p := range projects {
		if !p.fromLock {
			claimed[path.Dir(p.comp.Locations[0])] = true
		}
	}
	// A lockfile's own project stands for its directory's manifest where
	// that was not scanned (a package-lock.json alone); of two lockfiles
	// naming one (npm-shrinkwrap.json beside package-lock.json), the first
	// by path. The files were read in any order.
	slices.SortStableFunc(projects, func(a, b project) int {
		return strings.Compare(a.comp.Locations[0]+"\x00"+a.comp.Purl, b.comp.Locations[0]+"\x00"+b.comp.Purl)
	})
	projects = slices.DeleteFunc(projects, func(p project) bool {
		if !p.fromLock {
			return false
		}
		if claimed[p.directory()] {
			return true
		}
		claimed[p.directory()] = true
		return false
	})
	for _, dir := range slices.Sorted(maps.Keys(roots)) {
		if claimed[dir] || len(roots[dir]) == 0 {
			continue
		}
		name := path.Base(dir)
		if dir == "." {
			name = rootName
		}
		loc := rootFile[dir] // the lockfile, as the project's location
		projects = append(projects, project{comp: sentinel.Component{Name: name, Type: "application", Locations: []string{loc}}, priority: len(projectManifests), dir: dir})
	}
	if len(projects) == 0 && !slices.ContainsFunc(locals, func(l local) bool { return l.at != "" && l.at == l.dir }) {
		return comps, nil
	}
	depth := func(p string) int { return strings.Count(p, "/") }
	slices.SortFunc(projects, func(a, b project) int {
		la, lb := a.comp.Locations[0], b.comp.Locations[0]
		if d := depth(la) - depth(lb); d != 0 {
			return d
		}
		if d := a.priority - b.priority; d != 0 {
			return d
		}
		if d := depth(a.directory()) - depth(b.directory()); d != 0 {
			return d // unnamed projects of one lockfile: its own directory first
		}
		if c := strings.Compare(la, lb); c != 0 {
			return c
		}
		return strings.Compare(a.comp.Name, b.comp.Name) // unnamed projects of one lockfile
	})
	byPurl := make(map[string]int, len(comps))
	for i, c := range comps {
		byPurl[c.Purl] = i
	}
	within := func(dir, lockDir string) bool {
		return lockDir == "." || dir == lockDir || strings.HasPrefix(dir, lockDir+"/")
	}
	removed := map[int]bool{}
	lockDirs := map[string]map[string]*dirComponents{} // by ecosystem, built once each
	var atFile map[string][]int                        // components by location, built once
	out := make([]sentinel.Component, 0, len(projects))
	for _, pr := range projects {
		p := pr.comp
		dir := pr.directory()
		name := purl.NormalizeName(p.Ecosystem, p.Name)
		// The project as its lockfile lists it.
		for _, l := range locals {
			i, ok := byPurl[l.purl]
			if !ok || removed[i] || !within(dir, l.dir) {
				continue
			}
			c := comps[i]
			if c.Ecosystem != p.Ecosystem || purl.NormalizeName(c.Ecosystem, c.Name) != name ||
				(p.Version != "" && c.Version != "" && p.Version != c.Version) {
				continue
			}
			removed[i] = true
			p.DependsOn = append(p.DependsOn, c.DependsOn...)
			if p.Version == "" && c.Version != "" {
				p.Purl, p.Version = c.Purl, c.Version
			}
			break
		}
		if p.Purl == "" && p.Ecosystem == "" {
			// An unnamed project is the local package its lockfile
			// places in its directory: a gem's own repository, whose
			// Gemfile.lock lists the gem under PATH, remote: .
			for _, l := range locals {
				if i, ok := byPurl[l.purl]; ok && !removed[i] && l.at == dir {
					removed[i] = true
					c := comps[i]
					p.Name, p.Version, p.Purl, p.Ecosystem = c.Name, c.Version, c.Purl, c.Ecosystem
					p.Licenses = c.Licenses
					p.DependsOn = append(p.DependsOn, c.DependsOn...)
					break
				}
			}
		}
		for _, d := range roots[dir] {
			if d != p.Purl {
				p.DependsOn = append(p.DependsOn, d)
			}
		}
		if len(p.DependsOn) == 0 && len(pr.deps) > 0 && !pr.fromLock {
			// A manifest that is itself read for packages (a pom.xml, a
			// pyproject.toml without a lockfile) declares each of them.
			if atFile == nil {
				atFile = map[string][]int{}
				for i, c := range comps {
					for _, l := range c.Locations {
						atFile[l] = append(atFile[l], i)
					}
				}
			}
			for _, i := range atFile[p.Locations[0]] {
				if !removed[i] && comps[i].Ecosystem == p.Ecosystem {
					p.DependsOn = append(p.DependsOn, comps[i].Purl)
				}
			}
		}
		if len(p.DependsOn) == 0 && len(pr.deps) > 0 {
			idx, ok := lockDirs[p.Ecosystem]
			if !ok {
				idx = indexByDir(comps, p.Ecosystem)
				lockDirs[p.Ecosystem] = idx
			}
			p.DependsOn = declaredDeps(comps, idx, removed, dir, pr.deps)
		}
		p.DependsOn = sortedUnique(p.DependsOn)
		if len(p.DependsOn) == 0 {
			p.DependsOn = nil
		}
		out = append(out, p)
	}
	linkMembers(out, projects, links)
	// A component that is a project a manifest names (a Maven module
	// another module depends on, by its coordinates) is that project, not
	// a library beside it. (A lockfile's own name is no such proof: npm's
	// tests lock a package "a" that depends on an "a".)
	for i := range out {
		j, ok := byPurl[out[i].Purl]
		if !ok || removed[j] || out[i].Purl == "" || projects[i].fromLock {
			continue
		}
		removed[j] = true
		out[i].DependsOn = sortedUnique(append(out[i].DependsOn, comps[j].DependsOn...))
	}
	// A local package that the lockfile places in its own directory,
	// where no manifest was scanned, is that directory's project: the
	// crate of a Cargo.lock found alone, a uv.lock's editable ".". One
	// placed elsewhere, whose manifest was not scanned, stays as it is.
	var placed []sentinel.Component
	for _, l := range locals {
		i, ok := byPurl[l.purl]
		if !ok || removed[i] || l.at == "" || l.at != l.dir || slices.ContainsFunc(projects, func(p project) bool { return p.directory() == l.at }) {
			continue
		}
		removed[i] = true
		c := comps[i]
		c.Type = "application"
		placed = append(placed, c)
	}
	slices.SortFunc(placed, func(a, b sentinel.Component) int {
		return strings.Compare(a.Locations[0]+"\x00"+a.Purl, b.Locations[0]+"\x00"+b.Purl)
	})
	out = append(out, placed...)
	if len(removed) > 0 {
		kept := comps[:0] // in place: comps is mergeComponents' own
		for i, c := range comps {
			if !removed[i] {
				kept = append(kept, c)
			}
		}
		clear(comps[len(kept):])
		comps = kept
	}
	return comps, out
}

// linkMembers adds to each project of out the workspace members its
// lockfile says it depends on (links, by directory): the root on each
// member, a member on another. out[i] is projects[i]'s component.
func linkMembers(out []sentinel.Component, projects []project, links map[string][]string) {
	if len(links) == 0 {
		return
	}
	byDir := map[string]string{} // directory and ecosystem -> purl
	for i, pr := range projects {
		if k := pr.directory() + "\x00" + out[i].Ecosystem; out[i].Purl != "" && byDir[k] == "" {
			byDir[k] = out[i].Purl
		}
	}
	for i, pr := range projects {
		var add []string
		for _, to := range links[pr.directory()] {
			if pu := byDir[to+"\x00"+out[i].Ecosystem]; pu != "" && pu != out[i].Purl {
				add = append(add, pu)
			}
		}
		if len(add) > 0 {
			out[i].DependsOn = sortedUnique(append(out[i].DependsOn, add...))
		}
	}
}

// dirComponents are the components of one ecosystem that one directory's
// lockfiles list: all of them, and by normalised name.
type dirComponents struct {
	all    []int
	byName map[string][]int
}

// indexByDir indexes the components of eco by the directories of their
// locations (a lockfile's directory).
func indexByDir(comps []sentinel.Component, eco string) map[string]*dirComponents {
	byDir := map[string]*dirComponents{}
	for i, c := range comps {
		if c.Ecosystem != eco {
			continue
		}
		n := purl.NormalizeName(eco, c.Name)
		for _, l := range c.Locations {
			d := projectDir(l)
			dc := byDir[d]
			if dc == nil {
				dc = &dirComponents{byName: map[string][]int{}}
				byDir[d] = dc
			}
			dc.all = append(dc.all, i)
			dc.byName[n] = append(dc.byName[n], i)
		}
	}
	return byDir
}

// declaredDeps finds a manifest's declared dependencies among the
// components of the nearest directory at or above dir that has a lockfile
// of the ecosystem (idx, from indexByDir): by name, where that lockfile has
// one version of it. Components in removed (projects themselves) do not
// count.
func declaredDeps(comps []sentinel.Component, idx map[string]*dirComponents, removed map[int]bool, dir string, names []string) []string {
	alive := func(is []int) (n, last int) {
		for _, i := range is {
			if !removed[i] {
				n, last = n+1, i
			}
		}
		return n, last
	}
	for d := dir; ; d = path.Dir(d) {
		if dc, ok := idx[d]; ok {
			if n, _ := alive(dc.all); n > 0 {
				var out []string
				for _, name := range names {
					if n, i := alive(dc.byName[name]); n == 1 {
						out = append(out, comps[i].Purl)
					}
				}
				return out
			}
		}
		if d == "." || d == "/" {
			return nil
		}
	}
}
