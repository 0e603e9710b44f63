package sbom

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	packageurl "github.com/package-url/packageurl-go"
	"github.com/tidwall/jsonc"
	"gopkg.in/yaml.v3"

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
//	yarn.lock v1             graph (by descriptor "name@range"), git
//	yarn.lock berry          graph, roots and locals (workspace entries), git
//	pnpm-lock.yaml v6-v9     graph, roots (importers), git
//	bun.lock                 graph (nearest nested key), roots (workspaces)
//	Cargo.lock               graph ("name" or "name version"), locals (no source), git
//	composer.lock            graph (names), licenses
//	poetry.lock              graph (PEP 503 names), locals (directory/file sources), git
//	uv.lock                  graph, locals (virtual/editable/directory), git
//	Gemfile.lock             graph, roots (DEPENDENCIES), locals (PATH), git (GIT)
//	mix.lock                 graph, git
//	packages.lock.json       graph, roots ("Direct")
//	pubspec.lock             roots ("direct main" and "direct dev")
//	go.mod                   roots (requires without "// indirect")
//
// Packages are still found only by scalibr: an edge whose ends are not both
// components of the same file is dropped, and a reading that fails leaves
// the components as scalibr gave them. requirements.txt, Pipfile.lock,
// gradle lockfiles and pom.xml (offline) record no graph.

// lockReaders maps a file's base name to its reader.
var lockReaders = map[string]func(data []byte, lk *lockIndex) error{
	"package-lock.json":   npmGraph,
	"npm-shrinkwrap.json": npmGraph,
	"yarn.lock":           yarnGraph,
	"pnpm-lock.yaml":      pnpmGraph,
	"bun.lock":            bunGraph,
	"Cargo.lock":          cargoGraph,
	"composer.lock":       composerGraph,
	"poetry.lock":         poetryGraph,
	"uv.lock":             uvGraph,
	"Gemfile.lock":        gemGraph,
	"gems.locked":         gemGraph,
	"mix.lock":            mixGraph,
	"packages.lock.json":  nugetGraph,
	"pubspec.lock":        pubRoots,
	"go.mod":              goRoots,
}

// graphFormats are the lockfile base names whose dependency graph (edges
// between packages) is read; the others in lockReaders give roots only.
var graphFormats = []string{
	"Cargo.lock", "Gemfile.lock", "bun.lock", "composer.lock", "gems.locked", "mix.lock",
	"npm-shrinkwrap.json", "package-lock.json", "packages.lock.json", "pnpm-lock.yaml",
	"poetry.lock", "uv.lock", "yarn.lock",
}

// lockIndex finds a file's components by name (and version) and collects
// what a reader learns about them.
type lockIndex struct {
	comps     []sentinel.Component
	byNameVer map[string]int
	byName    map[string][]int
	norm      func(string) string
	edges     map[int]map[int]bool
	// roots are the direct dependencies by workspace directory, relative
	// to the lockfile's directory ("" for the lockfile's own project).
	roots    map[string]map[int]bool
	local    map[int]bool
	vcs      map[int][]string // candidate vcs_url values (see setVCS)
	licenses map[int][]string
	// sibling reads a file beside the lockfile (nil when there is none):
	// yarn v1 records no root, its package.json does.
	sibling func(name string) []byte
	// pre is the document as Sentinel's own extractor parsed it (onePass),
	// so that the reader does not parse it again; nil otherwise.
	pre any
}

