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

// renv.lock is renv's lockfile for an R project: "Packages" maps each
// package to its Package, Version and Source. scalibr v0.5.3 reads only
// the entries whose Repository is "CRAN", and drops the others: a CRAN
// mirror's (Posit Package Manager, "RSPM" or "PPM", which most projects
// restore from), Bioconductor's, and a package installed from GitHub.
// Every entry is installed, so every one is a component: Bioconductor's
// as pkg:bioconductor (OSV's Bioconductor ecosystem), a git host's as the
// CRAN package with its repository and commit as vcs_url (renv records
// the package's DESCRIPTION version), the others as pkg:cran. A "Local"
// source is a package built from a folder of the machine: no release.

// renvLock is the extractor, under scalibr's name for the format.
var renvLock = ownExtractor{
	name:     "r/renvlock",
	required: func(p string) bool { return path.Base(p) == "renv.lock" },
	read:     readRenvLock,
}

type renvEntry struct {
	Package, Version, Source, Repository  string
	RemoteType, RemoteHost                string
	RemoteUsername, RemoteRepo, RemoteSha string
	RemoteURL                             string `json:"RemoteUrl"`
}

func readRenvLock(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	var lock struct {
		Packages map[string]renvEntry `json:"Packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return nil, fmt.Errorf("not a renv.lock: %w", err)
	}
	loc := extractor.LocationFromPath(in.Path)
	var pkgs []*extractor.Package
	for _, key := range slices.Sorted(maps.Keys(lock.Packages)) {
		e := lock.Packages[key]
		name := e.Package
		if name == "" {
			name = key
		}
		if name == "" {
			continue
		}
		p := &extractor.Package{Name: name, Version: e.Version, PURLType: purl.TypeCran, Location: loc}
		switch src := strings.ToLower(e.Source); {
		case src == "local":
			continue
		case src == "bioconductor" || strings.HasPrefix(strings.ToLower(e.Repository), "bioc"):
			p.PURLType = "bioconductor"
		case e.RemoteSha != "" && (src == "github" || src == "gitlab" || src == "bitbucket" || src == "git"):
			if repo := renvRepo(e); repo != "" {
				p.SourceCode = &extractor.SourceCodeIdentifier{Repo: repo, Commit: e.RemoteSha}
			}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// renvRepo is the repository a package came from: RemoteUrl for git, the
// host's address of RemoteUsername/RemoteRepo for GitHub, GitLab and
// Bitbucket (RemoteHost is GitHub's API host, or an enterprise one's).
func renvRepo(e renvEntry) string {
	if e.RemoteURL != "" {
		return e.RemoteURL
	}
	if e.RemoteUsername == "" || e.RemoteRepo == "" {
		return ""
	}
	host := strings.TrimPrefix(strings.TrimSuffix(e.RemoteHost, "/api/v3"), "api.")
	if host == "" {
		host = map[string]string{"github": "github.com", "gitlab": "gitlab.com", "bitbucket": "bitbucket.org"}[strings.ToLower(e.Source)]
	}
	if host == "" {
		return ""
	}
	return "https://" + host + "/" + e.RemoteUsername + "/" + e.RemoteRepo
}
