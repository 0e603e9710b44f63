package sbom

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
)

// deno.lock records the npm packages a Deno project imports ("npm:express
// @4") at the versions installed: lockfile versions 4 and 5 under "npm",
// version 3 under "packages"."npm", each keyed "name@version", with a
// "_peer@version" suffix where peer dependencies made a separate copy.
// Those are npm packages, matched against npm's advisories. JSR packages
// and remote modules (deno.land/x URLs) have no advisory database and are
// not read. scalibr v0.5.3 has no reader of this file.

// denoLock is the extractor.
var denoLock = ownExtractor{
	name:     "javascript/denolock",
	required: func(p string) bool { return path.Base(p) == "deno.lock" },
	read:     readDenoLock,
}

// readDenoLock reads a deno.lock's npm packages.
func readDenoLock(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	keys, err := denoNpmKeys(b)
	if err != nil {
		return nil, err
	}
	var pkgs []*extractor.Package
	seen := map[string]bool{}
	for _, k := range keys {
		name, version, ok := denoNpmPackage(k)
		if !ok || seen[name+"@"+version] {
			continue
		}
		seen[name+"@"+version] = true
		pkgs = append(pkgs, &extractor.Package{Name: name, Version: version, PURLType: purl.TypeNPM, Location: extractor.LocationFromPath(in.Path)})
	}
	return pkgs, nil
}

// denoNpmKeys returns the keys of a deno.lock's npm packages, sorted.
func denoNpmKeys(b []byte) ([]string, error) {
	var lock struct {
		Version  string                     `json:"version"`
		NPM      map[string]json.RawMessage `json:"npm"`
		Packages struct {
			NPM map[string]json.RawMessage `json:"npm"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return nil, fmt.Errorf("not a deno.lock: %w", err)
	}
	if lock.Version == "" {
		return nil, fmt.Errorf("not a deno.lock: no version")
	}
	npm := lock.NPM
	if len(npm) == 0 {
		npm = lock.Packages.NPM // version 3
	}
	return slices.Sorted(maps.Keys(npm)), nil
}

// denoNpmPackage splits "name@version" or "@scope/name@version_peer@1.0.0"
// into the package's name and version.
func denoNpmPackage(key string) (name, version string, ok bool) {
	at := strings.IndexByte(key[min(1, len(key)):], '@') + 1 // a scope's own "@" comes first
	if at <= 0 || at == len(key)-1 {
		return "", "", false
	}
	name, version = key[:at], key[at+1:]
	if i := strings.IndexByte(version, '_'); i >= 0 {
		version = version[:i] // the copy made for peer dependencies
	}
	return name, version, version != "" && !strings.ContainsRune(name, ' ')
}
