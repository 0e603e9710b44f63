package sbom

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/python/requirements"
	"github.com/google/osv-scalibr/extractor/filesystem/osv"
	"github.com/google/osv-scalibr/inventory"
)

// Python dependencies installed from git repositories, which scalibr's
// requirements.txt and Pipfile.lock readers drop.

// requirementsTxt is scalibr's requirements.txt extractor, which drops a
// requirement installed from a git repository or from a file's address:
// "git+https://host/repo.git@ref#egg=name" (editable or not) and PEP 508's
// "name @ git+https://...@ref" are components too, named, with the
// repository and ref as their vcs_url and a release tag's version, and so
// is "name @ https://github.com/o/r/archive/refs/tags/v1.2.zip", GitHub's or
// GitLab's archive of a repository at a ref; "name @
// https://.../Name-1.2.3-py3-none-any.whl" (or an sdist) is one at the
// version the file name carries. Local paths ("-e ./pkg") are the
// project's own tree.
type requirementsTxt struct {
	filesystem.Extractor
	// constrained holds, for one scan, the file names each requirements
	// directory's files name with -c, by directory.
	constrained *constrainedNames
}

// constrainedNames is the per-scan cache of requirementsTxt.
type constrainedNames struct {
	mu    sync.Mutex
	byDir map[string]map[string]bool
}

// newRequirementsTxt builds requirementsTxt for one scan.
func newRequirementsTxt(cfg *cpb.PluginConfig) (filesystem.Extractor, error) {
	ex, err := requirements.New(cfg)
	if err != nil {
		return nil, err
	}
	return requirementsTxt{Extractor: ex, constrained: &constrainedNames{byDir: map[string]map[string]bool{}}}, nil
}

// FileRequired implements filesystem.Extractor: scalibr's requirements
// files (a ".txt" whose name says "requirements"), and the ".txt" files of
// a directory named requirements, where many projects keep one file per
// environment (requirements/base.txt, requirements/production.txt, as
// cookiecutter-django lays them out).
func (e requirementsTxt) FileRequired(api filesystem.FileAPI) bool {
	return e.Extractor.FileRequired(api) || inRequirementsDir(api.Path())
}

func inRequirementsDir(p string) bool {
	return path.Ext(p) == ".txt" && strings.EqualFold(path.Base(path.Dir(p)), "requirements")
}

// constraintOption matches a requirements file's constraints option,
// "-c constraints.txt" or "--constraint=constraints.txt".
var constraintOption = lazyRegexp(`(?m)^\s*(?:-c|--constraint)(?:\s+|\s*=\s*)(\S+)`)

// constraintsFile reports whether the file at p, of a requirements
// directory, is a constraints file: its name says so (constraints.txt,
// common_constraints.txt, upper-constraints.txt), or another file of the
// directory names it with -c. The directory's files are read once in a
// scan, whichever of them comes first.
func (e requirementsTxt) constraintsFile(fsys fs.FS, p string) bool {
	base := path.Base(p)
	if strings.Contains(strings.ToLower(base), "constraint") {
		return true
	}
	if fsys == nil {
		return false
	}
	dir := path.Dir(p)
	names := func() map[string]bool { return constraintNames(fsys, dir) }
	if e.constrained == nil {
		return names()[base]
	}
	return memo(&e.constrained.mu, e.constrained.byDir, dir, names)[base]
}

// constraintNames returns the base names of the files that the .txt files
// of dir name with -c.
func constraintNames(fsys fs.FS, dir string) map[string]bool {
	names := map[string]bool{}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return names
	}
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".txt" {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, m := range constraintOption().FindAllSubmatch(b, -1) {
			if n := path.Base(string(m[1])); n != e.Name() {
				names[n] = true
			}
		}
	}
	return names
}

// devRequirements reports whether a requirements file is, by its name,
// for development only, as Python projects name them:
// requirements-dev.txt, dev-requirements.txt, requirements_test.txt,
// requirements/dev.txt, requirements/local.txt (a Django project's
// developer machine). What such a file includes from another
// (-r requirements.txt) is that file's too, and stays runtime there.
func devRequirements(p string) bool {
	stem := strings.TrimSuffix(strings.ToLower(path.Base(p)), ".txt")
	if !inRequirementsDir(p) {
		i := strings.Index(stem, "requirements")
		if i < 0 {
			return false
		}
		stem = stem[:i] + stem[i+len("requirements"):]
	}
	for w := range strings.FieldsFuncSeq(stem, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if devRequirementWords[w] {
			return true
		}
	}
	return false
}

