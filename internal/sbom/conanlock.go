package sbom

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/osv"
	"github.com/google/osv-scalibr/inventory"
)

// conanLock is scalibr's conan.lock extractor, which drops a reference's
// user and channel ("pkga/0.1@user/testing", a package of a company's own
// remote, not ConanCenter's pkga) and reads a version 1 lockfile's build
// context ("context": "build", the tools a build runs) as runtime. A
// package keeps its user and channel (the purl's qualifiers, which the
// conan purl type defines), and a build context node, like a version 2
// lockfile's build_requires and python_requires, is for development
// (devGroups).
type conanLock struct {
	filesystem.Extractor
}

// conanMeta is a conan package's metadata: its dependency groups and the
// user and channel of its reference.
type conanMeta struct {
	groups        []string
	user, channel string
}

// DepGroups implements devGroups' interface.
func (m *conanMeta) DepGroups() []string { return m.groups }

// IsProtoable implements scalibr's metadata marker; Sentinel never
// serialises metadata to scalibr's protos.
func (*conanMeta) IsProtoable() {}

// Extract implements filesystem.Extractor.
func (e conanLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if b == nil || err != nil {
		return inv, err
	}
	var lock struct {
		GraphLock struct {
			Nodes map[string]struct {
				Ref, Pref, Path, Context string
				Requires                 []string `json:"requires"`
				BuildRequires            []string `json:"build_requires"`
			} `json:"nodes"`
		} `json:"graph_lock"`
		Requires       []string `json:"requires"`
		BuildRequires  []string `json:"build_requires"`
		PythonRequires []string `json:"python_requires"`
	}
	if json.Unmarshal(b, &lock) != nil {
		return inv, nil
	}
	type refInfo struct {
		user, channel string
		build         bool
	}
	refs := map[string]refInfo{} // "name/version"
	add := func(ref string, build bool) {
		ref, _, _ = strings.Cut(ref, "#") // revisions
		ref, _, _ = strings.Cut(ref, ":") // a package reference's id
		nv, uc, _ := strings.Cut(ref, "@")
		user, channel, _ := strings.Cut(uc, "/")
		if user == "_" {
			user = ""
		}
		if channel == "_" {
			channel = ""
		}
		if _, seen := refs[nv]; !seen {
			refs[nv] = refInfo{user: user, channel: channel, build: build}
		}
	}
	// A version 1 lockfile's graph: what the consumer (the node with a
	// path) reaches through requires alone is in the program; a node only
	// a build_requires edge leads to is a tool of the build, also where
	// Conan 1 without a build profile says its context is "host".
	hostReach := map[string]bool{}
	var stack []string
	for id, n := range lock.GraphLock.Nodes {
		if n.Path != "" {
			stack = append(stack, id)
		}
	}
	rooted := len(stack) > 0
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if hostReach[id] {
			continue
		}
		hostReach[id] = true
		stack = append(stack, lock.GraphLock.Nodes[id].Requires...)
	}
	for id, n := range lock.GraphLock.Nodes {
		if n.Path != "" {
			continue // the consumer's conanfile
		}
		ref := n.Ref
		if ref == "" {
			ref = n.Pref
		}
		add(ref, n.Context == "build" || rooted && !hostReach[id])
	}
	for _, rs := range [][]string{lock.Requires, lock.BuildRequires, lock.PythonRequires} {
		for _, r := range rs {
			add(r, false)
		}
	}
	for _, p := range inv.Packages {
		m := &conanMeta{}
		if g, ok := p.Metadata.(*osv.DepGroupMetadata); ok {
			m.groups = slices.Clone(g.DepGroupVals)
		}
		if r, ok := refs[p.Name+"/"+p.Version]; ok {
			m.user, m.channel = r.user, r.channel
			if r.build {
				m.groups = append(m.groups, "build-requires")
			}
		}
		p.Metadata = m
	}
	return inv, nil
}
