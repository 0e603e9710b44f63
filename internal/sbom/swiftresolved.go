package sbom

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
)

// swiftResolved is scalibr's Package.resolved extractor, which reads the
// top-level "pins" of versions 2 and 3, and also reads version 1 (SwiftPM
// before 5.6, still common in Xcode projects), where the pins are under
// "object" and name their repository by "repositoryURL": scalibr v0.5.3
// finds no package in such a file and reports no error.
type swiftResolved struct {
	filesystem.Extractor
}

// Extract implements filesystem.Extractor.
func (e swiftResolved) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if err != nil || len(inv.Packages) > 0 || b == nil {
		return inv, err
	}
	var v1 struct {
		Object struct {
			Pins []struct {
				Package       string `json:"package"`
				RepositoryURL string `json:"repositoryURL"`
				State         struct {
					Version string `json:"version"`
				} `json:"state"`
			} `json:"pins"`
		} `json:"object"`
	}
	if json.Unmarshal(b, &v1) != nil {
		return inv, nil
	}
	for _, p := range v1.Object.Pins {
		name := swiftLocation(p.RepositoryURL)
		if name == "" {
			name = p.Package
		}
		if name == "" {
			continue
		}
		inv.Packages = append(inv.Packages, &extractor.Package{Name: name, Version: p.State.Version,
			PURLType: "swift", Location: extractor.LocationFromPath(in.Path)})
	}
	return inv, nil
}

// swiftLocation is a SwiftPM repository URL as scalibr names a package:
// without its scheme (https, http, ssh; an scp-like "git@host:path" becomes
// "host/path"); swiftName does the rest.
func swiftLocation(u string) string {
	for _, scheme := range []string{"https://", "http://", "ssh://", "git+https://", "git://"} {
		u = strings.TrimPrefix(u, scheme)
	}
	if at := strings.IndexByte(u, '@'); at >= 0 && at < strings.IndexByte(u+"/", '/') {
		u = u[at+1:] // a user: git@github.com/...
	}
	if host, rest, ok := strings.Cut(u, ":"); ok && !strings.Contains(host, "/") && rest != "" && (rest[0] < '0' || rest[0] > '9') {
		u = host + "/" + rest // scp-like host:owner/repo
	}
	return u
}