// devRequirementWords name a requirements file for development.
var devRequirementWords = map[string]bool{
	"dev": true, "devel": true, "develop": true, "development": true, "test": true, "tests": true, "testing": true,
	"lint": true, "linting": true, "docs": true, "doc": true, "local": true, "ci": true, "typing": true, "mypy": true,
	"coverage": true, "style": true, "tox": true,
}

// requirementLine matches a line of a requirements file that only such a
// file has: a pinned or bounded requirement, or one of pip's options.
var requirementLine = lazyRegexp(`(?m)^\s*(?:[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?\s*(?:===?|>=|<=|~=|!=|>|<)\s*[0-9A-Za-z*]|-[rce]\s|--(?:requirement|constraint|editable|index-url|extra-index-url|hash)\b)`)

// Extract implements filesystem.Extractor.
func (e requirementsTxt) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if b == nil {
		return inv, err
	}
	// A text file of a requirements directory that is not one (a README,
	// a list of prose requirements) gives nothing.
	if base := path.Base(in.Path); inRequirementsDir(in.Path) && !strings.Contains(base, "requirements") && !requirementLine().Match(b) {
		return inventory.Inventory{}, nil
	}
	// A constraints file (pip's -c) only limits the versions of what
	// other files install: it installs nothing of its own.
	if inRequirementsDir(in.Path) && e.constraintsFile(in.FS, in.Path) {
		return inventory.Inventory{}, nil
	}
	have := map[string]bool{}
	for _, p := range inv.Packages {
		have[pep503(p.Name)] = true
		p.Version = requirementVersion(p.Version)
		// scalibr reads one comparator: "django>=3.2,<4.0" is left
		// without a version, where "django>=3.2" gives its lowest. Both
		// give the lowest, marked as a bound.
		if m, ok := p.Metadata.(*requirements.Metadata); ok && p.Version == "" && strings.Contains(m.Requirement, ",") {
			if _, v, bound := pythonRequirement(m.Requirement); v != "" {
				p.Version = v
				m.VersionComparator = strings.TrimSuffix(bound, v) // "" for a pin ("==2.0,!=2.1" is none)
				if m.VersionComparator == "" {
					m.VersionComparator = "=="
				}
			}
		}
	}
	add := func(p *extractor.Package) {
		if !have[pep503(p.Name)] {
			have[pep503(p.Name)] = true
			p.PURLType, p.Location = "pypi", extractor.LocationFromPath(in.Path)
			inv.Packages = append(inv.Packages, p)
		}
	}
	for line := range strings.Lines(string(b)) {
		if name, repo, ref, ok := gitRequirement(line); ok {
			add(&extractor.Package{Name: name, Version: pypiReleaseTag(ref), SourceCode: &extractor.SourceCodeIdentifier{Repo: repo, Commit: ref}})
		} else if name, repo, ref, ok := repoArchiveRequirement(line); ok {
			add(&extractor.Package{Name: name, Version: pypiReleaseTag(ref), SourceCode: &extractor.SourceCodeIdentifier{Repo: repo, Commit: ref}})
		} else if name, version, ok := archiveRequirement(line); ok {
			add(&extractor.Package{Name: name, Version: version})
		}
	}
	return inv, err
}

// requirementVersion is the version scalibr read from a requirement line,
// without what it took along past the version: a comment written without
// the space before it ("Jinja2==3.0.0#comment"), a direct reference
// ("pkg==3.7.1 @ git+https://..."). A version with characters no PEP 440
// version has ("'1.0'", a template's "{{ version }}") is none.
func requirementVersion(v string) string {
	if i := strings.IndexAny(v, "# \t"); i >= 0 {
		v = v[:i]
	}
	if !versionChars(strings.ReplaceAll(v, "*", "")) { // "2.*", a prefix, is kept as scalibr gives it
		return ""
	}
	return v
}

