package sbom

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"gopkg.in/yaml.v3"

	sentinel "github.com/sentinel-sca/sentinel"
)

// Lockfile readers of npm and yarn (see graph.go for what every reader
// gives).

// npm

type npmLock struct {
	Name         string              `json:"name"`
	Version      string              `json:"version"`
	Packages     map[string]npmEntry `json:"packages"`
	Dependencies map[string]npmV1Dep `json:"dependencies"`
}

type npmEntry struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Link                 bool              `json:"link"`
	Dev                  bool              `json:"dev"`
	Resolved             lockString        `json:"resolved"`
	License              json.RawMessage   `json:"license"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

// lockString is a string field of a lockfile that some writers fill
// with something else: npm 6 wrote "resolved": false for packages of some
// private registries. Anything but a string reads as "", so that one odd
// field does not cost the whole lockfile.
type lockString string

// UnmarshalJSONFrom implements the JSON v2 decoder's unmarshaler.
func (s *lockString) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '"' {
		*s = ""
		return dec.SkipValue()
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	*s = lockString(tok.String())
	return nil
}

type npmV1Dep struct {
	Version      string              `json:"version"`
	Dev          bool                `json:"dev"`
	Resolved     lockString          `json:"resolved"`
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
		if err := unmarshalLock(data, lock); err != nil {
			return err
		}
	}
	// The package the lockfile is for: its root entry, or in version 1
	// the top-level name.
	name, version, license := lock.Name, lock.Version, json.RawMessage(nil)
	if root, ok := lock.Packages[""]; ok && root.Name != "" {
		name, version, license = root.Name, root.Version, root.License
	}
	if npmName(name) {
		lk.self = &sentinel.Component{Name: name, Version: version, Ecosystem: "npm",
			Purl: npmProjectPurl(name, version), Licenses: npmLicenses(license)}
	}
	// The workspace members and linked folders: a folder entry's own name,
	// else the name its link is installed under (npm writes the name only
	// where it differs from the folder's), for a package.json that was not
	// scanned (a package-lock.json alone).
	linkName := map[string]string{}
	for key, e := range lock.Packages {
		if i := strings.LastIndex(key, "node_modules/"); e.Link && e.Resolved != "" && i >= 0 {
			linkName[string(e.Resolved)] = key[i+len("node_modules/"):]
		}
	}
	for key, e := range lock.Packages {
		if key == "" || e.Link || strings.Contains(key, "node_modules/") || strings.HasPrefix(key, "../") || path.IsAbs(key) {
			continue
		}
		name := e.Name
		if name == "" {
			name = linkName[key]
		}
		lk.npmMember(key, name, e.Version)
	}
	// Flatten both layouts to install paths ("node_modules/a/node_modules/b").
	type node struct {
		name, version, resolved string
		deps                    []string
		license                 json.RawMessage
		link                    bool
		dev                     bool   // npm's "dev": only development needs it
		linkTo                  string // a link's workspace folder
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
			nodes[key] = node{name: name, version: e.Version, resolved: string(e.Resolved), deps: deps, license: e.License, dev: e.Dev}
		}
		// Links point to a workspace folder that holds the real entry.
		for key, e := range lock.Packages {
			if e.Link && e.Resolved != "" {
				if n, ok := nodes[string(e.Resolved)]; ok {
					n.link, n.linkTo = true, string(e.Resolved)
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
				n := node{name: name, version: d.Version, resolved: string(d.Resolved), deps: req, dev: d.Dev}
				if real, ok := strings.CutPrefix(d.Version, "npm:"); ok {
					// An alias: "old-lodash": {"version": "npm:lodash@4.17.15"}.
					n.name, n.version = pnpmNameAtVersion(real)
				} else if strings.ContainsAny(d.Version, ":/#") {
					n.version = "" // a git or tarball source: its component has no version
				}
				nodes[key] = n
				walk(key+"/", d.Dependencies)
			}
		}
		walk("", lock.Dependencies)
	}
	if _, ok := nodes[""]; !ok {
		// Version 1, or npm's hidden lockfile (node_modules/.package-lock.json),
		// names no root: its direct dependencies are what the project's
		// package.json names, each the package installed at the top,
		// where Node finds it (an alias included: "old-lodash" is lodash).
		for _, d := range npmManifestDeps(lk) {
			if t, found := npmResolve(nodes, "", d); found {
				if to, found := lk.find(nodes[t].name, nodes[t].version); found {
					lk.root("", to)
				}
			}
		}
	}
	// underDev reports whether the package installed at key sits in the
	// node_modules of a development-only package: installed only with
	// it, it is development-only too, whatever its own entry says (a
	// bundled dependency's entry, npm's own under "npm", has no "dev").
	underDev := func(key string) bool {
		for {
			i := strings.LastIndex(key, "/node_modules/")
			if i < 0 {
				return false
			}
			key = key[:i]
			if p, ok := nodes[key]; ok && p.dev {
				return true
			}
		}
	}
	for key, n := range nodes {
		workspace := !strings.Contains(key, "node_modules/")
		if workspace && key != "" && !n.link {
			lk.link("", key) // the root holds its workspace members
		}
		from, ok := lk.find(n.name, n.version)
		if ok && !n.link {
			if workspace && key != "" {
				lk.local[from] = true
			}
			if v := npmGitResolved(n.resolved); v != "" {
				lk.setVCS(from, v)
			}
			if !workspace {
				lk.devFlag(from, n.dev || underDev(key))
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
			if workspace && !n.link && t.linkTo != "" {
				lk.link(key, t.linkTo) // a member's dependency on another
			}
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

// npmManifestDeps are the dependency names of the package.json beside an
// npm lockfile, or, for the hidden one in node_modules, beside that
// folder: dependencies, devDependencies and optionalDependencies.
func npmManifestDeps(lk *lockIndex) []string {
	name := "package.json"
	if path.Base(lk.file) == ".package-lock.json" {
		name = "../package.json"
	}
	b := lk.sibling(name)
	var m struct {
		Dependencies         map[string]any `json:"dependencies"`
		DevDependencies      map[string]any `json:"devDependencies"`
		OptionalDependencies map[string]any `json:"optionalDependencies"`
	}
	if b == nil || json.Unmarshal(b, &m) != nil {
		return nil
	}
	var out []string
	for _, deps := range []map[string]any{m.Dependencies, m.DevDependencies, m.OptionalDependencies} {
		for d := range deps {
			out = append(out, d)
		}
	}
	return out
}

// npmResolve finds the install path that package dep resolves to when
// required from the package installed at key: the nearest node_modules/dep
// walking up the directory tree, as Node's require does.
func npmResolve[N any](nodes map[string]N, key, dep string) (string, bool) {
	dir := key
	var space [256]byte // the candidate paths, without an allocation each
	for {
		cand := space[:0]
		if dir != "" {
			cand = append(append(cand, dir...), '/')
		}
		cand = append(append(cand, "node_modules/"...), dep...)
		if _, ok := nodes[string(cand)]; ok {
			return string(cand), true
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
	// name is v1's "name" field, written when the package's name is not
	// the one in its descriptors ("user/repo:" for a GitHub dependency).
	name       string
	version    string
	resolution string // berry "resolution", or v1 "resolved"
	deps       map[string]string
}

// yarnName is the package name of a descriptor: "@scope/name@npm:^1.0" ->
// "@scope/name".
func yarnName(desc string) string {
	if desc == "" {
		return ""
	}
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
		if len(entries) == 0 && err != nil {
			var pe *partialError
			if errors.As(err, &pe) {
				err = pe.errs[0] // nothing was read: the first reason is the file's
			}
			return nil, err
		}
		return &yarnLock{entries: entries}, err // err: a *partialError, or nil
	}
	root, err := yamlFirstDoc(data)
	if err != nil {
		return nil, err
	}
	var doc map[string]berryEntry
	if err := root.Decode(&doc); err != nil {
		if doc, err = berryEntries(root); err != nil {
			return nil, err
		}
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

// berryEntry is an entry of a berry lockfile.
type berryEntry struct {
	Version              string            `yaml:"version"`
	Resolution           string            `yaml:"resolution"`
	Dependencies         map[string]string `yaml:"dependencies"`
	OptionalDependencies map[string]string `yaml:"optionalDependencies"`
}

// berryEntries reads a berry lockfile that YAML refuses because a key
// appears twice (a merge that kept both copies of an entry): Yarn's own
// parser takes the last, and so does this one.
func berryEntries(root *yaml.Node) (map[string]berryEntry, error) {
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("yarn.lock: not a mapping")
	}
	m := root.Content[0].Content
	doc := make(map[string]berryEntry, len(m)/2)
	for i := 0; i+1 < len(m); i += 2 {
		var e berryEntry
		if m[i].Value != "__metadata" {
			if err := m[i+1].Decode(&e); err != nil {
				return nil, err
			}
		}
		doc[m[i].Value] = e
	}
	return doc, nil
}

// yarnCatalogs reads the catalogs of a .yarnrc.yml: by name ("" for the
// default "catalog"), each package's range. It is never nil.
func yarnCatalogs(b []byte) map[string]map[string]string {
	var rc struct {
		Catalog  map[string]string            `yaml:"catalog"`
		Catalogs map[string]map[string]string `yaml:"catalogs"`
	}
	out := map[string]map[string]string{}
	if b == nil || yaml.Unmarshal(b, &rc) != nil {
		return out
	}
	for name, c := range rc.Catalogs {
		out[name] = c
	}
	if rc.Catalog != nil {
		out[""] = rc.Catalog
	}
	return out
}

func yarnGraph(data []byte, lk *lockIndex) error {
	y, ok := lk.pre.(*yarnLock)
	if !ok {
		var err error
		if y, err = parseYarnLock(data); y == nil {
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
	var catalogs map[string]map[string]string
	var byName map[string][]int // berry's entries by package, made when first needed
	target := func(name, rng string) (int, bool) {
		if c, ok := strings.CutPrefix(rng, "catalog:"); ok && berry {
			// Yarn 4.10's catalogs: the range is in .yarnrc.yml
			// ("catalog:" the default one, "catalog:dev" a named one),
			// and the lockfile's entry is under it.
			if catalogs == nil {
				catalogs = yarnCatalogs(lk.sibling(".yarnrc.yml"))
			}
			if r := catalogs[c][name]; r != "" {
				rng = r
			}
		}
		for _, d := range []string{name + "@" + rng, name + "@npm:" + rng} {
			if i, ok := byDesc[d]; ok {
				return i, true
			}
		}
		if berry {
			// A resolution ("resolutions": {"ms": "1.0.0"}) leaves the
			// range a package's manifest asks for ("ms: 2.1.2") without
			// an entry of its own: the package's one entry is it.
			if byName == nil {
				byName = map[string][]int{}
				for i := range entries {
					if e := &entries[i]; !berryLocal(e.resolution) {
						byName[e.packageName(true)] = append(byName[e.packageName(true)], i)
					}
				}
			}
			if is := byName[name]; len(is) == 1 {
				return is[0], true
			}
		}
		return 0, false
	}
	// comps returns the components an entry stands for: its own, or for a
	// v1 entry of a folder of the project's tree (yarnV1Folder), which is
	// no component, those of what it depends on, so that the graph goes
	// through the folder.
	folderComps := map[int][]int{}
	var comps func(ti int, seen map[int]bool) []int
	comps = func(ti int, seen map[int]bool) []int {
		e := &entries[ti]
		if _, local := yarnV1Folder(e); berry || !local {
			if to, ok := lk.find(e.packageName(berry), e.version); ok {
				return []int{to}
			}
			return nil
		}
		if cs, ok := folderComps[ti]; ok {
			return cs
		}
		if seen[ti] {
			return nil
		}
		seen[ti] = true
		var out []int
		for dn, dr := range e.deps {
			if t, ok := target(dn, dr); ok {
				out = append(out, comps(t, seen)...)
			}
		}
		folderComps[ti] = out
		return out
	}
	if !berry {
		// v1 lists no root: the package.json beside it declares the
		// direct dependencies, each a descriptor of one entry, and so
		// does each workspace member's, in the folders its "workspaces"
		// globs name.
		// v1 lists no workspace member either: a dependency named as a
		// member is on that member.
		type manifest struct {
			Name                 string            `json:"name"`
			Dependencies         map[string]string `json:"dependencies"`
			DevDependencies      map[string]string `json:"devDependencies"`
			OptionalDependencies map[string]string `json:"optionalDependencies"`
			Workspaces           json.RawMessage   `json:"workspaces"`
		}
		read := func(dir string) *manifest {
			var m manifest
			b := lk.sibling(path.Join(dir, "package.json"))
			if b == nil || json.Unmarshal(trimBOM(b), &m) != nil {
				return nil
			}
			return &m
		}
		manifests := map[string]*manifest{}
		members := map[string]string{} // name -> folder
		if m := read(""); m != nil {
			manifests[""] = m
			if lk.glob != nil {
				for _, pattern := range yarnWorkspaces(m.Workspaces) {
					for _, dir := range lk.glob(pattern) {
						if w := read(dir); dir != "" && dir != "." && w != nil {
							manifests[dir] = w
							members[w.Name] = dir
							lk.link("", dir) // the root holds its workspace members
						}
					}
				}
			}
		}
		// A folder of the project's tree that a manifest depends on
		// (link:, file:) is installed with its own runtime dependencies,
		// which its package.json declares (the lockfile does not: its
		// entry has none); its path is relative to that manifest. It is
		// read as a member, for development only where the manifest
		// declares it so.
		type item struct {
			dir    string
			m      *manifest
			folder bool // a linked folder: its devDependencies are not installed
			dev    bool // reached for development only
		}
		var work []item
		for dir, m := range manifests {
			work = append(work, item{dir: dir, m: m})
		}
		seenFolder := map[string]bool{}
		for len(work) > 0 {
			it := work[len(work)-1]
			work = work[:len(work)-1]
			declared := []map[string]string{it.m.Dependencies, it.m.DevDependencies, it.m.OptionalDependencies}
			if it.folder {
				declared[1] = nil
			}
			for k, deps := range declared {
				dev := it.dev || k == 1 // a name in both maps is a runtime one too (start)
				for n, r := range deps {
					ti, ok := target(n, r)
					if !ok {
						if w, ok := members[n]; ok {
							lk.link(it.dir, w)
						}
						continue
					}
					if folder, local := yarnV1Folder(&entries[ti]); local && !path.IsAbs(folder) {
						fdir := path.Join(it.dir, folder)
						lk.link(it.dir, fdir)
						key := fmt.Sprint(fdir, dev)
						if fm := read(fdir); fm != nil && !seenFolder[key] {
							seenFolder[key] = true
							work = append(work, item{dir: fdir, m: fm, folder: true, dev: dev})
						}
						continue
					}
					for _, to := range comps(ti, map[int]bool{}) {
						if dev {
							lk.devRoot(it.dir, to)
						} else {
							lk.root(it.dir, to)
						}
					}
				}
			}
		}
	}
	devByWS := map[string]map[string]bool{}
	devOnly := func(ws string) map[string]bool {
		d, ok := devByWS[ws]
		if !ok {
			d = npmDevOnly(lk, ws)
			devByWS[ws] = d
		}
		return d
	}
	for _, e := range entries {
		if len(e.descriptors) == 0 {
			continue
		}
		name := e.packageName(berry)
		workspace := berry && berryLocal(e.resolution)
		_, ws, _ := strings.Cut(e.resolution, "@workspace:")
		if workspace && ws != "." {
			lk.link("", ws) // the root holds its workspace members
		}
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
			if _, tws, isWS := strings.Cut(t.resolution, "@workspace:"); workspace && berry && isWS {
				lk.link(ws, tws) // a member's dependency on another
				continue
			}
			for _, to := range comps(ti, map[int]bool{}) {
				if workspace && devOnly(ws)[dn] {
					lk.devRoot(ws, to)
				} else if workspace {
					lk.root(ws, to)
				}
				if workspace && ok {
					lk.startsOf(from)
				}
				if ok {
					lk.edge(from, to)
				}
			}
		}
	}
	return nil
}

// npmDevOnly reads the package.json at dir beside a lockfile: the names of
// its devDependencies that it does not declare for runtime as well. A
// berry lockfile lists a workspace's dependencies in one map.
func npmDevOnly(lk *lockIndex, dir string) map[string]bool {
	var m struct {
		Dependencies         map[string]string `json:"dependencies"`
		DevDependencies      map[string]string `json:"devDependencies"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
		PeerDependencies     map[string]string `json:"peerDependencies"`
	}
	b := lk.sibling(path.Join(dir, "package.json"))
	if b == nil || json.Unmarshal(trimBOM(b), &m) != nil {
		return nil
	}
	dev := map[string]bool{}
	for n := range m.DevDependencies {
		_, a := m.Dependencies[n]
		_, b := m.OptionalDependencies[n]
		_, c := m.PeerDependencies[n]
		if !a && !b && !c {
			dev[n] = true
		}
	}
	return dev
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
		return githubArchive(res)
	case strings.HasPrefix(res, "https://gitlab.com/") && strings.Contains(res, "/repository/archive.tar.gz?ref="):
		r, ref, _ := strings.Cut(res, "/repository/archive.tar.gz?ref=")
		if isCommit(ref) {
			return r, ref, true
		}
	case strings.HasPrefix(res, "git+") || strings.HasPrefix(res, "git://") || strings.HasPrefix(res, "git@") ||
		((strings.HasPrefix(res, "https://") || strings.HasPrefix(res, "ssh://")) && commitFragment(res) && !registryTarball(res)) ||
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

