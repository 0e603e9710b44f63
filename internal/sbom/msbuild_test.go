package sbom_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// nugetNames lists components as "name@version" (NuGet names
// case-preserved), as a set.
func nugetNames(tb testing.TB, res *sbom.Result) []string {
	tb.Helper()
	var out []string
	for _, c := range res.Components {
		if c.Ecosystem != "NuGet" {
			tb.Errorf("component %s of ecosystem %q", c.Purl, c.Ecosystem)
		}
		out = append(out, c.Name+"@"+c.Version)
	}
	return set(out)
}

// TestMSBuildProject: a real project file (bitwarden's Api.csproj, NuGet
// versions written as "[8.0.2]") without packages.lock.json gives its
// package references, each a direct dependency its lockfile records at
// that version; beside its lockfile it gives nothing, and the lockfile
// is read.
func TestMSBuildProject(t *testing.T) {
	src := "testdata/lockfiles/nuget-bitwarden-api"
	var lock struct {
		Dependencies map[string]map[string]struct{ Type, Resolved string }
	}
	mustJSON(t, filepath.Join(src, "packages.lock.json"), &lock)
	var direct []string
	for _, deps := range lock.Dependencies {
		for name, d := range deps {
			if d.Type == "Direct" {
				direct = append(direct, name+"@"+d.Resolved)
			}
		}
	}
	direct = set(direct)
	if len(direct) < 4 {
		t.Fatalf("the lockfile records %d direct dependencies", len(direct))
	}

	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(src, "Api.csproj"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Api.csproj"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Its PackageReference items, read off the file: each written as
	// "[x]", exactly x; each one of the lockfile's direct dependencies at
	// that version (the others come from the project's SDK).
	var refs []string
	for _, m := range regexp.MustCompile(`<PackageReference Include="([^"]+)" Version="\[([^\]]+)\]"`).FindAllSubmatch(b, -1) {
		refs = append(refs, string(m[1])+"@"+string(m[2]))
		if !slices.Contains(direct, refs[len(refs)-1]) {
			t.Errorf("%s is not a direct dependency in the lockfile", refs[len(refs)-1])
		}
	}
	if diff := cmp.Diff(set(refs), nugetNames(t, res)); diff != "" || len(refs) < 4 {
		t.Errorf("Api.csproj alone (-its references +read):\n%s", diff)
	}

	res, err = sbom.Extract(context.Background(), src, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Path == "Api.csproj" && f.Packages != 0 {
			t.Errorf("Api.csproj beside packages.lock.json gave %d packages; the lockfile is read instead", f.Packages)
		}
	}
	for _, c := range res.Components {
		if !slices.Contains(c.Locations, "packages.lock.json") {
			t.Errorf("%s from %v, not from the lockfile", c.Purl, c.Locations)
		}
	}
}

// TestMSBuildCentralVersions: central package management (dependabot's
// NuGetUpdater: Directory.Packages.props, whose versions use a property of
// the same file, and project files without versions) gives every version
// the props file sets, with the property resolved.
func TestMSBuildCentralVersions(t *testing.T) {
	dir := "testdata/lock-variants/msbuild-cpm"
	b, err := os.ReadFile(filepath.Join(dir, "Directory.Packages.props"))
	if err != nil {
		t.Fatal(err)
	}
	prop := regexp.MustCompile(`<MSBuildPackageVersion>([^<]+)</MSBuildPackageVersion>`).FindSubmatch(b)
	if prop == nil {
		t.Fatal("the props file has no MSBuildPackageVersion")
	}
	var want []string
	for _, m := range regexp.MustCompile(`<PackageVersion Include="([^"]+)" Version="([^"]+)"`).FindAllSubmatch(b, -1) {
		want = append(want, string(m[1])+"@"+strings.ReplaceAll(string(m[2]), "$(MSBuildPackageVersion)", string(prop[1])))
	}
	want = set(want)
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("errors %v", res.Errors)
	}
	if diff := cmp.Diff(want, nugetNames(t, res)); diff != "" {
		t.Errorf("components (-props file +read):\n%s", diff)
	}
}

// TestMSBuildDirectoryBuildProps: MSBuild imports Directory.Build.props
// into every project below it, so a package it references (an analyzer
// for every project, a shared library) is read as well, its version
// property resolved.
func TestMSBuildDirectoryBuildProps(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "src", "Api", "Api.csproj"), mustRead(t, "testdata/lockfiles/nuget-bitwarden-api/Api.csproj"))
	mustWrite(t, filepath.Join(dir, "Directory.Build.props"), []byte(`<Project>
  <PropertyGroup>
    <SerilogVersion>2.10.0</SerilogVersion>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="StyleCop.Analyzers" Version="1.1.118" PrivateAssets="all" />
    <PackageReference Include="Serilog" Version="$(SerilogVersion)" />
  </ItemGroup>
</Project>
`))
	alone, err := sbom.Extract(context.Background(), filepath.Join(dir, "src"), sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sbom.Extract(context.Background(), dir, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := set(append(nugetNames(t, alone), "StyleCop.Analyzers@1.1.118", "Serilog@2.10.0"))
	if len(want) < 5 {
		t.Fatalf("the project alone gives %v", nugetNames(t, alone))
	}
	if diff := cmp.Diff(want, nugetNames(t, res)); diff != "" {
		t.Errorf("(-project and props +read):\n%s", diff)
	}
}