// pep440Release matches a release tag: "22.3.0", "v1.2", "2.0.0rc1".
var pep440Release = lazyRegexp(`^[vV]?([0-9]+(?:\.[0-9]+)+(?:(?:a|b|rc)[0-9]+)?(?:\.post[0-9]+)?(?:\.dev[0-9]+)?)$`)

// pypiReleaseTag returns the version a git ref names when it is a release
// tag ("22.3.0", "v22.3.0"), which is the release's version; a commit or a
// branch names none.
func pypiReleaseTag(ref string) string {
	if m := pep440Release().FindStringSubmatch(ref); m != nil {
		return m[1]
	}
	return ""
}

// archiveRequirement reads a PEP 508 direct reference to a distribution
// file ("pillow @ https://host/Pillow-9.0.0-cp39-...whl", or an sdist's
// .tar.gz or .zip): the requirement's name, and the version the file
// name carries, which is the version pip installs.
func archiveRequirement(line string) (name, version string, ok bool) {
	name, u, ok := directReference(line)
	if !ok || strings.HasPrefix(u, "git+") {
		return "", "", false
	}
	file := path.Base(u)
	switch {
	case strings.HasSuffix(file, ".whl"):
		// {distribution}-{version}(-{build})?-{python}-{abi}-{platform}.whl
		parts := strings.Split(strings.TrimSuffix(file, ".whl"), "-")
		if len(parts) < 5 || pep503(parts[0]) != pep503(name) {
			return "", "", false
		}
		version = parts[1]
	case strings.HasSuffix(file, ".tar.gz"), strings.HasSuffix(file, ".zip"):
		// {name}-{version}.tar.gz, the name written with - or _.
		base := strings.TrimSuffix(strings.TrimSuffix(file, ".tar.gz"), ".zip")
		i := strings.LastIndexByte(base, '-')
		if i <= 0 || pep503(base[:i]) != pep503(name) {
			return "", "", false
		}
		version = base[i+1:]
	default:
		return "", "", false
	}
	if version == "" || !validPyPIName(version) || version[0] < '0' || version[0] > '9' {
		return "", "", false
	}
	return name, version, true
}

// directReference splits a PEP 508 direct reference ("name[extras] @
// URL ; marker  # comment") into the name and the URL without its
// fragment or query.
func directReference(line string) (name, u string, ok bool) {
	line = strings.TrimSpace(line)
	if i := strings.Index(line, " #"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	n, u, direct := strings.Cut(line, " @ ")
	if !direct {
		return "", "", false
	}
	name = strings.TrimSpace(n)
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = strings.TrimSpace(name[:i])
	}
	if i := strings.IndexByte(u, ';'); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimSpace(u)
	if i := strings.IndexAny(u, "#?"); i >= 0 {
		u = u[:i]
	}
	return name, u, validPyPIName(name)
}

// gitlabArchive matches GitLab's address of a repository's archive at a
// ref: <host>/<group>/<repo>/-/archive/<ref>/<repo>-<ref>.tar.gz.
var gitlabArchive = lazyRegexp(`^(https?://[\w.-]+(?::\d+)?)/((?:[\w.-]+/)+[\w.-]+)/-/archive/([^/]+)/[^/]+$`)

// repoArchiveRequirement reads a direct reference to a repository's
// archive at a ref, GitHub's (githubArchive) or GitLab's ("django @
// https://github.com/django/django/archive/refs/tags/4.2.1.zip"): the
// name, the repository as git would fetch it, and the ref, as a git
// requirement gives them.
func repoArchiveRequirement(line string) (name, repo, ref string, ok bool) {
	name, u, ok := directReference(line)
	if !ok {
		return "", "", "", false
	}
	if r, ref, ok := githubArchive(u); ok {
		return name, "git+" + strings.TrimSuffix(r, ".git") + ".git", ref, true
	}
	if m := gitlabArchive().FindStringSubmatch(u); m != nil {
		return name, "git+" + m[1] + "/" + strings.TrimSuffix(m[2], ".git") + ".git", m[3], true
	}
	return "", "", "", false
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
	var meta struct {
		Requires struct {
			Full    string `json:"python_full_version"`
			Version string `json:"python_version"`
		} `json:"requires"`
	}
	if json.Unmarshal(lock["_meta"], &meta) == nil {
		// The Python the lock was made for: the runtime (runtimes.go).
		if p := pipenvPython(meta.Requires.Full, meta.Requires.Version, in.Path); p != nil {
			inv.Packages = append(inv.Packages, p)
		}
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
			// As scalibr marks the develop group's other packages (a
			// package in both groups is default's, added first).
			groups := []string{}
			if group == "develop" {
				groups = []string{"dev"}
			}
			inv.Packages = append(inv.Packages, &extractor.Package{Name: name, Version: strings.TrimPrefix(d.Version, "=="),
				PURLType: "pypi", Location: extractor.LocationFromPath(in.Path),
				SourceCode: &extractor.SourceCodeIdentifier{Repo: d.Git, Commit: d.Ref},
				Metadata:   &osv.DepGroupMetadata{DepGroupVals: groups}})
		}
	}
	return inv, nil
}

