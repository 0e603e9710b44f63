package sbom

import (
	"fmt"
	"path"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
)

// Gopkg.lock, the lockfile of dep, Go's dependency tool before modules.
//
// Thousands of Go projects still build from a Gopkg.lock and a vendor
// directory; scalibr does not read it. Each [[projects]] entry is a Go
// package tree at the revision dep pinned:
//
//   - with a version (a release tag, "v1.4.1"), the component is that
//     version, written as go.mod's versions are (without the "v"), which
//     is how Go's OSV records compare;
//   - with only a branch and a revision, there is no release to name: the
//     component has no version and carries the revision as its vcs_url,
//     so it is listed and named, never matched by guess;
//   - "source" is the repository dep fetched instead of the import path
//     (a fork): the component keeps the import path, as the code imports
//     it, and the fork's revision as its vcs_url.
//
// A project with a go.mod beside its Gopkg.lock has moved to modules; the
// go.mod is read and the stale lock is not.

var gopkgLock = ownExtractor{name: "go/gopkglock", required: isGopkgLock, read: readGopkgLock}

func isGopkgLock(p string) bool { return path.Base(p) == "Gopkg.lock" }

// gopkgLockFile is the part of a Gopkg.lock read here.
type gopkgLockFile struct {
	Projects []struct {
		Name     string `toml:"name"`
		Version  string `toml:"version"`
		Branch   string `toml:"branch"`
		Revision string `toml:"revision"`
		Source   string `toml:"source"`
	} `toml:"projects"`
}

func readGopkgLock(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	if in.FS != nil && anyFile(in.FS, path.Dir(in.Path), "go.mod") {
		return nil, nil // the module's go.mod says what it builds with
	}
	var lock gopkgLockFile
	if _, err := toml.Decode(string(b), &lock); err != nil {
		return nil, fmt.Errorf("not a Gopkg.lock: %w", err)
	}
	var pkgs []*extractor.Package
	for _, p := range lock.Projects {
		if p.Name == "" {
			continue
		}
		pk := &extractor.Package{
			Name:     p.Name,
			Version:  strings.TrimPrefix(p.Version, "v"),
			PURLType: purl.TypeGolang,
			Location: extractor.LocationFromPath(in.Path),
		}
		if p.Revision != "" && (pk.Version == "" || p.Source != "") {
			pk.SourceCode = &extractor.SourceCodeIdentifier{Repo: goRepoURL(p.Name, p.Source), Commit: p.Revision}
		}
		pkgs = append(pkgs, pk)
	}
	return pkgs, nil
}

// goRepoURL is the repository dep fetched an import path from: its
// source where the lock names one, else the import path itself, as an
// https URL.
func goRepoURL(name, source string) string {
	r := name
	if source != "" {
		r = source
	}
	if strings.Contains(r, "://") || strings.HasPrefix(r, "git@") {
		return r
	}
	return "https://" + r
}
