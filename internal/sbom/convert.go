package sbom

import (
	"slices"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem/language/cpp/conanlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/dart/pubspec"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/gradleversioncatalog"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/pomxml"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/pdmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/pipfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/requirements"
	"github.com/package-url/packageurl-go"

	sentinel "github.com/sentinel-sca/sentinel"
)

// toComponent converts one scalibr package. Packages without a purl type
// (none of the registered extractors produce them) are dropped, and so are
// a go.mod replace's local directories ("../x" is not a module version).
func toComponent(p *extractor.Package, loc, exName string) (sentinel.Component, bool) {
	if c, ok := osComponent(p, loc); ok {
		return c, true
	}
	pu := p.PURL()
	if pu == nil || p.Name == "" {
		return sentinel.Component{}, false
	}
	if pu.Type == "nuget" && p.Version == "" {
		// A "Project" entry of packages.lock.json: a project reference
		// inside the same solution, not a NuGet package.
		return sentinel.Component{}, false
	}
	if pu.Type == "golang" && localPath(p.Name) {
		return sentinel.Component{}, false
	}
	eco := p.Ecosystem().String()
	var vcs string
	if pu.Type == "git" && strings.HasPrefix(exName, "javascript/") {
		// scalibr types an npm, yarn, pnpm or bun dependency fetched from
		// a git repository "pkg:git/<name>"; it is still an npm package
		// (its own package.json names it), from another source.
		pu.Type, eco = "npm", "npm"
		pu.Namespace, pu.Name = "", p.Name
		if i := strings.LastIndexByte(p.Name, '/'); i >= 0 {
			pu.Namespace, pu.Name = p.Name[:i], p.Name[i+1:]
		}
	}
	if pu.Type == "bioconductor" {
		eco = "Bioconductor" // renvLock's; scalibr has no ecosystem for this type
	}
	if pu.Type == "githubactions" {
		// An action (actions.go): owner and repository, the owner as the
		// purl's namespace; scalibr has no ecosystem for this type.
		eco = "GitHub Actions"
		pu.Namespace, pu.Name, _ = strings.Cut(p.Name, "/")
	}
	name := p.Name
	typ := "library"
	if pu.Type == "docker" {
		// A container image (images.go): "<namespace>/<name>", from
		// another registry than Docker Hub with its repository_url.
		typ, eco = "container", ""
		pu.Namespace, pu.Name = "", name
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			pu.Namespace, pu.Name = name[:i], name[i+1:]
		}
		pu.Qualifiers = nil
		if m, ok := p.Metadata.(*imageMeta); ok {
			pu.Qualifiers = append(pu.Qualifiers, packageurl.Qualifier{Key: "repository_url", Value: m.registry})
		}
		name = pu.Name
	}
	if pu.Type == "swift" {
		// scalibr names a SwiftPM package by its whole location
		// ("github.com/apple/swift-nio"); in its purl the host and owner
		// are the namespace. A location written with the default port
		// names the same repository.
		name = swiftName(name)
		pu.Namespace, pu.Name = "", name
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			pu.Namespace, pu.Name = name[:i], name[i+1:]
		}
	}
	if sc := p.SourceCode; sc != nil && sc.Commit != "" {
		vcs = vcsURL(sc.Repo, sc.Commit)
	}
	if u, ok := p.Metadata.(juliaUUID); ok && pu.Type == "julia" {
		// A julia purl names its package by uuid as well (juliaManifest).
		pu.Qualifiers = append(pu.Qualifiers, packageurl.Qualifier{Key: "uuid", Value: string(u)})
	}
	if m, ok := p.Metadata.(*conanMeta); ok && pu.Type == "conan" {
		// A reference's user and channel: a package of another remote
		// than ConanCenter (conanLock).
		if m.user != "" {
			pu.Qualifiers = append(pu.Qualifiers, packageurl.Qualifier{Key: "user", Value: m.user})
		}
		if m.channel != "" {
			pu.Qualifiers = append(pu.Qualifiers, packageurl.Qualifier{Key: "channel", Value: m.channel})
		}
		if m.user != "" || m.channel != "" {
			eco = "" // OSV has no ecosystem for another remote's packages
		}
	}
	if pu.Type == "npm" {
		// scalibr adds ?source=PUBLIC_REGISTRY|LOCAL to package-lock
		// packages only; the same package from yarn or pnpm has none. The
		// purl is the component's identity across files and submissions,
		// so the qualifier is dropped.
		pu.Qualifiers = nil
	}
	ps := pu.String()
	if vcs != "" {
		ps = withVCS(ps, vcs)
	}
	c := sentinel.Component{
		Purl:      ps,
		Ecosystem: eco,
		Name:      name,
		Version:   p.Version,
		Type:      typ,
		Locations: []string{loc},
		Licenses:  p.Licenses,
	}
	if m, ok := p.Metadata.(*requirements.Metadata); ok && p.Version != "" && m.VersionComparator != "==" && m.VersionComparator != "===" {
		// requirements.txt: "flask>=2.0" gives the lowest version the
		// line allows, as scalibr and osv-scanner read it; the SBOM says
		// it is a bound, not what is installed.
		c.Properties = map[string]string{PropVersionConstraint: m.VersionComparator + p.Version}
	}
	if g, ok := p.Metadata.(interface{ DepGroups() []string }); ok && devGroups(exName, g.DepGroups()) {
		c.Development = true
	}
	if exName == requirements.Name && devRequirements(loc) {
		c.Development = true
	}
	if m, ok := p.Metadata.(*declaredMeta); ok && m.bound != "" {
		// An MSBuild version range ("[1.0,2.0)"): NuGet restores its
		// lowest version, which p.Version is.
		c.Properties = map[string]string{PropVersionConstraint: m.bound}
	}
	return c, true
}

