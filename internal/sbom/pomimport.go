package sbom

import (
	"errors"
	"io/fs"
	"slices"
	"strings"

	"deps.dev/util/maven"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/javalockfile"
	scalibrfs "github.com/google/osv-scalibr/fs"
	"github.com/google/osv-scalibr/purl"
)

// dependencies are the dependencies of the POM at p (content data,
// parents chain as locateParents found them) as Maven builds its
// effective project (effective), one for each that Maven tells apart:
// groupId, artifactId, type and classifier (a library and its test-jar,
// or its "tests" classifier, are two). A dependency the POM and its
// parents leave without a version takes it from their
// dependencyManagement, and from the bills of materials it imports
// (<scope>import</scope>, the way Spring Boot, Jackson and most
// multi-module projects share their versions). A BOM is looked for as a
// parent is: by its coordinates among the POM files near p, then in the
// Maven local repository; its own parents are merged and its properties
// interpolated before its dependencyManagement is taken, and the BOMs it
// imports in turn are followed (deps.dev's ProcessDependencies bounds
// them). What only a parent or a BOM out of reach decides stays without a
// version.
func (p pomXML) dependencies(fsys scalibrfs.FS, at string, data []byte, chain []string) ([]*extractor.Package, error) {
	proj, ok := p.effective(fsys, data, chain)
	if !ok {
		return nil, errNotPOM
	}
	boot := p.springBootVersion(fsys, data, chain, proj)
	proj.ProcessDependencies(func(g, a, v maven.String) (maven.DependencyManagement, error) {
		if fsys == nil {
			return maven.DependencyManagement{}, errNoBOM
		}
		return p.bom(fsys, at, maven.ProjectKey{GroupID: g, ArtifactID: a, Version: v})
	})
	pkgs := make([]*extractor.Package, 0, len(proj.Dependencies))
	for _, d := range proj.Dependencies {
		g, a := string(d.GroupID), string(d.ArtifactID)
		if g == "" || a == "" {
			continue
		}
		typ := string(d.Type)
		if typ == "jar" {
			typ = ""
		}
		pkgs = append(pkgs, &extractor.Package{
			Name: d.Name(), Version: requiredVersion(string(d.Version)), PURLType: purl.TypeMaven,
			Location: extractor.LocationFromPath(at),
			Metadata: &javalockfile.Metadata{GroupID: g, ArtifactID: a, Type: typ, Classifier: string(d.Classifier), DepGroupVals: scopeGroups(d)},
		})
	}
	fillSpringBoot(boot, pkgs)
	return pkgs, nil
}

var errNotPOM = errors.New("not a Maven POM (no <project> element that reads)")

// scopeGroups is a dependency's scope as scalibr's extractor records it:
// none for the default scope, compile.
func scopeGroups(d maven.Dependency) []string {
	if scope := strings.TrimSpace(string(d.Scope)); scope != "" && scope != "compile" {
		return []string{scope}
	}
	return []string{}
}

// springBootGroup is the group of Spring Boot's modules, whose BOM
// (spring-boot-dependencies, the parent of spring-boot-starter-parent)
// manages every one of them at its own version.
const springBootGroup = "org.springframework.boot"

// springBootVersion is the version of Spring Boot a project builds with
// when it names it but its parent or BOM cannot be read (no repository
// here holds them): the parent spring-boot-starter-parent (or
// spring-boot-dependencies) that the chain of parents could not follow,
// or an import of spring-boot-dependencies; "" otherwise. proj is the
// effective project before its imports are processed.
func (p pomXML) springBootVersion(fsys scalibrfs.FS, data []byte, chain []string, proj *maven.Project) string {
	top, ok := readPOMCoords(data)
	if len(chain) > 0 {
		top, ok = p.cache.pomAt(fsys, chain[len(chain)-1])
	}
	version := ""
	if ok && top.parent.GroupID == springBootGroup &&
		(top.parent.ArtifactID == "spring-boot-starter-parent" || top.parent.ArtifactID == "spring-boot-dependencies") {
		version = string(top.parent.Version)
	}
	for _, d := range proj.DependencyManagement.Dependencies {
		if version == "" && d.GroupID == springBootGroup && d.ArtifactID == "spring-boot-dependencies" && isImport(d) {
			version = string(d.Version)
		}
	}
	if strings.Contains(version, "${") {
		return ""
	}
	return requiredVersion(version)
}

// fillSpringBoot gives Spring Boot's own modules that are still without a
// version the project's Spring Boot version; other libraries its BOM
// manages stay without one.
func fillSpringBoot(version string, pkgs []*extractor.Package) {
	if version == "" {
		return
	}
	for _, pkg := range pkgs {
		if unversionedMaven(pkg) && strings.HasPrefix(pkg.Name, springBootGroup+":") {
			pkg.Version = version
		}
	}
}

func unversionedMaven(p *extractor.Package) bool {
	return p.Version == "" && p.PURLType == purl.TypeMaven
}

func isImport(d maven.Dependency) bool { return d.Scope == "import" }

