package sbom

import (
	"fmt"
	"path"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
)

// rebar.lock is rebar3's lockfile: Erlang terms listing each dependency
// as {<<"app">>, Source, Level}, where Source is {pkg, <<"hex_name">>,
// <<"version">>} for a Hex package (whose name may differ from the
// application's: riak_core from riak_core_lite) or {git, "url", {ref,
// "commit"}} for a git repository. The lockfile format's own version
// ("1.2.0") may lead the list; the hashes follow it. Hex packages are
// matched against the Hex advisories (Erlang's and Elixir's share the
// registry); git dependencies are components with their vcs_url. scalibr
// v0.5.3 has no reader of this file.

// rebarLock is the extractor.
var rebarLock = ownExtractor{
	name:     "erlang/rebarlock",
	required: func(p string) bool { return path.Base(p) == "rebar.lock" },
	read:     readRebarLock,
}

var (
	// rebarPkg is a Hex dependency: the application, the package, its version.
	rebarPkg = lazyRegexp(`\{\s*<<"([^"]+)">>\s*,\s*\{\s*pkg\s*,\s*<<"([^"]+)">>\s*,\s*<<"([^"]+)">>`)
	// rebarGit is a git dependency: the application, the repository, and
	// the ref, tag or branch it is locked to.
	rebarGit = lazyRegexp(`\{\s*<<"([^"]+)">>\s*,\s*\{\s*git(?:_subdir)?\s*,\s*"([^"]+)"\s*,\s*\{\s*(?:ref|tag|branch)\s*,\s*"([^"]+)"\s*\}`)
	// rebarStart is the start of a lockfile: a version and a list, or a list.
	rebarStart = lazyRegexp(`^\s*(?:\{\s*"[0-9.]+"\s*,\s*)?\[`)
)

// readRebarLock reads a rebar.lock's Hex and git dependencies.
func readRebarLock(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	if !rebarStart().Match(b) {
		return nil, fmt.Errorf("not a rebar.lock: it does not start with a list of dependencies")
	}
	loc := extractor.LocationFromPath(in.Path)
	var pkgs []*extractor.Package
	for _, m := range rebarPkg().FindAllSubmatch(b, -1) {
		pkgs = append(pkgs, &extractor.Package{Name: string(m[2]), Version: string(m[3]), PURLType: purl.TypeHex, Location: loc})
	}
	for _, m := range rebarGit().FindAllSubmatch(b, -1) {
		pkgs = append(pkgs, &extractor.Package{Name: string(m[1]), PURLType: purl.TypeHex, Location: loc,
			SourceCode: &extractor.SourceCodeIdentifier{Repo: string(m[2]), Commit: string(m[3])}})
	}
	return pkgs, nil
}
