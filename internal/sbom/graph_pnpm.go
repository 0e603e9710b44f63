package sbom

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
	"github.com/tidwall/jsonc"
	"gopkg.in/yaml.v3"
)

// Lockfile readers of pnpm and bun (see graph.go for what every reader
// gives).

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

// pnpmDepTarget is the package a dependency named name resolves to: the
// name and version its reference names, for an alias ("my-lodash:
// lodash@4.17.21", "npm:other@1.0.0", "/other@1.0.0"), else name at the
// reference's version ("1.2.3(peer@1.0.0)" -> "1.2.3"). The version is
// "" for a link: or file: reference.
func pnpmDepTarget(name, ref string) (string, string) {
	if strings.HasPrefix(ref, "link:") || strings.HasPrefix(ref, "file:") {
		return name, ""
	}
	if i := strings.IndexByte(ref, '('); i > 0 {
		ref = ref[:i]
	}
	if i := strings.IndexByte(ref, '_'); i > 0 && ref[0] >= '0' && ref[0] <= '9' { // v5 peer suffix of a version
		ref = ref[:i]
	}
	if strings.Contains(ref, "@") || strings.HasPrefix(ref, "/") { // v5's alias: "/lodash/1.3.1"
		n, v := pnpmKey(strings.TrimPrefix(ref, "npm:"))
		if n == "" {
			n = name
		}
		return n, v
	}
	return name, ref
}

// pnpmLock is a pnpm-lock.yaml as read once, for the packages
// (pnpmLockExtractor) and for the graph (pnpmGraph). A file may hold
// several YAML documents; each is read.
type pnpmLock struct {
	docs []pnpmDoc
}

type pnpmDoc struct {
	// LockfileVersion is written as a number (5.4) or a string ('9.0').
	LockfileVersion string              `yaml:"lockfileVersion"`
	Importers       map[string]pnpmDeps `yaml:"importers"`
	pnpmDeps        `yaml:",inline"`    // v5 without workspaces: the root's
	Packages        map[string]pnpmPkg  `yaml:"packages"`
	Snapshots       map[string]pnpmDeps `yaml:"snapshots"`

	version float64 // LockfileVersion, parsed
}

type pnpmDeps struct {
	Dependencies         map[string]pnpmRef `yaml:"dependencies"`
	OptionalDependencies map[string]pnpmRef `yaml:"optionalDependencies"`
	DevDependencies      map[string]pnpmRef `yaml:"devDependencies"`
	// PackageManagerDependencies and ConfigDependencies are an importer's
	// in the document pnpm 11 writes first: pnpm itself, as the
	// package.json's packageManager names it, and pnpm's own plugins.
	PackageManagerDependencies map[string]pnpmRef `yaml:"packageManagerDependencies"`
	ConfigDependencies         map[string]pnpmRef `yaml:"configDependencies"`
}

// toolsOnly reports whether the document is the one pnpm 11 writes for
// itself (pnpmDeps.PackageManagerDependencies): its importers name pnpm
// or its plugins and no dependency of the project. Its packages are the
// package manager's (pnpm and every platform's build of it), which the
// project neither ships nor builds with its code.
func (d *pnpmDoc) toolsOnly() bool {
	tools := false
	for _, im := range d.Importers {
		if len(im.Dependencies)+len(im.OptionalDependencies)+len(im.DevDependencies) > 0 {
			return false
		}
		tools = tools || len(im.PackageManagerDependencies)+len(im.ConfigDependencies) > 0
	}
	return tools
}

type pnpmPkg struct {
	Resolution struct {
		Tarball   string `yaml:"tarball"`
		Repo      string `yaml:"repo"`
		Commit    string `yaml:"commit"`
		Type      string `yaml:"type"`
		Directory string `yaml:"directory"`
	} `yaml:"resolution"`
	Name    string `yaml:"name"`
	Version string `yaml:"version"`
	// Dev is what lockfile versions 5 to 8 say of every package: true
	// when only development needs it, false when only production does,
	// absent when both do (and in version 9, which does not say).
	Dev      *bool `yaml:"dev"`
	pnpmDeps `yaml:",inline"`
}

