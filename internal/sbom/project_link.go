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
func linkProjects(comps []sentinel.Component, projects []project, locals []local, roots map[string][]string, rootFile map[string]string, rootName string) ([]sentinel.Component, []sentinel.Component) {
	claimed := map[string]bool{}
	for _, p := range projects {
		claimed[path.Dir(p.comp.Locations[0])] = true
	}
	for _, dir := range slices.Sorted(maps.Keys(roots)) {
		if claimed[dir] || len(roots[dir]) == 0 {
			continue
		}
		name := path.Base(dir)
		if dir == "." {
			name = rootName
		}
		loc := rootFile[dir] // the lockfile, as the project's location
		projects = append(projects, project{comp: sentinel.Component{Name: name, Type: "application", Locations: []string{loc}}, priority: len(projectManifests)})
	}
	if len(projects) == 0 {
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
	out := make([]sentinel.Component, 0, len(projects))
	for _, pr := range projects {
		p := pr.comp
		dir := path.Dir(p.Locations[0])
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
		p.DependsOn = append(p.DependsOn, roots[dir]...)
		if len(p.DependsOn) == 0 && len(pr.deps) > 0 {
			p.DependsOn = declaredDeps(comps, removed, p.Ecosystem, dir, pr.deps)
		}
		p.DependsOn = sortedUnique(p.DependsOn)
		if len(p.DependsOn) == 0 {
			p.DependsOn = nil
		}
		out = append(out, p)
	}
	if len(removed) > 0 {
		kept := comps[:0:0]
		for i, c := range comps {
			if !removed[i] {
				kept = append(kept, c)
			}
		}
		comps = kept
	}
	return comps, out
}

// declaredDeps finds a manifest's declared dependencies among the
// components of the nearest directory at or above dir that has a lockfile
// of the ecosystem: by name, where that lockfile has one version of it.
func declaredDeps(comps []sentinel.Component, removed map[int]bool, eco, dir string, names []string) []string {
	byDir := map[string]map[string][]int{} // lockfile dir -> normalised name -> components
	for i, c := range comps {
		if removed[i] || c.Ecosystem != eco {
			continue
		}
		n := purl.NormalizeName(eco, c.Name)
		for _, l := range c.Locations {
			d := path.Dir(l)
			if byDir[d] == nil {
				byDir[d] = map[string][]int{}
			}
			byDir[d][n] = append(byDir[d][n], i)
		}
	}
	for d := dir; ; d = path.Dir(d) {
		if m, ok := byDir[d]; ok {
			var out []string
			for _, n := range names {
				if is := m[n]; len(is) == 1 {
					out = append(out, comps[is[0]].Purl)
				}
			}
			return out
		}
		if d == "." || d == "/" {
			return nil
		}
	}
}
