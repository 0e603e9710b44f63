package sbom

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/google/osv-scalibr/inventory"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/cpp/conanlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/dart/pubspec"
	"github.com/google/osv-scalibr/extractor/filesystem/language/dotnet/packagesconfig"
	"github.com/google/osv-scalibr/extractor/filesystem/language/dotnet/packageslockjson"
	"github.com/google/osv-scalibr/extractor/filesystem/language/dotnet/paketlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/elixir/mixlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/golang/gomod"
	"github.com/google/osv-scalibr/extractor/filesystem/language/haskell/cabal"
	"github.com/google/osv-scalibr/extractor/filesystem/language/haskell/stacklock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/gradlelockfile"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/gradleverificationmetadataxml"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/gradleversioncatalog"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/pomxml"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/bunlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/packagelockjson"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/pnpmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/yarnlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/julia/manifesttoml"
	"github.com/google/osv-scalibr/extractor/filesystem/language/php/composerlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/pdmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/pipfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/poetrylock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/pylock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/requirements"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/uvlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/r/renvlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/ruby/gemfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/rust/cargolock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/swift/packageresolved"
	"github.com/google/osv-scalibr/extractor/filesystem/language/swift/podfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/os/apk"
	"github.com/google/osv-scalibr/extractor/filesystem/os/dpkg"
	dpkgmeta "github.com/google/osv-scalibr/extractor/filesystem/os/dpkg/metadata"
	"github.com/google/osv-scalibr/extractor/filesystem/os/rpm"
	"gopkg.in/yaml.v3"
)

// extractorFactory builds one scalibr filesystem extractor.
type extractorFactory func(*cpb.PluginConfig) (filesystem.Extractor, error)

