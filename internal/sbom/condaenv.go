package sbom

import (
	"fmt"
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
	"gopkg.in/yaml.v3"
)

// A conda environment file, environment.yml.
//
// Data-science projects declare their environment for conda rather than
// pip: conda packages ("numpy=1.26.4=py310h5f9d8c6_0", "pandas>=2.0",
// "conda-forge::xarray") and, under "pip:", PyPI requirements pip installs
// into it. Read:
//
//   - the pip requirements, as a requirements file's lines (pyproject.go's
//     reading): PyPI components, matched against PyPI's advisories;
//   - python itself, pinned ("python=3.10.9", "python==3.11"), as the
//     runtime pkg:generic/python (runtimes.go), for its end of life;
//   - every other conda package as pkg:conda/<name>@<version>, at the
//     version it pins (a build string dropped), none for a range. No
//     advisory database covers conda's builds, and a conda package is not
//     always the PyPI package of its name (openssl, libxml2, tk), so they
//     are listed, not matched as PyPI's.

var condaEnv = ownExtractor{name: "python/condaenv", required: isCondaEnv, read: readCondaEnv}

func isCondaEnv(p string) bool {
	b := path.Base(p)
	return b == "environment.yml" || b == "environment.yaml"
}

func readCondaEnv(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	var doc struct {
		Dependencies []any `yaml:"dependencies"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("not a conda environment file: %w", err)
	}
	var pkgs []*extractor.Package
	d := &pyDeclared{path: in.Path, names: map[string]bool{}}
	for _, dep := range doc.Dependencies {
		switch v := dep.(type) {
		case string:
			name, version := condaSpec(v)
			switch {
			case name == "" || name == "pip":
			case name == "python":
				if p := runtimePackage("python", version, in.Path); p != nil {
					pkgs = append(pkgs, p)
				}
			default:
				pkgs = append(pkgs, &extractor.Package{Name: name, Version: version, PURLType: purl.TypeConda, Location: extractor.LocationFromPath(in.Path)})
			}
		case map[string]any:
			reqs, _ := v["pip"].([]any)
			var lines []string
			for _, r := range reqs {
				if s, ok := r.(string); ok && !strings.HasPrefix(strings.TrimSpace(s), "-") {
					lines = append(lines, s) // not "-r requirements.txt", "-e ."
				}
			}
			d.pep508(lines, false)
		}
	}
	return append(pkgs, d.pkgs...), nil
}

// condaSpec reads a conda match spec's name and the version it pins: "" for
// a range or none. "numpy=1.26.4=py310h5f9d8c6_0" and "numpy==1.26.4" pin
// 1.26.4, "python=3.10" pins 3.10, "x264=1!164.3095" an epoch's 1!164.3095;
// "pandas>=2.0", "numpy 1.21.*" and
// "conda-anaconda-tos[version='>=0.2.1']" pin nothing. A channel
// ("conda-forge::numpy") is not part of the name.
func condaSpec(s string) (name, version string) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i] // bracketed options: a version range there pins nothing here
	}
	end := strings.IndexAny(s, "=<>!~ *")
	if end < 0 {
		return strings.ToLower(s), ""
	}
	name, rest := strings.ToLower(s[:end]), strings.TrimSpace(s[end:])
	v, ok := strings.CutPrefix(rest, "==")
	if !ok {
		v, ok = strings.CutPrefix(rest, "=")
	}
	if !ok {
		if rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			v, ok = rest, true // "numpy 1.26.4", the space-separated form
		}
	}
	if !ok {
		return name, ""
	}
	v, _, _ = strings.Cut(strings.TrimSpace(v), "=") // the build string
	v, _, _ = strings.Cut(v, " ")
	if v == "" || strings.ContainsAny(v, "*<>,|") || strings.Contains(v, "!=") {
		return name, "" // a prefix or a range: no one version
	}
	return name, v
}
