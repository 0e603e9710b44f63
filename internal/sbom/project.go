package sbom

import (
	"bytes"
	"encoding/json"
	"golang.org/x/text/encoding/unicode"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	packageurl "github.com/package-url/packageurl-go"
	"gopkg.in/yaml.v3"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Projects.
//
// The scanned project itself is not a dependency: it is what the SBOM
// describes (CycloneDX metadata.component, as `npm sbom` writes it). Its
// name, version, purl and license come from its manifest. Every manifest
// below the root that names a project (a workspace member, a package of a
// monorepo) is a project too; NewBOM writes the one at the root as
// metadata.component and the others as components of type application.
//
// A lockfile often lists the project itself (Cargo.lock and uv.lock list
// the root crate or package, without a registry source). Such a local entry
// with the name of a project at or below the lockfile's directory is that
// project, not a dependency: it leaves Result.Components, and its edges
// become the project's direct dependencies.

// projectManifests are the manifest base names that name a project, in the
// order in which one of them is chosen as the root project when several sit
// at the root.
var projectManifests = []string{
	"package.json", "Cargo.toml", "pyproject.toml", "composer.json", "pubspec.yaml", "mix.exs", "go.mod", "pom.xml",
}

func isProjectManifest(base string) bool { return slices.Contains(projectManifests, base) }

// project is one manifest's project.
type project struct {
	comp sentinel.Component // Type "application", Locations [manifest]
	// deps are the names of the dependencies the manifest declares,
	// normalised as the ecosystem compares names; used when no lockfile
	// says which of its packages are direct.
	deps []string
	// priority orders projects of one directory (projectManifests).
	priority int
	// dir is the directory of an unnamed project (linkProjects), which
	// is located at a lockfile elsewhere: the workspace root's, or
	// restore's obj/project.assets.json.
	dir string
	// fromLock is set on a project a lockfile names (lockIndex.self),
	// which a manifest of the same directory replaces.
	fromLock bool
}

// directory is the project's directory.
func (p project) directory() string {
	if p.dir != "" {
		return p.dir
	}
	return path.Dir(p.comp.Locations[0])
}

// readProject reads the project a manifest names. ok is false when the
// manifest names none (a Cargo virtual workspace, a package.json without a
// name) or cannot be read; a manifest is never an error of the scan.
func readProject(fsys fs.FS, p string, data []byte) (project, bool) {
	base := path.Base(p)
	var pr project
	var ok bool
	switch base {
	case "package.json":
		pr, ok = npmProject(data)
	case "Cargo.toml":
		pr, ok = cargoProject(fsys, p, data)
	case "pyproject.toml":
		pr, ok = pyProject(data)
	case "composer.json":
		pr, ok = composerProject(data)
	case "pubspec.yaml":
		pr, ok = pubProject(data)
	case "mix.exs":
		pr, ok = mixProject(data)
	case "go.mod":
		pr, ok = goProject(p, data)
	case "pom.xml":
		pr, ok = pomProject(fsys, p, data)
	}
	if !ok || pr.comp.Name == "" {
		return project{}, false
	}
	pr.priority = slices.Index(projectManifests, base)
	pr.comp.Type = "application"
	pr.comp.Locations = []string{p}
	for i, d := range pr.deps {
		pr.deps[i] = purl.NormalizeName(pr.comp.Ecosystem, d)
	}
	slices.Sort(pr.deps)
	pr.deps = slices.Compact(pr.deps)
	return pr, true
}

// projectPurl builds a project's purl; version may be empty.
func projectPurl(typ, ns, name, version string) string {
	return packageurl.NewPackageURL(typ, ns, name, version, nil, "").ToString()
}

// npmProjectPurl is projectPurl for an npm package name, its scope the
// namespace ("@babel/core").
func npmProjectPurl(name, version string) string {
	ns, n := "", name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		ns, n = name[:i], name[i+1:]
	}
	return projectPurl("npm", ns, n, version)
}