// registry is the explicit, short list of extractors the agent runs. It is
// deliberately not scalibr's full plugin list (list.All), which pulls in 141
// modules (container images, binary analysis, secrets); these cover the
// lockfiles and manifests of the ecosystems the service matches against,
// and the package databases of Debian/Ubuntu, Alpine and RPM distributions.
// registry_test.go checks that every entry builds, has the name written
// here and claims at least one real file.
//
// The key is scalibr's extractor name, so that a Result's per-file errors
// name the plugin that failed.
var registry = []struct {
	name string
	kind Kinds
	new  extractorFactory
}{
	{packagelockjson.Name, Languages, newNpmLock},                                      // npm package-lock.json v1-v3, npm-shrinkwrap.json: Sentinel's reader (onepass.go)
	{yarnlock.Name, Languages, newYarnLock},                                            // yarn.lock v1 and berry: Sentinel's reader (onepass.go)
	{pnpmlock.Name, Languages, newPnpmLock},                                            // pnpm-lock.yaml (read once for packages and graph: graph_pnpm.go)
	{bunlock.Name, Languages, bunlock.New},                                             // bun.lock (text format)
	{denoLock.name, Languages, denoLock.factory()},                                     // deno.lock v3-v5, its npm packages: Sentinel's reader (denolock.go)
	{actions.name, Languages, actions.factory()},                                       // .github/workflows/*.yml and action.yml: the GitHub Actions they use (actions.go)
	{requirements.Name, Languages, newRequirements},                                    // requirements*.txt, with requirements from git repositories
	{poetrylock.Name, Languages, poetrylock.New},                                       // poetry.lock
	{pipfilelock.Name, Languages, newPipfileLock},                                      // Pipfile.lock, with its git dependencies
	{uvlock.Name, Languages, uvlock.New},                                               // uv.lock
	{gomod.Name, Languages, gomod.New},                                                 // go.mod (+ go.sum for go < 1.17)
	{pomxml.Name, Languages, pomxml.New},                                               // pom.xml, offline: no parent or BOM import resolution
	{gradlelockfile.Name, Languages, newGradleLockfile},                                // gradle.lockfile, buildscript-gradle.lockfile, settings-gradle.lockfile
	{cargolock.Name, Languages, newCargoLock},                                          // Cargo.lock (read once for packages and graph: onepass.go)
	{gemfilelock.Name, Languages, gemfilelock.New},                                     // Gemfile.lock, gems.locked
	{composerlock.Name, Languages, composerlock.New},                                   // composer.lock
	{packageslockjson.Name, Languages, packageslockjson.New},                           // NuGet packages.lock.json
	{pubspec.Name, Languages, newPubspec},                                              // pubspec.lock
	{mixlock.Name, Languages, mixlock.New},                                             // mix.lock (Elixir flavour; erlang/mixlock reads the same file)
	{rebarLock.name, Languages, rebarLock.factory()},                                   // rebar.lock (Erlang, rebar3): Sentinel's reader (rebarlock.go)
	{packageresolved.Name, Languages, newSwiftResolved},                                // SwiftPM Package.resolved v2, v3 and (Sentinel's reader) v1
	{podfilelock.Name, Languages, podfilelock.New},                                     // CocoaPods Podfile.lock
	{pdmlock.Name, Languages, pdmlock.New},                                             // pdm.lock
	{pylock.Name, Languages, pylock.New},                                               // pylock.toml, pylock.*.toml (PEP 751)
	{packagesconfig.Name, Languages, packagesconfig.New},                               // NuGet packages.config
	{paketlock.Name, Languages, paketlock.New},                                         // paket.lock
	{msbuild.name, Languages, msbuild.factory()},                                       // .csproj, .fsproj, .vbproj, Directory.Packages.props without packages.lock.json: Sentinel's reader (msbuild.go)
	{gradleverificationmetadataxml.Name, Languages, gradleverificationmetadataxml.New}, // gradle/verification-metadata.xml
	{gradleversioncatalog.Name, Languages, newGradleCatalog},                           // gradle/libs.versions.toml where the project has no Gradle lockfile: Sentinel's reader (gradlecatalog.go)
	{conanlock.Name, Languages, conanlock.New},                                         // conan.lock v1 and v2
	{renvlock.Name, Languages, renvlock.New},                                           // renv.lock (R)
	{stacklock.Name, Languages, stacklock.New},                                         // stack.yaml.lock (Haskell)
	{cabal.Name, Languages, cabal.New},                                                 // cabal.project.freeze (Haskell)
	{manifesttoml.Name, Languages, newJuliaManifest},                                   // Julia Manifest.toml, with each package's uuid
	{dpkg.Name, OSPackages, newDpkg},                                                   // var/lib/dpkg/status, var/lib/dpkg/status.d/*
	{apk.Name, OSPackages, apk.New},                                                    // lib/apk/db/installed
	{rpm.Name, OSPackages, rpm.New},                                                    // var/lib/rpm/{Packages,Packages.db,rpmdb.sqlite}, usr/lib/sysimage/rpm/...
}

// Kinds selects what Extract looks for (Options.Kinds).
type Kinds uint8

const (
	// Languages are the lockfiles and manifests of language package
	// managers, and the projects' own manifests.
	Languages Kinds = 1 << iota
	// OSPackages are the package databases of the operating system
	// (dpkg, apk, RPM), found at their paths relative to the scanned root.
	OSPackages
	// AllKinds is both, and what the zero Options mean.
	AllKinds = Languages | OSPackages
)

// extractorNames returns the names of the registered scalibr extractors, in
// registry order.
func extractorNames() []string {
	names := make([]string, len(registry))
	for i, r := range registry {
		names[i] = r.name
	}
	return names
}

// newExtractors builds the registered extractors of the given kinds with
// scalibr's default configuration (no file size limit of its own:
// Options.MaxFileSize applies).
func newExtractors(kinds Kinds) ([]filesystem.Extractor, error) {
	cfg := &cpb.PluginConfig{}
	exs := make([]filesystem.Extractor, 0, len(registry))
	for _, r := range registry {
		if r.kind&kinds == 0 {
			continue
		}
		ex, err := r.new(cfg)
		if err != nil {
			return nil, fmt.Errorf("build extractor %q: %w", r.name, err)
		}
		if ex.Name() != r.name {
			return nil, fmt.Errorf("extractor registered as %q reports name %q", r.name, ex.Name())
		}
		exs = append(exs, ex)
	}
	return exs, nil
}

