package sbom

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/packagelockjson"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/yarnlock"
	"github.com/google/osv-scalibr/inventory"
	"github.com/google/osv-scalibr/plugin"
	"github.com/google/osv-scalibr/purl"
)

// npm lockfiles.
//
// scalibr v0.5.3's package-lock.json extractor looks up the line of every
// package with a JSON path query from the top of the document: quadratic
// in the file's size, and most of the agent's time on a tree with a large
// npm project (a 1,500-package lockfile took 270 ms of CPU of the 690 ms a
// 24-lockfile tree needed). Sentinel does not use line numbers, so it
// reads the format itself, in one decode, under the same extractor name:
//
//   - lockfileVersion 2 and 3: every "packages" entry under a
//     "node_modules/" path, links aside; the name is the entry's own
//     ("name", for aliases) or the path's last package segment;
//   - lockfileVersion 1: the nested "dependencies", an alias
//     ("npm:real-name@1.2.3") under its real name;
//   - a package fetched from git (a git+, git://, ssh:// or github: address
//     with a commit) keeps its version, with the repository and commit as
//     its source (the vcs_url qualifier);
//   - npm-shrinkwrap.json wins over a package-lock.json beside it, as in
//     npm.
//
// Workspace folders ("packages/foo" without node_modules) are the
// project's own packages, not dependencies: graph.go reads them as local
// packages and project.go as projects.

type npmLockExtractor struct{}

func newNpmLock(*cpb.PluginConfig) (filesystem.Extractor, error) { return npmLockExtractor{}, nil }

// Name implements filesystem.Extractor: the name of the scalibr plugin
// this replaces, so that results keep naming the format the same way.
func (npmLockExtractor) Name() string { return packagelockjson.Name }

// Version implements filesystem.Extractor.
func (npmLockExtractor) Version() int { return 0 }

// Requirements implements filesystem.Extractor.
func (npmLockExtractor) Requirements() *plugin.Capabilities { return &plugin.Capabilities{} }

// FileRequired implements filesystem.Extractor: package-lock.json and
// npm-shrinkwrap.json, except inside node_modules (an installed package's
// lockfile describes what its own author installed).
func (npmLockExtractor) FileRequired(api filesystem.FileAPI) bool {
	p := api.Path()
	if b := path.Base(p); b != "package-lock.json" && b != "npm-shrinkwrap.json" {
		return false
	}
	return !slices.Contains(strings.Split(path.Dir(p), "/"), "node_modules")
}

// Extract implements filesystem.Extractor.
func (e npmLockExtractor) Extract(_ context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	if e.shadowed(in) {
		return inventory.Inventory{}, nil
	}
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	doc, err := e.parse(b)
	if err != nil {
		return inventory.Inventory{}, err
	}
	return inventory.Inventory{Packages: e.packages(doc, in.Path)}, nil
}

// shadowed reports whether a package-lock.json has an npm-shrinkwrap.json
// beside it, which npm reads instead.
func (npmLockExtractor) shadowed(in *filesystem.ScanInput) bool {
	if path.Base(in.Path) != "package-lock.json" || in.FS == nil {
		return false
	}
	_, err := fs.Stat(in.FS, path.Join(path.Dir(in.Path), "npm-shrinkwrap.json"))
	return err == nil
}

// parse implements onePass.
func (npmLockExtractor) parse(b []byte) (any, error) {
	var lock *npmLock
	if err := unmarshalLock(b, &lock); err != nil {
		return nil, fmt.Errorf("could not extract: %w", err)
	}
	if lock == nil {
		return nil, fmt.Errorf("could not extract: the document is null")
	}
	return lock, nil
}

