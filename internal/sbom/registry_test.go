package sbom

import (
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeFile is a filesystem.FileAPI for FileRequired.
type fakeFile struct{ path string }

func (f fakeFile) Path() string { return f.path }
func (f fakeFile) Stat() (fs.FileInfo, error) {
	return fakeInfo{}, nil
}

type fakeInfo struct{}

func (fakeInfo) Name() string       { return "" }
func (fakeInfo) Size() int64        { return 1 }
func (fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (fakeInfo) ModTime() time.Time { return time.Time{} }
func (fakeInfo) IsDir() bool        { return false }
func (fakeInfo) Sys() any           { return nil }

// TestRegistry checks that every registered extractor builds, reports the
// name it is registered under, is listed once, and claims the files it is
// registered for (and nothing else claims them). TestExtractWholeTree checks
// that each also reads a real file from testdata.
func TestRegistry(t *testing.T) {
	claims := map[string][]string{
		"javascript/packagelockjson":         {"package-lock.json", "a/npm-shrinkwrap.json"},
		"javascript/yarnlock":                {"yarn.lock"},
		"javascript/pnpmlock":                {"pnpm-lock.yaml"},
		"javascript/bunlock":                 {"bun.lock"},
		"javascript/bunlockb":                {"bun.lockb", "app/bun.lockb"},
		"javascript/denolock":                {"deno.lock", "web/deno.lock"},
		"javascript/packagejson":             {"node_modules/express/package.json", "app/node_modules/@types/node/package.json", "node_modules/send/node_modules/ms/package.json"},
		"githubactions/workflow":             {".github/workflows/ci.yml", "sub/.github/workflows/release.yaml", "action.yml", ".github/actions/setup/action.yaml"},
		"kubernetes/manifests":               {"k8s/deployment.yaml", "deploy/pod.yml", "manifests/app.yaml"},
		"containers/images":                  {"Dockerfile", "docker/Dockerfile.prod", "app.dockerfile", "Containerfile", "docker-compose.yml", "compose.yaml", "deploy/docker-compose.override.yml"},
		"python/requirements":                {"requirements.txt", "requirements-dev.txt"},
		"python/poetrylock":                  {"poetry.lock"},
		"python/pipfilelock":                 {"Pipfile.lock"},
		"python/uvlock":                      {"uv.lock"},
		"go/gomod":                           {"go.mod"},
		"go/gopkglock":                       {"Gopkg.lock", "src/app/Gopkg.lock"},
		"java/pomxml":                        {"pom.xml"},
		"java/gradlelockfile":                {"gradle.lockfile", "buildscript-gradle.lockfile", "settings-gradle.lockfile", "app.gradle.lockfile", "gradle/locks/bip39-lib-gradle.lockfile"},
		"rust/cargolock":                     {"Cargo.lock"},
		"swift/packageresolved":              {"Package.resolved", "App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved"},
		"ruby/gemfilelock":                   {"Gemfile.lock"},
		"ruby/gemspec":                       {"usr/local/lib/ruby/gems/3.1.0/specifications/rake-13.0.6.gemspec", "usr/local/bundle/specifications/default/uri-0.11.0.gemspec"},
		"php/composerlock":                   {"composer.lock"},
		"php/composerinstalled":              {"vendor/composer/installed.json", "app/vendor/composer/installed.json"},
		"python/wheelegg":                    {"usr/local/lib/python3.11/dist-packages/requests-2.31.0.dist-info/METADATA", "venv/lib/python3.11/site-packages/six.egg-info/PKG-INFO"},
		"dotnet/packageslockjson":            {"packages.lock.json"},
		"dart/pubspec":                       {"pubspec.lock"},
		"elixir/mixlock":                     {"mix.lock"},
		"erlang/rebarlock":                   {"rebar.lock", "apps/x/rebar.lock"},
		"swift/podfilelock":                  {"Podfile.lock"},
		"python/pdmlock":                     {"pdm.lock"},
		"python/pylock":                      {"pylock.toml", "pylock.dev.toml"},
		"python/pyproject":                   {"pyproject.toml", "libs/core/pyproject.toml"},
		"python/condaenv":                    {"environment.yml", "envs/environment.yaml"},
		"python/pipfile":                     {"Pipfile", "api/Pipfile"},
		"python/setuptools":                  {"setup.py", "pkg/setup.cfg"},
		"dotnet/packagesconfig":              {"packages.config"},
		"dotnet/msbuild":                     {"App.csproj", "src/Lib.fsproj", "Legacy.vbproj", "Directory.Packages.props", "Directory.Build.props", "src/Directory.Build.targets"},
		"dotnet/paketlock":                   {"paket.lock"},
		"dotnet/projectassetsjson":           {"obj/project.assets.json", "src/App/obj/project.assets.json"},
		"dotnet/depsjson":                    {"bin/Release/net8.0/App.deps.json", "publish/My.App.deps.json"},
		"java/gradleverificationmetadataxml": {"gradle/verification-metadata.xml"},
		"java/gradleversioncatalog":          {"gradle/libs.versions.toml", "libs.versions.toml", "gradle/deps.versions.toml"},
		"java/gradlebuild":                   {"build.gradle", "app/build.gradle.kts"},
		"clojure/projectclj":                 {"project.clj", "modules/core/project.clj"},
		"clojure/depsedn":                    {"deps.edn", "modules/api/deps.edn"},
		"scala/sbt":                          {"build.sbt", "modules/core/build.sbt"},
		"cpp/conanfile":                      {"conanfile.txt", "lib/conanfile.py"},
		"cpp/conanlock":                      {"conan.lock"},
		"r/renvlock":                         {"renv.lock"},
		"haskell/stacklock":                  {"stack.yaml.lock"},
		"julia/manifesttoml":                 {"Manifest.toml"},
		"haskell/cabal":                      {"cabal.project.freeze"},
		"runtime/nvm":                        {".nvmrc", "web/.nvmrc"},
		"runtime/nodeversion":                {".node-version"},
		"runtime/asdf":                       {".tool-versions"},
		"runtime/mise":                       {"mise.toml", ".mise/config.toml"},
		"runtime/versionfiles":               {".python-version", "runtime.txt", ".ruby-version", "api/.go-version"},
		"os/dpkg":                            {"var/lib/dpkg/status", "var/lib/dpkg/status.d/base"},
		"os/rpmmanifest":                     {"var/lib/rpmmanifest/container-manifest-2"},
		"os/apk":                             {"lib/apk/db/installed"},
		"os/rpm":                             {"var/lib/rpm/Packages", "var/lib/rpm/rpmdb.sqlite", "usr/lib/sysimage/rpm/rpmdb.sqlite"},
		"java/archive":                       {"opt/app/lib/commons-io-2.11.0.jar", "webapps/shop.war", "app.ear"},
		"go/binary":                          {}, // executables of a Go program's size only (TestExtractBinaries)
		"rust/cargoauditable":                {}, // the same (TestExtractRustProgram)
	}
	names := extractorNames()
	if diff := cmp.Diff(slices.Sorted(mapKeys(claims)), slices.Sorted(slices.Values(names))); diff != "" {
		t.Errorf("registered extractors mismatch (-want +got):\n%s", diff)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
		t.Errorf("duplicate registry entries: %v", names)
	}
	exs, err := newExtractors(AllKinds)
	if err != nil {
		t.Fatalf("newExtractors: %v", err)
	}
	for _, ex := range exs {
		for _, p := range claims[ex.Name()] {
			if !ex.FileRequired(fakeFile{p}) {
				t.Errorf("%s does not claim %s", ex.Name(), p)
			}
		}
		for other, files := range claims {
			if other == ex.Name() {
				continue
			}
			for _, p := range files {
				if ex.FileRequired(fakeFile{p}) {
					t.Errorf("%s also claims %s (registered for %s)", ex.Name(), p, other)
				}
			}
		}
		for _, p := range []string{"package.json", "README.md", "go.sum", "Cargo.toml", "node_modules/x/package-lock.json", ".deps.json", "App.runtimeconfig.json", "installed.json", "composer/installed.json", "mygem.gemspec", "gems/mygem/mygem.gemspec"} {
			if ex.FileRequired(fakeFile{p}) {
				t.Errorf("%s claims %s", ex.Name(), p)
			}
		}
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
