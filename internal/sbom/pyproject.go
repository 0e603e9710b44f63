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
	"github.com/google/osv-scalibr/purl"
	"github.com/google/osv-scalibr/semantic"
)

// A Python project's pyproject.toml, where it has no lockfile.
//
// Many Python projects, libraries above all, declare their dependencies in
// pyproject.toml and lock nothing. scalibr v0.5.3 does not read the file;
// Sentinel reads it as it reads a requirements file (scalibr's way, and
// osv-scanner's): a pinned requirement ("requests==2.25.0") is that
// version; a bounded one ("flask>=2.0", "django~=4.2.1", Poetry's "^1.2")
// is its lowest version, marked as a constraint (PropVersionConstraint:
// the gate checks it and says it is a bound); one without a lower bound
// has no version. Read:
//
//   - PEP 621: [project] dependencies; optional-dependencies, of which
//     an extra named for development (test, dev, docs, lint: the words
//     devRequirements knows) is development-only;
//   - PEP 735: [dependency-groups], all development-only (groups are
//     not installed with the package);
//   - Poetry: [tool.poetry.dependencies] (not python itself), and
//     [tool.poetry.group.*.dependencies] and the older
//     [tool.poetry.dev-dependencies], development-only.
//
// A dependency from a git repository is a component with its repository
// as its source (vcs_url), at the version a release tag names.
//
// A project with a lockfile (poetry.lock, uv.lock, pdm.lock, pylock.toml,
// Pipfile.lock) or requirements files beside it is read from those, which
// pin what is installed.

var pyproject = ownExtractor{name: "python/pyproject", required: isPyproject, read: readPyproject}

func isPyproject(p string) bool { return path.Base(p) == "pyproject.toml" }

// pythonPins are the files that, beside a pyproject.toml, say what is
// installed.
var pythonPins = []string{"poetry.lock", "uv.lock", "pdm.lock", "pylock.toml", "Pipfile.lock", "requirements.txt"}

func readPyproject(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	if in.FS != nil && anyFile(in.FS, path.Dir(in.Path), pythonPins...) {
		return nil, nil // the lockfile or requirements file is read instead
	}
	if in.FS != nil && workspaceLocked(in.FS, path.Dir(in.Path), pythonWorkspaceLocks) {
		return nil, nil // a workspace member or path dependency: its lockfile is read
	}
	var doc pyprojectManifest // project.go's
	if _, err := toml.Decode(string(b), &doc); err != nil {
		return nil, fmt.Errorf("not a pyproject.toml: %w", err)
	}
	d := &pyDeclared{path: in.Path, names: map[string]bool{}}
	pep508, add, addGit := d.pep508, d.add, d.addGit
	if p := doc.Project; p != nil {
		pep508(p.Dependencies, false)
		for _, extra := range slices.Sorted(maps.Keys(p.OptionalDependencies)) {
			pep508(p.OptionalDependencies[extra], devRequirements("requirements/"+extra+".txt"))
		}
	}
	for _, group := range slices.Sorted(maps.Keys(doc.DependencyGroups)) {
		var reqs []string
		for _, e := range doc.DependencyGroups[group] {
			if s, ok := e.(string); ok { // not an {include-group = "..."}
				reqs = append(reqs, s)
			}
		}
		pep508(reqs, true)
	}
	pep508(doc.Tool.UV.DevDependencies, true)
	declared := maps.Clone(d.names) // PEP 621's and 735's
	poetry := func(deps map[string]any, dev bool) {
		for _, name := range slices.Sorted(maps.Keys(deps)) {
			if strings.EqualFold(name, "python") || declared[pep503(name)] {
				continue // Poetry 2 only enriches what [project] declares
			}
			spec := ""
			switch v := deps[name].(type) {
			case string:
				spec = v
			case map[string]any:
				if s, ok := v["version"].(string); ok {
					spec = s
				} else if repo, ok := v["git"].(string); ok && validPyPIName(name) {
					ref, _ := v["tag"].(string)
					if ref == "" {
						ref, _ = v["rev"].(string)
					}
					if ref == "" {
						ref, _ = v["branch"].(string)
					}
					addGit(name, strings.TrimPrefix(repo, "git+"), ref, dev)
					continue
				} else {
					continue // a path or url dependency: no registry version
				}
			case []any, []map[string]any:
				// Several constraints, each for its markers ("<20.16.6"
				// on one Python, "^20.4.3" on the others), inline or as
				// an array of tables ([[tool.poetry.dependencies.numpy]]):
				// Poetry installs one of them, at least the lowest bound.
				version, bound := "", ""
				for _, m := range tomlTables(v) {
					s, _ := m["version"].(string)
					if av, ab := poetryVersion(s); av != "" && (version == "" || pythonVersionLess(av, version)) {
						version, bound = av, ab
					}
				}
				add(name, version, bound, dev)
				continue
			default:
				continue
			}
			version, bound := poetryVersion(spec)
			add(name, version, bound, dev)
		}
	}
	if p := doc.Tool.Poetry; p != nil {
		poetry(p.Dependencies, false)
		poetry(p.DevDependencies, true)
		for _, g := range slices.Sorted(maps.Keys(p.Group)) {
			poetry(p.Group[g].Dependencies, true)
		}
	}
	// A workspace member or a folder uv installs from the project's own
	// tree is the project's, not PyPI's package of that name.
	d.pkgs = slices.DeleteFunc(d.pkgs, func(p *extractor.Package) bool {
		for name, src := range doc.Tool.UV.Sources {
			if pep503(name) == pep503(p.Name) && (src["workspace"] == true || src["path"] != nil) {
				return true
			}
		}
		return false
	})
	return d.pkgs, nil
}