// packages implements onePass.
func (npmLockExtractor) packages(doc any, p string) []*extractor.Package {
	lock := doc.(*npmLock)
	seen := map[string]bool{}
	var pkgs []*extractor.Package
	// put adds a package once per name, version and source commit.
	put := func(name, version, repo, commit string) {
		if name == "" {
			return
		}
		pk := &extractor.Package{Name: name, Version: version, PURLType: purl.TypeNPM, Location: extractor.LocationFromPath(p)}
		key := name + "@" + version
		if commit != "" {
			pk.SourceCode = &extractor.SourceCodeIdentifier{Repo: repo, Commit: commit}
			key += "#" + commit
		}
		if !seen[key] {
			seen[key] = true
			pkgs = append(pkgs, pk)
		}
	}
	add := func(name, version, resolved string) {
		src := resolved
		if src == "" {
			src = version // lockfileVersion 1 writes a git address as the version
		}
		repo, commit, ok := npmGitSource(src)
		if ok && version == src {
			version = "" // the version is not known, only the commit
		}
		put(name, version, repo, commit)
	}
	if lock.Packages != nil {
		for _, key := range slices.Sorted(maps.Keys(lock.Packages)) {
			e := lock.Packages[key]
			i := strings.LastIndex(key, "node_modules/")
			if i < 0 || e.Link {
				continue // the root, a workspace folder, or a link to one
			}
			if e.Name == "" && e.Version == "" && e.Resolved == "" {
				continue // a folder npm recorded, no package (pnpm's .pnpm/...)
			}
			name := e.Name
			if name == "" {
				name = key[i+len("node_modules/"):]
				if strings.Count(name, "/") > 1 || (strings.Contains(name, "/") && !strings.HasPrefix(name, "@")) {
					name = path.Base(name) // a folder under a package, not a scope
				}
			}
			add(name, e.Version, string(e.Resolved))
		}
		return pkgs
	}
	var walk func(map[string]npmV1Dep)
	walk = func(deps map[string]npmV1Dep) {
		for _, name := range slices.Sorted(maps.Keys(deps)) {
			d := deps[name]
			version := d.Version
			if alias, ok := strings.CutPrefix(version, "npm:"); ok {
				if at := strings.LastIndex(alias, "@"); at > 0 {
					name, version = alias[:at], alias[at+1:]
				}
			}
			if target, ok := strings.CutPrefix(version, "file:"); ok {
				if !npmArchive(target) {
					// A folder of the project's own (npm 6 writes
					// "file:local-lib"): its package.json makes it one of
					// the project's packages, not a library; what it
					// needs is still locked.
					walk(d.Dependencies)
					continue
				}
				version = "" // a local archive: no version to speak of
			}
			switch {
			case !strings.Contains(version, "://"):
				add(name, version, string(d.Resolved))
			case addressSource(version) != "":
				// npm 5 wrote an address as the version: a repository's
				// (git, a GitHub archive or codeload tarball) names the
				// source, a registry tarball's the package and version
				// (npm's own reader takes them from the file name).
				repo, ref, _ := githubArchive(version)
				if ref == "" {
					repo, ref, _ = yarnGitParts(version)
				}
				put(name, "", repo, ref)
			default:
				n, v, ok := npmTarballID(version)
				if !ok {
					n, v = name, "" // an address is no version
				}
				put(n, v, "", "")
			}
			walk(d.Dependencies)
		}
	}
	walk(lock.Dependencies)
	return pkgs
}

// addressSource is the ref an address of a repository names (a git
// address with a commit, a GitHub archive or codeload tarball), or "".
func addressSource(u string) string {
	if _, ref, ok := githubArchive(u); ok {
		return ref
	}
	if _, commit, ok := yarnGitParts(u); ok {
		return commit
	}
	return ""
}

// githubArchive reads a GitHub archive address
// ("https://github.com/eligrey/classList.js/archive/1.2.20180112.tar.gz",
// ".../archive/refs/tags/v1.2.zip", "https://codeload.github.com/o/r/zip/refs/tags/v1.2")
// into the repository and the ref (a tag, branch or commit) it was made
// from.
func githubArchive(u string) (repo, ref string, ok bool) {
	// <owner>/<repo>/<kind>/<ref>, the ref also as refs/tags/<ref> or
	// refs/heads/<ref>.
	split := func(rest string) []string {
		parts := strings.Split(rest, "/")
		if len(parts) == 6 && parts[3] == "refs" && (parts[4] == "tags" || parts[4] == "heads") {
			parts = append(parts[:3], parts[5])
		}
		return parts
	}
	if rest, found := strings.CutPrefix(u, "https://codeload.github.com/"); found {
		parts := split(rest)
		if len(parts) != 4 || parts[3] == "" {
			return "", "", false
		}
		switch parts[2] {
		case "tar.gz", "zip", "legacy.tar.gz", "legacy.zip":
			return "https://github.com/" + parts[0] + "/" + parts[1], parts[3], true
		}
		return "", "", false
	}
	rest, found := strings.CutPrefix(u, "https://github.com/")
	if !found {
		return "", "", false
	}
	parts := split(rest)
	if len(parts) != 4 || parts[2] != "archive" {
		return "", "", false
	}
	ref = strings.TrimSuffix(strings.TrimSuffix(parts[3], ".tar.gz"), ".zip")
	if ref == "" || ref == parts[3] && !strings.HasSuffix(parts[3], ".tgz") {
		return "", "", false
	}
	ref = strings.TrimSuffix(ref, ".tgz")
	return "https://github.com/" + parts[0] + "/" + parts[1], ref, true
}

