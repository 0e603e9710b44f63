package sbom

import (
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/wheelegg"
)

// The Python distributions installed on a host or in a virtual
// environment.
//
// pip records each distribution it installs in the environment's
// site-packages: <name>-<version>.dist-info/METADATA (and setuptools'
// older <name>.egg-info/PKG-INFO), which scalibr's wheelegg extractor
// reads. Sentinel reads only those records, in a site-packages or
// dist-packages folder, and not the wheels and eggs lying in a tree (a
// build's output, a test fixture) that scalibr's would read too, nor the
// distribution's own Python packages under /usr/lib, which dpkg or RPM
// lists, with the distribution's patches. A project's virtual
// environment (.venv/, venv/) is read only when the project has no
// lockfile of its own (hiddenLockfiles), as node_modules is.

// pythonInstalled is scalibr's wheelegg extractor, on the installed
// records only.
type pythonInstalled struct {
	filesystem.Extractor
}

// FileRequired implements filesystem.Extractor.
func (pythonInstalled) FileRequired(api filesystem.FileAPI) bool { return isInstalledDist(api.Path()) }

// installedRecord implements installedReader.
func (pythonInstalled) installedRecord() {}

// isInstalledDist reports whether p (slash-separated, relative to the
// scanned root) is the record of an installed distribution outside the
// operating system's own.
func isInstalledDist(p string) bool {
	if !strings.HasSuffix(p, ".dist-info/METADATA") && !strings.HasSuffix(p, ".egg-info/PKG-INFO") {
		return false
	}
	if site := path.Base(path.Dir(path.Dir(p))); site != "site-packages" && site != "dist-packages" {
		return false
	}
	return !strings.HasPrefix(p, "usr/lib/") && !strings.HasPrefix(p, "usr/lib64/")
}

// venvRecords are a virtual environment's records (POSIX and Windows
// layouts), read when the project beside it has no Python lockfile.
var venvRecords = struct {
	lockfiles []string
	records   []hiddenRecord
	all       bool
}{
	lockfiles: []string{"poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "pylock.toml"},
	records: []hiddenRecord{
		{pattern: "lib/python*/site-packages/*.dist-info/METADATA", extractor: wheelegg.Name},
		{pattern: "lib/python*/site-packages/*.egg-info/PKG-INFO", extractor: wheelegg.Name},
		{pattern: "Lib/site-packages/*.dist-info/METADATA", extractor: wheelegg.Name},
	},
	all: true,
}
