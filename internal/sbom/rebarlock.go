package sbom

import (
	"context"
	"fmt"
	"io"
	"path"
	"regexp"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
	"github.com/google/osv-scalibr/plugin"
	"github.com/google/osv-scalibr/purl"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
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

// rebarLockName is the extractor's name in results.
const rebarLockName = "erlang/rebarlock"

type rebarLockExtractor struct{}

func newRebarLock(*cpb.PluginConfig) (filesystem.Extractor, error) { return rebarLockExtractor{}, nil }

// Name implements filesystem.Extractor.
func (rebarLockExtractor) Name() string { return rebarLockName }

// Version implements filesystem.Extractor.
func (rebarLockExtractor) Version() int { return 0 }

// Requirements implements filesystem.Extractor.
func (rebarLockExtractor) Requirements() *plugin.Capabilities { return &plugin.Capabilities{} }

// FileRequired implements filesystem.Extractor.
func (rebarLockExtractor) FileRequired(api filesystem.FileAPI) bool {
	return path.Base(api.Path()) == "rebar.lock"
}

var (
	// rebarPkg is a Hex dependency: the application, the package, its version.
	rebarPkg = regexp.MustCompile(`\{\s*<<"([^"]+)">>\s*,\s*\{\s*pkg\s*,\s*<<"([^"]+)">>\s*,\s*<<"([^"]+)">>`)
	// rebarGit is a git dependency: the application, the repository, and
	// the ref, tag or branch it is locked to.
	rebarGit = regexp.MustCompile(`\{\s*<<"([^"]+)">>\s*,\s*\{\s*git(?:_subdir)?\s*,\s*"([^"]+)"\s*,\s*\{\s*(?:ref|tag|branch)\s*,\s*"([^"]+)"\s*\}`)
	// rebarLock is the start of a lockfile: a version and a list, or a list.
	rebarLock = regexp.MustCompile(`^\s*(?:\{\s*"[0-9.]+"\s*,\s*)?\[`)
)

// Extract implements filesystem.Extractor.
func (rebarLockExtractor) Extract(_ context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	if !rebarLock.Match(b) {
		return inventory.Inventory{}, fmt.Errorf("not a rebar.lock: it does not start with a list of dependencies")
	}
	loc := extractor.LocationFromPath(in.Path)
	var pkgs []*extractor.Package
	for _, m := range rebarPkg.FindAllSubmatch(b, -1) {
		pkgs = append(pkgs, &extractor.Package{Name: string(m[2]), Version: string(m[3]), PURLType: purl.TypeHex, Location: loc})
	}
	for _, m := range rebarGit.FindAllSubmatch(b, -1) {
		pkgs = append(pkgs, &extractor.Package{Name: string(m[1]), PURLType: purl.TypeHex, Location: loc,
			SourceCode: &extractor.SourceCodeIdentifier{Repo: string(m[2]), Commit: string(m[3])}})
	}
	return inventory.Inventory{Packages: pkgs}, nil
}