// tarballAddress is npmTarballID of a dependency's range or version that
// is an http(s) address, as a dependency on a tarball is written
// ("https://registry.npmjs.org/ms/-/ms-2.1.3.tgz").
func tarballAddress(ref string) (name, version string, ok bool) {
	if !strings.HasPrefix(ref, "https://") && !strings.HasPrefix(ref, "http://") {
		return "", "", false
	}
	return npmTarballID(ref)
}

// npmTarballID reads the package and version from a registry tarball's
// address: ".../@scope/name/-/name-1.2.3.tgz" (the scope's slash may be
// escaped, %2f) gives "@scope/name", "1.2.3".
func npmTarballID(u string) (name, version string, ok bool) {
	u, _, _ = strings.Cut(u, "#")
	u, _, _ = strings.Cut(u, "?")
	dir, file, found := strings.Cut(u, "/-/")
	if !found || !strings.HasSuffix(file, ".tgz") || strings.Contains(file, "/") {
		return "", "", false
	}
	if s := strings.Index(dir, "://"); s >= 0 {
		dir = dir[s+3:]
	}
	segs := strings.Split(dir, "/")
	name = segs[len(segs)-1]
	if unesc, err := url.PathUnescape(name); err == nil {
		name = unesc // "@scope%2fname"
	}
	if len(segs) >= 2 && strings.HasPrefix(segs[len(segs)-2], "@") && !strings.Contains(name, "/") {
		name = segs[len(segs)-2] + "/" + name
	}
	base := name[strings.LastIndex(name, "/")+1:]
	version, found = strings.CutPrefix(strings.TrimSuffix(file, ".tgz"), base+"-")
	if !found || version == "" || version[0] < '0' || version[0] > '9' {
		return "", "", false
	}
	return name, version, true
}

// npmGitSource reads a git dependency's address as npm writes it in a
// lockfile ("git+ssh://git@github.com/x/y.git#<commit>",
// "github:x/y#<commit>", "git://host/x/y#<commit>") into the repository
// and the commit. ok is false for anything else (a registry tarball's
// address carries no commit).
func npmGitSource(s string) (repo, commit string, ok bool) {
	r, frag, found := strings.Cut(s, "#")
	if !found || !isCommit(frag) {
		return "", "", false
	}
	switch {
	case strings.HasPrefix(r, "git+"), strings.HasPrefix(r, "git://"), strings.HasPrefix(r, "ssh://"):
		return r, frag, true
	case strings.HasPrefix(r, "github:"):
		return "https://github.com/" + strings.TrimSuffix(strings.TrimPrefix(r, "github:"), ".git"), frag, true
	case strings.HasPrefix(r, "gitlab:"):
		return "https://gitlab.com/" + strings.TrimSuffix(strings.TrimPrefix(r, "gitlab:"), ".git"), frag, true
	case strings.HasPrefix(r, "bitbucket:"):
		return "https://bitbucket.org/" + strings.TrimSuffix(strings.TrimPrefix(r, "bitbucket:"), ".git"), frag, true
	case strings.HasPrefix(r, "https://") && strings.HasSuffix(r, ".git"):
		return r, frag, true
	}
	return "", "", false
}

// unmarshalLock decodes a JSON lockfile into v. It uses the JSON v2
// decoder, which reads a large package-lock.json in less than half the
// time of encoding/json, with encoding/json's leniency: duplicate keys
// (the last wins), invalid UTF-8 (replaced), keys in any case.
func unmarshalLock(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true),
		jsonv2.MatchCaseInsensitiveNames(true), jsonv1.MergeWithLegacySemantics(true))
}

// isCommit reports whether s looks like a git commit: 7 to 40 hex digits.
func isCommit(s string) bool {
	if len(s) < 7 || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// onePass is implemented by Sentinel's own lockfile readers: the document
// is parsed once, for the packages and for the second reading (graph.go).
//
// parse may return a document and an error together: a *partialError, for
// a file some of whose entries could not be read. The others are the
// file's packages, and the error becomes a warning.
type onePass interface {
	filesystem.Extractor
	parse(data []byte) (any, error)
	packages(doc any, path string) []*extractor.Package
}

// partialError is the error of a file read in part: the entries it names
// were left out, the rest were read.
type partialError struct{ errs []error }

// partial is a *partialError for errs, or nil when there are none.
func partial(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return &partialError{errs}
}

func (e *partialError) Error() string {
	msg := fmt.Sprintf("%d entries could not be read and were left out: %v", len(e.errs), e.errs[0])
	if len(e.errs) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(e.errs)-1)
	}
	return msg
}