// pnpmRef is a dependency reference: a version ("1.2.3(peer@1.0.0)",
// "link:../x") or, in an importer, {specifier, version}. Anything else
// is no reference: it never fails the file.
type pnpmRef string

// UnmarshalYAML implements yaml.Unmarshaler.
func (r *pnpmRef) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*r = pnpmRef(n.Value)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "version" && n.Content[i+1].Kind == yaml.ScalarNode {
				*r = pnpmRef(n.Content[i+1].Value)
			}
		}
	}
	return nil
}

// parsePnpmLock reads every document of a pnpm-lock.yaml. A document
// without a readable lockfileVersion fails the file, as in scalibr's
// extractor; a package key that names no package is left out, and the
// lockfile comes back with a partialError naming it, so that the rest of
// the file still counts (scalibr's extractor does the same).
func parsePnpmLock(data []byte) (*pnpmLock, error) {
	lock := &pnpmLock{}
	var bad []error
	docs, err := yamlDocs(data)
	if err != nil {
		return nil, err
	}
	for _, n := range docs {
		var d pnpmDoc
		if err := n.Decode(&d); err != nil {
			return nil, err
		}
		v, err := strconv.ParseFloat(d.LockfileVersion, 64)
		if err != nil {
			return nil, fmt.Errorf("lockfileVersion %q: %w", d.LockfileVersion, err)
		}
		d.version = v
		if d.toolsOnly() {
			continue
		}
		for key := range d.Packages {
			if _, _, err := pnpmPackageKey(key, v); err != nil {
				bad = append(bad, err)
				delete(d.Packages, key)
			}
		}
		lock.docs = append(lock.docs, d)
	}
	return lock, partial(bad)
}

// pnpmPackageKey reads the name and version of a "packages:" key, as pnpm
// installs it: v9 "@scope/name@1.2.3"; v5-v8 "/@scope/name/1.2.3_peer" or
// "/name@1.2.3(peer@1.0.0)". A "file:" key, or a version that is not a
// number (a tarball's address), gives none: the entry's own name and
// version fields say it; a v9 "name@file:vendor/x.tgz" key gives its
// name alone. A v5-v8 key without a "/" is an error.
func pnpmPackageKey(key string, lockfileVersion float64) (name, version string, err error) {
	if strings.HasPrefix(key, "file:") {
		return "", "", nil
	}
	if lockfileVersion >= 9 || pnpmV9Key(key) {
		// v9 keys, which pnpm also reads under an older version line.
		key = strings.Trim(key, "'")
		rest, scoped := strings.CutPrefix(key, "@")
		name, version, _ = strings.Cut(rest, "@")
		if scoped {
			name = "@" + name
		}
		// A peer suffix ("1.0.0(react@18.2.0)") is not part of the
		// version; a pruned lockfile may keep it in a packages key.
		version, _, _ = strings.Cut(version, "(")
		if strings.HasPrefix(version, "file:") {
			// A local tarball or directory: its entry's version field
			// says which version it holds.
			return name, "", nil
		}
		return name, version, nil
	}
	if i := strings.IndexByte(key, '('); i >= 0 {
		// v6-v8 peer suffix: "/@babel/plugin@7.24.4(@babel/core@7.24.5)";
		// the scope's "/" inside it must not split the path.
		key = key[:i]
	}
	parts := strings.Split(key, "/")
	if len(parts) < 2 {
		return "", "", fmt.Errorf("invalid dependency path: %v", key)
	}
	parts = parts[1:]
	switch {
	case strings.HasPrefix(parts[0], "@") && len(parts) >= 2:
		name, parts = parts[0]+"/"+parts[1], parts[2:]
	default:
		name, parts = parts[0], parts[1:]
	}
	if len(parts) > 0 {
		version = parts[0]
	}
	if version == "" { // v6-v8: "name@1.2.3(peer@1.0.0)"
		name, version = pnpmNameAtVersion(name)
	}
	if version == "" || version[0] < '0' || version[0] > '9' {
		return "", "", nil
	}
	version, _, _ = strings.Cut(version, "_")
	return name, version, nil
}