func npmProject(data []byte) (project, bool) {
	var m struct {
		Name     string          `json:"name"`
		Version  string          `json:"version"`
		License  json.RawMessage `json:"license"`
		Licenses []struct {
			Type string `json:"type"`
		} `json:"licenses"`
		Dependencies         map[string]string `json:"dependencies"`
		DevDependencies      map[string]string `json:"devDependencies"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
		PeerDependencies     map[string]string `json:"peerDependencies"`
	}
	if json.Unmarshal(data, &m) != nil || !npmName(m.Name) {
		return project{}, false
	}
	pr := project{comp: sentinel.Component{
		Purl: npmProjectPurl(m.Name, m.Version), Ecosystem: "npm", Name: m.Name, Version: m.Version,
		Licenses: npmLicenses(m.License),
	}}
	for _, l := range m.Licenses {
		pr.comp.Licenses = appendLicense(pr.comp.Licenses, l.Type)
	}
	for _, deps := range []map[string]string{m.Dependencies, m.DevDependencies, m.OptionalDependencies, m.PeerDependencies} {
		for d := range deps {
			pr.deps = append(pr.deps, d)
		}
	}
	return pr, true
}

// npmLicenses reads package.json's license: a string (an SPDX expression,
// or "SEE LICENSE IN ..." / "UNLICENSED"), or the deprecated {"type": ...}.
func npmLicenses(raw json.RawMessage) []string {
	// raw is a value of a document already decoded, so valid JSON: a
	// string without escapes is its bytes between the quotes. Most
	// packages of a package-lock.json have one.
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && bytes.IndexByte(raw[1:n-1], '\\') < 0 && utf8.Valid(raw) {
		return appendLicense(nil, string(raw[1:n-1]))
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return appendLicense(nil, s)
	}
	var o struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return appendLicense(nil, o.Type)
	}
	return nil
}

// appendLicense appends a non-empty license string once.
func appendLicense(ls []string, l string) []string {
	l = strings.TrimSpace(l)
	if l == "" || slices.Contains(ls, l) {
		return ls
	}
	return append(ls, l)
}

// cargoField is a Cargo.toml field that may be inherited from the
// workspace ({ workspace = true }).
type cargoField struct {
	value     string
	workspace bool
}

// UnmarshalTOML implements toml.Unmarshaler.
func (f *cargoField) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		f.value = v
	case map[string]any:
		f.workspace, _ = v["workspace"].(bool)
	}
	return nil
}

type cargoManifest struct {
	Package *struct {
		Name    string     `toml:"name"`
		Version cargoField `toml:"version"`
		License cargoField `toml:"license"`
	} `toml:"package"`
	Workspace *struct {
		Members []string `toml:"members"`
		Package struct {
			Version string `toml:"version"`
			License string `toml:"license"`
		} `toml:"package"`
	} `toml:"workspace"`
	Dependencies      map[string]toml.Primitive `toml:"dependencies"`
	DevDependencies   map[string]toml.Primitive `toml:"dev-dependencies"`
	BuildDependencies map[string]toml.Primitive `toml:"build-dependencies"`
	Target            map[string]struct {
		Dependencies      map[string]toml.Primitive `toml:"dependencies"`
		DevDependencies   map[string]toml.Primitive `toml:"dev-dependencies"`
		BuildDependencies map[string]toml.Primitive `toml:"build-dependencies"`
	} `toml:"target"`
}

func cargoProject(fsys fs.FS, p string, data []byte) (project, bool) {
	var m cargoManifest
	md, err := toml.Decode(string(data), &m)
	if err != nil || m.Package == nil || m.Package.Name == "" {
		return project{}, false
	}
	version, license := m.Package.Version.value, m.Package.License.value
	if m.Package.Version.workspace || m.Package.License.workspace {
		// Inherited from the workspace root: this manifest, or the nearest
		// Cargo.toml above it with a [workspace] table.
		ws := m.Workspace
		for dir := path.Dir(p); ws == nil && dir != "."; {
			dir = path.Dir(dir)
			b, err := fs.ReadFile(fsys, path.Join(dir, "Cargo.toml"))
			if err != nil {
				continue
			}
			var root cargoManifest
			if _, err := toml.Decode(string(b), &root); err == nil && root.Workspace != nil {
				ws = root.Workspace
			}
		}
		if ws != nil {
			if m.Package.Version.workspace {
				version = ws.Package.Version
			}
			if m.Package.License.workspace {
				license = ws.Package.License
			}
		}
	}
	pr := project{comp: sentinel.Component{
		Purl: projectPurl("cargo", "", m.Package.Name, version), Ecosystem: "crates.io",
		Name: m.Package.Name, Version: version, Licenses: appendLicense(nil, license),
	}}
	addDeps := func(deps map[string]toml.Primitive) {
		for key, prim := range deps {
			// `alias = { package = "real-name", ... }` renames a dependency.
			var spec struct {
				Package string `toml:"package"`
			}
			if md.PrimitiveDecode(prim, &spec) == nil && spec.Package != "" {
				key = spec.Package
			}
			pr.deps = append(pr.deps, key)
		}
	}
	addDeps(m.Dependencies)
	addDeps(m.DevDependencies)
	addDeps(m.BuildDependencies)
	for _, t := range m.Target {
		addDeps(t.Dependencies)
		addDeps(t.DevDependencies)
		addDeps(t.BuildDependencies)
	}
	return pr, true
}

// pep508Name is the distribution name at the start of a PEP 508
// requirement ("requests[socks]>=2.0; python_version<'3.8'").
var pep508Name = lazyRegexp(`^\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)

// pyprojectManifest is what Sentinel reads of a pyproject.toml: PEP 621's
// project table, PEP 735's dependency groups and Poetry's own tables.
type pyprojectManifest struct {
	Project *struct {
		Name                 string              `toml:"name"`
		Version              string              `toml:"version"`
		License              any                 `toml:"license"`
		Dependencies         []string            `toml:"dependencies"`
		OptionalDependencies map[string][]string `toml:"optional-dependencies"`
	} `toml:"project"`
	DependencyGroups map[string][]any `toml:"dependency-groups"`
	Tool             struct {
		Poetry *struct {
			Name            string         `toml:"name"`
			Version         string         `toml:"version"`
			License         string         `toml:"license"`
			Dependencies    map[string]any `toml:"dependencies"`
			DevDependencies map[string]any `toml:"dev-dependencies"`
			Group           map[string]struct {
				Dependencies map[string]any `toml:"dependencies"`
			} `toml:"group"`
		} `toml:"poetry"`
		// UV is uv's table: its dev-dependencies (before PEP 735
		// groups, which uv still reads), and where packages come from
		// ({workspace = true} for a member, {path = "..."} for a folder).
		UV struct {
			DevDependencies []string                  `toml:"dev-dependencies"`
			Sources         map[string]map[string]any `toml:"sources"`
		} `toml:"uv"`
	} `toml:"tool"`
}

func pyProject(data []byte) (project, bool) {
	var m pyprojectManifest
	if _, err := toml.Decode(string(data), &m); err != nil {
		return project{}, false
	}
	var pr project
	pr.comp.Ecosystem = "PyPI"
	if p := m.Project; p != nil {
		pr.comp.Name, pr.comp.Version = p.Name, p.Version
		switch l := p.License.(type) {
		case string: // PEP 639: an SPDX expression
			pr.comp.Licenses = appendLicense(nil, l)
		case map[string]any: // PEP 621: {text = "..."} or {file = "..."}
			if t, ok := l["text"].(string); ok && !strings.Contains(t, "\n") {
				pr.comp.Licenses = appendLicense(nil, t)
			}
		}
		reqs := slices.Clone(p.Dependencies)
		for _, g := range p.OptionalDependencies {
			reqs = append(reqs, g...)
		}
		for _, r := range reqs {
			if mm := pep508Name().FindStringSubmatch(r); mm != nil {
				pr.deps = append(pr.deps, mm[1])
			}
		}
	}
	for _, g := range m.DependencyGroups {
		for _, r := range g {
			if s, ok := r.(string); ok {
				if mm := pep508Name().FindStringSubmatch(s); mm != nil {
					pr.deps = append(pr.deps, mm[1])
				}
			}
		}
	}
	if po := m.Tool.Poetry; po != nil {
		if pr.comp.Name == "" {
			pr.comp.Name = po.Name
		}
		if pr.comp.Version == "" {
			pr.comp.Version = po.Version
		}
		if len(pr.comp.Licenses) == 0 {
			pr.comp.Licenses = appendLicense(nil, po.License)
		}
		groups := []map[string]any{po.Dependencies, po.DevDependencies}
		for _, g := range po.Group {
			groups = append(groups, g.Dependencies)
		}
		for _, g := range groups {
			for d := range g {
				if d != "python" {
					pr.deps = append(pr.deps, d)
				}
			}
		}
	}
	if pr.comp.Name == "" {
		return project{}, false
	}
	pr.comp.Name = purl.NormalizeName("PyPI", pr.comp.Name)
	pr.comp.Purl = projectPurl("pypi", "", pr.comp.Name, pr.comp.Version)
	return pr, true
}

func composerProject(data []byte) (project, bool) {
	var m struct {
		Name       string            `json:"name"`
		Version    string            `json:"version"`
		License    json.RawMessage   `json:"license"`
		Require    map[string]string `json:"require"`
		RequireDev map[string]string `json:"require-dev"`
	}
	if json.Unmarshal(data, &m) != nil || m.Name == "" {
		return project{}, false
	}
	ns, n, _ := strings.Cut(strings.ToLower(m.Name), "/")
	if n == "" {
		ns, n = "", ns
	}
	pr := project{comp: sentinel.Component{
		Purl: projectPurl("composer", ns, n, m.Version), Ecosystem: "Packagist", Name: m.Name, Version: m.Version,
		Licenses: composerLicenses(m.License),
	}}
	for _, deps := range []map[string]string{m.Require, m.RequireDev} {
		for d := range deps {
			if strings.Contains(d, "/") { // not php, ext-*, lib-*, composer-plugin-api
				pr.deps = append(pr.deps, d)
			}
		}
	}
	return pr, true
}

// composerLicenses reads composer's license: a string or a list (a
// disjunction, "MIT or GPL").
func composerLicenses(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return appendLicense(nil, s)
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		var out []string
		for _, l := range list {
			out = appendLicense(out, l)
		}
		return out
	}
	return nil
}

