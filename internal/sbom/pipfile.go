package sbom

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
)

// A Pipenv project's Pipfile, where it has no Pipfile.lock.
//
// Pipfile.lock is often left out of a repository (libraries, and projects
// that ignore it), and then the Pipfile is all that says what the project
// installs. scalibr v0.5.3 reads only the lock. Sentinel reads the Pipfile
// as it reads pyproject.toml (pyproject.go): a pinned requirement
// ("==2.18.0") is that version; a bounded one (">=2.7.0", "~=1.2") is its
// lowest version, marked as a constraint; "*" and wildcards ("==4.*") have
// no version. Read:
//
//   - [packages]: what the project runs;
//   - [dev-packages], and Pipenv's other package categories (any other
//     table of packages, installed only when asked for): development-only;
//   - [requires]: the Python the project is built for, as the runtime
//     pkg:generic/python (runtimes.go), for its end of life;
//   - a table value: its "version"; "git" with "ref" is a component from
//     that repository (vcs_url), at the version a release tag names;
//     "path" and "file" are local or direct archives, not PyPI's package.
//
// A project with a lockfile or requirements file beside it is read from
// those, which pin what is installed (pythonPins).

var pipfile = ownExtractor{name: "python/pipfile", required: isPipfile, read: readPipfile}

func isPipfile(p string) bool { return path.Base(p) == "Pipfile" }

// pipfileTables are the Pipfile tables that are not packages.
var pipfileTables = map[string]bool{"source": true, "requires": true, "scripts": true, "pipenv": true, "pipfile": true}

func readPipfile(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	if in.FS != nil && anyFile(in.FS, path.Dir(in.Path), pythonPins...) {
		return nil, nil // Pipfile.lock or the requirements file is read instead
	}
	var doc map[string]any
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return nil, fmt.Errorf("not a Pipfile: %w", err)
	}
	d := &pyDeclared{path: in.Path, names: map[string]bool{}}
	read := func(table string, dev bool) {
		pkgs, _ := doc[table].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(pkgs)) {
			if d.names[pep503(name)] {
				continue // a runtime package too: [packages], read first, said so
			}
			switch v := pkgs[name].(type) {
			case string:
				d.pipenvSpec(name, v, dev)
			case map[string]any:
				if repo, ok := v["git"].(string); ok && validPyPIName(name) {
					ref, _ := v["ref"].(string)
					d.addGit(name, strings.TrimPrefix(repo, "git+"), ref, dev)
					continue
				}
				if v["path"] != nil || v["file"] != nil {
					continue // the project itself, a local folder or an archive's URL
				}
				spec, _ := v["version"].(string)
				d.pipenvSpec(name, spec, dev)
			}
		}
	}
	var pkgs []*extractor.Package
	if req, ok := doc["requires"].(map[string]any); ok {
		// [requires] python_full_version = "3.10.20" (or python_version =
		// "3.10"): the runtime the project is built for (runtimes.go).
		full, _ := req["python_full_version"].(string)
		short, _ := req["python_version"].(string)
		if p := pipenvPython(full, short, in.Path); p != nil {
			pkgs = append(pkgs, p)
		}
	}
	read("packages", false)
	read("dev-packages", true)
	for _, table := range slices.Sorted(maps.Keys(doc)) {
		if table != "packages" && table != "dev-packages" && !pipfileTables[table] {
			if _, ok := doc[table].(map[string]any); ok {
				read(table, true) // a Pipenv category ([docs], [tests])
			}
		}
	}
	return append(pkgs, d.pkgs...), nil
}

// pipenvSpec adds a Pipfile requirement: a PEP 440 specifier ("==2.18.0",
// ">=2.7.0,<3") or "*" (any version) for name.
func (d *pyDeclared) pipenvSpec(name, spec string, dev bool) {
	spec = strings.TrimSpace(spec)
	if spec == "*" || spec == "" {
		d.add(name, "", "", dev)
		return
	}
	if pythonVersionish().MatchString(spec) {
		spec = "==" + spec // Pipenv reads a bare version as pinned
	}
	_, version, bound := pythonRequirement(name + spec)
	d.add(name, version, bound, dev)
}

// pipenvPython is the runtime a Pipfile's [requires], or a Pipfile.lock's
// _meta.requires, names: its python_full_version, else its python_version.
func pipenvPython(full, short, loc string) *extractor.Package {
	if full == "" {
		full = short
	}
	return runtimePackage("python", full, loc)
}