// pyDeclared collects the packages a Python manifest declares
// (pyproject.toml, setup.py, setup.cfg), read as a requirements file's
// lines are.
type pyDeclared struct {
	path  string
	pkgs  []*extractor.Package
	names map[string]bool // the names read so far, PEP 503-normalised
}

// add adds one package; bound is the constraint its version is the lowest
// of ("" for a pinned version).
func (d *pyDeclared) add(name, version, bound string, dev bool) {
	if name == "" {
		return
	}
	d.names[pep503(name)] = true
	p := &extractor.Package{Name: name, Version: version, PURLType: purl.TypePyPi, Location: extractor.LocationFromPath(d.path)}
	if bound != "" || dev {
		p.Metadata = &declaredMeta{bound: bound, dev: dev}
	}
	d.pkgs = append(d.pkgs, p)
}

// addGit adds a package from a git repository at ref, at the version a
// release tag names.
func (d *pyDeclared) addGit(name, repo, ref string, dev bool) {
	d.add(name, pypiReleaseTag(ref), "", dev)
	d.pkgs[len(d.pkgs)-1].SourceCode = &extractor.SourceCodeIdentifier{Repo: repo, Commit: ref}
}

// pep508 adds PEP 508 requirements ("flask>=2.0", "pkg @ git+https://...").
func (d *pyDeclared) pep508(reqs []string, dev bool) {
	for _, r := range reqs {
		if name, repo, ref, ok := gitRequirement(r); ok {
			d.addGit(name, repo, ref, dev) // "pkg @ git+https://...@v1.2.3"
			continue
		}
		if name, version, ok := archiveRequirement(r); ok {
			d.add(name, version, "", dev) // "pkg @ https://.../pkg-1.2.3.tar.gz"
			continue
		}
		name, version, bound := pythonRequirement(r)
		d.add(name, version, bound, dev)
	}
}