// requiredVersion is the version a Maven requirement names: "1.2", or the
// lower bound of a range such as "[1.2,2.0)", as scalibr's extractor reads
// a version it finds itself.
func requiredVersion(v string) string {
	v = strings.TrimSpace(v)
	v = strings.TrimPrefix(strings.TrimPrefix(v, "["), "(")
	if i := strings.IndexAny(v, ",)]"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// effective is the POM (content data) as Maven builds it: its profiles
// active by default and the parents of chain merged, then its properties
// interpolated. A dependency whose groupId and artifactId resolve but
// whose version (or type, classifier, scope) names a property that nothing
// here defines is kept without it, where the library's interpolation
// drops it (a version a parent out of reach defines).
func (p pomXML) effective(fsys scalibrfs.FS, data []byte, chain []string) (*maven.Project, bool) {
	proj, ok := decodePOM(data)
	if !ok {
		return nil, false
	}
	if err := proj.MergeProfiles("", maven.ActivationOS{}); err != nil {
		return nil, false
	}
	for _, f := range chain {
		raw, ok := p.cache.read(fsys, f)
		if !ok {
			break
		}
		parent, ok := decodePOM(raw)
		if !ok {
			break
		}
		proj.MergeParent(parent)
	}
	lost := unresolvedDeps(&proj)
	if err := proj.Interpolate(); err != nil {
		return nil, false
	}
	for _, d := range lost {
		k := d.Key()
		if !slices.ContainsFunc(proj.Dependencies, func(e maven.Dependency) bool { return e.Key() == k }) {
			proj.Dependencies = append(proj.Dependencies, d)
		}
	}
	return &proj, true
}

// unresolvedDeps are the dependencies of proj (merged, not yet
// interpolated) whose groupId and artifactId resolve but whose other
// fields name a property nothing defines, with those fields left empty.
func unresolvedDeps(proj *maven.Project) []maven.Dependency {
	var props map[string]string
	var lost []maven.Dependency
	for _, d := range proj.Dependencies {
		fields := []*maven.String{&d.GroupID, &d.ArtifactID, &d.Version, &d.Type, &d.Classifier, &d.Scope}
		if !slices.ContainsFunc(fields, func(f *maven.String) bool { return strings.Contains(string(*f), "${") }) {
			continue
		}
		if props == nil {
			props = pomProperties(proj)
		}
		dropped := false
		for i, f := range fields {
			v := interpolatePOM(string(*f), props)
			if strings.Contains(v, "${") {
				if i < 2 {
					break // the dependency is not named: Maven fails
				}
				v, dropped = "", true
			}
			*f = maven.String(v)
		}
		if dropped && d.GroupID != "" && d.ArtifactID != "" && !strings.Contains(string(d.GroupID)+string(d.ArtifactID), "${") {
			d.Exclusions = nil
			lost = append(lost, d)
		}
	}
	return lost
}

var errNoBOM = errors.New("bill of materials not found")

// bom is the dependencyManagement of the BOM with coordinates k, found
// near the POM at p or in the repository, computed once per scan.
func (p pomXML) bom(fsys scalibrfs.FS, at string, k maven.ProjectKey) (maven.DependencyManagement, error) {
	f := p.findPOM(fsys, at, k)
	if f == "" {
		return maven.DependencyManagement{}, errNoBOM
	}
	c := p.cache
	dm := memo(&c.mu, c.boms, f, func() maven.DependencyManagement {
		if raw, read := c.read(fsys, f); read {
			chain := locateParents(fsys, f, raw, c)
			if proj, ok := p.effective(fsys, raw, chain); ok {
				return proj.DependencyManagement
			}
		}
		return maven.DependencyManagement{}
	})
	if dm.Dependencies == nil {
		return maven.DependencyManagement{}, errNoBOM
	}
	// ProcessDependencies keeps what it is given: each import its copy.
	return maven.DependencyManagement{Dependencies: slices.Clone(dm.Dependencies)}, nil
}

// findPOM is the POM file with coordinates k nearest the POM at p: among
// the files nearbyPOMs lists, then in the repository ("" when none).
func (p pomXML) findPOM(fsys scalibrfs.FS, at string, k maven.ProjectKey) string {
	if !strings.HasPrefix(at, repoMark) {
		for _, f := range p.cache.nearby(fsys, at) {
			if c, ok := p.cache.pomAt(fsys, f); ok && c.is(k) {
				return f
			}
		}
	}
	if p.cache.repo != nil {
		if f, ok := repoPOM(k); ok {
			if c, ok := p.cache.pomAt(fsys, f); ok && c.is(k) {
				return f
			}
		}
	}
	return ""
}

// read returns the content of the POM file at f (in the repository when
// f has repoMark), if it is a regular file of at most maxPOMSize.
func (pc *pomCache) read(fsys scalibrfs.FS, f string) ([]byte, bool) {
	from, name := marked(fsys, pc.repo, f)
	if from == nil {
		return nil, false
	}
	info, err := fs.Stat(from, name)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxPOMSize {
		return nil, false
	}
	data, err := fs.ReadFile(from, name)
	return plainText(data), err == nil
}