// devGroups reports whether the dependency groups one of scalibr's
// extractors gives a package say that only development needs it:
// Pipfile.lock's "develop" packages not also in "default", a Maven
// dependency of scope "test", a Dart package pubspec.lock calls "direct
// dev". (The lockfiles Sentinel reads again say it themselves: see
// lockIndex.devFlag; pdm's "dev" is pdmLock's, for a package of
// development groups only.)
func devGroups(exName string, groups []string) bool {
	switch exName {
	case pipfilelock.Name, pdmlock.Name, pubspec.Name, gradleBuild.name, gradleversioncatalog.Name, sbtBuild.name, conanfile.name, msbuild.name, pyproject.name, setupPy.name, pipfile.name, depsEDN.name, projectClj.name:
		return slices.Contains(groups, "dev")
	case pomxml.Name:
		return len(groups) > 0 && !slices.ContainsFunc(groups, func(g string) bool { return g != "test" })
	case conanlock.Name:
		// a build tool (build_requires, a version 1 lockfile's build
		// context) or a python_requires recipe, not in the program.
		return len(groups) > 0 && !slices.ContainsFunc(groups, func(g string) bool { return g != "build-requires" && g != "python-requires" })
	}
	return false
}

// PropVersionConstraint is set on a component whose version is the lower
// bound of a requirements.txt line ("flask>=2.0"), not a pinned one.
const PropVersionConstraint = "sentinel:version_constraint"

// swiftName normalises a SwiftPM package location: no scheme or user (an
// SSH location names the same repository), no default port, no ".git", as
// OSV's SwiftURL names are written.
func swiftName(n string) string {
	n = strings.TrimSuffix(swiftLocation(n), ".git")
	if host, rest, ok := strings.Cut(n, "/"); ok {
		host = strings.TrimSuffix(strings.TrimSuffix(host, ":443"), ":80")
		n = host + "/" + rest
	}
	return n
}

// localPath reports whether a Go module path is a local directory (the
// target of a go.mod replace directive).
func localPath(p string) bool {
	return strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") ||
		p == "." || p == ".." || (len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'))
}

// mergeComponents deduplicates by purl (joining locations and dependency
// edges) and sorts by purl.
func mergeComponents(in []sentinel.Component) []sentinel.Component {
	byPurl := make(map[string]int, len(in))
	var out []sentinel.Component
	for _, c := range in {
		i, ok := byPurl[c.Purl]
		if !ok {
			byPurl[c.Purl] = len(out)
			out = append(out, c)
			continue
		}
		m := &out[i]
		m.Locations = append(m.Locations, c.Locations...)
		m.DependsOn = append(m.DependsOn, c.DependsOn...)
		for _, l := range c.Licenses {
			m.Licenses = appendLicense(m.Licenses, l)
		}
		// Development-only where every file that lists it says so.
		m.Development = m.Development && c.Development
		for k, v := range c.Properties {
			if m.Properties == nil {
				m.Properties = map[string]string{}
			}
			if old, ok := m.Properties[k]; ok && k == PropGoMinimum {
				v = maxGoVersion(old, v) // several modules: the strictest minimum
			}
			m.Properties[k] = v
		}
	}
	for i := range out {
		out[i].Locations = sortedUnique(out[i].Locations)
		out[i].DependsOn = sortedUnique(out[i].DependsOn)
		if len(out[i].DependsOn) == 0 {
			out[i].DependsOn = nil
		}
	}
	slices.SortFunc(out, func(a, b sentinel.Component) int { return strings.Compare(a.Purl, b.Purl) })
	return out
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