// pythonRequirement reads a PEP 508 requirement ("flask[async]>=2.0,<3;
// python_version>'3.8'") as a requirements file's line is read: its name,
// and the version it pins, or the lowest its bounds allow (with the
// bound). A URL requirement ("pkg @ https://...") has no version.
func pythonRequirement(r string) (name, version, bound string) {
	r, _, _ = strings.Cut(r, ";") // environment markers
	m := pep508Name().FindStringSubmatchIndex(r)
	if m == nil {
		return "", "", ""
	}
	name, rest := strings.TrimRight(r[m[2]:m[3]], "._-"), strings.TrimSpace(r[m[1]:])
	if strings.HasPrefix(rest, "[") { // extras
		_, rest, _ = strings.Cut(rest, "]")
		rest = strings.TrimSpace(rest)
	}
	if strings.HasPrefix(rest, "@") {
		return name, "", ""
	}
	rest = strings.Trim(rest, "() ")
	var lowest, lowestOp string
	for spec := range strings.SplitSeq(rest, ",") {
		spec = strings.TrimSpace(spec)
		for _, op := range []string{"===", "==", "~=", ">="} {
			v, ok := strings.CutPrefix(spec, op)
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			if v == "" || strings.ContainsAny(v, "*") || !versionChars(v) {
				break // "==2.*": a prefix, no one version; "=={0}": no version at all
			}
			if op == "==" || op == "===" {
				return name, v, ""
			}
			if lowest == "" {
				lowest, lowestOp = v, op
			}
			break
		}
	}
	if lowest == "" {
		return name, "", ""
	}
	return name, lowest, lowestOp + lowest
}

// versionChars reports whether v is made of the characters a PEP 440
// version is written with (letters, digits, ".", "-", "_", "+", "!"):
// not a template ("{0}") or two requirements run together.
func versionChars(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(isWordDotDash(v[i:i+1]) || c == '+' || c == '!') {
			return false
		}
	}
	return true
}

// poetryVersion reads a Poetry constraint: a bare version ("2.25.0") or
// "==2.25.0" pins it; "^1.2", "~1.2", "~=1.2" and ">=1.2,<2" give their
// lowest version, with the bound; "*" and upper bounds give none.
func poetryVersion(spec string) (version, bound string) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "*" {
		return "", ""
	}
	if pythonVersionish().MatchString(spec) {
		return spec, ""
	}
	first, _, _ := strings.Cut(spec, ",")
	first = strings.TrimSpace(first)
	for _, op := range []string{"==", "^", "~=", "~", ">="} {
		if v, ok := strings.CutPrefix(first, op); ok {
			v = strings.TrimSpace(v)
			if !pythonVersionish().MatchString(v) {
				return "", ""
			}
			if op == "==" {
				return v, ""
			}
			return v, spec
		}
	}
	return "", ""
}

// tomlTables is the tables of a TOML array: an inline array of tables
// decodes as []any, an array of tables ([[a.b]]) as []map[string]any.
func tomlTables(v any) []map[string]any {
	switch v := v.(type) {
	case []map[string]any:
		return v
	case []any:
		var out []map[string]any
		for _, e := range v {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

// pythonVersionLess reports whether the PEP 440 version a is lower than b
// (as strings where either does not parse).
func pythonVersionLess(a, b string) bool {
	va, err := semantic.Parse(a, "PyPI")
	if err != nil {
		return a < b
	}
	c, err := va.CompareStr(b)
	if err != nil {
		return a < b
	}
	return c < 0
}

// pythonVersionish is a version as written (no operator or wildcard).
var pythonVersionish = lazyRegexp(`^v?[0-9]+(?:\.[0-9]+)*(?:[-_.]?[A-Za-z0-9]+)*(?:\+[A-Za-z0-9.]+)?$`)

// pythonWorkspaceLocks are the Python lockfiles that lock a project's
// path dependencies and workspace members with it, naming each by its
// folder (poetry.lock's `url = "libs/a"`, uv.lock's `editable =
// "packages/a"`): the packages a member's pyproject.toml declares are
// pinned there, and reading the pyproject.toml too would add each again
// at its lowest bound (workspaceLocked).
var pythonWorkspaceLocks = []string{"poetry.lock", "uv.lock", "pdm.lock"}