func pubProject(data []byte) (project, bool) {
	var m struct {
		Name            string         `yaml:"name"`
		Version         string         `yaml:"version"`
		Dependencies    map[string]any `yaml:"dependencies"`
		DevDependencies map[string]any `yaml:"dev_dependencies"`
	}
	if yaml.Unmarshal(data, &m) != nil || m.Name == "" {
		return project{}, false
	}
	pr := project{comp: sentinel.Component{
		Purl: projectPurl("pub", "", m.Name, m.Version), Ecosystem: "Pub", Name: m.Name, Version: m.Version,
	}}
	for _, deps := range []map[string]any{m.Dependencies, m.DevDependencies} {
		for d := range deps {
			pr.deps = append(pr.deps, d)
		}
	}
	return pr, true
}

// mix.exs is Elixir code. The project function's keyword list is read with
// regular expressions: app and version (a literal, or a module attribute
// such as @version), the package's licenses and the deps tuples.
var (
	mixApp        = lazyRegexp(`\bapp:\s*:([a-z_][a-zA-Z0-9_]*)`)
	mixVersion    = lazyRegexp(`\bversion:\s*(?:"([^"]+)"|@([a-z_][a-zA-Z0-9_]*))`)
	mixAttr       = lazyRegexp(`(?m)^\s*@([a-z_][a-zA-Z0-9_]*)\s+"([^"]+)"`)
	mixLicenses   = lazyRegexp(`\blicenses:\s*\[([^\]]*)\]`)
	mixString     = lazyRegexp(`"([^"]+)"`)
	mixDepsBlock  = lazyRegexp(`(?s)defp?\s+deps(?:\(\))?\s+do\s*\[(.*?)\]\s*end`)
	mixDepsTuples = lazyRegexp(`\{\s*:([a-z_][a-zA-Z0-9_]*)\s*,`)
	// mixDepTuple is one deps tuple with its options, which hold no
	// braces: `{:credo, ">= 0.0.0", only: [:dev, :test], runtime: false}`.
	mixDepTuple = lazyRegexp(`\{\s*:([a-z_][a-zA-Z0-9_]*)\s*,([^{}]*)\}`)
	mixOnly     = lazyRegexp(`\bonly:\s*(\[[^\]]*\]|:[a-z_]+|~w[(\[][^)\]]*[)\]]a?)`)
	mixPath     = lazyRegexp(`\bpath:\s*"([^"]+)"`)
	mixAppsPath = lazyRegexp(`\bapps_path:\s*"([^"]+)"`)
)