// commitFragment reports whether a URL's fragment is a git commit (every
// yarn v1 resolution has a fragment: a registry tarball's is its SHA-1).
func commitFragment(u string) bool {
	i := strings.LastIndexByte(u, '#')
	return i >= 0 && isCommit(u[i+1:])
}

// registryTarball reports whether a resolved address is a registry's
// tarball ("https://registry.yarnpkg.com/d3/-/d3-7.9.0.tgz#<sha1>"), whose
// fragment is the tarball's checksum, not a commit.
func registryTarball(res string) bool {
	p, _, _ := strings.Cut(res, "#")
	return strings.Contains(p, "/-/") || strings.HasSuffix(p, ".tgz") || strings.HasSuffix(p, ".tar.gz")
}

// parseYarnV1 reads a yarn v1 lockfile: blocks of `descriptors:` followed
// by indented `key value` lines and `dependencies:` sub-blocks. A block
// whose first line is not `descriptors:` is left out, with its indented
// lines, and named in the *partialError returned with the other entries.
func parseYarnV1(data []byte) ([]yarnEntry, error) {
	var out []yarnEntry
	var bad []error
	var cur *yarnEntry
	skipping := false // inside a block left out
	var sub string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 16<<10), 1<<20) // grows to 1 MiB for a long line only
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
			cur, sub, skipping = nil, "", false
			if !strings.HasSuffix(text, ":") {
				bad = append(bad, fmt.Errorf("yarn.lock: unexpected line %q", truncate(line)))
				skipping = true
				continue
			}
			var descs []string
			for _, d := range strings.Split(strings.TrimSuffix(text, ":"), ",") {
				descs = append(descs, unq(d))
			}
			// A package name has no space ("name@>= 1 < 2" has one in its
			// range only): "es6-promise ^3.0.2:" names no package.
			if slices.ContainsFunc(descs, func(d string) bool { return strings.ContainsRune(yarnName(d), ' ') }) {
				bad = append(bad, fmt.Errorf("yarn.lock: no package name in %q", truncate(line)))
				skipping = true
				continue
			}
			out = append(out, yarnEntry{descriptors: descs, deps: map[string]string{}})
			cur = &out[len(out)-1]
		case skipping:
			continue
		case cur == nil:
			bad = append(bad, fmt.Errorf("yarn.lock: indented line before any entry: %q", truncate(line)))
			skipping = true
		case indent == 2:
			sub = ""
			if strings.HasSuffix(text, ":") {
				sub = unq(strings.TrimSuffix(text, ":"))
				continue
			}
			// Keys may be quoted: `"version" "3.6.0"`.
			k, v, _ := strings.Cut(text, " ")
			switch unq(k) {
			case "name":
				cur.name = unq(v)
			case "version":
				// Yarn writes the package's own version; bun's yarn.lock
				// (bun install -y) writes a git dependency's source there,
				// which is no version.
				if cur.version = unq(v); strings.Contains(cur.version, "://") {
					cur.version = ""
				}
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
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, partial(bad)
}

// yarnWorkspaces are the folder patterns of package.json's "workspaces":
// a list, or {"packages": [...]} (Yarn 1's form with nohoist).
func yarnWorkspaces(raw json.RawMessage) []string {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var obj struct {
		Packages []string `json:"packages"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		return obj.Packages
	}
	return nil
}

// npmName reports whether name can be an npm package's: at most 214
// characters that a URL keeps as they are (npm's own rule), a scope's @
// and / aside. A lockfile written from a template ("{{ name }}") names
// no package.
func npmName(name string) bool {
	if name == "" || len(name) > 214 {
		return false
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("-_.!~*'()@/", r):
		default:
			return false
		}
	}
	return true
}