func (e *partialError) Unwrap() []error { return e.errs }

var (
	_ onePass = npmLockExtractor{}
	_ onePass = yarnLockExtractor{}
	_ onePass = cargoLockExtractor{}
	_ onePass = pnpmLockExtractor{}
)

// Cargo.lock: scalibr's extractor, plus the one TOML decode Sentinel's
// graph reading needs anyway; every [[package]] is a package, as scalibr
// reports them (the workspace's own crates included: project.go tells them
// apart), a crate from git with its repository and commit.
type cargoLockExtractor struct{ filesystem.Extractor }

// parse implements onePass.
func (cargoLockExtractor) parse(b []byte) (any, error) {
	lock, err := parseCargoLock(b)
	if err != nil {
		return nil, fmt.Errorf("could not extract: %w", err)
	}
	return lock, nil
}

// packages implements onePass.
func (cargoLockExtractor) packages(doc any, p string) []*extractor.Package {
	lock := doc.(*cargoLock)
	pkgs := make([]*extractor.Package, 0, len(lock.Package))
	for _, c := range lock.Package {
		if c.Name == "" {
			continue // not a package: nothing to name it by
		}
		pk := &extractor.Package{Name: c.Name, Version: c.Version, PURLType: purl.TypeCargo, Location: extractor.LocationFromPath(p)}
		if strings.HasPrefix(c.Source, "git+") {
			// The crate's own source, so that a fork from git and the
			// registry's crate of the same version stay two components.
			if repo, commit := cargoGitParts(c.Source); repo != "" && commit != "" {
				pk.SourceCode = &extractor.SourceCodeIdentifier{Repo: repo, Commit: commit}
			}
		}
		pkgs = append(pkgs, pk)
	}
	return pkgs
}

// yarn.lock.
//
// scalibr's yarn.lock extractor runs a list of regular expressions over
// every entry's resolution to find git commits; on a large lockfile that
// is most of its time. Sentinel reads both layouts itself (graph.go's
// parseYarnLock), under the scalibr plugin's name: one package per entry,
// named after its first descriptor (an "npm:" alias under the package it
// names), the entries of the project's own workspaces (berry's
// "@workspace:") aside, and a git or GitHub-tarball resolution as the
// package's source.
type yarnLockExtractor struct{}

func newYarnLock(*cpb.PluginConfig) (filesystem.Extractor, error) { return yarnLockExtractor{}, nil }

// Name implements filesystem.Extractor.
func (yarnLockExtractor) Name() string { return yarnlock.Name }

// Version implements filesystem.Extractor.
func (yarnLockExtractor) Version() int { return 0 }

// Requirements implements filesystem.Extractor.
func (yarnLockExtractor) Requirements() *plugin.Capabilities { return &plugin.Capabilities{} }

// FileRequired implements filesystem.Extractor: yarn.lock outside
// node_modules.
func (yarnLockExtractor) FileRequired(api filesystem.FileAPI) bool {
	p := api.Path()
	return path.Base(p) == "yarn.lock" && !slices.Contains(strings.Split(path.Dir(p), "/"), "node_modules")
}

// Extract implements filesystem.Extractor.
func (e yarnLockExtractor) Extract(_ context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	doc, err := e.parse(b)
	if err != nil {
		return inventory.Inventory{}, err
	}
	return inventory.Inventory{Packages: e.packages(doc, in.Path)}, nil
}

// parse implements onePass.
func (yarnLockExtractor) parse(b []byte) (any, error) {
	y, err := parseYarnLock(b)
	if y == nil {
		return nil, fmt.Errorf("could not extract: %w", err)
	}
	return y, err // a *partialError: some entries were left out
}

