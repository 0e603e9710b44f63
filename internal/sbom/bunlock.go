package sbom

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
	"github.com/tidwall/jsonc"
)

// bunLock is scalibr's bun.lock extractor with the versions of
// dependencies on a registry tarball's address: bun records
// "ms@https://registry.npmjs.org/ms/-/ms-2.1.3.tgz", which scalibr reads
// as ms without a version; the address names it, as npm and pnpm record.
// A workspace member's or linked folder's location, which bun writes as
// its version, is no version.
type bunLock struct {
	filesystem.Extractor
}

// Extract implements filesystem.Extractor.
func (e bunLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if b == nil {
		return inv, err
	}
	var lock struct {
		Packages map[string][]json.RawMessage `json:"packages"`
	}
	if json.Unmarshal(jsonc.ToJSON(b), &lock) != nil {
		return inv, err
	}
	tarballs := map[string][]string{} // package -> the versions its addresses name
	for _, v := range lock.Packages {
		var id string
		if len(v) == 0 || json.Unmarshal(v[0], &id) != nil {
			continue
		}
		if name, version, ok := bunTarball(id); ok {
			tarballs[name] = append(tarballs[name], version)
		}
	}
	for _, p := range inv.Packages {
		if vs := tarballs[p.Name]; p.Version == "" && len(vs) > 0 {
			p.Version, tarballs[p.Name] = vs[0], vs[1:]
		}
		if bunLocal(p.Version) {
			p.Version = "" // a workspace member or linked folder: the project's own (bunGraph)
		}
	}
	return inv, err
}

// bunTarball reads a bun package id whose version is a registry tarball's
// address ("ms@https://registry.npmjs.org/ms/-/ms-2.1.3.tgz") into the
// package and version the address names.
func bunTarball(id string) (name, version string, ok bool) {
	at := strings.Index(id[min(1, len(id)):], "@") + 1
	if at <= 0 {
		return "", "", false
	}
	return tarballAddress(id[at+1:])
}

// bunLocal reports whether a bun package's version is where the project's
// own code is ("workspace:packages/a", "link:../lib", or "root:", the
// entry bun writes for the root package itself when it has a bin), not a
// version.
func bunLocal(version string) bool {
	return strings.HasPrefix(version, "workspace:") || strings.HasPrefix(version, "link:") || strings.HasPrefix(version, "root:")
}