func newLockIndex(comps []sentinel.Component, norm func(string) string) *lockIndex {
	if norm == nil {
		norm = func(s string) string { return s }
	}
	lk := &lockIndex{
		comps:     comps,
		byNameVer: make(map[string]int, len(comps)),
		byName:    make(map[string][]int, len(comps)),
		norm:      norm,
		edges:     map[int]map[int]bool{},
		roots:     map[string]map[int]bool{},
		local:     map[int]bool{},
		vcs:       map[int][]string{},
		licenses:  map[int][]string{},
	}
	for i, c := range comps {
		n := norm(c.Name)
		lk.byNameVer[n+"@"+c.Version] = i
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

func (lk *lockIndex) edge(from, to int) {
	if from == to {
		return
	}
	if lk.edges[from] == nil {
		lk.edges[from] = map[int]bool{}
	}
	lk.edges[from][to] = true
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
	dir = strings.Trim(path.Clean("/"+dir), "/")
	if lk.roots[dir] == nil {
		lk.roots[dir] = map[int]bool{}
	}
	lk.roots[dir][to] = true
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
	// locals are the purls of local packages: the project or a workspace
	// member, not a dependency.
	locals []string
}

// annotate applies the second reading to comps, the components of the file
// at p (slash-separated, relative to the scan root): DependsOn, vcs_url
// qualifiers, licenses. A file that cannot be read again keeps its
// components as they are.
func annotate(ctx context.Context, fsys fs.FS, p string, data []byte, pre any, comps []sentinel.Component) lockAnnotation {
	base := path.Base(p)
	read, ok := lockReaders[base]
	if !ok || len(comps) == 0 || ctx.Err() != nil {
		return lockAnnotation{}
	}
	var norm func(string) string
	switch base {
	case "poetry.lock", "uv.lock":
		norm = pep503
	case "packages.lock.json":
		norm = strings.ToLower // NuGet ids are case-insensitive
	case "composer.lock":
		norm = strings.ToLower
	}
	lk := newLockIndex(comps, norm)
	lk.pre = pre
	lk.sibling = func(name string) []byte {
		if fsys == nil {
			return nil
		}
		b, err := fs.ReadFile(fsys, path.Join(path.Dir(p), name))
		if err != nil {
			return nil
		}
		return b
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
	for i, ls := range lk.licenses {
		for _, l := range ls {
			comps[i].Licenses = appendLicense(comps[i].Licenses, l)
		}
	}
	for from, tos := range lk.edges {
		for to := range tos {
			comps[from].DependsOn = append(comps[from].DependsOn, comps[to].Purl)
		}
	}
	an := lockAnnotation{read: true, graph: slices.Contains(graphFormats, base), roots: map[string][]string{}}
	dir := path.Dir(p)
	for wd, tos := range lk.roots {
		d := path.Join(dir, wd)
		for to := range tos {
			an.roots[d] = append(an.roots[d], comps[to].Purl)
		}
	}
	for i := range lk.local {
		an.locals = append(an.locals, comps[i].Purl)
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
	src = strings.TrimPrefix(src, "git+")
	u, err := url.Parse(src)
	if err != nil || u.Host == "" {
		return ""
	}
	commit := u.Fragment
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	return vcsURL(u.String(), commit)
}

// pep503 normalises a Python distribution name.
func pep503(s string) string { return purl.NormalizeName("PyPI", s) }

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
	License              json.RawMessage   `json:"license"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

type npmV1Dep struct {
	Version      string              `json:"version"`
	Resolved     string              `json:"resolved"`
	Requires     map[string]string   `json:"requires"`
	Dependencies map[string]npmV1Dep `json:"dependencies"`
}

// npmGitResolved reads a package-lock "resolved" of a git dependency
// ("git+ssh://git@github.com/x/y.git#<commit>") into a vcs_url value.
func npmGitResolved(resolved string) string {
	if !strings.HasPrefix(resolved, "git+") && !strings.HasPrefix(resolved, "git://") {
		return ""
	}
	repo, commit, _ := strings.Cut(resolved, "#")
	return vcsURL(repo, commit)
}

func npmGraph(data []byte, lk *lockIndex) error {
	lock, ok := lk.pre.(*npmLock)
	if !ok {
		lock = new(npmLock)
		if err := json.Unmarshal(data, lock); err != nil {
			return err
		}
	}
	// Flatten both layouts to install paths ("node_modules/a/node_modules/b").
	type node struct {
		name, version, resolved string
		deps                    []string
		license                 json.RawMessage
		link                    bool
	}
	nodes := map[string]node{}
	if len(lock.Packages) > 0 {
		for key, e := range lock.Packages {
			if e.Link {
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
			if !strings.Contains(key, "node_modules/") {
				// The root ("") and workspace folders: their devDependencies
				// are installed too.
				for d := range e.DevDependencies {
					deps = append(deps, d)
				}
			}
			nodes[key] = node{name: name, version: e.Version, resolved: e.Resolved, deps: deps, license: e.License}
		}
		// Links point to a workspace folder that holds the real entry.
		for key, e := range lock.Packages {
			if e.Link && e.Resolved != "" {
				if n, ok := nodes[e.Resolved]; ok {
					n.link = true
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
				nodes[key] = node{name: name, version: d.Version, resolved: d.Resolved, deps: req}
				walk(key+"/", d.Dependencies)
			}
		}
		walk("", lock.Dependencies)
	}
	for key, n := range nodes {
		workspace := !strings.Contains(key, "node_modules/")
		from, ok := lk.find(n.name, n.version)
		if ok && !n.link {
			if workspace && key != "" {
				lk.local[from] = true
			}
			if v := npmGitResolved(n.resolved); v != "" {
				lk.setVCS(from, v)
			}
			for _, l := range npmLicenses(n.license) {
				lk.license(from, l)
			}
		}
		for _, d := range n.deps {
			target, found := npmResolve(nodes, key, d)
			if !found {
				continue
			}
			t := nodes[target]
			to, found := lk.find(t.name, t.version)
			if !found {
				continue
			}
			if workspace && !n.link {
				lk.root(key, to)
			}
			if ok {
				lk.edge(from, to)
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

// yarn

// yarnEntry is one resolved package of a yarn.lock, under every descriptor
// ("name@range") that resolves to it.
type yarnEntry struct {
	descriptors []string
	version     string
	resolution  string // berry "resolution", or v1 "resolved"
	deps        map[string]string
}

// yarnName is the package name of a descriptor: "@scope/name@npm:^1.0" ->
// "@scope/name".
func yarnName(desc string) string {
	at := strings.Index(desc[1:], "@")
	if at < 0 {
		return desc
	}
	return desc[:at+1]
}

// yarnLock is a parsed yarn.lock of either layout.
type yarnLock struct {
	entries []yarnEntry
	berry   bool
}

// parseYarnLock reads a yarn.lock: berry (YAML, with __metadata) or v1.
func parseYarnLock(data []byte) (*yarnLock, error) {
	if !bytes.Contains(data, []byte("\n__metadata:")) && !bytes.HasPrefix(data, []byte("__metadata:")) {
		entries, err := parseYarnV1(data)
		if err != nil {
			return nil, err
		}
		return &yarnLock{entries: entries}, nil
	}
	var doc map[string]struct {
		Version              string            `yaml:"version"`
		Resolution           string            `yaml:"resolution"`
		Dependencies         map[string]string `yaml:"dependencies"`
		OptionalDependencies map[string]string `yaml:"optionalDependencies"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	y := &yarnLock{berry: true}
	for _, key := range slices.Sorted(maps.Keys(doc)) {
		e := doc[key]
		if key == "__metadata" {
			continue
		}
		ye := yarnEntry{version: e.Version, resolution: e.Resolution, deps: map[string]string{}}
		for _, d := range strings.Split(key, ",") {
			ye.descriptors = append(ye.descriptors, strings.TrimSpace(d))
		}
		for _, m := range []map[string]string{e.Dependencies, e.OptionalDependencies} {
			for k, v := range m {
				ye.deps[k] = v
			}
		}
		y.entries = append(y.entries, ye)
	}
	return y, nil
}

func yarnGraph(data []byte, lk *lockIndex) error {
	y, ok := lk.pre.(*yarnLock)
	if !ok {
		var err error
		if y, err = parseYarnLock(data); err != nil {
			return err
		}
	}
	entries, berry := y.entries, y.berry
	byDesc := map[string]int{}
	for i, e := range entries {
		for _, d := range e.descriptors {
			byDesc[strings.Trim(d, `"`)] = i
		}
	}
	target := func(name, rng string) (int, bool) {
		for _, d := range []string{name + "@" + rng, name + "@npm:" + rng} {
			if i, ok := byDesc[d]; ok {
				return i, true
			}
		}
		return 0, false
	}
	if !berry {
		// v1 lists no root: the package.json beside it declares the
		// direct dependencies, each a descriptor of one entry.
		var m struct {
			Dependencies         map[string]string `json:"dependencies"`
			DevDependencies      map[string]string `json:"devDependencies"`
			OptionalDependencies map[string]string `json:"optionalDependencies"`
		}
		if b := lk.sibling("package.json"); b != nil && json.Unmarshal(trimBOM(b), &m) == nil {
			for _, deps := range []map[string]string{m.Dependencies, m.DevDependencies, m.OptionalDependencies} {
				for n, r := range deps {
					if ti, ok := target(n, r); ok {
						if to, ok := lk.find(n, entries[ti].version); ok {
							lk.root("", to)
						}
					}
				}
			}
		}
	}
	for _, e := range entries {
		if len(e.descriptors) == 0 {
			continue
		}
		name := yarnName(strings.Trim(e.descriptors[0], `"`))
		workspace := berry && strings.Contains(e.resolution, "@workspace:")
		from, ok := lk.find(name, e.version)
		if ok {
			if workspace {
				lk.local[from] = true
			} else if v := yarnGitSource(e.resolution); v != "" {
				lk.setVCS(from, v)
			}
		}
		for dn, dr := range e.deps {
			ti, found := target(dn, dr)
			if !found {
				continue
			}
			t := entries[ti]
			to, found := lk.find(dn, t.version)
			if !found {
				continue
			}
			if workspace {
				_, ws, _ := strings.Cut(e.resolution, "@workspace:")
				lk.root(ws, to)
			}
			if ok {
				lk.edge(from, to)
			}
		}
	}
	return nil
}

// yarnGitSource reads a yarn resolution of a git dependency into a vcs_url
// value (yarnGitParts).
func yarnGitSource(res string) string {
	repo, commit, ok := yarnGitParts(res)
	if !ok {
		return ""
	}
	return vcsURL(repo, commit)
}

// yarnGitParts reads a yarn (or pnpm) resolution of a git dependency into
// its repository and commit: berry "name@https://github.com/x/y.git#commit=
// <sha>", v1 "git+https://github.com/x/y.git#<sha>", a codeload tarball
// "https://codeload.github.com/x/y/tar.gz/<sha>" or a GitLab archive
// ".../repository/archive.tar.gz?ref=<sha>". ok is false for a registry
// package.
func yarnGitParts(res string) (repo, commit string, ok bool) {
	// berry writes "<name>@<source>": drop the name, whose "@" comes
	// before any "://" (a scope's leading "@" is not the separator).
	if at := strings.Index(res[min(1, len(res)):], "@") + 1; at > 0 {
		if scheme := strings.Index(res, "://"); scheme < 0 || at < scheme {
			if rest := res[at+1:]; strings.Contains(rest, "://") || strings.HasPrefix(rest, "git@") {
				res = rest
			}
		}
	}
	switch {
	case strings.HasPrefix(res, "https://codeload.github.com/"):
		parts := strings.Split(strings.TrimPrefix(res, "https://codeload.github.com/"), "/")
		if len(parts) == 4 && parts[2] == "tar.gz" {
			return "https://github.com/" + parts[0] + "/" + parts[1], parts[3], true
		}
	case strings.HasPrefix(res, "https://gitlab.com/") && strings.Contains(res, "/repository/archive.tar.gz?ref="):
		r, ref, _ := strings.Cut(res, "/repository/archive.tar.gz?ref=")
		if isCommit(ref) {
			return r, ref, true
		}
	case strings.HasPrefix(res, "git+") || strings.HasPrefix(res, "git://") || strings.HasPrefix(res, "git@") ||
		((strings.HasPrefix(res, "https://") || strings.HasPrefix(res, "ssh://")) && commitFragment.MatchString(res) && !registryTarball(res)) ||
		(strings.HasPrefix(res, "https://") && strings.Contains(res, ".git#")):
		repo, frag, _ := strings.Cut(res, "#")
		commit := frag
		for _, kv := range strings.Split(frag, "&") {
			if v, ok := strings.CutPrefix(kv, "commit="); ok {
				commit = v
			}
		}
		if strings.Contains(commit, "=") {
			commit = "" // a branch or tag selector, not a commit
		}
		return repo, commit, repo != ""
	}
	return "", "", false
}

// commitFragment is a git commit as a URL's fragment.
var commitFragment = regexp.MustCompile(`#[0-9a-f]{7,40}$`)

// registryTarball reports whether a resolved address is a registry's
// tarball ("https://registry.yarnpkg.com/d3/-/d3-7.9.0.tgz#<sha1>"), whose
// fragment is the tarball's checksum, not a commit.
func registryTarball(res string) bool {
	p, _, _ := strings.Cut(res, "#")
	return strings.Contains(p, "/-/") || strings.HasSuffix(p, ".tgz") || strings.HasSuffix(p, ".tar.gz")
}

// parseYarnV1 reads a yarn v1 lockfile: blocks of `descriptors:` followed
// by indented `key value` lines and `dependencies:` sub-blocks.
func parseYarnV1(data []byte) ([]yarnEntry, error) {
	var out []yarnEntry
	var cur *yarnEntry
	var sub string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	unq := func(s string) string { return strings.Trim(strings.TrimSpace(s), `"`) }
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		text := strings.TrimSpace(line)
		switch {
		case indent == 0:
			if !strings.HasSuffix(text, ":") {
				return nil, fmt.Errorf("yarn.lock: unexpected line %q", line)
			}
			out = append(out, yarnEntry{deps: map[string]string{}})
			cur = &out[len(out)-1]
			sub = ""
			for _, d := range strings.Split(strings.TrimSuffix(text, ":"), ",") {
				cur.descriptors = append(cur.descriptors, unq(d))
			}
		case cur == nil:
			return nil, fmt.Errorf("yarn.lock: indented line before any entry")
		case indent == 2:
			sub = ""
			if strings.HasSuffix(text, ":") {
				sub = strings.TrimSuffix(text, ":")
				continue
			}
			k, v, _ := strings.Cut(text, " ")
			switch k {
			case "version":
				cur.version = unq(v)
			case "resolved":
				cur.resolution = unq(v)
			}
		case indent >= 4 && (sub == "dependencies" || sub == "optionalDependencies"):
			var k, v string
			if strings.HasPrefix(text, `"`) {
				end := strings.Index(text[1:], `"`)
				if end < 0 {
					continue
				}
				k, v = text[1:end+1], text[end+2:]
			} else {
				k, v, _ = strings.Cut(text, " ")
			}
			cur.deps[k] = unq(v)
		}
	}
	return out, sc.Err()
}

// pnpm

// pnpmKey splits a pnpm package key into name and version: v9
// "@scope/name@1.2.3(peer@1.0.0)", v6-v8 "/@scope/name@1.2.3(peer...)",
// v5 "/@scope/name/1.2.3_peer@1.0.0".
func pnpmKey(key string) (name, version string) {
	key = strings.TrimPrefix(key, "/")
	if i := strings.IndexByte(key, '('); i > 0 {
		key = key[:i]
	}
	if at := strings.LastIndex(key, "@"); at > 0 {
		return key[:at], key[at+1:]
	}
	if sl := strings.LastIndex(key, "/"); sl > 0 { // v5
		v := key[sl+1:]
		if i := strings.IndexByte(v, '_'); i > 0 {
			v = v[:i]
		}
		return key[:sl], v
	}
	return key, ""
}

// pnpmDepVersion is the version part of a pnpm dependency reference:
// "1.2.3(peer@1.0.0)" -> "1.2.3"; "link:..." -> "".
func pnpmDepVersion(ref string) string {
	if strings.HasPrefix(ref, "link:") || strings.HasPrefix(ref, "file:") {
		return ""
	}
	if i := strings.IndexByte(ref, '('); i > 0 {
		ref = ref[:i]
	}
	if i := strings.IndexByte(ref, '_'); i > 0 { // v5 peer suffix
		ref = ref[:i]
	}
	if strings.Contains(ref, "@") { // an alias: "npm:other@1.0.0" or "/other@1.0.0"
		_, v := pnpmKey(strings.TrimPrefix(ref, "npm:"))
		return v
	}
	return ref
}

func pnpmGraph(data []byte, lk *lockIndex) error {
	type deps struct {
		Dependencies         map[string]any `yaml:"dependencies"`
		OptionalDependencies map[string]any `yaml:"optionalDependencies"`
		DevDependencies      map[string]any `yaml:"devDependencies"`
	}
	var doc struct {
		Importers map[string]deps `yaml:"importers"`
		deps      `yaml:",inline"`
		Packages  map[string]struct {
			Resolution struct {
				Tarball string `yaml:"tarball"`
				Repo    string `yaml:"repo"`
				Commit  string `yaml:"commit"`
				Type    string `yaml:"type"`
			} `yaml:"resolution"`
			Name                 string            `yaml:"name"`
			Version              string            `yaml:"version"`
			Dependencies         map[string]string `yaml:"dependencies"`
			OptionalDependencies map[string]string `yaml:"optionalDependencies"`
		} `yaml:"packages"`
		Snapshots map[string]struct {
			Dependencies         map[string]string `yaml:"dependencies"`
			OptionalDependencies map[string]string `yaml:"optionalDependencies"`
		} `yaml:"snapshots"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return err
	}
	// An importer's dependency value is a version (v5) or {specifier, version}.
	refVersion := func(v any) string {
		switch v := v.(type) {
		case string:
			return pnpmDepVersion(v)
		case map[string]any:
			s, _ := v["version"].(string)
			return pnpmDepVersion(s)
		}
		return ""
	}
	importers := doc.Importers
	if len(importers) == 0 && (doc.Dependencies != nil || doc.DevDependencies != nil) {
		importers = map[string]deps{".": doc.deps} // v5 without workspaces
	}
	for dir, imp := range importers {
		for _, m := range []map[string]any{imp.Dependencies, imp.OptionalDependencies, imp.DevDependencies} {
			for name, ref := range m {
				v := refVersion(ref)
				if v == "" {
					continue // link: or file: (a workspace package, a directory)
				}
				if to, ok := lk.find(name, v); ok {
					lk.root(dir, to)
				}
			}
		}
	}
	link := func(key string, ds ...map[string]string) {
		name, version := pnpmKey(key)
		from, ok := lk.find(name, version)
		if !ok {
			return
		}
		for _, m := range ds {
			for dn, ref := range m {
				v := pnpmDepVersion(ref)
				if v == "" {
					continue // link: or file:
				}
				if to, ok := lk.find(dn, v); ok {
					lk.edge(from, to)
				}
			}
		}
	}
	for key, p := range doc.Packages {
		name, version := pnpmKey(key)
		if p.Name != "" { // git and tarball dependencies name themselves
			name = p.Name
		}
		if p.Version != "" { // ... and give their version apart from the key
			version = p.Version
		}
		if i, ok := lk.find(name, version); ok {
			switch {
			case p.Resolution.Commit != "" && p.Resolution.Repo != "":
				lk.setVCS(i, vcsURL(p.Resolution.Repo, p.Resolution.Commit))
			case strings.HasPrefix(p.Resolution.Tarball, "https://codeload.github.com/"):
				lk.setVCS(i, yarnGitSource(p.Resolution.Tarball))
			}
		}
		if len(doc.Snapshots) == 0 { // v6-v8: edges sit on packages
			link(key, p.Dependencies, p.OptionalDependencies)
		}
	}
	for key, s := range doc.Snapshots {
		link(key, s.Dependencies, s.OptionalDependencies)
	}
	return nil
}

// bun

func bunGraph(data []byte, lk *lockIndex) error {
	var lock struct {
		Workspaces map[string]struct {
			Dependencies         map[string]string `json:"dependencies"`
			DevDependencies      map[string]string `json:"devDependencies"`
			OptionalDependencies map[string]string `json:"optionalDependencies"`
			PeerDependencies     map[string]string `json:"peerDependencies"`
		} `json:"workspaces"`
		Packages map[string][]json.RawMessage `json:"packages"`
	}
	if err := json.Unmarshal(jsonc.ToJSON(data), &lock); err != nil {
		return err
	}
	// packages: key (a path of names, "parent/child" when nested) ->
	// ["name@version", registry, {dependencies...}, integrity].
	type node struct {
		name, version string
		deps          []string
	}
	nodes := map[string]node{}
	for key, v := range lock.Packages {
		if len(v) == 0 {
			continue
		}
		var id string
		if json.Unmarshal(v[0], &id) != nil {
			continue
		}
		at := strings.LastIndex(id, "@")
		if at <= 0 {
			continue
		}
		n := node{name: id[:at], version: id[at+1:]}
		if len(v) > 2 {
			var meta struct {
				Dependencies         map[string]string `json:"dependencies"`
				OptionalDependencies map[string]string `json:"optionalDependencies"`
				PeerDependencies     map[string]string `json:"peerDependencies"`
			}
			if json.Unmarshal(v[2], &meta) == nil {
				for _, m := range []map[string]string{meta.Dependencies, meta.OptionalDependencies, meta.PeerDependencies} {
					for d := range m {
						n.deps = append(n.deps, d)
					}
				}
			}
		}
		nodes[key] = n
	}
	// A dependency of the package at key "a/b" resolves to "a/b/dep", else
	// "a/dep", else "dep": the nearest, as in node_modules.
	resolve := func(key, dep string) (node, bool) {
		for dir := key; ; {
			cand := dep
			if dir != "" {
				cand = dir + "/" + dep
			}
			if n, ok := nodes[cand]; ok {
				return n, true
			}
			if dir == "" {
				return node{}, false
			}
			if i := strings.LastIndex(dir, "/"); i >= 0 {
				dir = dir[:i]
				if strings.HasPrefix(path.Base(dir), "@") { // a scope is not a package
					if j := strings.LastIndex(dir, "/"); j >= 0 {
						dir = dir[:j]
					} else {
						dir = ""
					}
				}
			} else {
				dir = ""
			}
		}
	}
	for key, n := range nodes {
		from, ok := lk.find(n.name, n.version)
		if !ok {
			continue
		}
		for _, d := range n.deps {
			if t, found := resolve(key, d); found {
				if to, found := lk.find(t.name, t.version); found {
					lk.edge(from, to)
				}
			}
		}
	}
	for dir, w := range lock.Workspaces {
		for _, m := range []map[string]string{w.Dependencies, w.DevDependencies, w.OptionalDependencies, w.PeerDependencies} {
			for d := range m {
				// A workspace's own nested copy ("<workspace name>/dep") is not
				// looked for: top-level resolution is what bun installs for it
				// unless it conflicts, which the lockfile then keys by name.
				if t, found := nodes[d]; found {
					if to, found := lk.find(t.name, t.version); found {
						lk.root(dir, to)
					}
				}
			}
		}
	}
	return nil
}

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
	for _, p := range lock.Package {
		from, ok := lk.find(p.Name, p.Version)
		if !ok {
			continue
		}
		switch {
		case p.Source == "":
			lk.local[from] = true // the workspace's own crates
		case strings.HasPrefix(p.Source, "git+"):
			if v := cargoGitSource(p.Source); v != "" {
				lk.setVCS(from, v)
			}
		}
		for _, d := range p.Dependencies {
			// "name", "name version" or "name version (source)".
			f := strings.Fields(d)
			var to int
			switch {
			case len(f) == 1:
				to, ok = lk.find(f[0], "")
			case len(f) >= 2:
				to, ok = lk.find(f[0], f[1])
			default:
				ok = false
			}
			if ok {
				lk.edge(from, to)
			}
		}
	}
	return nil
}

// Composer

func composerGraph(data []byte, lk *lockIndex) error {
	type pkg struct {
		Name    string            `json:"name"`
		Version string            `json:"version"`
		License json.RawMessage   `json:"license"`
		Require map[string]string `json:"require"`
	}
	var lock struct {
		Packages    []pkg `json:"packages"`
		PackagesDev []pkg `json:"packages-dev"`
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		return err
	}
	for _, p := range append(lock.Packages, lock.PackagesDev...) {
		from, ok := lk.find(p.Name, "")
		if !ok {
			continue
		}
		for _, l := range composerLicenses(p.License) {
			lk.license(from, l)
		}
		for d := range p.Require {
			if to, ok := lk.find(d, ""); ok {
				lk.edge(from, to)
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
		}
		for d := range p.Dependencies {
			if to, ok := lk.find(d, ""); ok {
				lk.edge(from, to)
			}
		}
	}
	return nil
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
	}
	if _, err := toml.Decode(string(data), &lock); err != nil {
		return err
	}
	for _, p := range lock.Package {
		from, ok := lk.find(p.Name, p.Version)
		if !ok {
			continue
		}
		switch s := p.Source; {
		case s.Git != "":
			if v := cargoGitSource(s.Git); v != "" {
				lk.setVCS(from, v)
			}
		case s.Virtual != "" || s.Editable != "" || s.Directory != "":
			lk.local[from] = true
		}
		deps := p.Dependencies
		for _, g := range p.OptionalDependencies {
			deps = append(deps, g...)
		}
		for _, g := range p.DevDependencies {
			deps = append(deps, g...)
		}
		for _, d := range deps {
			if to, ok := lk.find(d.Name, d.Version); ok {
				lk.edge(from, to)
			}
		}
	}
	return nil
}

// Bundler

// gemSpec is "    name (version)" in a specs block; gemDep "      name (constraints)".
var (
	gemSpec = regexp.MustCompile(`^    ([^ ]+) \(([^)]+)\)$`)
	gemDep  = regexp.MustCompile(`^      ([^ ]+)(?: \(.*\))?$`)
	gemRoot = regexp.MustCompile(`^  ([^ !]+)!?(?: \(.*\))?$`)
)

func gemGraph(data []byte, lk *lockIndex) error {
	type spec struct {
		name, version string
		deps          []string
	}
	var specs []spec
	var section, remote, revision string
	var inDeps bool
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
	sc.Buffer(make([]byte, 1<<20), 1<<20)
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
			if m := gemSpec.FindStringSubmatch(line); m != nil {
				specs = append(specs, spec{name: m[1], version: m[2]})
				if i, ok := findGem(m[1], m[2]); ok {
					switch section {
					case "GIT":
						lk.setVCS(i, vcsURL(remote, revision))
					case "PATH":
						lk.local[i] = true
					}
				}
				inDeps = true
				continue
			}
			if m := gemDep.FindStringSubmatch(line); m != nil && inDeps && len(specs) > 0 {
				s := &specs[len(specs)-1]
				s.deps = append(s.deps, m[1])
			}
		case "DEPENDENCIES":
			if m := gemRoot.FindStringSubmatch(line); m != nil {
				if i, ok := lk.find(m[1], ""); ok {
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
	return nil
}

// Mix

// mixEntry is one line of mix.lock: `"name": {:hex, :name, "version", ...,
// [deps...], ...}` or `"name": {:git, "url", "commit", [...]}`.
var (
	mixHex     = regexp.MustCompile(`^\s*"([^"]+)":\s*\{:hex,\s*:"?([a-zA-Z0-9_]+)"?,\s*"([^"]+)",\s*"[^"]*",\s*\[[^\]]*\],\s*\[(.*)\],\s*"`)
	mixGit     = regexp.MustCompile(`^\s*"([^"]+)":\s*\{:git,\s*"([^"]+)",\s*"([0-9a-f]+)"`)
	mixDepAtom = regexp.MustCompile(`\{:([a-zA-Z0-9_]+),`)
)

func mixGraph(data []byte, lk *lockIndex) error {
	type entry struct {
		name, version string
		deps          []string
	}
	var entries []entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := mixHex.FindStringSubmatch(line); m != nil {
			e := entry{name: m[1], version: m[3]}
			for _, d := range mixDepAtom.FindAllStringSubmatch(m[4], -1) {
				e.deps = append(e.deps, d[1])
			}
			entries = append(entries, e)
			continue
		}
		if m := mixGit.FindStringSubmatch(line); m != nil {
			if i, ok := lk.find(m[1], ""); ok {
				lk.setVCS(i, vcsURL(m[2], m[3]))
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, e := range entries {
		from, ok := lk.find(e.name, e.version)
		if !ok {
			continue
		}
		for _, d := range e.deps {
			if to, ok := lk.find(d, ""); ok {
				lk.edge(from, to)
			}
		}
	}
	return nil
}

// NuGet

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
	for _, pkgs := range lock.Dependencies {
		resolved := make(map[string]string, len(pkgs))
		for name, p := range pkgs {
			resolved[strings.ToLower(name)] = p.Resolved
		}
		for name, p := range pkgs {
			if p.Resolved == "" {
				continue // a project reference, not a package
			}
			from, ok := lk.find(name, p.Resolved)
			if !ok {
				continue
			}
			if p.Type == "Direct" {
				lk.root("", from)
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
		if i, ok := lk.find(r.Mod.Path, strings.TrimPrefix(r.Mod.Version, "v")); ok {
			lk.root("", i)
		}
	}
	return nil
}
