package sbom

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
)

// The NuGet packages a .NET build resolved.
//
// Most .NET projects have no packages.lock.json, and their project files
// name only the direct dependencies, often as ranges. A machine that
// restored or built the project has the whole resolved tree:
//
//   - obj/project.assets.json, which `dotnet restore` writes: under
//     "libraries", every package restored ("Name/1.2.3", type "package";
//     type "project" is a project reference); under "targets", per target
//     framework (and runtime), each package's dependencies by name; under
//     "project.frameworks", the project's own direct references;
//   - <App>.deps.json, which `dotnet build` and `publish` write beside the
//     binaries: the packages the application loads, with exact versions
//     in its dependency lists. A self-contained publish also lists the
//     runtime it carries as "runtimepack.Microsoft.NETCore.App.Runtime.
//     <rid>/8.0.0", which is that NuGet package (the .NET runtime's
//     advisories name it), and is a component under its NuGet name.
//
// scalibr v0.5.3's readers of both take "project" entries as packages and
// a dependency's requested version as if it were installed; these take
// only what was resolved. A project file with obj/project.assets.json
// beside it is read from the assets file (msbuild.go).

var dotnetAssets = ownExtractor{name: "dotnet/projectassetsjson", required: isProjectAssets, read: readDotnetOutput}

var dotnetDeps = ownExtractor{name: "dotnet/depsjson", required: isDepsJSON, read: readDotnetOutput}

func isProjectAssets(p string) bool { return path.Base(p) == "project.assets.json" }

func isDepsJSON(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".deps.json") && len(b) > len(".deps.json")
}

// dotnetOutput is what Sentinel reads of both formats; "project" is
// project.assets.json's only.
type dotnetOutput struct {
	// Targets are, per target framework (and runtime), the entries
	// ("Name/1.2.3") with their dependencies by name: each with a range
	// (project.assets.json) or the resolved version (deps.json).
	Targets   map[string]map[string]struct{ Dependencies map[string]string } `json:"targets"`
	Libraries map[string]struct{ Type string }                               `json:"libraries"`
	Project   struct {
		Frameworks map[string]struct {
			Dependencies map[string]struct {
				Target         string `json:"target"`
				SuppressParent string `json:"suppressParent"`
			} `json:"dependencies"`
		} `json:"frameworks"`
	} `json:"project"`
}

func decodeDotnetOutput(b []byte) (*dotnetOutput, error) {
	var o dotnetOutput
	if err := jsonv1.Unmarshal(trimBOM(b), &o); err != nil {
		return nil, err
	}
	if o.Libraries == nil && o.Targets == nil {
		return nil, fmt.Errorf("no libraries or targets: not what dotnet restore or build writes")
	}
	return &o, nil
}

// nugetLibrary splits a "Name/1.2.3" key; a runtime pack's key names its
// NuGet package after "runtimepack.". ok is false for anything else.
func nugetLibrary(key, typ string) (name, version string, ok bool) {
	name, version, found := strings.Cut(key, "/")
	if !found || name == "" || version == "" || strings.Contains(version, "/") {
		return "", "", false
	}
	switch typ {
	case "package":
		return name, version, true
	case "runtimepack":
		name, ok = strings.CutPrefix(name, "runtimepack.")
		return name, version, ok && name != ""
	}
	return "", "", false
}

// readDotnetOutput reads the packages of either format.
func readDotnetOutput(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	o, err := decodeDotnetOutput(b)
	if err != nil {
		return nil, err
	}
	var pkgs []*extractor.Package
	for _, key := range slices.Sorted(maps.Keys(o.Libraries)) {
		if name, version, ok := nugetLibrary(key, o.Libraries[key].Type); ok {
			pkgs = append(pkgs, &extractor.Package{Name: name, Version: version, PURLType: purl.TypeNuget, Location: extractor.LocationFromPath(in.Path)})
		}
	}
	return pkgs, nil
}

// projectAssetsGraph reads the dependency graph of a project.assets.json:
// in each target, a package's dependencies are the packages of those
// names that target resolved; the project's direct references are its
// roots (annotate gives them to the project's directory, above obj/).
func projectAssetsGraph(data []byte, lk *lockIndex) error {
	a, err := decodeDotnetOutput(data)
	if err != nil {
		return err
	}
	resolved := dotnetGraph(a.Targets, lk, true)
	// A package the project references in any of its frameworks is a
	// direct dependency, in every target that resolved it; one it keeps
	// private (PrivateAssets="all", recorded as suppressParent) is for
	// development, and a test project's packages all are.
	for _, fw := range a.Project.Frameworks {
		for name, d := range fw.Dependencies {
			if d.Target != "" && !strings.EqualFold(d.Target, "Package") {
				continue // a project reference
			}
			if testPackage(name) {
				lk.allDevelopment()
			}
			for _, versions := range resolved {
				if v := versions[strings.ToLower(name)]; v != "" {
					if to, ok := lk.find(name, v); ok {
						if privateAll(d.SuppressParent) {
							lk.devRoot("", to)
						} else {
							lk.root("", to)
						}
					}
				}
			}
		}
	}
	return nil
}

// depsJSONGraph reads the dependency graph of a .deps.json; the entries
// of the application and of the projects it references (type "project")
// give the roots.
func depsJSONGraph(data []byte, lk *lockIndex) error {
	d, err := decodeDotnetOutput(data)
	if err != nil {
		return err
	}
	for _, entries := range d.Targets {
		for key, e := range entries {
			if d.Libraries[key].Type != "project" {
				continue
			}
			for name, v := range e.Dependencies {
				if to, ok := lk.find(strings.TrimPrefix(name, "runtimepack."), v); ok {
					lk.root("", to)
				}
			}
		}
	}
	dotnetGraph(d.Targets, lk, false)
	for key := range d.Libraries {
		if name, _, _ := strings.Cut(key, "/"); testPackage(name) {
			lk.allDevelopment() // a test project's build output
			break
		}
	}
	return nil
}

// dotnetGraph adds the edges of every target's packages and returns, per
// target, the version it resolved for each (lower-cased) package name.
// byName: dependencies give ranges, to be resolved by name in the target
// (project.assets.json); else they give the versions (deps.json).
func dotnetGraph(targets map[string]map[string]struct{ Dependencies map[string]string }, lk *lockIndex, byName bool) map[string]map[string]string {
	resolved := make(map[string]map[string]string, len(targets))
	for target, entries := range targets {
		versions := make(map[string]string, len(entries))
		for key := range entries {
			if name, version, ok := strings.Cut(key, "/"); ok {
				versions[strings.ToLower(strings.TrimPrefix(name, "runtimepack."))] = version
			}
		}
		resolved[target] = versions
		for key, e := range entries {
			name, version, ok := strings.Cut(key, "/")
			if !ok {
				continue
			}
			from, ok := lk.find(strings.TrimPrefix(name, "runtimepack."), version)
			if !ok {
				continue
			}
			for dep, v := range e.Dependencies {
				dep = strings.TrimPrefix(dep, "runtimepack.")
				if byName {
					v = versions[strings.ToLower(dep)]
				}
				if to, ok := lk.find(dep, v); ok && v != "" {
					lk.edge(from, to)
				}
			}
		}
	}
	return resolved
}