// pdmLock is scalibr's pdm.lock extractor, which keeps a git
// dependency's commit but not its repository ({git = URL, revision =
// commit}): the repository is read here, so that its purl names its
// source as a vcs_url, as the other Python lockfiles' git dependencies do.
type pdmLock struct {
	filesystem.Extractor
}

// Extract implements filesystem.Extractor.
func (e pdmLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, b, err := extractKeeping(ctx, e.Extractor, in)
	if err != nil || b == nil {
		return inv, err
	}
	var lock struct {
		Package []struct {
			Name     string   `toml:"name"`
			Version  string   `toml:"version"`
			Git      string   `toml:"git"`
			Revision string   `toml:"revision"`
			Groups   []string `toml:"groups"`
		} `toml:"package"`
	}
	if _, err := toml.Decode(string(b), &lock); err != nil {
		return inv, nil // scalibr read it; it reported what it could not
	}
	repos := map[string]string{}
	groups := map[string][]string{} // name@version -> the groups of its entries
	for _, p := range lock.Package {
		if p.Git != "" && p.Revision != "" {
			repos[pep503(p.Name)+"@"+p.Version+"@"+p.Revision] = p.Git
		}
		k := pep503(p.Name) + "@" + p.Version
		groups[k] = append(groups[k], p.Groups...)
	}
	devGroup := pdmDevGroups(in.FS, in.Path)
	for _, p := range inv.Packages {
		if sc := p.SourceCode; sc != nil && sc.Repo == "" && sc.Commit != "" {
			sc.Repo = repos[pep503(p.Name)+"@"+p.Version+"@"+sc.Commit]
		}
		// scalibr says "dev" for a package of the default group and a
		// development one alike: development-only is in no group but
		// development ones.
		gs := groups[pep503(p.Name)+"@"+p.Version]
		var vals []string
		if len(gs) > 0 && !slices.ContainsFunc(gs, func(g string) bool { return !devGroup(g) }) {
			vals = []string{"dev"}
		}
		p.Metadata = &osv.DepGroupMetadata{DepGroupVals: vals}
	}
	return inv, nil
}

// pdmDevGroups returns whether a pdm.lock group is for development: one
// the pyproject.toml beside it declares as such ([tool.pdm.dev-dependencies],
// PEP 735 [dependency-groups]); where it declares none, or is not there,
// one named so ("dev", "test", "lint", "docs"). The default group and
// the extras of [project.optional-dependencies] are not.
func pdmDevGroups(fsys fs.FS, lockPath string) func(string) bool {
	var py struct {
		Project struct {
			Optional map[string]any `toml:"optional-dependencies"`
		} `toml:"project"`
		Groups map[string]any `toml:"dependency-groups"`
		Tool   struct {
			PDM struct {
				Dev map[string]any `toml:"dev-dependencies"`
			} `toml:"pdm"`
		} `toml:"tool"`
	}
	if fsys != nil {
		if b, err := fs.ReadFile(fsys, path.Join(path.Dir(lockPath), "pyproject.toml")); err == nil {
			_, _ = toml.Decode(string(plainText(b)), &py)
		}
	}
	declared := len(py.Groups)+len(py.Tool.PDM.Dev) > 0
	return func(g string) bool {
		switch {
		case g == "default":
			return false
		case py.Groups[g] != nil || py.Tool.PDM.Dev[g] != nil:
			return true
		case py.Project.Optional[g] != nil || declared:
			return false
		}
		return devRequirementWords[strings.ToLower(g)]
	}
}