// packages implements onePass.
func (yarnLockExtractor) packages(doc any, p string) []*extractor.Package {
	y := doc.(*yarnLock)
	pkgs := make([]*extractor.Package, 0, len(y.entries))
	for _, e := range y.entries {
		name := e.packageName(y.berry)
		if name == "" || (y.berry && berryLocal(e.resolution)) {
			continue
		}
		if _, local := yarnV1Folder(&e); local && !y.berry {
			continue
		}
		pk := &extractor.Package{
			Name:     name,
			Version:  e.version,
			PURLType: purl.TypeNPM,
			Location: extractor.LocationFromPath(p),
		}
		if repo, commit, ok := yarnGitParts(e.resolution); ok {
			pk.SourceCode = &extractor.SourceCodeIdentifier{Repo: repo, Commit: commit}
		}
		pkgs = append(pkgs, pk)
	}
	return pkgs
}

// berryLocal reports whether a berry resolution is no registry package:
// the project's own workspace, a link or portal to a folder of it, or a
// condition: entry (a choice between two other entries, each listed on
// its own, with a made-up 0.0.0-condition version).
func berryLocal(res string) bool {
	for _, p := range []string{"@workspace:", "@link:", "@portal:", "@condition:"} {
		if strings.Contains(res, p) {
			return true
		}
	}
	return false
}

// yarnV1Folder returns the folder of the project's own tree that a yarn
// v1 entry installs ("linked@link:./linked", "shared@file:../shared"),
// relative to the lockfile: such an entry is no registry package, as
// berry's "@link:" and "@workspace:" ones are not (berryLocal). A file:
// address of an archive ("file:./vendor/ms-2.1.3.tgz") is a package.
func yarnV1Folder(e *yarnEntry) (string, bool) {
	dir := ""
	for _, d := range e.descriptors {
		d = strings.Trim(d, `"`)
		rng := strings.TrimPrefix(d[len(yarnName(d)):], "@")
		target, ok := strings.CutPrefix(rng, "link:")
		if !ok {
			target, ok = strings.CutPrefix(rng, "file:")
			if ok && npmArchive(target) {
				ok = false
			}
		}
		if !ok {
			return "", false
		}
		if dir == "" {
			dir = path.Clean(target)
		}
	}
	return dir, dir != ""
}

// npmArchive reports whether a file: target is a package archive rather
// than a folder.
func npmArchive(target string) bool {
	t := strings.ToLower(target)
	for _, ext := range []string{".tgz", ".tar.gz", ".tar", ".zip"} {
		if strings.HasSuffix(t, ext) {
			return true
		}
	}
	return false
}

// packageName is the package an entry installs. Berry's resolution names
// it ("ms@npm:2.1.3", also for an alias's entry); otherwise the first
// descriptor does: "@s/n@^1" -> "@s/n", an alias "a@npm:real@^1" or
// "a@npm:@s/real" -> the package after "npm:".
func (e *yarnEntry) packageName(berry bool) string {
	if berry {
		if name, _, ok := strings.Cut(e.resolution, "@npm:"); ok && name != "" && !strings.Contains(name, ":") {
			return name
		}
	}
	if e.name != "" {
		return e.name
	}
	if len(e.descriptors) == 0 {
		return ""
	}
	desc := strings.Trim(e.descriptors[0], `"`)
	if !berry {
		// A resolution to an alias ("resolutions": {"ms":
		// "npm:dry-uninstall@0.3.0"}) joins the descriptors it replaces
		// in one entry, `ms@2.1.2, "ms@npm:dry-uninstall@0.3.0"`: the
		// entry is the alias's package, whichever descriptor comes first.
		for _, d := range e.descriptors {
			d = strings.Trim(d, `"`)
			if real := yarnPackageName(d, false); real != yarnName(d) {
				return real
			}
		}
	}
	// A dependency on a registry's tarball address is the package the
	// address serves ("ms-tarball@https://registry.npmjs.org/ms/-/ms-2.1.3.tgz"
	// installs ms).
	if name, _, ok := tarballAddress(strings.TrimPrefix(desc[len(yarnName(desc)):], "@")); ok {
		return name
	}
	return yarnPackageName(desc, berry)
}

// yarnPackageName is the package a descriptor names. In yarn v1, "npm:"
// after the name always starts an alias, with or without a range; in
// berry it is the protocol of every registry range ("lodash@npm:^4"), an
// alias only when a package and a range follow ("a@npm:real@^1").
func yarnPackageName(desc string, berry bool) string {
	name := yarnName(desc)
	rest := strings.TrimPrefix(desc[len(name):], "@")
	real, ok := strings.CutPrefix(rest, "npm:")
	if !ok || real == "" {
		return name
	}
	if strings.Contains(real[1:], "@") || !berry {
		return yarnName(real)
	}
	return name
}
