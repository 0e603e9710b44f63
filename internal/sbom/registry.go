package sbom

import (
	"fmt"
	"path"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/dart/pubspec"
	"github.com/google/osv-scalibr/extractor/filesystem/language/dotnet/packageslockjson"
	"github.com/google/osv-scalibr/extractor/filesystem/language/elixir/mixlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/golang/gomod"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/gradlelockfile"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/pomxml"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/bunlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/packagelockjson"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/pnpmlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/javascript/yarnlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/php/composerlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/pipfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/poetrylock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/requirements"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/uvlock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/ruby/gemfilelock"
	"github.com/google/osv-scalibr/extractor/filesystem/language/rust/cargolock"
)

// extractorFactory builds one scalibr filesystem extractor.
type extractorFactory func(*cpb.PluginConfig) (filesystem.Extractor, error)

// registry is the explicit, short list of lockfile and manifest extractors the
// agent runs. It is deliberately not scalibr's full plugin list (list.All),
// which pulls in 141 modules (container images, OS package databases, binary
// analysis); these 17 cover the ecosystems the service matches against.
// registry_test.go checks that every entry builds, has the name written here
// and claims at least one real file.
//
// The key is scalibr's extractor name, so that a Result's per-file errors
// name the plugin that failed.
var registry = []struct {
	name string
	new  extractorFactory
}{
	{packagelockjson.Name, packagelockjson.New},   // npm package-lock.json v1-v3, npm-shrinkwrap.json
	{yarnlock.Name, yarnlock.New},                 // yarn.lock v1 and berry
	{pnpmlock.Name, pnpmlock.New},                 // pnpm-lock.yaml
	{bunlock.Name, bunlock.New},                   // bun.lock (text format)
	{requirements.Name, requirements.New},         // requirements*.txt
	{poetrylock.Name, poetrylock.New},             // poetry.lock
	{pipfilelock.Name, pipfilelock.New},           // Pipfile.lock
	{uvlock.Name, uvlock.New},                     // uv.lock
	{gomod.Name, gomod.New},                       // go.mod (+ go.sum for go < 1.17)
	{pomxml.Name, pomxml.New},                     // pom.xml, offline: no parent or BOM import resolution
	{gradlelockfile.Name, newGradleLockfile},      // gradle.lockfile, buildscript-gradle.lockfile, settings-gradle.lockfile
	{cargolock.Name, cargolock.New},               // Cargo.lock
	{gemfilelock.Name, gemfilelock.New},           // Gemfile.lock, gems.locked
	{composerlock.Name, composerlock.New},         // composer.lock
	{packageslockjson.Name, packageslockjson.New}, // NuGet packages.lock.json
	{pubspec.Name, pubspec.New},                   // pubspec.lock
	{mixlock.Name, mixlock.New},                   // mix.lock (Elixir flavour; erlang/mixlock reads the same file)
}

// ExtractorNames returns the names of the registered scalibr extractors, in
// registry order.
func ExtractorNames() []string {
	names := make([]string, len(registry))
	for i, r := range registry {
		names[i] = r.name
	}
	return names
}

// newExtractors builds every registered extractor with scalibr's default
// configuration (no file size limit of its own: Options.MaxFileSize applies).
func newExtractors() ([]filesystem.Extractor, error) {
	cfg := &cpb.PluginConfig{}
	exs := make([]filesystem.Extractor, 0, len(registry))
	for _, r := range registry {
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
