package sbom

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
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
	Name    string            `json:"name"`
	Version string            `json:"version"`
	License json.RawMessage   `json:"license"`
	Require map[string]string `json:"require"`
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
