package sbom_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// resolvedLibraries reads the "libraries" of a project.assets.json or
// .deps.json for the test: name@version of each package, and of each
// runtime pack under its NuGet name.
func resolvedLibraries(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Libraries map[string]struct{ Type string }
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for key, l := range doc.Libraries {
		name, version, _ := strings.Cut(key, "/")
		switch l.Type {
		case "package":
			out = append(out, name+"@"+version)
		case "runtimepack":
			out = append(out, strings.TrimPrefix(name, "runtimepack.")+"@"+version)
		}
	}
	slices.Sort(out)
	return out
}

func nugetComponents(res *sbom.Result, file string) []string {
	var out []string
	for _, c := range res.Components {
		if slices.Contains(c.Locations, file) {
			out = append(out, c.Name+"@"+c.Version)
		}
	}
	slices.Sort(out)
	return out
}

func component(t *testing.T, res *sbom.Result, purl string) sentinel.Component {
	t.Helper()
	for _, c := range res.Components {
		if c.Purl == purl {
			return c
		}
	}
	t.Fatalf("no component %s", purl)
	return sentinel.Component{}
}

// TestDotnetBuildOutputs: what restore (obj/project.assets.json) and
// build (<App>.deps.json) resolved, from real outputs: every package
// restored or loaded, none of the projects, a self-contained build's
// runtime under its NuGet name, and the graph. A project file restored
// beside obj/ is read from what restore resolved, not from its ranges.
func TestDotnetBuildOutputs(t *testing.T) {
	root := "testdata/lock-variants"
	res, err := sbom.Extract(context.Background(), root, sbom.Options{Kinds: sbom.Languages})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{
		"dotnet-restored/CycloneDX/obj/project.assets.json",
		"dotnet-restored/CycloneDX/bin/Release/netcoreapp2.1/CycloneDX.deps.json",
		"dotnet-multi-target/obj/project.assets.json",
		"dotnet-selfcontained/net8-app-single-file.deps.json",
	} {
		want := resolvedLibraries(t, filepath.Join(root, f))
		if len(want) == 0 {
			t.Fatalf("%s: no libraries", f)
		}
		if d := cmp.Diff(want, nugetComponents(res, f)); d != "" {
			t.Errorf("%s (-libraries +components):\n%s", f, d)
		}
	}
	if got := nugetComponents(res, "dotnet-restored/CycloneDX/CycloneDX.csproj"); len(got) > 0 {
		t.Errorf("the restored project file was read too: %v", got)
	}
	for _, e := range res.Errors {
		if strings.HasPrefix(e.Path, "dotnet-") {
			t.Errorf("error: %+v", e)
		}
	}

	// The runtime a self-contained build carries, and what loads it.
	rt := "pkg:nuget/Microsoft.NETCore.App.Runtime.win-x64@8.0.14"
	component(t, res, rt)
	humanizer := component(t, res, "pkg:nuget/Humanizer@2.14.1")
	if !slices.Contains(humanizer.DependsOn, "pkg:nuget/Humanizer.Core.de@2.14.1") {
		t.Errorf("Humanizer depends on %v", humanizer.DependsOn)
	}
	// Restore's graph: dependencies by name, at the version the target
	// resolved (McMaster 2.2.5 asks for >= 4.4.1 of the annotations).
	mcmaster := component(t, res, "pkg:nuget/McMaster.Extensions.CommandLineUtils@2.2.5")
	if !slices.Contains(mcmaster.DependsOn, "pkg:nuget/System.ComponentModel.Annotations@4.4.1") {
		t.Errorf("McMaster.Extensions.CommandLineUtils depends on %v", mcmaster.DependsOn)
	}
	// The project's direct references (restore's own list) are the
	// direct dependencies of the project's directory.
	var direct []string
	for _, p := range res.Projects {
		if slices.Contains(p.Locations, "dotnet-restored/CycloneDX/obj/project.assets.json") && p.Name == "CycloneDX" {
			direct = p.DependsOn
		}
	}
	want := []string{"pkg:nuget/McMaster.Extensions.CommandLineUtils@2.2.5", "pkg:nuget/Microsoft.NETCore.App@2.1.0", "pkg:nuget/Newtonsoft.Json@11.0.2"}
	if d := cmp.Diff(want, direct); d != "" {
		t.Errorf("direct dependencies of dotnet-restored/CycloneDX (-want +got):\n%s", d)
	}
}