// mixDep is a dependency a mix.exs declares; dev when its "only:" names
// environments and :prod is not one of them (only: :test, only: [:dev,
// :test], only: ~w(dev test)a).
type mixDep struct {
	name string
	dev  bool
	path string // a dependency on a folder of the project ("path: ...")
}

// mixDeclared reads the deps of a mix.exs's deps function.
func mixDeclared(data []byte) []mixDep {
	// A comment names nothing: a dependency commented out, a "# prod"
	// note inside an only: list.
	b := mixDepsBlock().FindSubmatch(stripHashComments(data))
	if b == nil {
		return nil
	}
	var out []mixDep
	for _, t := range mixDepTuple().FindAllSubmatch(b[1], -1) {
		d := mixDep{name: string(t[1])}
		if o := mixOnly().FindSubmatch(t[2]); o != nil {
			d.dev = !bytes.Contains(o[1], []byte("prod"))
		}
		if p := mixPath().FindSubmatch(t[2]); p != nil {
			d.path = string(p[1])
		}
		out = append(out, d)
	}
	return out
}

func mixProject(data []byte) (project, bool) {
	s := string(stripHashComments(data))
	app := mixApp().FindStringSubmatch(s)
	if app == nil {
		return project{}, false
	}
	pr := project{comp: sentinel.Component{Ecosystem: "Hex", Name: app[1]}}
	if v := mixVersion().FindStringSubmatch(s); v != nil {
		pr.comp.Version = v[1]
		if v[2] != "" {
			for _, a := range mixAttr().FindAllStringSubmatch(s, -1) {
				if a[1] == v[2] {
					pr.comp.Version = a[2]
				}
			}
		}
	}
	if l := mixLicenses().FindStringSubmatch(s); l != nil {
		for _, q := range mixString().FindAllStringSubmatch(l[1], -1) {
			pr.comp.Licenses = appendLicense(pr.comp.Licenses, q[1])
		}
	}
	if b := mixDepsBlock().FindStringSubmatch(s); b != nil {
		for _, d := range mixDepsTuples().FindAllStringSubmatch(b[1], -1) {
			pr.deps = append(pr.deps, d[1])
		}
	}
	pr.comp.Purl = projectPurl("hex", "", pr.comp.Name, pr.comp.Version)
	return pr, true
}

