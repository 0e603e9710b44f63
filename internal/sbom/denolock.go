package sbom

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
	"github.com/google/osv-scalibr/plugin"
	"github.com/google/osv-scalibr/purl"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
)

// deno.lock records the npm packages a Deno project imports ("npm:express
// @4") at the versions installed: lockfile versions 4 and 5 under "npm",
// version 3 under "packages"."npm", each keyed "name@version", with a
// "_peer@version" suffix where peer dependencies made a separate copy.
// Those are npm packages, matched against npm's advisories. JSR packages
// and remote modules (deno.land/x URLs) have no advisory database and are
// not read. scalibr v0.5.3 has no reader of this file.

// denoLockName is the extractor's name in results.
const denoLockName = "javascript/denolock"

type denoLockExtractor struct{}

func newDenoLock(*cpb.PluginConfig) (filesystem.Extractor, error) { return denoLockExtractor{}, nil }

// Name implements filesystem.Extractor.
func (denoLockExtractor) Name() string { return denoLockName }

// Version implements filesystem.Extractor.
func (denoLockExtractor) Version() int { return 0 }

// Requirements implements filesystem.Extractor.
func (denoLockExtractor) Requirements() *plugin.Capabilities { return &plugin.Capabilities{} }

// FileRequired implements filesystem.Extractor.
func (denoLockExtractor) FileRequired(api filesystem.FileAPI) bool {
	return path.Base(api.Path()) == "deno.lock"
}

// Extract implements filesystem.Extractor.
func (denoLockExtractor) Extract(_ context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	keys, err := denoNpmKeys(b)
	if err != nil {
		return inventory.Inventory{}, err
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
	return inventory.Inventory{Packages: pkgs}, nil
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