// pnpmV9Key reports whether a key is written "name@version" (or
// "@scope/name@version"), as v9 writes it: the name before the "@" has no
// "/" but a scope's. v5-v8 keys start with "/" or a registry host.
func pnpmV9Key(key string) bool {
	k := strings.Trim(key, "'")
	rest, scoped := strings.CutPrefix(k, "@")
	at := strings.IndexByte(rest, '@')
	if at <= 0 {
		return false
	}
	slashes := strings.Count(rest[:at], "/")
	return (scoped && slashes == 1) || (!scoped && slashes == 0)
}

// pnpmNameAtVersion splits "name@1.2.3" or "@s/name@1.2.3(peer...)" at
// its last "@" before a version of word characters, dots and dashes;
// version is "" when there is none.
func pnpmNameAtVersion(s string) (name, version string) {
	end := len(s)
	if i := strings.IndexByte(s, '('); i >= 0 {
		end = i
	}
	at := strings.LastIndexByte(s[:end], '@')
	if at <= 0 || at+1 == end {
		return "", ""
	}
	if !isWordDotDash(s[at+1 : end]) {
		return "", ""
	}
	return s[:at], s[at+1 : end]
}

// pnpmLockExtractor reads pnpm-lock.yaml once for its packages and its
// graph, under scalibr's extractor (its name and the files it wants):
// parsing the YAML was most of the time a pnpm project took, and was done
// twice. The packages are scalibr's: one per "packages:" entry with a name
// and version (from the key, else the entry's own fields), a git
// dependency (a resolution with a commit, or a GitHub codeload tarball)
// with its repository and commit.
type pnpmLockExtractor struct{ filesystem.Extractor }

// parse implements onePass.
func (pnpmLockExtractor) parse(b []byte) (any, error) {
	lock, err := parsePnpmLock(b)
	if lock == nil {
		return nil, fmt.Errorf("could not extract: %w", err)
	}
	return lock, err
}

// packages implements onePass.
func (pnpmLockExtractor) packages(doc any, p string) []*extractor.Package {
	lock := doc.(*pnpmLock)
	var pkgs []*extractor.Package
	for _, d := range lock.docs {
		for _, key := range slices.Sorted(maps.Keys(d.Packages)) {
			e := d.Packages[key]
			name, version := d.packageID(key, e)
			if name == "" || version == "" || !e.installed(name) {
				continue
			}
			pk := &extractor.Package{Name: name, Version: version, PURLType: purl.TypeNPM, Location: extractor.LocationFromPath(p)}
			if repo, commit := e.gitSource(); commit != "" {
				pk.PURLType = purl.TypeGit
				pk.SourceCode = &extractor.SourceCodeIdentifier{Repo: repo, Commit: commit}
			}
			pkgs = append(pkgs, pk)
		}
	}
	return pkgs
}

// packageID is the name and version of the "packages:" entry e under
// key: from the key, unless the entry names itself (a git or tarball
// dependency gives its name and version apart).
func (d *pnpmDoc) packageID(key string, e pnpmPkg) (name, version string) {
	name, version, _ = pnpmPackageKey(key, d.version)
	if e.Name != "" {
		name = e.Name
	}
	if e.Version != "" {
		version = e.Version
	}
	return name, version
}

// byLocalRef looks a "file:" reference up in m, which is keyed as the
// "packages:" entries are: v9 "lodash@file:vendor/lodash.tgz", v6-v8
// "file:vendor/lodash.tgz" alone; a peer suffix ("(react@18.2.0)") is
// not part of the key.
func byLocalRef[V any](m map[string]V, name, ref string) (V, bool) {
	ref, _, _ = strings.Cut(ref, "(")
	if v, ok := m[name+"@"+ref]; ok {
		return v, true
	}
	v, ok := m[ref]
	return v, ok
}

// installed reports whether the entry, named name, is a package the
// project installs rather than its own code: a local directory
// ("resolution: {directory: ..., type: directory}", a workspace member or
// a folder a dependency names) is the project's, as is a Rush project's
// "@rush-temp/" tarball. A vendored tarball of another package
// ("lodash@file:vendor/lodash.tgz", "version: 4.17.21") is installed.
func (e *pnpmPkg) installed(name string) bool {
	return e.Resolution.Type != "directory" && !strings.HasPrefix(name, "@rush-temp/")
}

