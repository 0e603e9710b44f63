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
	if err != nil || b == nil {
		return inv, err
	}
	if len(inv.Packages) > 0 {
		return swiftPins(inv, b), nil
	}
	var v1 struct {
		Object struct {
			Pins []struct {
				Package       string `json:"package"`
				RepositoryURL string `json:"repositoryURL"`
				State         struct {
					Revision string `json:"revision"`
					Version  string `json:"version"`
				} `json:"state"`
			} `json:"pins"`
		} `json:"object"`
	}
	if json.Unmarshal(b, &v1) != nil {
		return inv, nil
	}
	for _, p := range v1.Object.Pins {
		if strings.HasPrefix(p.RepositoryURL, "/") || strings.HasPrefix(p.RepositoryURL, "file:") || strings.HasPrefix(p.RepositoryURL, "~") {
			continue // a repository on the developer's machine (swiftPins)
		}
		name := swiftLocation(p.RepositoryURL)
		if name == "" {
			name = p.Package
		}
		if name == "" {
			continue
		}
		pkg := &extractor.Package{Name: name, Version: p.State.Version, PURLType: "swift", Location: extractor.LocationFromPath(in.Path)}
		if p.State.Version == "" && p.State.Revision != "" && p.RepositoryURL != "" {
			// A branch pin: its repository and the commit it resolved.
			pkg.SourceCode = &extractor.SourceCodeIdentifier{Repo: p.RepositoryURL, Commit: p.State.Revision}
		}
		inv.Packages = append(inv.Packages, pkg)
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

// swiftPins corrects what scalibr reads of a Package.resolved of version 2
// or 3: a pin of kind localSourceControl is a repository on the machine
// ("/Users/me/src/dep"), the developer's own, not a package anyone else
// can name; a pin that follows a branch has no version, and keeps its
// repository and the commit it resolved to (vcs_url).
func swiftPins(inv inventory.Inventory, b []byte) inventory.Inventory {
	var doc struct {
		Pins []struct {
			Kind     string `json:"kind"`
			Location string `json:"location"`
			State    struct {
				Revision string `json:"revision"`
				Version  string `json:"version"`
			} `json:"state"`
		} `json:"pins"`
	}
	if json.Unmarshal(b, &doc) != nil {
		return inv
	}
	local := map[string]bool{}
	commit := map[string]string{} // by name, for a pin without a version
	repo := map[string]string{}
	for _, p := range doc.Pins {
		name := swiftName(swiftLocation(p.Location))
		switch {
		case p.Kind == "localSourceControl" || p.Kind == "fileSystem":
			local[name] = true
		case p.State.Version == "" && p.State.Revision != "":
			commit[name], repo[name] = p.State.Revision, p.Location
		}
	}
	pkgs := inv.Packages[:0]
	for _, p := range inv.Packages {
		name := swiftName(p.Name)
		if local[name] || p.Name == "" {
			continue // the developer's own, or a pin that names nothing
		}
		if c := commit[name]; c != "" && p.Version == "" && p.SourceCode == nil {
			p.SourceCode = &extractor.SourceCodeIdentifier{Repo: repo[name], Commit: c}
		}
		pkgs = append(pkgs, p)
	}
	inv.Packages = pkgs
	return inv
}