func goProject(p string, data []byte) (project, bool) {
	f, err := parseGoMod(p, data)
	if err != nil || f.Module == nil || f.Module.Mod.Path == "" {
		return project{}, false
	}
	mod := f.Module.Mod.Path
	ns, n := "", mod
	if i := strings.LastIndexByte(mod, '/'); i >= 0 {
		ns, n = mod[:i], mod[i+1:]
	}
	pr := project{comp: sentinel.Component{Purl: projectPurl("golang", ns, n, ""), Ecosystem: "Go", Name: mod}}
	for _, r := range f.Require {
		if !r.Indirect {
			pr.deps = append(pr.deps, r.Mod.Path)
		}
	}
	return pr, true
}

// trimBOM drops a UTF-8 byte order mark, which some editors write at the
// start of JSON manifests.
func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\ufeff")) }

// plainText is a text file's content as UTF-8 without a byte order mark.
// A file saved as UTF-16 with its mark is converted: Windows PowerShell
// 5 writes UTF-16 for ">" and Out-File, so `pip freeze > requirements.txt`
// or `syft ... > sbom.json` there gives such a file. The formats read here
// are text, and no binary one (bun.lockb, an executable, an archive)
// begins with either mark.
func plainText(b []byte) []byte {
	if len(b) >= 2 && (b[0] == 0xff && b[1] == 0xfe || b[0] == 0xfe && b[1] == 0xff) {
		if u, err := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder().Bytes(b); err == nil {
			return utf8Declared(trimBOM(u))
		}
	}
	return trimBOM(b)
}

// xmlUTF16 is the encoding an XML declaration gives a UTF-16 file.
var xmlUTF16 = lazyRegexp(`^(<\?xml[^>]*encoding\s*=\s*["'])(?i:utf-16(?:le|be)?)(["'])`)

// utf8Declared makes the XML declaration of a file converted from UTF-16
// say what its bytes now are.
func utf8Declared(b []byte) []byte {
	return xmlUTF16().ReplaceAll(b, []byte("${1}UTF-8${2}"))
}
