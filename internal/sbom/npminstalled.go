package sbom

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
)

// The npm packages installed in a node_modules folder, read from their
// own package.json files.
//
// A project's installed packages are read from the record npm or pnpm
// keeps inside node_modules when the project has no lockfile beside it
// (hiddenLockfiles). Not every installer keeps one: yarn (v1, and berry's
// node-modules linker) and bun do not, an image's build may delete it, and
// a global install (npm's own bundled dependencies in
// /usr/local/lib/node_modules/npm) has none. There, as Node itself does,
// the packages are what node_modules holds: node_modules/<name> and
// node_modules/@<scope>/<name>, each with its package.json, and under each
// package its own node_modules for the versions it needs that others do
// not share. Those manifests are read with scalibr's package.json
// extractor, and nothing else under a package: the package.json files a
// package carries in its own folders (a "type": "module" marker in dist/,
// a test fixture) are not packages.

// npmInstalled is scalibr's package.json extractor on installed packages'
// manifests only, adding the license each declares.
type npmInstalled struct {
	filesystem.Extractor
}

// FileRequired implements filesystem.Extractor: the walk never enters
// node_modules with the default skip list (hiddenLockfiles lists the
// manifests there), but an Options.SkipDirs without it does.
func (npmInstalled) FileRequired(api filesystem.FileAPI) bool {
	return isInstalledManifest(api.Path())
}

// installedRecord implements installedReader.
func (npmInstalled) installedRecord() {}

// isInstalledManifest reports whether p is node_modules/<name>/package.json
// or node_modules/@<scope>/<name>/package.json at any depth.
func isInstalledManifest(p string) bool {
	dir, file := path.Split(p)
	if file != "package.json" || dir == "" {
		return false
	}
	dir = strings.TrimSuffix(dir, "/")
	parent, name := path.Split(dir)
	parent = strings.TrimSuffix(parent, "/")
	if strings.HasPrefix(name, ".") || name == "node_modules" {
		return false
	}
	if path.Base(parent) == "node_modules" {
		return !strings.HasPrefix(name, "@")
	}
	scope := path.Base(parent)
	return strings.HasPrefix(scope, "@") && len(scope) > 1 && path.Base(path.Dir(parent)) == "node_modules"
}

// Extract implements filesystem.Extractor.
func (e npmInstalled) Extract(ctx context.Context, input *filesystem.ScanInput) (inventory.Inventory, error) {
	return extractLicensed(ctx, e.Extractor, input, manifestLicenses)
}

// extractLicensed runs ex on the input and gives every package it reads
// the licenses licenses finds in the same bytes.
func extractLicensed(ctx context.Context, ex filesystem.Extractor, input *filesystem.ScanInput, licenses func([]byte) []string) (inventory.Inventory, error) {
	data, err := io.ReadAll(input.Reader)
	if err != nil {
		return inventory.Inventory{}, err
	}
	in := *input
	in.Reader = bytes.NewReader(data)
	inv, err := ex.Extract(ctx, &in)
	if err != nil || len(inv.Packages) == 0 {
		return inv, err
	}
	if ls := licenses(data); len(ls) > 0 {
		for _, p := range inv.Packages {
			p.Licenses = ls
		}
	}
	return inv, nil
}

// manifestLicenses reads a package.json's "license" (an SPDX expression,
// or the old {"type": ...} object) or, without it, the older "licenses"
// list.
func manifestLicenses(data []byte) []string {
	var m struct {
		License  json.RawMessage   `json:"license"`
		Licenses []json.RawMessage `json:"licenses"`
	}
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	one := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return strings.TrimSpace(s)
		}
		var o struct{ Type string }
		if json.Unmarshal(raw, &o) == nil {
			return strings.TrimSpace(o.Type)
		}
		return ""
	}
	if len(m.License) > 0 {
		if s := one(m.License); s != "" {
			return []string{s}
		}
	}
	var out []string
	for _, raw := range m.Licenses {
		if s := one(raw); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// maxInstalled bounds the manifests listed under one node_modules folder,
// and maxInstalledDepth how deep packages nest: far above what real
// installs reach, low enough that a pathological tree cannot hold the
// walk.
const (
	maxInstalled      = 100_000
	maxInstalledDepth = 64
)

// installedManifests lists the package.json of every package installed in
// the node_modules folder dir, nested ones included, in walk order.
// Links (npm link, workspaces) are the project's own packages, not
// installed ones, and are not followed; nor are dot folders (.bin,
// .cache, .pnpm).
func installedManifests(fsys fs.FS, dir string) []string {
	var out []string
	var visit func(nm string, depth int)
	pkg := func(p string, depth int) {
		if _, err := fs.Stat(fsys, p+"/package.json"); err == nil {
			out = append(out, p+"/package.json")
		}
		if depth < maxInstalledDepth {
			visit(p+"/node_modules", depth+1)
		}
	}
	visit = func(nm string, depth int) {
		entries, err := fs.ReadDir(fsys, nm)
		if err != nil {
			return
		}
		for _, d := range entries {
			if len(out) >= maxInstalled {
				return
			}
			name := d.Name()
			if !d.IsDir() || strings.HasPrefix(name, ".") {
				continue
			}
			if !strings.HasPrefix(name, "@") {
				pkg(nm+"/"+name, depth)
				continue
			}
			scoped, err := fs.ReadDir(fsys, nm+"/"+name)
			if err != nil {
				continue
			}
			for _, s := range scoped {
				if s.IsDir() && !strings.HasPrefix(s.Name(), ".") && len(out) < maxInstalled {
					pkg(nm+"/"+name+"/"+s.Name(), depth)
				}
			}
		}
	}
	visit(dir, 0)
	return out
}
