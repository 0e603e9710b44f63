package sbom

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/javalockfile"
	"github.com/google/osv-scalibr/purl"
	"olympos.io/encoding/edn"
)

// A Clojure project's deps.edn (the Clojure CLI's tools.deps).
//
// Clojure libraries are Maven artifacts (on Clojars or Maven Central), so a
// deps.edn dependency is a Maven component and meets Maven's advisories: a
// library "group/artifact" is group:artifact, one named without a group
// ("cheshire") is cheshire:cheshire, as tools.deps reads it. Read:
//
//   - :deps, what the project runs: {:mvn/version "1.10.2"} at that
//     version; a git library ({:git/url ... :git/sha ...}, or :sha) with
//     its repository and commit as vcs_url, at the version its :git/tag
//     names; a {:local/root ...} folder is the project's own;
//   - the :extra-deps, :deps and :replace-deps of :aliases (tests, tools,
//     a REPL's additions), development-only.
//
// The file is EDN, read by an EDN decoder (olympos.io/encoding/edn);
// tools.deps resolves transitive dependencies over the network, which the
// agent does not do, so the components are those the file declares.

var depsEDN = ownExtractor{name: "clojure/depsedn", required: isDepsEDN, read: readDepsEDN}

func isDepsEDN(p string) bool { return path.Base(p) == "deps.edn" }

func readDepsEDN(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	var doc any
	if err := edn.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("not a deps.edn: %w", err)
	}
	top, ok := doc.(map[any]any)
	if !ok {
		return nil, fmt.Errorf("not a deps.edn: a %T, not a map", doc)
	}
	var pkgs []*extractor.Package
	seen := map[string]bool{}
	add := func(deps any, dev bool) {
		m, _ := deps.(map[any]any)
		for _, lib := range slices.SortedFunc(maps.Keys(m), func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }) {
			name, ok := lib.(edn.Symbol)
			if !ok || seen[string(name)] {
				continue
			}
			coord, _ := m[lib].(map[any]any)
			if p := depsEDNPackage(string(name), coord, dev, in.Path); p != nil {
				seen[string(name)] = true
				pkgs = append(pkgs, p)
			}
		}
	}
	add(top[edn.Keyword("deps")], false)
	aliases, _ := top[edn.Keyword("aliases")].(map[any]any)
	for _, alias := range slices.SortedFunc(maps.Keys(aliases), func(a, b any) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }) {
		a, _ := aliases[alias].(map[any]any)
		for _, k := range []string{"extra-deps", "deps", "replace-deps"} {
			add(a[edn.Keyword(k)], true)
		}
	}
	return pkgs, nil
}

// depsEDNPackage is the component of a library coordinate, or nil for a
// local folder or a coordinate that names no artifact, version or commit.
func depsEDNPackage(lib string, coord map[any]any, dev bool, loc string) *extractor.Package {
	str := func(k string) string { s, _ := coord[edn.Keyword(k)].(string); return strings.TrimSpace(s) }
	if coord == nil || str("local/root") != "" {
		return nil
	}
	group, artifact, ok := strings.Cut(lib, "/")
	if !ok {
		group, artifact = lib, lib
	}
	if group == "" || artifact == "" {
		return nil
	}
	// A library's name may carry a classifier ("org.lwjgl/lwjgl$natives-linux"):
	// the artifact is the part before it.
	artifact, _, _ = strings.Cut(artifact, "$")
	var groups []string
	if dev {
		groups = []string{"dev"}
	}
	p := &extractor.Package{Name: group + ":" + artifact, Version: str("mvn/version"), PURLType: purl.TypeMaven,
		Metadata: &javalockfile.Metadata{GroupID: group, ArtifactID: artifact, DepGroupVals: groups},
		Location: extractor.LocationFromPath(loc)}
	if repo := str("git/url"); repo != "" || str("git/sha") != "" || str("sha") != "" {
		sha := str("git/sha")
		if sha == "" {
			sha = str("sha")
		}
		if repo == "" && (strings.HasPrefix(group, "io.github.") || strings.HasPrefix(group, "com.github.")) {
			// tools.deps infers the repository of io.github.owner/repo.
			repo = "https://github.com/" + strings.TrimPrefix(strings.TrimPrefix(group, "io.github."), "com.github.") + "/" + artifact
		}
		p.Version = strings.TrimPrefix(str("git/tag"), "v")
		if repo != "" && sha != "" {
			p.SourceCode = &extractor.SourceCodeIdentifier{Repo: repo, Commit: sha}
		}
	}
	if p.Version == "" && p.SourceCode == nil {
		return nil // neither a Maven version nor a commit: tools.deps resolves nothing
	}
	return p
}