// gitSource is the repository and commit a package was fetched from: its
// resolution's commit, or a GitHub codeload tarball's; commit is "" for a
// registry package.
func (e *pnpmPkg) gitSource() (repo, commit string) {
	if strings.HasPrefix(e.Resolution.Tarball, "https://codeload.github.com/") {
		if repo, commit, ok := yarnGitParts(e.Resolution.Tarball); ok && commit != "" {
			return repo, commit
		}
	}
	if e.Resolution.Commit == "" {
		return "", ""
	}
	if e.Resolution.Repo != "" {
		return e.Resolution.Repo, e.Resolution.Commit
	}
	return e.Resolution.Tarball, e.Resolution.Commit
}

// isWordDotDash reports whether s is made of ASCII letters, digits, "_",
// "." and "-" (a regular expression's [\w.-]).
func isWordDotDash(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// pnpmGraph reads the graph: importers (each workspace folder's direct
// dependencies; a v5 lockfile without workspaces has the root's at the
// top) and the edges of packages (v5-v8) or snapshots (v9).
func pnpmGraph(data []byte, lk *lockIndex) error {
	lock, ok := lk.pre.(*pnpmLock)
	if !ok {
		var err error
		if lock, err = parsePnpmLock(data); err != nil {
			return err
		}
	}
	for _, d := range lock.docs {
		pnpmDocGraph(&d, lk)
	}
	return nil
}

func pnpmDocGraph(doc *pnpmDoc, lk *lockIndex) {
	// A git or tarball dependency is referred to by its source
	// ("tiny-dep@git+https://host/tiny-dep.git#<commit>"), its component by
	// the name and version its "packages:" entry gives (packageID).
	var bySource map[string]int
	// A local folder ("shared@file:shared", v6-v8 "file:shared") is the
	// project's own: its dependencies are direct ones of its directory,
	// which the folder that names it links to.
	var folders map[string]string
	for key, p := range doc.Packages {
		if p.Resolution.Type == "directory" {
			if folders == nil {
				folders = map[string]string{}
			}
			k, _, _ := strings.Cut(key, "(")
			folders[k] = p.Resolution.Directory
			continue
		}
		if p.Name == "" && p.Version == "" {
			continue // named by its key, as find reads it
		}
		if i, ok := lk.find(doc.packageID(key, p)); ok {
			if bySource == nil {
				bySource = map[string]int{}
			}
			k, _, _ := strings.Cut(strings.TrimPrefix(key, "/"), "(")
			bySource[k] = i
		}
	}
	find := func(name, version string) (int, bool) {
		if i, ok := lk.find(name, version); ok {
			return i, true
		}
		i, ok := bySource[name+"@"+version]
		return i, ok
	}
	// folder is the directory a "file:" reference names, when it is a
	// local folder's.
	folder := func(name, ref string) (string, bool) { return byLocalRef(folders, name, ref) }
	// target is the component a reference names: a vendored tarball's
	// ("file:vendor/lodash-4.17.21.tgz") by its source.
	target := func(name, ref string) (int, bool) {
		if strings.HasPrefix(ref, "file:") {
			return byLocalRef(bySource, name, ref)
		}
		name, v := pnpmDepTarget(name, ref)
		if v == "" {
			return 0, false // link: (a folder)
		}
		return find(name, v)
	}
	importers := doc.Importers
	if len(importers) == 0 && (doc.Dependencies != nil || doc.DevDependencies != nil) {
		importers = map[string]pnpmDeps{".": doc.pnpmDeps} // v5 without workspaces
	}
	for dir, imp := range importers {
		if dir != "." {
			lk.link(".", dir) // the root holds its workspace members
		}
		for k, m := range []map[string]pnpmRef{imp.Dependencies, imp.OptionalDependencies, imp.DevDependencies} {
			for name, ref := range m {
				if to, ok := strings.CutPrefix(string(ref), "link:"); ok {
					lk.link(dir, path.Join(dir, to)) // a workspace member, or a linked folder
					continue
				}
				if to, ok := folder(name, string(ref)); ok {
					lk.link(dir, to) // a local folder, named from the lockfile's directory
					continue
				}
				if to, ok := target(name, string(ref)); ok && k == 2 {
					lk.devRoot(dir, to)
				} else if ok {
					lk.root(dir, to)
				}
			}
		}
	}
	link := func(from int, ds ...map[string]pnpmRef) {
		for _, m := range ds {
			for dn, ref := range m {
				if to, ok := target(dn, string(ref)); ok {
					lk.edge(from, to)
				}
			}
		}
	}
	// rootsOf records a local folder's dependencies as its own.
	rootsOf := func(dir string, ds ...map[string]pnpmRef) {
		for _, m := range ds {
			for dn, ref := range m {
				if to, ok := target(dn, string(ref)); ok {
					lk.root(dir, to)
				}
			}
		}
	}
	if len(doc.Snapshots) == 0 { // v6-v8: edges sit on packages
		// A package without "dev" in a lockfile that writes it is one
		// both production and development need (a peer variant of a
		// development-only package can be production's).
		marks := false
		for _, p := range doc.Packages {
			if p.Dev != nil {
				marks = true
				break
			}
		}
		for key, p := range doc.Packages {
			if p.Resolution.Type == "directory" {
				rootsOf(p.Resolution.Directory, p.Dependencies, p.OptionalDependencies)
				continue
			}
			if from, ok := lk.find(doc.packageID(key, p)); ok {
				link(from, p.Dependencies, p.OptionalDependencies)
				if p.Dev != nil {
					lk.devFlag(from, *p.Dev)
				} else if marks {
					lk.devFlag(from, false)
				}
			}
		}
	}
	for key, s := range doc.Snapshots {
		if dir, ok := folders[strings.SplitN(key, "(", 2)[0]]; ok {
			rootsOf(dir, s.Dependencies, s.OptionalDependencies)
			continue
		}
		from, ok := find(pnpmKey(key))
		if k, _, _ := strings.Cut(key, "("); !ok {
			from, ok = bySource[k]
		}
		if ok {
			link(from, s.Dependencies, s.OptionalDependencies)
		}
	}
	pnpmSnapshotDev(doc, lk, func(key string) (int, bool) {
		if i, ok := find(pnpmKey(key)); ok {
			return i, true
		}
		k, _, _ := strings.Cut(key, "(")
		i, ok := bySource[k]
		return i, ok
	})
}

// pnpmSnapshotDev marks what only development needs from a version 9
// lockfile's snapshots, each a package with the peers it was installed
// with: one version of a package installed twice with different peers
// ("jest-pnp-resolver@1.2.3(jest-resolve@27.5.1)" under a development
// tool, "(jest-resolve@30.0.2)" under a runtime one) is two snapshots,
// and what each leads to is told apart, where the graph of components,
// which merges them, would call everything below either one runtime.
// The importers' dependencies and devDependencies are the starts. Where
// a reference names no snapshot the lockfile is not one this reads, and
// nothing is marked: the component graph decides (lockIndex.development).
func pnpmSnapshotDev(doc *pnpmDoc, lk *lockIndex, comp func(key string) (int, bool)) {
	if len(doc.Snapshots) == 0 {
		return
	}
	// snapshot is the key of the snapshot a reference names: an alias's
	// package ("npm:lodash@4.17.21", v9's "lodash@4.17.21"), else the
	// name at the reference; "" for a link (a workspace member, an
	// importer of its own).
	snapshot := func(name, ref string) string {
		if strings.HasPrefix(ref, "link:") {
			return ""
		}
		ref = strings.TrimPrefix(ref, "npm:")
		if base, _, _ := strings.Cut(ref, "("); strings.Contains(base[min(1, len(base)):], "@") {
			return ref
		}
		return name + "@" + ref
	}
	seen := map[string]uint8{}
	var stack []string
	complete := true
	push := func(name, ref string, mark uint8) {
		k := snapshot(name, ref)
		if k == "" || seen[k]&mark == mark {
			return
		}
		if _, ok := doc.Snapshots[k]; !ok {
			complete = false
			return
		}
		seen[k] |= mark
		stack = append(stack, k)
	}
	for _, imp := range doc.Importers {
		for _, m := range []map[string]pnpmRef{imp.Dependencies, imp.OptionalDependencies} {
			for name, ref := range m {
				push(name, string(ref), prodSeen)
			}
		}
		for name, ref := range imp.DevDependencies {
			push(name, string(ref), devSeen)
		}
	}
	for len(stack) > 0 && complete {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		s := doc.Snapshots[k]
		for _, m := range []map[string]pnpmRef{s.Dependencies, s.OptionalDependencies} {
			for name, ref := range m {
				push(name, string(ref), seen[k])
			}
		}
	}
	if !complete || len(seen) == 0 {
		return
	}
	for k, mark := range seen {
		if i, ok := comp(k); ok {
			lk.devFlag(i, mark&prodSeen == 0)
		}
	}
}

// bun

func bunGraph(data []byte, lk *lockIndex) error {
	var lock struct {
		Workspaces map[string]struct {
			Name                 string            `json:"name"`
			Version              string            `json:"version"`
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
		name, version string // version "" for the project's own (bunLocal)
		deps          []string
		local         bool
		member        string // a workspace member's folder
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
		if name, version, ok := bunTarball(id); ok { // the version its address names (bunLock)
			n = node{name: name, version: version}
		}
		switch {
		case bunLocal(n.version): // as bunLock gives it
			n.member, _ = strings.CutPrefix(n.version, "workspace:")
			if n.member == n.version {
				n.member = "" // a linked folder
			}
			n.version, n.local = "", true
		case strings.ContainsAny(n.version, ":/#"):
			// A git commit, a tarball or a file: the component has no
			// version (scalibr's bun.lock extractor).
			n.version = ""
		}
		// The dependencies are in the entry's first object: third in a
		// registry package's [id, registry, {...}, integrity], second in a
		// git or tarball one's [id, {...}, commit].
		if i := slices.IndexFunc(v[1:], func(m json.RawMessage) bool {
			m = bytes.TrimLeft(m, " \t\r\n")
			return len(m) > 0 && m[0] == '{'
		}); i >= 0 {
			var meta struct {
				Dependencies         map[string]string `json:"dependencies"`
				OptionalDependencies map[string]string `json:"optionalDependencies"`
				PeerDependencies     map[string]string `json:"peerDependencies"`
			}
			if json.Unmarshal(v[1+i], &meta) == nil {
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
	// A node without a version is the component of its name without one:
	// a workspace member ("@s/a@workspace:packages/a") or a linked folder
	// (the project's own code, not a dependency), a git or tarball source.
	find := func(n node) (int, bool) {
		if n.version == "" {
			i, ok := lk.byNameVer[lk.norm(n.name)+"@"]
			return i, ok
		}
		return lk.find(n.name, n.version)
	}
	for key, n := range nodes {
		from, ok := find(n)
		if !ok {
			continue
		}
		if n.local {
			lk.local[from] = true
		}
		for _, d := range n.deps {
			if t, found := resolve(key, d); found {
				if to, found := find(t); found {
					lk.edge(from, to)
				}
			}
		}
	}
	for dir, w := range lock.Workspaces {
		if dir != "" {
			lk.link("", dir) // the root holds its workspace members
		}
		// The root and each member as bun.lock names them, for a
		// package.json that was not scanned (a bun.lock alone).
		lk.npmMember(dir, w.Name, w.Version)
		for k, m := range []map[string]string{w.Dependencies, w.DevDependencies, w.OptionalDependencies, w.PeerDependencies} {
			for d := range m {
				if t, ok := nodes[d]; ok && t.member != "" {
					lk.link(dir, t.member) // a member's dependency on another
					continue
				}
				// A member's dependency is the top-level package, unless the
				// member needs another version: bun keys that copy under the
				// member's name ("@s/a/minimist").
				t, found := nodes[d]
				if nested, ok := nodes[w.Name+"/"+d]; ok && dir != "" && w.Name != "" {
					t, found = nested, true
				}
				if found {
					if to, found := find(t); found && k == 1 {
						lk.devRoot(dir, to)
					} else if found {
						lk.root(dir, to)
					}
				}
			}
		}
	}
	return nil
}
