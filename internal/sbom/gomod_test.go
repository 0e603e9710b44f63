package sbom_test

import (
	"bytes"
	"context"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

func stdlib(tb testing.TB, res *sbom.Result) sentinel.Component {
	tb.Helper()
	for _, c := range res.Components {
		if c.Name == "stdlib" {
			return c
		}
	}
	tb.Fatal("no stdlib component")
	return sentinel.Component{}
}

// TestGoStdlibVersion: the standard library is versioned by the toolchain
// directive; a go directive alone is a minimum, so the library has no
// version (and matches no advisory), says the minimum in a property, and
// the file gets a warning.
func TestGoStdlibVersion(t *testing.T) {
	// go-vulndb's go.mod: "go 1.26.0" and "toolchain go1.26.2".
	res := mustExtract(t, filepath.Join(lockfiles, "go-vulndb"))
	c := stdlib(t, res)
	if c.Purl != "pkg:golang/stdlib@1.26.2" || c.Properties[sbom.PropGoToolchain] != "go1.26.2" || len(res.Warnings) != 0 {
		t.Errorf("go-vulndb stdlib = %+v, warnings %v; want 1.26.2 from the toolchain directive", c, res.Warnings)
	}
	// go-pkgsite's go.mod: "go 1.26.0" only.
	res = mustExtract(t, filepath.Join(lockfiles, "go-pkgsite"))
	c = stdlib(t, res)
	if c.Purl != "pkg:golang/stdlib" || c.Version != "" || c.Properties[sbom.PropGoMinimum] != "1.26.0" {
		t.Errorf("go-pkgsite stdlib = %+v, want no version and go_minimum 1.26.0", c)
	}
	if len(res.Warnings) != 1 || res.Warnings[0].Path != "go.mod" || !strings.Contains(res.Warnings[0].Reason, "minimum") {
		t.Errorf("warnings = %+v, want one for go.mod", res.Warnings)
	}
	// The property reaches the SBOM.
	b, err := sbom.Marshal(sbom.NewBOM(res.Components, sbom.BOMOptions{Now: fixedNow}))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"name": "sentinel:go_minimum",`)) {
		t.Error("the SBOM lacks the sentinel:go_minimum property")
	}
}

// TestGoModuleCache: a dependency's go.mod in the module cache is not a
// project, and its go line is not the standard library's.
func TestGoModuleCache(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "go.mod"), mustRead(t, filepath.Join(lockfiles, "go-vulndb", "go.mod")))
	dep := mustRead(t, filepath.Join("testdata", "gomod", "deps-dev-resolve", "go.mod"))
	mustWrite(t, filepath.Join(root, "pkg", "mod", "deps.dev", "util", "resolve@v0.0.0-20260422013440-90c27f84dd6f", "go.mod"), dep)
	res := mustExtract(t, root)
	want := mustExtract(t, filepath.Join(lockfiles, "go-vulndb"))
	if diff := cmp.Diff(nameVersions(want.Components), nameVersions(res.Components)); diff != "" {
		t.Errorf("the module cache's go.mod was read (-root only +got):\n%s", diff)
	}
	for _, f := range res.Files {
		if f.Path != "go.mod" {
			t.Errorf("read %s", f.Path)
		}
	}
}

// TestGoReplaceLocal: replace targets that are directories (deps.dev's
// resolve module builds its siblings from ../maven, ../pypi, ../semver)
// are not components, with or without a version.
func TestGoReplaceLocal(t *testing.T) {
	res := mustExtract(t, filepath.Join("testdata", "gomod", "deps-dev-resolve"))
	for _, c := range res.Components {
		if strings.HasPrefix(c.Name, ".") || strings.HasPrefix(c.Name, "/") || (c.Version == "" && c.Name != "stdlib") {
			t.Errorf("local replace target as a component: %+v", c)
		}
	}
	for _, gone := range []string{"deps.dev/util/maven", "deps.dev/util/pypi", "deps.dev/util/semver"} {
		for _, c := range res.Components {
			if c.Name == gone {
				t.Errorf("%s is replaced by a local directory but listed: %+v", gone, c)
			}
		}
	}
	// Everything the file requires but the replaced modules.
	want := slices.DeleteFunc(goModRead(t, filepath.Join("testdata", "gomod", "deps-dev-resolve")), func(nv string) bool {
		return strings.HasPrefix(nv, "deps.dev/util/maven@") || strings.HasPrefix(nv, "deps.dev/util/pypi@") || strings.HasPrefix(nv, "deps.dev/util/semver@")
	})
	if diff := cmp.Diff(want, nameVersions(res.Components)); diff != "" {
		t.Errorf("components mismatch (-want +got):\n%s", diff)
	}
}

// TestGoReplaceRoots: a direct requirement that a replace directive swaps
// is still direct: the version it is replaced by (x/text 0.3.8 for
// 0.3.7), or the project's folder that replaces it (./localyaml, a project
// of its own, gopkg.in/yaml.v2).
func TestGoReplaceRoots(t *testing.T) {
	res := mustExtract(t, filepath.Join("testdata", "gomod", "replace"))
	var root, local *sentinel.Component
	for i, p := range res.Projects {
		switch p.Name {
		case "example.com/x":
			root = &res.Projects[i]
		case "gopkg.in/yaml.v2":
			local = &res.Projects[i]
		}
	}
	if root == nil || local == nil {
		t.Fatalf("projects %+v: want example.com/x and the local gopkg.in/yaml.v2", res.Projects)
	}
	for _, want := range []string{"pkg:golang/golang.org/x/text@0.3.8", local.Purl, "pkg:golang/github.com/gin-gonic/gin@1.7.0"} {
		if !slices.Contains(root.DependsOn, want) {
			t.Errorf("the module's direct dependencies %v lack %s", root.DependsOn, want)
		}
	}
}

// TestScalibrLogs: osv-scalibr's log lines (here requirements.txt's
// `openAndExtractFromFile(...)` for an include it cannot open) go to
// Options.Logger, never to the standard logger's stderr.
func TestScalibrLogs(t *testing.T) {
	root := t.TempDir()
	// A real requirements file plus an include that does not exist.
	req := append(mustRead(t, filepath.Join(lockfiles, "requirements-bitnami-vulndb-config", "requirements.txt")), []byte("-r missing-constraints.txt\n")...)
	mustWrite(t, filepath.Join(root, "requirements.txt"), req)

	var std bytes.Buffer
	log.SetOutput(&std)
	defer log.SetOutput(os.Stderr)

	var got bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&got, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if _, err := sbom.Extract(context.Background(), root, sbom.Options{Logger: logger}); err != nil {
		t.Fatal(err)
	}
	if std.Len() != 0 {
		t.Errorf("scalibr wrote to the standard logger: %q", std.String())
	}
	if !strings.Contains(got.String(), "openAndExtractFromFile") || !strings.Contains(got.String(), "source=osv-scalibr") {
		t.Errorf("Options.Logger got %q, want scalibr's warning", got.String())
	}
	// Without a Logger, nothing is written anywhere.
	got.Reset()
	if _, err := sbom.Extract(context.Background(), root, sbom.Options{}); err != nil {
		t.Fatal(err)
	}
	if std.Len() != 0 || got.Len() != 0 {
		t.Errorf("without a Logger: std %q, previous logger %q", std.String(), got.String())
	}
}

// TestGoModuleRequiredTwice: a go.mod that requires one module at two
// versions (as older go.mod files written by hand or merged do) builds
// with the higher, which minimal version selection picks: `go list -m
// all` lists that one alone. The other modules are as written.
func TestGoModuleRequiredTwice(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "go.mod"), []byte(`module example.com/twice

go 1.12

require (
	github.com/pkg/errors v0.8.0
	golang.org/x/net v0.0.0-20180811021610-c39426892332
	golang.org/x/net v0.0.0-20191003171128-d98b1b443823 // indirect
	golang.org/x/text v0.3.0
)
`))
	var got []string
	for _, c := range mustExtract(t, dir).Components {
		if c.Name != "stdlib" {
			got = append(got, c.Purl)
		}
	}
	slices.Sort(got)
	want := []string{"pkg:golang/github.com/pkg/errors@0.8.0", "pkg:golang/golang.org/x/net@0.0.0-20191003171128-d98b1b443823",
		"pkg:golang/golang.org/x/text@0.3.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
