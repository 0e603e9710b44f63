package sbom_test

import (
	"path/filepath"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestCondaEnvironments: real conda environment files, against golden
// lists checked by reading each file: pip requirements as PyPI
// components, a pinned python as its runtime, conda packages at the
// version they pin (build strings dropped), ranges without one.
func TestCondaEnvironments(t *testing.T) {
	checkGoldenDirs(t, filepath.Join("testdata", "conda"), 1)
}

// TestCondaSpec: conda's match specs, as conda env export and people
// write them.
func TestCondaSpec(t *testing.T) {
	for _, c := range []struct{ spec, name, version string }{
		{"numpy=1.26.4=py310h5f9d8c6_0", "numpy", "1.26.4"},
		{"numpy==1.26.4", "numpy", "1.26.4"},
		{"numpy 1.26.4", "numpy", "1.26.4"},
		{"conda-forge::xarray=2024.1.0", "xarray", "2024.1.0"},
		{"x264=1!164.3095=h166bdaf_2", "x264", "1!164.3095"},
		{"python >=3.8", "python", ""},
		{"numpy 1.21.*", "numpy", ""},
		{"pandas>=2.0,<3", "pandas", ""},
		{"conda-anaconda-tos[version='>=0.2.1']", "conda-anaconda-tos", ""},
		{"PyYAML", "pyyaml", ""},
	} {
		if name, version := sbom.CondaSpec(c.spec); name != c.name || version != c.version {
			t.Errorf("condaSpec(%q) = %q, %q; want %q, %q", c.spec, name, version, c.name, c.version)
		}
	}
}
