package sbom

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSetupPyForms: the ways a setup.py writes its lists, as setuptools
// reads them: in the call or in a variable, joined with "+", extras as a
// dict literal or dict(...), with comments (brackets in them too), string
// prefixes and triple quotes; a list built by code is not read.
func TestSetupPyForms(t *testing.T) {
	const src = `
from setuptools import setup
# install_requires=['commented==1.0']
BASE = ["six>=1.10", 'attrs==19.3.0']  # [not a list]
TESTS = [r'pytest==6.2.5', """mock==4.0.3"""]
DOCS = [line.strip() for line in open("docs.txt")]
setup(
    name="example",
    install_requires=BASE + ['requests==2.25.1'],
    tests_require=TESTS,
    setup_requires=DOCS,
    extras_require=dict(
        yaml=["PyYAML>=5.1"],
        test=TESTS + ["coverage==5.5"],
    ),
)
`
	lists, extras := setupPyRequirements([]byte(src))
	want := map[string][]string{
		"install_requires": {"six>=1.10", "attrs==19.3.0", "requests==2.25.1"},
		"tests_require":    {"pytest==6.2.5", "mock==4.0.3"},
		"setup_requires":   nil,
	}
	if diff := cmp.Diff(want, lists); diff != "" {
		t.Errorf("lists (-want +got):\n%s", diff)
	}
	wantExtras := map[string][]string{"yaml": {"PyYAML>=5.1"}, "test": {"pytest==6.2.5", "mock==4.0.3", "coverage==5.5"}}
	if diff := cmp.Diff(wantExtras, extras); diff != "" {
		t.Errorf("extras (-want +got):\n%s", diff)
	}

	_, extras = setupPyRequirements([]byte(`EXTRAS = {"socks": ["PySocks>=1.5.6"]}
setup(extras_require=EXTRAS)`))
	if diff := cmp.Diff(map[string][]string{"socks": {"PySocks>=1.5.6"}}, extras); diff != "" {
		t.Errorf("extras by variable (-want +got):\n%s", diff)
	}
}

// TestSetupCfgForms: setup.cfg's lists, one per line or on the key's
// line, with comments; "file:" and "attr:" values name other files.
func TestSetupCfgForms(t *testing.T) {
	const cfg = "[metadata]\nname = x\ninstall_requires = not-options==1.0\n\n[options]\ninstall_requires = click>=7.0\n" +
		"    jinja2==2.11.3  # pinned\n\t# a comment line\n    markupsafe==1.1.1\ntests_require = file: requirements-test.txt\n" +
		"[options.extras_require]\ndev =\n    black==21.5b1\n"
	lists, extras := setupCfgRequirements([]byte(cfg))
	want := map[string][]string{"install_requires": {"click>=7.0", "jinja2==2.11.3", "markupsafe==1.1.1"}, "tests_require": nil}
	if diff := cmp.Diff(want, lists); diff != "" {
		t.Errorf("lists (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string][]string{"dev": {"black==21.5b1"}}, extras); diff != "" {
		t.Errorf("extras (-want +got):\n%s", diff)
	}
}

// TestSetupPyHostile: a setup.py written to make a reader quadratic or
// explode (lists nested 50,000 deep, a variable added to itself 50,000
// times) is read, in time linear in its size, to a bounded result.
func TestSetupPyHostile(t *testing.T) {
	nested := strings.Repeat("install_requires=[", 50_000) + "'a==1'" + strings.Repeat("]", 50_000)
	if lists, _ := setupPyRequirements([]byte(nested)); !slices.Equal(lists["install_requires"], []string{"a==1"}) {
		t.Errorf("nested lists read as %q, want the innermost list's", lists["install_requires"])
	}
	sum := "A = [" + strings.Repeat("'x==1', ", 100) + "]\ninstall_requires = A" + strings.Repeat(" + A", 50_000)
	lists, _ := setupPyRequirements([]byte(sum))
	if n := len(lists["install_requires"]); n != maxSetupRequirements {
		t.Errorf("%d requirements, want the bound, %d", n, maxSetupRequirements)
	}
	unbalanced := strings.Repeat("extras_require = {'a': [", 20_000)
	setupPyRequirements([]byte(unbalanced))
}

// FuzzSetupFile: any setup.py or setup.cfg is read without a panic, and
// every requirement read is text of the file.
func FuzzSetupFile(f *testing.F) {
	for _, p := range []string{"testdata/lock-variants/python-setup-py/setup.py", "testdata/lock-variants/python-setup-vars/setup.py",
		"testdata/lock-variants/python-setup-cfg/setup.cfg"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, strings.HasSuffix(p, ".cfg"))
	}
	f.Add([]byte(`x = ["unterminated`), false)
	f.Add([]byte(`extras_require = {"a": [`), false)
	f.Fuzz(func(t *testing.T, data []byte, cfg bool) {
		read := setupPyRequirements
		if cfg {
			read = setupCfgRequirements
		}
		lists, extras := read(data)
		for _, m := range []map[string][]string{lists, extras} {
			for _, reqs := range m {
				for _, r := range reqs {
					if !strings.Contains(string(data), r) {
						t.Fatalf("%q is not in the file", r)
					}
					pythonRequirement(r)
				}
			}
		}
	})
}
