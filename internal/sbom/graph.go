package sbom

import (
	"context"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	packageurl "github.com/package-url/packageurl-go"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Reading more than packages from lockfiles.
//
// scalibr v0.5.3's lockfile extractors return a flat package list: none of the
// registered ones fills extractor.Package.ParentIDs, and few say where a
// package came from. Sentinel therefore reads each lockfile a second time,
// from the bytes already in memory, for what the format records beyond
// name and version:
//
//   - the dependency graph: which package depends on which (DependsOn);
//   - the roots: which packages the project (or each workspace member)
//     depends on directly, where the format says so;
//   - local packages: the project itself and its workspace members, which
//     are not dependencies (see project.go);
//   - git sources: a package built from a git repository is not the
//     registry's package of that name and version, so its purl carries a
//     vcs_url qualifier ("git+https://github.com/x/foo@<commit>");
//   - licenses, where the lockfile records them (package-lock.json,
//     composer.lock).
//
// The formats, and what each gives:
//
//	package-lock.json v1-v3  graph (Node's resolution: nearest node_modules upwards),
//	npm-shrinkwrap.json      roots (v2/v3 "" and workspace entries), locals, git, licenses
//	yarn.lock v1             graph (by descriptor "name@range"), roots (the root's and
//	                         each workspace member's package.json), git
//	yarn.lock berry          graph, roots and locals (workspace entries), git
//	pnpm-lock.yaml v6-v9     graph, roots (importers), git
//	bun.lock                 graph (nearest nested key), roots (workspaces)
//	Cargo.lock               graph ("name" or "name version"), locals (no source), git
//	composer.lock            graph (names), licenses
//	vendor/composer/         graph (names), licenses
//	  installed.json
//	poetry.lock              graph (PEP 503 names), locals (directory/file sources), git
//	uv.lock                  graph, locals (virtual/editable/directory), git
//	Gemfile.lock             graph, roots (DEPENDENCIES), locals (PATH), git (GIT)
//	mix.lock                 graph, git
//	packages.lock.json       graph, roots ("Direct")
//	project.assets.json      graph (per target, by name), roots (the project's references)
//	<App>.deps.json          graph, roots (the application's and its projects' entries)
//	pubspec.lock             roots ("direct main" and "direct dev")
//	go.mod                   roots (requires without "// indirect")
//	requirements*.txt        graph and roots where pip-compile or uv pip compile wrote
//	                         "# via" comments (requirementsGraph); nothing otherwise
//
// Packages are still found only by scalibr: an edge whose ends are not both
// components of the same file is dropped, and a reading that fails leaves
// the components as scalibr gave them. A hand-written requirements.txt,
// Pipfile.lock, gradle lockfiles and pom.xml (offline) record no graph (a Gradle
// lockfile is read again for the configurations of each package).

// lockReaders maps a file's base name to its reader.
var lockReaders = map[string]func(data []byte, lk *lockIndex) error{
	"package-lock.json":           npmGraph,
	".package-lock.json":          npmGraph, // npm's hidden lockfile in node_modules (hiddenLockfiles)
	"npm-shrinkwrap.json":         npmGraph,
	"yarn.lock":                   yarnGraph,
	"pnpm-lock.yaml":              pnpmGraph,
	"bun.lock":                    bunGraph,
	"bun.lockb":                   bunLockbGraph,
	"Cargo.lock":                  cargoGraph,
	"composer.lock":               composerGraph,
	"installed.json":              composerInstalledGraph, // vendor/composer/installed.json (hiddenLockfiles)
	"poetry.lock":                 poetryGraph,
	"uv.lock":                     uvGraph,
	"Gemfile.lock":                gemGraph,
	"gems.locked":                 gemGraph,
	"mix.lock":                    mixGraph,
	"packages.lock.json":          nugetGraph,
	"project.assets.json":         projectAssetsGraph,
	".deps.json":                  depsJSONGraph, // any <App>.deps.json (lockFormat)
	"pubspec.lock":                pubRoots,
	"packages.config":             packagesConfigRoots,
	"go.mod":                      goRoots,
	"gradle.lockfile":             gradleConfigurations,
	"buildscript-gradle.lockfile": gradleConfigurations,
	"requirements.txt":            requirementsGraph, // any requirements file (lockFormat); pip-compile's "# via"
}

// graphFormats are the lockfile base names whose dependency graph (edges
// between packages) is read; the others in lockReaders give roots only.
var graphFormats = []string{
	".package-lock.json", "Cargo.lock", "Gemfile.lock", "bun.lock", "bun.lockb", "composer.lock", "gems.locked", "mix.lock",
	"npm-shrinkwrap.json", "package-lock.json", "packages.lock.json", "pnpm-lock.yaml",
	"poetry.lock", "uv.lock", "yarn.lock", "project.assets.json", ".deps.json", "installed.json",
}

// lockFormat is the key of the lockfile at p in lockReaders and
// graphFormats: its base name, ".deps.json" for <App>.deps.json, and
// "pnpm-lock.yaml" for the copy pnpm keeps in node_modules/.pnpm/lock.yaml.
func lockFormat(p string) string {
	base := path.Base(p)
	switch {
	case isDepsJSON(base):
		return ".deps.json"
	case base == "lock.yaml" && (p == "node_modules/.pnpm/lock.yaml" || strings.HasSuffix(p, "/node_modules/.pnpm/lock.yaml")):
		return "pnpm-lock.yaml"
	case base != "buildscript-gradle.lockfile" && base != "settings-gradle.lockfile" && isGradleLockfile(base):
		return "gradle.lockfile" // a module's, named for it
	case strings.HasSuffix(base, ".txt") && (strings.Contains(base, "requirements") || path.Base(path.Dir(p)) == "requirements"):
		return "requirements.txt" // requirements-dev.txt, requirements/base.txt
	}
	return base
}

// lockIndex finds a file's components by name (and version) and collects
// what a reader learns about them.
type lockIndex struct {
	comps     []sentinel.Component
	byNameVer map[string]int
	byName    map[string][]int
	norm      func(string) string
	edges     []lockEdge // in any order, perhaps repeated
	// roots are the direct dependencies by workspace directory, relative
	// to the lockfile's directory ("" for the lockfile's own project).
	roots map[string]map[int]bool
	links map[string]map[string]bool // see link
	local map[int]bool
	// localAt are the directories of local packages, relative to the
	// lockfile's, where the lockfile records them (Gemfile.lock's PATH).
	localAt  map[int]string
	vcs      map[int][]string // candidate vcs_url values (see setVCS)
	licenses map[int][]string
	// file is the lockfile's path.
	file string
	// sibling reads a file beside the lockfile (nil when there is none):
	// yarn v1 records no root, its package.json does.
	sibling func(name string) []byte
	// glob lists the paths under the lockfile's directory that match a
	// pattern relative to it (path.Match syntax), relative to it too.
	glob func(pattern string) []string
	// pre is the document as Sentinel's own extractor parsed it (onePass),
	// so that the reader does not parse it again; nil otherwise.
	pre any
	// devFlags are what a format that marks each package says of it
	// (devFlag): devSeen for an entry only development needs, prodSeen
	// for any other; a package listed twice is development-only when
	// every entry says so.
	devFlags map[int]uint8
	// starts are where the dependencies a manifest declares enter the
	// graph (root, devRoot, start): devSeen for the development-only
	// ones, prodSeen for the others.
	starts map[int]uint8
	// started are the local packages whose dependencies were recorded
	// as starts (startsOf).
	started map[int]bool
	// hasGraph is set by a reader of a format that records a graph only
	// sometimes (a compiled requirements file) when this file does.
	hasGraph bool
	// self is the package the lockfile is for, where the format names it
	// (Type, Locations and DependsOn left to annotate and linkProjects).
	self *sentinel.Component
	// members are the workspace members the format names, by directory
	// relative to the lockfile (bun.lock's workspaces, package-lock's
	// folder entries): each stands for its package.json where that was
	// not scanned, as self does for the root's.
	members map[string]*sentinel.Component
}

const (
	devSeen uint8 = 1 << iota
	prodSeen
)

func newLockIndex(comps []sentinel.Component, norm func(string) string) *lockIndex {
	if norm == nil {
		norm = func(s string) string { return s }
	}
	lk := &lockIndex{
		comps:     comps,
		byNameVer: make(map[string]int, len(comps)),
		byName:    make(map[string][]int, len(comps)),
		norm:      norm,
		roots:     map[string]map[int]bool{},
		local:     map[int]bool{},
		localAt:   map[int]string{},
		vcs:       map[int][]string{},
		licenses:  map[int][]string{},
	}
	for i, c := range comps {
		n := norm(c.Name)
		k := n + "@" + c.Version
		if _, dup := lk.byNameVer[k]; dup {
			// A package listed twice at one version (a Gemfile.lock's
			// platform variants of nokogiri) is one package: its first
			// copy stands for all, and it is still the only version of
			// its name.
			continue
		}
		lk.byNameVer[k] = i
		lk.byName[n] = append(lk.byName[n], i)
	}
	return lk
}

// find returns the component with this name and version, or, when version is
// empty, the only component with this name.
func (lk *lockIndex) find(name, version string) (int, bool) {
	n := lk.norm(name)
	if version != "" {
		i, ok := lk.byNameVer[n+"@"+version]
		return i, ok
	}
	if c := lk.byName[n]; len(c) == 1 {
		return c[0], true
	}
	return 0, false
}

// lockEdge is a dependency of component from on component to.
type lockEdge struct{ from, to int }

func (lk *lockIndex) edge(from, to int) {
	if from != to {
		lk.edges = append(lk.edges, lockEdge{from, to})
	}
}

// setVCS records a git source of component i. One name and version can
// be installed twice from different commits (npm nests them), and find
// returns one component for both: every source is kept as a candidate,
// and annotate gives each component the candidate with its own commit.
func (lk *lockIndex) setVCS(i int, v string) {
	if v != "" && !slices.Contains(lk.vcs[i], v) {
		lk.vcs[i] = append(lk.vcs[i], v)
	}
}

func (lk *lockIndex) root(dir string, to int) {
	lk.addRoot(dir, to)
	lk.start(to, false)
}

// devRoot is root for a direct dependency that the manifest declares for
// development only (npm's devDependencies, a uv dependency group).
func (lk *lockIndex) devRoot(dir string, to int) {
	lk.addRoot(dir, to)
	lk.start(to, true)
}

func (lk *lockIndex) addRoot(dir string, to int) {
	dir = strings.Trim(path.Clean("/"+dir), "/")
	if lk.roots[dir] == nil {
		lk.roots[dir] = map[int]bool{}
	}
	lk.roots[dir][to] = true
}

// start records that a declared dependency enters the graph at
// component to, for development only or not, without making it a root
// (a dependency of a local package whose edges become the project's).
func (lk *lockIndex) start(to int, dev bool) {
	if lk.starts == nil {
		lk.starts = map[int]uint8{}
	}
	if dev {
		lk.starts[to] |= devSeen
	} else {
		lk.starts[to] |= prodSeen
	}
}

// startsOf records that the dependencies of local package i (a workspace
// member, the project's own crate) were each recorded as a start, as
// its manifest declares them: the graph is not followed through i, whose
// edges do not tell development from runtime. A local package whose
// manifest was not read is followed, its edges all taken for runtime.
func (lk *lockIndex) startsOf(i int) {
	if lk.started == nil {
		lk.started = map[int]bool{}
	}
	lk.started[i] = true
}

// devFlag records what a format that marks every package (npm's "dev",
// composer's packages-dev, poetry's category or groups) says of the
// package at i.
func (lk *lockIndex) devFlag(i int, dev bool) {
	if lk.devFlags == nil {
		lk.devFlags = map[int]uint8{}
	}
	if dev {
		lk.devFlags[i] |= devSeen
	} else {
		lk.devFlags[i] |= prodSeen
	}
}

// allDevelopment marks every component of the file development-only: a
// test project's.
func (lk *lockIndex) allDevelopment() {
	for i := range lk.comps {
		lk.devFlag(i, true)
	}
}

// development returns the components only development needs, as the
// file says: by its own marks where it has them (devFlag); else, where
// a manifest told which declared dependencies are for development
// (devRoot), the components reachable from those and from no other.
// Without either, nothing is known and nothing is returned: a component
// is development-only only when the file says so.
func (lk *lockIndex) development() []int {
	var dev []int
	if len(lk.devFlags) > 0 {
		for i, f := range lk.devFlags {
			if f == devSeen {
				dev = append(dev, i)
			}
		}
		slices.Sort(dev)
		return dev
	}
	hasDev := false
	for _, f := range lk.starts {
		if f == devSeen {
			hasDev = true
			break
		}
	}
	if !hasDev {
		return nil
	}
	next := make(map[int][]int, len(lk.edges))
	for _, e := range lk.edges {
		next[e.from] = append(next[e.from], e.to)
	}
	reach := func(want func(uint8) bool) []bool {
		seen := make([]bool, len(lk.comps))
		var stack []int
		for i, f := range lk.starts {
			if want(f) && !seen[i] {
				seen[i] = true
				stack = append(stack, i)
			}
		}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if lk.started[i] {
				// The project's own package (a workspace member) whose
				// dependencies entered as starts of their own, for
				// development or not (startsOf): its edges mix both.
				continue
			}
			for _, j := range next[i] {
				if !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		return seen
	}
	prod := reach(func(f uint8) bool { return f&prodSeen != 0 })
	devReach := reach(func(f uint8) bool { return f == devSeen })
	for i := range lk.comps {
		if devReach[i] && !prod[i] && !lk.local[i] {
			dev = append(dev, i)
		}
	}
	return dev
}

// link records that the workspace member (or root) at dir depends on the
// one at to, both relative to the lockfile's directory (to may be outside
// it: "../lib"): a dependency between the project's own packages, which
// are projects, not components.
func (lk *lockIndex) link(dir, to string) {
	dir = strings.Trim(path.Clean("/"+dir), "/")
	if to = path.Clean(to); to == "." {
		to = ""
	}
	if dir == to {
		return
	}
	if lk.links == nil {
		lk.links = map[string]map[string]bool{}
	}
	if lk.links[dir] == nil {
		lk.links[dir] = map[string]bool{}
	}
	lk.links[dir][to] = true
}

func (lk *lockIndex) license(i int, l string) {
	lk.licenses[i] = appendLicense(lk.licenses[i], l)
}

// lockAnnotation is what the second reading gave, with the purls final.
type lockAnnotation struct {
	read bool // a reader ran and succeeded
	// graph is set when the format records edges (graphFormats).
	graph bool
	// roots are the direct dependencies' purls by workspace directory,
	// relative to the root of the scan.
	roots map[string][]string
	// locals are the local packages: the project or a workspace member,
	// not a dependency. Their dir is relative to the scan root, and only
	// set where the lockfile says where the package is.
	locals []local
	// links are, by workspace directory relative to the root of the scan,
	// the directories of the workspace members it depends on.
	links map[string][]string
	// self is the package the lockfile is for, where it names it (npm's
	// root entry), located at the lockfile; nil otherwise.
	self *project
	// members are the workspace members it names (lockIndex.members),
	// located at the lockfile, each of its own directory.
	members []project
}

// annotate applies the second reading to comps, the components of the file
// at p (slash-separated, relative to the scan root): DependsOn, vcs_url
// qualifiers, licenses. A file that cannot be read again keeps its
// components as they are.
func annotate(ctx context.Context, fsys fs.FS, p string, data []byte, pre any, comps []sentinel.Component) lockAnnotation {
	base := lockFormat(p)
	read, ok := lockReaders[base]
	if !ok || len(comps) == 0 || ctx.Err() != nil {
		return lockAnnotation{}
	}
	var norm func(string) string
	switch base {
	case "poetry.lock", "uv.lock", "requirements.txt":
		norm = pep503
	case "packages.lock.json", "project.assets.json", ".deps.json", "packages.config":
		norm = strings.ToLower // NuGet ids are case-insensitive
	case "composer.lock", "installed.json":
		norm = strings.ToLower
	}
	lk := newLockIndex(comps, norm)
	lk.pre, lk.file = pre, p
	lk.sibling = func(name string) []byte {
		if fsys == nil {
			return nil
		}
		b, err := fs.ReadFile(fsys, path.Join(path.Dir(p), name))
		if err != nil {
			return nil
		}
		return plainText(b)
	}
	lk.glob = func(pattern string) []string {
		if fsys == nil {
			return nil
		}
		dir := path.Dir(p)
		matches, err := fs.Glob(fsys, path.Join(globQuote(dir), pattern))
		if err != nil {
			return nil
		}
		if dir == "." {
			return matches
		}
		for i, m := range matches {
			matches[i] = strings.TrimPrefix(m, dir+"/")
		}
		return matches
	}
	if err := read(data, lk); err != nil {
		return lockAnnotation{}
	}
	// A format may list one package twice (package-lock v2 keeps both
	// layouts; npm installs one version from two commits), and scalibr may
	// report both: each copy takes the candidate source whose commit is the
	// one scalibr saw for it, else the first in order.
	same := map[string][]int{}
	for i, c := range comps {
		k := lk.norm(c.Name) + "@" + c.Version
		same[k] = append(same[k], i)
	}
	chosen := map[int]string{}
	for i, cands := range lk.vcs {
		for _, j := range same[lk.norm(comps[i].Name)+"@"+comps[i].Version] {
			if v := pickVCS(comps[j].Purl, cands); v != "" {
				chosen[j] = v
			}
		}
	}
	for j, v := range chosen {
		comps[j].Purl = withVCS(comps[j].Purl, v)
	}
	for _, i := range lk.development() {
		// Every copy of the package the file lists (berry's patched
		// typescript is a second entry of the same version).
		for _, j := range same[lk.norm(comps[i].Name)+"@"+comps[i].Version] {
			comps[j].Development = true
		}
	}
	for i, ls := range lk.licenses {
		for _, l := range ls {
			comps[i].Licenses = appendLicense(comps[i].Licenses, l)
		}
	}
	slices.SortFunc(lk.edges, func(a, b lockEdge) int {
		if a.from != b.from {
			return a.from - b.from
		}
		return a.to - b.to
	})
	for i, e := range lk.edges {
		if i == 0 || e != lk.edges[i-1] {
			comps[e.from].DependsOn = append(comps[e.from].DependsOn, comps[e.to].Purl)
		}
	}
	an := lockAnnotation{read: true, graph: slices.Contains(graphFormats, base) || lk.hasGraph, roots: map[string][]string{}}
	dir := projectDir(p)
	if base == "project.assets.json" && path.Base(dir) == "obj" {
		dir = path.Dir(dir) // restore writes it in the project's obj/
	}
	for wd, tos := range lk.roots {
		d := path.Join(dir, wd)
		for to := range tos {
			an.roots[d] = append(an.roots[d], comps[to].Purl)
		}
	}
	if lk.self != nil {
		c := *lk.self
		c.Type, c.Locations = "application", []string{p}
		an.self = &project{comp: c, priority: len(projectManifests), dir: dir, fromLock: true}
	}
	for _, md := range slices.Sorted(maps.Keys(lk.members)) {
		c := *lk.members[md]
		c.Type, c.Locations = "application", []string{p}
		an.members = append(an.members, project{comp: c, priority: len(projectManifests), dir: path.Join(dir, md), fromLock: true})
	}
	for i := range lk.local {
		l := local{purl: comps[i].Purl}
		if at, ok := lk.localAt[i]; ok {
			l.at = path.Join(dir, at)
		}
		an.locals = append(an.locals, l)
	}
	for wd, tos := range lk.links {
		if an.links == nil {
			an.links = map[string][]string{}
		}
		d := path.Join(dir, wd)
		for to := range tos {
			an.links[d] = append(an.links[d], path.Join(dir, to))
		}
	}
	return an
}

// pickVCS chooses among candidate vcs_url values for a component whose
// purl may already carry one (from scalibr): the candidate with the same
// commit, or, without one, the first in order. "" keeps the purl as it is.
func pickVCS(p string, cands []string) string {
	cands = slices.Sorted(slices.Values(cands))
	u, err := packageurl.FromString(p)
	if err != nil {
		return ""
	}
	cur := u.Qualifiers.Map()["vcs_url"]
	if cur == "" {
		return cands[0]
	}
	commit := func(v string) string {
		if i := strings.LastIndexByte(v, '@'); i >= 0 {
			return v[i+1:]
		}
		return ""
	}
	for _, c := range cands {
		if commit(c) == commit(cur) {
			return c
		}
	}
	return ""
}

// purlRepo is the repository of a purl's vcs_url qualifier, without
// "git+" and the commit; "" when it has none.
func purlRepo(p string) string {
	u, err := packageurl.FromString(p)
	if err != nil {
		return ""
	}
	v := strings.TrimPrefix(u.Qualifiers.Map()["vcs_url"], "git+")
	if i := strings.LastIndexByte(v, '@'); i > strings.LastIndexByte(v, '/') {
		v = v[:i]
	}
	return v
}

// withVCS adds the vcs_url qualifier to a purl.
func withVCS(p, vcs string) string {
	u, err := packageurl.FromString(p)
	if err != nil {
		return p
	}
	q := u.Qualifiers.Map()
	q["vcs_url"] = vcs
	u.Qualifiers = packageurl.QualifiersFromMap(q)
	return u.ToString()
}

// vcsURL builds a vcs_url value (purl spec: "<vcs_tool>+<transport>://
// <host>[/<path>][@<revision>]") from a repository address and a commit.
// It returns "" when repo is empty.
//
// Credentials are not copied into the purl: an https address loses its
// user information ("https://<token>@github.com/..."), an ssh one its
// password.
func vcsURL(repo, commit string) string {
	repo = strings.TrimSpace(repo)
	if repo == "" {
		return ""
	}
	if i := strings.IndexAny(repo, "?#"); i >= 0 {
		repo = repo[:i]
	}
	repo = strings.TrimPrefix(repo, "git+")
	if scheme, rest, ok := strings.Cut(repo, "://"); ok {
		host, pth, _ := strings.Cut(rest, "/")
		if at := strings.LastIndexByte(host, '@'); at >= 0 {
			user := host[:at]
			switch {
			case scheme == "http" || scheme == "https":
				host = host[at+1:]
			case strings.Contains(user, ":"):
				u, _, _ := strings.Cut(user, ":")
				host = u + host[at:]
			}
		}
		repo = scheme + "://" + host
		if pth != "" {
			repo += "/" + pth
		}
	}
	repo = "git+" + repo
	if commit != "" {
		repo += "@" + commit
	}
	return repo
}

// cargoGitSource reads a Cargo.lock or uv.lock git source,
// "git+https://github.com/x/foo?rev=abc#<commit>" (uv: without "git+"),
// into a vcs_url value.
func cargoGitSource(src string) string {
	repo, commit := cargoGitParts(src)
	if repo == "" {
		return ""
	}
	return vcsURL(repo, commit)
}

// cargoGitParts is cargoGitSource's repository and commit; "" for a
// source that is not a git address.
func cargoGitParts(src string) (repo, commit string) {
	src = strings.TrimPrefix(src, "git+")
	u, err := url.Parse(src)
	if err != nil || u.Host == "" {
		return "", ""
	}
	commit = u.Fragment
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	return u.String(), commit
}

// pep503 normalises a Python distribution name.
func pep503(s string) string { return purl.NormalizeName("PyPI", s) }

// npmMember records the npm package name@version as the workspace member in
// dir, relative to the lockfile ("" is the root: the lockfile's self).
func (lk *lockIndex) npmMember(dir, name, version string) {
	if !npmName(name) {
		return
	}
	c := &sentinel.Component{Name: name, Version: version, Ecosystem: "npm", Purl: npmProjectPurl(name, version)}
	if dir == "" {
		lk.self = c
		return
	}
	if lk.members == nil {
		lk.members = map[string]*sentinel.Component{}
	}
	lk.members[dir] = c
}

// placeLocal records where the local package i is, from the path its
// lockfile gives relative to itself; a path outside the lockfile's tree
// is not recorded.
func (lk *lockIndex) placeLocal(i int, rel string) {
	at := path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	if rel == "" || path.IsAbs(at) || at == ".." || strings.HasPrefix(at, "../") {
		return
	}
	lk.localAt[i] = at
}
