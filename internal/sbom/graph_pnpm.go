package sbom

import (
	"encoding/json"
	"path"
	"strings"

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