// juliaManifest is scalibr's Manifest.toml extractor, giving each package
// the uuid a julia purl must carry (pkg:julia/Name@1.0.0?uuid=...):
// scalibr v0.5.3 reads the file but keeps no uuid, and a purl without one
// does not parse, so its packages could never be matched.
type juliaManifest struct {
	filesystem.Extractor
}

// juliaUUID is a Julia package's uuid, as extractor.Package metadata.
type juliaUUID string

// IsProtoable implements scalibr's metadata marker; Sentinel never
// converts it to a protocol buffer.
func (juliaUUID) IsProtoable() {}

func newJuliaManifest(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := manifesttoml.New(cfg)
	if err != nil {
		return nil, err
	}
	return juliaManifest{ex}, nil
}

// Extract implements filesystem.Extractor.
func (j juliaManifest) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, j.Extractor, in)
	if b == nil {
		return inv, err
	}
	if err != nil {
		// scalibr v0.5.3 wants every "deps" a list; since Julia 1.9 a
		// package that depends on two packages of one name writes a
		// name -> uuid table. Read such a manifest here.
		if pkgs, ok := juliaPackages(b, in.Path); ok {
			return inventory.Inventory{Packages: pkgs}, nil
		}
		return inv, err
	}
	var m struct {
		Deps map[string][]struct {
			UUID string `toml:"uuid"`
		} `toml:"deps"`
	}
	if _, err := toml.Decode(string(b), &m); err != nil {
		return inv, nil // scalibr read it: keep its packages, without uuids
	}
	for _, p := range inv.Packages {
		if ds := m.Deps[p.Name]; len(ds) > 0 && ds[0].UUID != "" && p.Metadata == nil {
			p.Metadata = juliaUUID(ds[0].UUID)
		}
	}
	return inv, nil
}

// juliaPackages reads a Manifest.toml (format 2.0, or 1.0 with the
// packages at the top level): one package per entry with a version (an
// entry without one is a standard library or a checked-out package), its
// uuid as metadata. ok is false when the file is not such a manifest.
func juliaPackages(b []byte, p string) ([]*extractor.Package, bool) {
	var top map[string]any
	if _, err := toml.Decode(string(b), &top); err != nil {
		return nil, false
	}
	deps, _ := top["deps"].(map[string]any)
	if _, v2 := top["manifest_format"]; !v2 {
		deps = top
	}
	var pkgs []*extractor.Package
	for _, name := range slices.Sorted(maps.Keys(deps)) {
		entries, _ := deps[name].([]map[string]any)
		for _, e := range entries {
			version, _ := e["version"].(string)
			uuid, _ := e["uuid"].(string)
			if version == "" || uuid == "" {
				continue
			}
			pkgs = append(pkgs, &extractor.Package{Name: name, Version: version, PURLType: "julia",
				Location: extractor.LocationFromPath(p), Metadata: juliaUUID(uuid)})
		}
	}
	return pkgs, true
}

// extractKeeping runs a scalibr extractor on the file and returns its
// content too, for a wrapper's second look; the content is nil when the
// file could not be read.
func extractKeeping(ctx context.Context, ex filesystem.Extractor, in *filesystem.ScanInput) (inventory.Inventory, []byte, error) {
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, nil, fmt.Errorf("could not read: %w", err)
	}
	again := *in
	again.Reader = bytes.NewReader(b)
	inv, err := ex.Extract(ctx, &again)
	return inv, b, err
}

// pubspecLock is scalibr's pubspec.lock extractor without the packages of
// the project's own tree ("source: path"), which are not pub.dev's: the
// other lockfile readers leave local packages out too.
type pubspecLock struct {
	filesystem.Extractor
}

func newPubspec(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := pubspec.New(cfg)
	if err != nil {
		return nil, err
	}
	return pubspecLock{ex}, nil
}

