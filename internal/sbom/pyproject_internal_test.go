package sbom

import (
	"testing"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
)

// TestPythonRequirement: PEP 508 requirements read as a requirements
// file's lines are: a pin, the lowest of a bound, or no version.
func TestPythonRequirement(t *testing.T) {
	for _, c := range []struct{ req, name, version, bound string }{
		{"requests==2.25.0", "requests", "2.25.0", ""},
		{"requests[socks] == 2.25.0 ; python_version < '3.8'", "requests", "2.25.0", ""},
		{"flask>=2.0,<3", "flask", "2.0", ">=2.0"},
		{"django ~= 4.2.1", "django", "4.2.1", "~=4.2.1"},
		{"idna >= 3.4, != 3.5", "idna", "3.4", ">=3.4"},
		{"urllib3 (>=1.21.1)", "urllib3", "1.21.1", ">=1.21.1"},
		{"numpy<2", "numpy", "", ""},
		{"pytest", "pytest", "", ""},
		{"pip @ https://github.com/pypa/pip/archive/1.3.1.zip", "pip", "", ""},
		{"zope.interface===5.4.0", "zope.interface", "5.4.0", ""},
		{"six==1.*", "six", "", ""},
		{"", "", "", ""},
	} {
		name, version, bound := pythonRequirement(c.req)
		if name != c.name || version != c.version || bound != c.bound {
			t.Errorf("pythonRequirement(%q) = %q, %q, %q; want %q, %q, %q", c.req, name, version, bound, c.name, c.version, c.bound)
		}
	}
	for _, c := range []struct{ spec, version, bound string }{
		{"2.25.0", "2.25.0", ""}, {"==2.25.0", "2.25.0", ""}, {"^1.2", "1.2", "^1.2"}, {"~1.2.3", "1.2.3", "~1.2.3"},
		{">=1.2,<2.0", "1.2", ">=1.2,<2.0"}, {"*", "", ""}, {"<2.0", "", ""}, {"1.*", "", ""},
	} {
		if v, b := poetryVersion(c.spec); v != c.version || b != c.bound {
			t.Errorf("poetryVersion(%q) = %q, %q; want %q, %q", c.spec, v, b, c.version, c.bound)
		}
	}
}

// FuzzPyproject: any bytes read as a pyproject.toml, or as the other TOML
// files Sentinel reads itself (a Pipfile, a Gopkg.lock), fail with an error
// or give named packages.
func FuzzPyproject(f *testing.F) {
	f.Add([]byte("[project]\ndependencies = [\"flask>=2.0\", \"requests==2.25.0\"]\n[project.optional-dependencies]\ntest = [\"pytest==7.0\"]\n"))
	f.Add([]byte("[tool.poetry.dependencies]\npython = \"^3.8\"\nrequests = \"^2.0\"\ncelery = {version = \"^4.3\", extras = [\"redis\"]}\n[tool.poetry.group.dev.dependencies]\nblack = \"*\"\n"))
	f.Add([]byte("[dependency-groups]\ndev = [\"ruff==0.4.0\", {include-group = \"test\"}]\n"))
	f.Add([]byte("[project]\ndependencies = [\"x @ git+https://github.com/a/x@v1.2.3\"]\n[tool.poetry.dependencies]\ny = {git = \"https://github.com/a/y\", tag = \"2.0.0\"}\n"))
	f.Add([]byte("[packages]\nrequests = \"==2.18.0\"\nraven = {extras = [\"flask\"], version = \"==5.27.1\"}\nx = {git = \"https://github.com/a/x.git\", ref = \"v0.1.2\"}\n[dev-packages]\npytest = \"*\"\n[docs]\nfuro = \">=2024.1\"\n"))
	f.Add([]byte("[[projects]]\n  name = \"github.com/a/b\"\n  revision = \"5cbcec7\"\n  version = \"v2.1.0\"\n[[projects]]\n  branch = \"master\"\n  name = \"golang.org/x/sys\"\n  revision = \"1250054\"\n  source = \"github.com/fork/sys\"\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for name, read := range map[string]func(*filesystem.ScanInput, []byte) ([]*extractor.Package, error){"pyproject.toml": readPyproject, "Pipfile": readPipfile, "Gopkg.lock": readGopkgLock} {
			pkgs, err := read(&filesystem.ScanInput{Path: name}, b)
			if err != nil {
				continue
			}
			for _, p := range pkgs {
				if p.Name == "" {
					t.Fatalf("%s: package without a name: %+v", name, p)
				}
			}
		}
	})
}
