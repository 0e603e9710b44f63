package sbom

import (
	"bytes"
	"context"
	"errors"
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
	"github.com/google/osv-scalibr/extractor/filesystem/language/golang/gobinary"
	"github.com/google/osv-scalibr/extractor/filesystem/language/golang/gomod"
	"github.com/google/osv-scalibr/extractor/filesystem/language/haskell/cabal"
	"github.com/google/osv-scalibr/extractor/filesystem/language/haskell/stacklock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/archive"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/gradlelockfile"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/gradleverificationmetadataxml"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/gradleversioncatalog"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/pomxml"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/bunlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/packagejson"
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
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/wheelegg"
	"github.com/google/osv-scalibr/extractor/filesystem/language/ruby/gemfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/ruby/gemspec"
	"github.com/google/osv-scalibr/extractor/filesystem/language/rust/cargoauditable"
	"github.com/google/osv-scalibr/extractor/filesystem/language/rust/cargolock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/swift/packageresolved"
	"github.com/google/osv-scalibr/extractor/filesystem/language/swift/podfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/os/apk"
	"github.com/google/osv-scalibr/extractor/filesystem/os/dpkg"
	dpkgmeta "github.com/google/osv-scalibr/extractor/filesystem/os/dpkg/metadata"
	"github.com/google/osv-scalibr/extractor/filesystem/os/rpm"
	"github.com/google/osv-scalibr/extractor/filesystem/runtime/asdf"
	"github.com/google/osv-scalibr/extractor/filesystem/runtime/mise"
	"github.com/google/osv-scalibr/extractor/filesystem/runtime/nodejs/nodeversion"
	"github.com/google/osv-scalibr/extractor/filesystem/runtime/nodejs/nvm"
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
	{packagelockjson.Name, Languages, newNpmLock},                                         // npm package-lock.json v1-v3, npm-shrinkwrap.json: Sentinel's reader (onepass.go)
	{yarnlock.Name, Languages, newYarnLock},                                               // yarn.lock v1 and berry: Sentinel's reader (onepass.go)
	{pnpmlock.Name, Languages, wrap[pnpmLockExtractor](pnpmlock.New)},                     // pnpm-lock.yaml (read once for packages and graph: graph_pnpm.go)
	{bunlock.Name, Languages, wrap[bunLock](bunlock.New)},                                 // bun.lock (text format), with tarball addresses' versions (bunlock.go)
	{bunLockb.name, Languages, bunLockb.factory()},                                        // bun.lockb (bun before 1.2) without a bun.lock beside it: Sentinel's reader (bunlockb.go)
	{packagejson.Name, Languages, wrap[npmInstalled](packagejson.New)},                    // node_modules/**/package.json where node_modules keeps no lockfile and the project has none (npminstalled.go)
	{denoLock.name, Languages, denoLock.factory()},                                        // deno.lock v3-v5, its npm packages: Sentinel's reader (denolock.go)
	{images.name, Languages, images.factory()},                                            // Dockerfile FROM images, Compose services' images: Sentinel's reader (images.go)
	{k8sManifests.name, Languages, k8sManifests.factory()},                                // Kubernetes manifests (any YAML with apiVersion and kind): their containers' images (images.go)
	{actions.name, Languages, actions.factory()},                                          // .github/workflows/*.yml and action.yml: the GitHub Actions they use (actions.go)
	{requirements.Name, Languages, newRequirementsTxt},                                    // requirements*.txt, with requirements from git repositories
	{poetrylock.Name, Languages, poetrylock.New},                                          // poetry.lock
	{pipfilelock.Name, Languages, wrap[pipfileLock](pipfilelock.New)},                     // Pipfile.lock, with its git dependencies
	{wheelegg.Name, Languages, wrap[pythonInstalled](wheelegg.New)},                       // site-packages/*.dist-info/METADATA, *.egg-info/PKG-INFO: installed distributions (pyinstalled.go)
	{uvlock.Name, Languages, uvlock.New},                                                  // uv.lock
	{gopkgLock.name, Languages, gopkgLock.factory()},                                      // Gopkg.lock (dep) where no go.mod is beside: Sentinel's reader (gopkglock.go)
	{gomod.Name, Languages, gomod.New},                                                    // go.mod (+ go.sum for go < 1.17)
	{pomxml.Name, Languages, newPOMXML},                                                   // pom.xml, offline: parents (pomparent.go) and imported BOMs (pomimport.go) from the tree or the local repository
	{gradlelockfile.Name, Languages, wrap[gradleLockfile](gradlelockfile.New)},            // gradle.lockfile, buildscript-gradle.lockfile, settings-gradle.lockfile
	{cargolock.Name, Languages, wrap[cargoLockExtractor](cargolock.New)},                  // Cargo.lock (read once for packages and graph: onepass.go)
	{gemspec.Name, Languages, wrap[rubyInstalled](gemspec.New)},                           // <gem home>/specifications/*.gemspec: installed gems, Ruby's default gems too (rubyinstalled.go)
	{gemfilelock.Name, Languages, wrap[gemfileLock](gemfilelock.New)},                     // Gemfile.lock, gems.locked, with the Ruby it records as the runtime (runtimes.go)
	{composerlock.Name, Languages, wrap[composerLock](composerlock.New)},                  // composer.lock, and (composerinstalled.go) one scalibr cannot read
	{composerInstalled.name, Languages, composerInstalled.factory()},                      // vendor/composer/installed.json without composer.lock: Sentinel's reader (composerinstalled.go)
	{packageslockjson.Name, Languages, packageslockjson.New},                              // NuGet packages.lock.json
	{pubspec.Name, Languages, wrap[pubspecLock](pubspec.New)},                             // pubspec.lock
	{mixlock.Name, Languages, wrap[mixLock](mixlock.New)},                                 // mix.lock (Elixir flavour; erlang/mixlock reads the same file), older Mix's first line too (mixlock.go)
	{rebarLock.name, Languages, rebarLock.factory()},                                      // rebar.lock (Erlang, rebar3): Sentinel's reader (rebarlock.go)
	{packageresolved.Name, Languages, wrap[swiftResolved](packageresolved.New)},           // SwiftPM Package.resolved v2, v3 and (Sentinel's reader) v1
	{podfilelock.Name, Languages, wrap[podfileLock](podfilelock.New)},                     // CocoaPods Podfile.lock, subspecs as their pod, git and local pods (podfilelock.go)
	{pdmlock.Name, Languages, wrap[pdmLock](pdmlock.New)},                                 // pdm.lock, with its git dependencies' repositories
	{pylock.Name, Languages, pylock.New},                                                  // pylock.toml, pylock.*.toml (PEP 751)
	{packagesconfig.Name, Languages, packagesconfig.New},                                  // NuGet packages.config
	{paketlock.Name, Languages, paketlock.New},                                            // paket.lock
	{dotnetAssets.name, Languages, dotnetAssets.factory()},                                // obj/project.assets.json (dotnet restore): Sentinel's reader (dotnetbuild.go)
	{dotnetDeps.name, Languages, dotnetDeps.factory()},                                    // <App>.deps.json (dotnet build, publish): Sentinel's reader (dotnetbuild.go)
	{msbuild.name, Languages, msbuild.factory()},                                          // .csproj, .fsproj, .vbproj, Directory.Packages.props without packages.lock.json: Sentinel's reader (msbuild.go)
	{gradleverificationmetadataxml.Name, Languages, gradleverificationmetadataxml.New},    // gradle/verification-metadata.xml
	{gradleversioncatalog.Name, Languages, wrap[gradleCatalog](gradleversioncatalog.New)}, // gradle/libs.versions.toml where the project has no Gradle lockfile: Sentinel's reader (gradlecatalog.go)
	{gradleBuild.name, Languages, newGradleBuild},                                         // build.gradle, build.gradle.kts where the project has no Gradle lockfile: Sentinel's reader (gradlebuild.go)
	{sbtBuild.name, Languages, sbtBuild.factory()},                                        // build.sbt and project/*.scala: Sentinel's reader (sbt.go)
	{depsEDN.name, Languages, depsEDN.factory()},                                          // deps.edn (Clojure CLI): Maven and git libraries, aliases' development-only: Sentinel's reader (depsedn.go)
	{projectClj.name, Languages, projectClj.factory()},                                    // project.clj (Leiningen): dependencies, profiles' and plugins development-only: Sentinel's reader (projectclj.go)
	{pyproject.name, Languages, pyproject.factory()},                                      // pyproject.toml where no lockfile or requirements.txt is beside: Sentinel's reader (pyproject.go)
	{pipfile.name, Languages, pipfile.factory()},                                          // Pipfile where no Pipfile.lock, other lockfile or requirements.txt is beside: Sentinel's reader (pipfile.go)
	{condaEnv.name, Languages, condaEnv.factory()},                                        // conda's environment.yml: its pip requirements, python as a runtime, conda packages listed: Sentinel's reader (condaenv.go)
	{setupPy.name, Languages, setupPy.factory()},                                          // setup.py, setup.cfg where no lockfile, requirements.txt or pyproject.toml dependencies are beside: Sentinel's reader (setuppy.go)
	{conanfile.name, Languages, conanfile.factory()},                                      // conanfile.txt, conanfile.py where no conan.lock is beside: Sentinel's reader (conanfile.go)
	{conanlock.Name, Languages, wrap[conanLock](conanlock.New)},                           // conan.lock v1 and v2, with user/channel and build requirements (conanlock.go)
	{renvLock.name, Languages, renvLock.factory()},                                        // renv.lock (R), every source: Sentinel's reader (renvlock.go)
	{stacklock.Name, Languages, stacklock.New},                                            // stack.yaml.lock (Haskell)
	{cabal.Name, Languages, cabal.New},                                                    // cabal.project.freeze (Haskell)
	{manifesttoml.Name, Languages, wrap[juliaManifest](manifesttoml.New)},                 // Julia Manifest.toml, with each package's uuid
	{nvm.Name, Languages, wrap[runtimeTools](nvm.New)},                                    // .nvmrc: the Node.js release a project runs on, as pkg:generic/node (runtimes.go)
	{nodeversion.Name, Languages, wrap[runtimeTools](nodeversion.New)},                    // .node-version
	{asdf.Name, Languages, wrap[runtimeTools](asdf.New)},                                  // asdf's .tool-versions: Node.js, Python, Ruby, PHP, Go and other tools
	{mise.Name, Languages, wrap[runtimeTools](mise.New)},                                  // mise.toml, .mise/config.toml and mise's other configuration files
	{runtimeFiles.name, Languages, runtimeFiles.factory()},                                // .python-version, runtime.txt, .ruby-version, .go-version: Sentinel's reader (runtimes.go)
	{dpkg.Name, OSPackages, newDpkg},                                                      // var/lib/dpkg/status, var/lib/dpkg/status.d/*
	{apk.Name, OSPackages, apk.New},                                                       // lib/apk/db/installed
	{rpm.Name, OSPackages, rpm.New},                                                       // var/lib/rpm/{Packages,Packages.db,rpmdb.sqlite}, usr/lib/sysimage/rpm/...
	{rpmManifest.name, OSPackages, rpmManifest.factory()},                                 // var/lib/rpmmanifest/container-manifest-2: Azure Linux distroless images' package list (rpmmanifest.go)
	{gobinary.Name, Binaries, wrap[goBinary](gobinary.New)},                               // Go programs' build information (binaries.go)
	{archive.Name, Binaries, newJavaArchive},                                              // .jar, .war, .ear...: Maven's pom.properties inside, nested archives too (binaries.go)
	{cargoauditable.Name, Binaries, wrap[rustBinary](cargoauditable.New)},                 // Rust programs built with cargo auditable: their crates (binaries.go)
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
	// Binaries are built software: Go programs and Java archives, by
	// what they record of their own dependencies (binaries.go).
	Binaries
	// AllKinds is all three, and what the zero Options mean.
	AllKinds = Languages | OSPackages | Binaries
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

// wrap is the factory of W, Sentinel's wrapper around the scalibr
// extractor newEx builds (W embeds it and replaces some of its methods).
func wrap[W interface {
	~struct{ filesystem.Extractor }
	filesystem.Extractor
}](newEx extractorFactory) extractorFactory {
	return func(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
		ex, err := newEx(cfg)
		if err != nil {
			return nil, err
		}
		return W{ex}, nil
	}
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

// juliaManifest reads a Julia Manifest.toml (juliaPackages), with the
// uuid a julia purl must carry (pkg:julia/Name@1.0.0?uuid=...): scalibr
// v0.5.3 keeps no uuid, and a purl without one does not parse, so its
// packages could never be matched; it reads no manifest of format 1.0
// (Julia up to 1.6, the packages at the top level: no package at all), and
// gives a package checked out in the project's tree (path = "dev/B") as a
// release. scalibr's reader stays for a file ours cannot parse.
type juliaManifest struct {
	filesystem.Extractor
}

// juliaUUID is a Julia package's uuid, as extractor.Package metadata.
type juliaUUID string

// IsProtoable implements scalibr's metadata marker; Sentinel never
// converts it to a protocol buffer.
func (juliaUUID) IsProtoable() {}

// Extract implements filesystem.Extractor.
func (j juliaManifest) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	if pkgs, ok := juliaPackages(b, in.Path); ok {
		return inventory.Inventory{Packages: pkgs}, nil
	}
	return extractBytes(ctx, j.Extractor, in, b)
}

// juliaPackages reads a Manifest.toml (format 2.0, or 1.0 with the
// packages at the top level): one package per entry that a registry or a
// repository gave (its tree hash, git-tree-sha1, or repo-url: not a
// standard library that came with Julia, with or without a version), its
// uuid as metadata, except one checked out in a folder (path = "dev/B": the project's own code, or
// a package being developed, not the registry's release). Since Julia 1.9
// "deps" may be a name -> uuid table as well as a list. ok is false when
// the file is not such a manifest.
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
			local, _ := e["path"].(string)
			tree, _ := e["git-tree-sha1"].(string)
			repo, _ := e["repo-url"].(string)
			if version == "" || uuid == "" || local != "" || (tree == "" && repo == "") {
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
	inv, err := extractBytes(ctx, ex, in, b)
	return inv, b, err
}

// extractBytes runs ex on data in place of in's reader.
func extractBytes(ctx context.Context, ex filesystem.Extractor, in *filesystem.ScanInput, data []byte) (inventory.Inventory, error) {
	again := *in
	again.Reader = bytes.NewReader(data)
	return ex.Extract(ctx, &again)
}

// pubspecLock is scalibr's pubspec.lock extractor without the packages of
// the project's own tree ("source: path"), which are not pub.dev's: the
// other lockfile readers leave local packages out too; nor those of the
// Flutter SDK ("source: sdk": flutter, flutter_test, sky_engine, always
// at the placeholder version 0.0.0), which come with the SDK, not from
// pub.dev, whose same names are other packages or none; a git package
// carries its repository and commit.
type pubspecLock struct {
	filesystem.Extractor
}

// Extract implements filesystem.Extractor.
func (e pubspecLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if err != nil {
		return inv, err
	}
	var lock struct {
		Packages map[string]struct {
			Source      string `yaml:"source"`
			Description any    `yaml:"description"` // a map, or a string ("flutter" for an SDK's)
		} `yaml:"packages"`
	}
	if yaml.Unmarshal(b, &lock) == nil {
		inv.Packages = slices.DeleteFunc(inv.Packages, func(p *extractor.Package) bool {
			src := lock.Packages[p.Name].Source
			return src == "path" || src == "sdk"
		})
		// A package from git names its repository and the commit pub
		// resolved, as the other lockfiles' git dependencies do (scalibr
		// keeps the commit alone, which names no repository).
		for _, p := range inv.Packages {
			e := lock.Packages[p.Name]
			d, ok := e.Description.(map[string]any)
			if e.Source != "git" || !ok || p.SourceCode != nil && p.SourceCode.Repo != "" {
				continue
			}
			url, _ := d["url"].(string)
			commit, _ := d["resolved-ref"].(string)
			if url != "" && commit != "" {
				p.SourceCode = &extractor.SourceCodeIdentifier{Repo: url, Commit: commit}
			}
		}
	}
	return inv, nil
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
	if err == nil && len(inv.Packages) == 0 && in.Info != nil && in.Info.Size() > 0 {
		// scalibr passes over what it cannot read: a file that is not
		// dpkg's at all (corrupt, truncated to garbage) would vanish.
		return inv, errors.New(`no package record in it: a dpkg status file is stanzas of "Field: value" lines (Package, Version, Status); restore it from /var/lib/dpkg/status-old or the image it came from`)
	}
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
// same format and scalibr v0.5.3 does not recognise, and a lockfile named
// for its module ("app.gradle.lockfile", "app-gradle.lockfile": a build's
// dependencyLocking.lockFile setting, or a module's gradle.lockfile copied
// out of its directory).
type gradleLockfile struct {
	filesystem.Extractor
}

// FileRequired implements filesystem.Extractor.
func (g gradleLockfile) FileRequired(api filesystem.FileAPI) bool {
	return isGradleLockfile(path.Base(api.Path())) || g.Extractor.FileRequired(api)
}

// isGradleLockfile reports whether a file of this base name is a Gradle
// lockfile.
func isGradleLockfile(base string) bool {
	if base == "gradle.lockfile" {
		return true
	}
	stem, ok := strings.CutSuffix(base, "gradle.lockfile")
	return ok && len(stem) > 1 && (stem[len(stem)-1] == '.' || stem[len(stem)-1] == '-')
}