// Extract implements filesystem.Extractor.
func (e pubspecLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if err != nil {
		return inv, err
	}
	var lock struct {
		Packages map[string]struct {
			Source string `yaml:"source"`
		} `yaml:"packages"`
	}
	if yaml.Unmarshal(b, &lock) == nil {
		inv.Packages = slices.DeleteFunc(inv.Packages, func(p *extractor.Package) bool { return lock.Packages[p.Name].Source == "path" })
	}
	return inv, nil
}

// requirementsTxt is scalibr's requirements.txt extractor, which drops a
// requirement installed from a git repository: "git+https://host/repo.git
// @ref#egg=name" (editable or not) and PEP 508's "name @ git+https://...
// @ref" are components too, named, with the repository and ref as their
// vcs_url. Local paths ("-e ./pkg") are the project's own tree.
type requirementsTxt struct {
	filesystem.Extractor
}

func newRequirements(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := requirements.New(cfg)
	if err != nil {
		return nil, err
	}
	return requirementsTxt{ex}, nil
}

// Extract implements filesystem.Extractor.
func (e requirementsTxt) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if b == nil {
		return inv, err
	}
	have := map[string]bool{}
	for _, p := range inv.Packages {
		have[pep503(p.Name)] = true
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, repo, ref, ok := gitRequirement(line)
		if !ok || have[pep503(name)] {
			continue
		}
		have[pep503(name)] = true
		inv.Packages = append(inv.Packages, &extractor.Package{Name: name, PURLType: "pypi", Location: extractor.LocationFromPath(in.Path),
			SourceCode: &extractor.SourceCodeIdentifier{Repo: repo, Commit: ref}})
	}
	return inv, err
}

// gitRequirement reads a requirements.txt line that installs from a git
// repository: its package name (#egg=, or the name before " @ "), the
// repository and the ref after "@" in its path (a commit, tag or branch;
// empty for the default branch).
func gitRequirement(line string) (name, repo, ref string, ok bool) {
	line = strings.TrimSpace(line)
	if i := strings.Index(line, " #"); i >= 0 {
		line = strings.TrimSpace(line[:i]) // a comment
	}
	for _, opt := range []string{"-e ", "--editable ", "--editable="} {
		line = strings.TrimSpace(strings.TrimPrefix(line, opt))
	}
	if n, u, direct := strings.Cut(line, " @ "); direct {
		name, line = strings.TrimSpace(n), strings.TrimSpace(u)
		if i := strings.IndexByte(name, '['); i >= 0 {
			name = name[:i] // extras
		}
	}
	if i := strings.IndexByte(line, ';'); i >= 0 {
		line = strings.TrimSpace(line[:i]) // an environment marker
	}
	if !strings.HasPrefix(line, "git+") {
		return "", "", "", false
	}
	u, frag, _ := strings.Cut(line, "#")
	for _, kv := range strings.Split(frag, "&") {
		if v, found := strings.CutPrefix(kv, "egg="); found && name == "" {
			name = v
		}
	}
	scheme, rest, _ := strings.Cut(u, "://")
	host, pth, _ := strings.Cut(rest, "/")
	if at := strings.LastIndexByte(pth, '@'); at >= 0 {
		pth, ref = pth[:at], pth[at+1:]
	}
	repo = scheme + "://" + host + "/" + pth
	if name = strings.TrimSpace(name); name == "" || !validPyPIName(name) || host == "" || pth == "" {
		return "", "", "", false
	}
	return name, repo, ref, true
}

// validPyPIName reports whether s is a PEP 508 distribution name.
func validPyPIName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return s != ""
}

// pipfileLock is scalibr's Pipfile.lock extractor, which keeps only the
// packages with a version: a dependency installed from a git repository
// ({"git": URL, "ref": commit}) is a component too, named by its key,
// with its source as a vcs_url. A local path ({"path": "."}) is the
// project's own tree, not a component, as in the other formats.
type pipfileLock struct {
	filesystem.Extractor
}

