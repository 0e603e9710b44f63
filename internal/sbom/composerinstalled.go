package sbom

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/osv"
	"github.com/google/osv-scalibr/inventory"
	"github.com/google/osv-scalibr/purl"
)

// The PHP packages Composer installed.
//
// A deployed PHP application often ships its vendor/ directory without
// composer.lock. Composer records what it installed in
// vendor/composer/installed.json: Composer 1 as a list of packages,
// Composer 2 as {"packages": [...], "dev": ..., "dev-package-names": [...]}.
// Each package has its name, the version installed, its license and what
// it requires: the set composer.lock listed, less what was not installed.
// The walk enters vendor/ only for this file, and only when the project
// beside it has no composer.lock (hiddenLockfiles).

var composerInstalled = ownExtractor{name: "php/composerinstalled", required: isComposerInstalled, read: readComposerInstalled}

func isComposerInstalled(p string) bool {
	return p == composerInstalledPath || strings.HasSuffix(p, "/"+composerInstalledPath)
}

// composerInstalledPath is where Composer writes the file, relative to the
// project.
const composerInstalledPath = "vendor/composer/installed.json"

// composerPackage is what Sentinel reads of a package in composer.lock or
// installed.json.
type composerPackage struct {
	Name    string
	Version string
	License json.RawMessage
	Require map[string]string
	// Reference is dist.reference: a commit, or a tag.
	Reference string
}

// UnmarshalJSON reads a package as leniently as Composer writes them: a
// version Composer took from a plugin repository's SVN tag is a number
// ("version": 20180828, as wpackagist writes WordPress plugins), and one
// entry of another shape (an edited lockfile) leaves that package
// without a name, to be skipped, rather than the whole file unread.
func (p *composerPackage) UnmarshalJSON(b []byte) error {
	var raw struct {
		Name    json.RawMessage `json:"name"`
		Version json.RawMessage `json:"version"`
		License json.RawMessage `json:"license"`
		Require json.RawMessage `json:"require"`
		Dist    json.RawMessage `json:"dist"`
	}
	*p = composerPackage{}
	if json.Unmarshal(b, &raw) != nil {
		return nil // not an object
	}
	p.Name, p.Version, p.License = looseString(raw.Name), looseString(raw.Version), raw.License
	var require map[string]json.RawMessage
	if json.Unmarshal(raw.Require, &require) == nil {
		p.Require = make(map[string]string, len(require))
		for name, c := range require {
			p.Require[name] = looseString(c)
		}
	}
	var dist struct {
		Reference json.RawMessage `json:"reference"`
	}
	if json.Unmarshal(raw.Dist, &dist) == nil {
		p.Reference = looseString(dist.Reference)
	}
	return nil
}

// looseString is a JSON string's value, or a number's text; "" for
// anything else.
func looseString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// decodeComposerInstalled reads either layout of installed.json.
func decodeComposerInstalled(b []byte) ([]composerPackage, error) {
	b = bytes.TrimLeft(trimBOM(b), " \t\r\n")
	if len(b) > 0 && b[0] == '[' { // Composer 1
		var pkgs []composerPackage
		if err := json.Unmarshal(b, &pkgs); err != nil {
			return nil, err
		}
		return pkgs, nil
	}
	var doc struct {
		Packages *[]composerPackage `json:"packages"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if doc.Packages == nil {
		return nil, errors.New(`no "packages": not the installed.json Composer writes`)
	}
	return *doc.Packages, nil
}

// readComposerInstalled gives the installed packages, as composer.lock's
// reader gives its own.
func readComposerInstalled(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	pkgs, err := decodeComposerInstalled(b)
	if err != nil {
		return nil, err
	}
	out := make([]*extractor.Package, 0, len(pkgs))
	for _, p := range pkgs {
		if p.Name == "" || p.Version == "" {
			continue
		}
		out = append(out, &extractor.Package{Name: p.Name, Version: p.Version, PURLType: purl.TypeComposer, Location: extractor.LocationFromPath(in.Path)})
	}
	return out, nil
}

// composerInstalledGraph reads the graph and licenses of an installed.json.
func composerInstalledGraph(data []byte, lk *lockIndex) error {
	pkgs, err := decodeComposerInstalled(data)
	if err != nil {
		return err
	}
	composerPackagesGraph(pkgs, lk)
	// Composer 2 names the packages it installed for development only.
	var doc struct {
		DevPackageNames *[]string `json:"dev-package-names"`
	}
	if json.Unmarshal(bytes.TrimLeft(trimBOM(data), " \t\r\n"), &doc) == nil && doc.DevPackageNames != nil {
		dev := map[string]bool{}
		for _, n := range *doc.DevPackageNames {
			dev[strings.ToLower(n)] = true
		}
		for _, p := range pkgs {
			if i, ok := lk.find(p.Name, ""); ok {
				lk.devFlag(i, dev[strings.ToLower(p.Name)])
			}
		}
	}
	return nil
}

// composerPackagesGraph gives each package its licenses and an edge to
// each package it requires (by name: a Composer project installs one
// version of each).
func composerPackagesGraph(pkgs []composerPackage, lk *lockIndex) {
	for _, p := range pkgs {
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
}

// composerLock is scalibr's composer.lock extractor, and where it cannot
// read a file (a version that is a number, a package entry of another
// shape), Sentinel's lenient reading of it: every well-formed package, as
// scalibr would list it, those of packages-dev marked for development.
type composerLock struct {
	filesystem.Extractor
}

// Extract implements filesystem.Extractor.
func (e composerLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if err == nil {
		return inv, nil
	}
	var lock struct {
		Packages    []composerPackage `json:"packages"`
		PackagesDev []composerPackage `json:"packages-dev"`
	}
	if json.Unmarshal(trimBOM(b), &lock) != nil {
		return inv, err
	}
	var out []*extractor.Package
	for k, pkgs := range [][]composerPackage{lock.Packages, lock.PackagesDev} {
		groups := []string{}
		if k == 1 {
			groups = []string{"dev"}
		}
		for _, p := range pkgs {
			if p.Name == "" || p.Version == "" {
				continue
			}
			commit := p.Reference
			if strings.Contains(commit, ".") { // a tag, not a commit
				commit = ""
			}
			out = append(out, &extractor.Package{Name: p.Name, Version: p.Version, PURLType: purl.TypeComposer,
				Location: extractor.LocationFromPath(in.Path), SourceCode: &extractor.SourceCodeIdentifier{Commit: commit},
				Metadata: &osv.DepGroupMetadata{DepGroupVals: groups}})
		}
	}
	return inventory.Inventory{Packages: out}, nil
}