func newPipfileLock(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := pipfilelock.New(cfg)
	if err != nil {
		return nil, err
	}
	return pipfileLock{ex}, nil
}

// Extract implements filesystem.Extractor.
func (e pipfileLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if err != nil || b == nil {
		return inv, err
	}
	var lock map[string]json.RawMessage
	if json.Unmarshal(b, &lock) != nil {
		return inv, nil
	}
	have := map[string]bool{}
	for _, p := range inv.Packages {
		have[pep503(p.Name)] = true
	}
	for _, group := range []string{"default", "develop"} {
		var deps map[string]struct {
			Git     string `json:"git"`
			Ref     string `json:"ref"`
			Version string `json:"version"`
		}
		if json.Unmarshal(lock[group], &deps) != nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(deps)) {
			d := deps[name]
			if d.Git == "" || have[pep503(name)] {
				continue
			}
			have[pep503(name)] = true
			inv.Packages = append(inv.Packages, &extractor.Package{Name: name, Version: strings.TrimPrefix(d.Version, "=="),
				PURLType: "pypi", Location: extractor.LocationFromPath(in.Path),
				SourceCode: &extractor.SourceCodeIdentifier{Repo: d.Git, Commit: d.Ref}})
		}
	}
	return inv, nil
}

// swiftResolved is scalibr's Package.resolved extractor, which reads the
// top-level "pins" of versions 2 and 3, and also reads version 1 (SwiftPM
// before 5.6, still common in Xcode projects), where the pins are under
// "object" and name their repository by "repositoryURL": scalibr v0.5.3
// finds no package in such a file and reports no error.
type swiftResolved struct {
	filesystem.Extractor
}

func newSwiftResolved(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := packageresolved.New(cfg)
	if err != nil {
		return nil, err
	}
	return swiftResolved{ex}, nil
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

// dpkgStatus is scalibr's dpkg extractor keeping every package whose files
// are on disk. scalibr keeps "installed" only; a package whose triggers
// are pending ("install ok triggers-pending", common right after an
// upgrade), or that is unpacked but not yet configured, has its files
// installed as well, vulnerable or not. Packages removed with their
// configuration files left, or never installed, are not components.
type dpkgStatus struct {
	filesystem.Extractor
}

func newDpkg(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := dpkg.New(cfg)
	if err != nil {
		return nil, err
	}
	if d, ok := ex.(*dpkg.Extractor); ok {
		d.IncludeNotInstalled = true // filtered here instead
	}
	return dpkgStatus{ex}, nil
}

// dpkgOnDisk are the dpkg package states in which the files are installed.
var dpkgOnDisk = map[string]bool{"installed": true, "triggers-pending": true, "triggers-awaited": true, "half-configured": true, "unpacked": true}

// Extract implements filesystem.Extractor.
func (d dpkgStatus) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, err := d.Extractor.Extract(ctx, in)
	inv.Packages = slices.DeleteFunc(inv.Packages, func(p *extractor.Package) bool {
		m, ok := p.Metadata.(*dpkgmeta.Metadata)
		if !ok {
			return false
		}
		if m.Status == "" { // distroless status.d files have none
			return !strings.Contains(in.Path, "status.d")
		}
		f := strings.Fields(m.Status)
		return len(f) != 3 || !dpkgOnDisk[f[2]]
	})
	return inv, err
}

// gradleLockfile is scalibr's Gradle lockfile extractor, also claiming
// settings-gradle.lockfile, which Gradle writes for settings plugins in the
// same format and scalibr v0.5.3 does not recognise.
type gradleLockfile struct {
	filesystem.Extractor
}

func newGradleLockfile(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := gradlelockfile.New(cfg)
	if err != nil {
		return nil, err
	}
	return gradleLockfile{ex}, nil
}

// FileRequired implements filesystem.Extractor.
func (g gradleLockfile) FileRequired(api filesystem.FileAPI) bool {
	return path.Base(api.Path()) == "settings-gradle.lockfile" || g.Extractor.FileRequired(api)
}
