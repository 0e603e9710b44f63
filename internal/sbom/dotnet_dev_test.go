package sbom_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// nugetLocked reads the packages a packages.lock.json resolved, as
// "name@version" with the name lower-cased (NuGet ids are
// case-insensitive), from the file itself.
func nugetLocked(tb testing.TB, p string) map[string]bool {
	tb.Helper()
	var lock struct {
		Dependencies map[string]map[string]struct {
			Resolved string `json:"resolved"`
		} `json:"dependencies"`
	}
	if err := json.Unmarshal(mustRead(tb, p), &lock); err != nil {
		tb.Fatal(err)
	}
	out := map[string]bool{}
	for _, pkgs := range lock.Dependencies {
		for name, e := range pkgs {
			if e.Resolved != "" {
				out[strings.ToLower(name)+"@"+e.Resolved] = true
			}
		}
	}
	if len(out) == 0 {
		tb.Fatalf("%s resolves no packages", p)
	}
	return out
}

func nugetKey(c sentinel.Component) string { return strings.ToLower(c.Name) + "@" + c.Version }

// TestDotnetTestProjects: Bitwarden's API and its test project, each with
// packages.lock.json, as committed. The test project references
// Microsoft.NET.Test.Sdk, so everything it resolves is development-only,
// except what the API itself resolves: the API's packages stay runtime.
// Each set is read from the lockfiles themselves.
func TestDotnetTestProjects(t *testing.T) {
	root := filepath.Join("testdata", "dotnet-tests")
	api := nugetLocked(t, filepath.Join(root, "src", "Api", "packages.lock.json"))
	tests := nugetLocked(t, filepath.Join(root, "test", "Api.Test", "packages.lock.json"))

	res := mustExtract(t, root)
	seen := map[string]bool{}
	dev := 0
	for _, c := range res.Components {
		k := nugetKey(c)
		if !api[k] && !tests[k] {
			t.Errorf("%s: in neither lockfile", k)
			continue
		}
		seen[k] = true
		if want := !api[k]; c.Development != want {
			t.Errorf("%s (%v): development %v, want %v", k, c.Locations, c.Development, want)
		}
		if c.Development {
			dev++
		}
	}
	for k := range api {
		if !seen[k] {
			t.Errorf("%s of the API is missing", k)
		}
	}
	for k := range tests {
		if !seen[k] {
			t.Errorf("%s of the test project is missing", k)
		}
	}
	if dev == 0 {
		t.Error("no development-only component")
	}
	t.Logf("%d components, %d development-only", len(res.Components), dev)

	// The test project alone: all of it.
	for _, c := range mustExtract(t, filepath.Join(root, "test", "Api.Test")).Components {
		if !c.Development {
			t.Errorf("%s of the test project alone: not development-only", nugetKey(c))
		}
	}
}

// TestDotnetPrivateAssets: a direct dependency the project keeps private
// (PrivateAssets="all": SourceLink, analyzers) is development-only with
// what only it brings, in a packages.lock.json (whose project file says
// so) as in a project file read alone; what a referenced project brings
// stays runtime.
func TestDotnetPrivateAssets(t *testing.T) {
	dir := t.TempDir()
	// The API's lockfile, with a project file that keeps Swashbuckle
	// (Swagger UI, often for development only) private.
	copyDir(t, filepath.Join("testdata", "dotnet-tests", "src", "Api"), dir)
	proj := string(mustRead(t, filepath.Join(dir, "Api.csproj")))
	const swash = `<PackageReference Include="Swashbuckle.AspNetCore" Version="6.5.0" />`
	if !strings.Contains(proj, swash) {
		t.Fatal("Api.csproj no longer references Swashbuckle.AspNetCore 6.5.0")
	}
	const sendgrid = `<PackageReference Include="AspNetCore.HealthChecks.SendGrid" Version="6.0.2" />`
	if !strings.Contains(proj, sendgrid) {
		t.Fatal("Api.csproj no longer references AspNetCore.HealthChecks.SendGrid 6.0.2")
	}
	proj = strings.Replace(proj, swash, `<PackageReference Include="Swashbuckle.AspNetCore" Version="6.5.0" PrivateAssets="All" />`, 1)
	proj = strings.Replace(proj, sendgrid, `<PackageReference Include="AspNetCore.HealthChecks.SendGrid" Version="6.0.2"><PrivateAssets>all</PrivateAssets></PackageReference>`, 1)
	mustWrite(t, filepath.Join(dir, "Api.csproj"), []byte(proj))

	dev := map[string]bool{}
	for _, c := range mustExtract(t, dir).Components {
		if c.Development {
			dev[c.Name] = true
		}
	}
	// Swashbuckle.AspNetCore brings its Swagger, SwaggerGen and SwaggerUI
	// packages and Microsoft.OpenApi; nothing else needs them. The
	// SendGrid health check brings SendGrid, which the Core project the
	// API references needs too (its "Project" entry says so).
	if dev["SendGrid"] {
		t.Error("SendGrid: development-only, though the referenced Core project needs it")
	}
	for _, name := range []string{"Swashbuckle.AspNetCore", "Swashbuckle.AspNetCore.Swagger", "Swashbuckle.AspNetCore.SwaggerGen", "Swashbuckle.AspNetCore.SwaggerUI", "AspNetCore.HealthChecks.SendGrid"} {
		if !dev[name] {
			t.Errorf("%s: not development-only", name)
		}
		delete(dev, name)
	}
	for name := range dev {
		if name != "Microsoft.OpenApi" && name != "Microsoft.Extensions.ApiDescription.Server" {
			t.Errorf("%s: development-only, though the API or a project it references needs it", name)
		}
	}

	// A project file read alone (no lockfile): a test project's packages,
	// and a private one of any project.
	alone := t.TempDir()
	mustWrite(t, filepath.Join(alone, "tests", "App.Tests.csproj"), []byte(`<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.9.0" />
    <PackageReference Include="xunit" Version="2.7.0" />
  </ItemGroup>
</Project>`))
	mustWrite(t, filepath.Join(alone, "src", "App.csproj"), []byte(`<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />
    <PackageReference Include="Microsoft.SourceLink.GitHub" Version="8.0.0">
      <PrivateAssets>all</PrivateAssets>
    </PackageReference>
  </ItemGroup>
</Project>`))
	want := map[string]bool{"Microsoft.NET.Test.Sdk": true, "xunit": true, "Newtonsoft.Json": false, "Microsoft.SourceLink.GitHub": true}
	got := map[string]bool{}
	for _, c := range mustExtract(t, alone).Components {
		got[c.Name] = c.Development
	}
	for name, d := range want {
		if g, ok := got[name]; !ok || g != d {
			t.Errorf("%s: development %v (found %v), want %v", name, g, ok, d)
		}
	}

	// What restore wrote (obj/project.assets.json): PrivateAssets as
	// suppressParent; a test project's packages all development-only.
	const assets = `{
  "version": 3,
  "targets": {"net8.0": {
    "Newtonsoft.Json/13.0.3": {"type": "package"},
    "StyleCop.Analyzers/1.1.118": {"type": "package", "dependencies": {"StyleCop.Analyzers.Unstable": "1.2.0.556"}},
    "StyleCop.Analyzers.Unstable/1.2.0.556": {"type": "package"}%s
  }},
  "libraries": {
    "Newtonsoft.Json/13.0.3": {"type": "package"},
    "StyleCop.Analyzers/1.1.118": {"type": "package"},
    "StyleCop.Analyzers.Unstable/1.2.0.556": {"type": "package"}%s
  },
  "project": {"frameworks": {"net8.0": {"dependencies": {
    "Newtonsoft.Json": {"target": "Package", "version": "[13.0.3, )"},
    "StyleCop.Analyzers": {"include": "Runtime, Build, Native, ContentFiles, Analyzers, BuildTransitive", "suppressParent": "All", "target": "Package", "version": "[1.1.118, )"}%s
  }}}}
}`
	for _, test := range []bool{false, true} {
		dir := t.TempDir()
		doc := fmt.Sprintf(assets, "", "", "")
		if test {
			doc = fmt.Sprintf(assets, `,
    "Microsoft.NET.Test.Sdk/17.9.0": {"type": "package"}`, `,
    "Microsoft.NET.Test.Sdk/17.9.0": {"type": "package"}`, `,
    "Microsoft.NET.Test.Sdk": {"target": "Package", "version": "[17.9.0, )"}`)
		}
		mustWrite(t, filepath.Join(dir, "obj", "project.assets.json"), []byte(doc))
		got := map[string]bool{}
		for _, c := range mustExtract(t, dir).Components {
			got[c.Name] = c.Development
		}
		want := map[string]bool{"Newtonsoft.Json": test, "StyleCop.Analyzers": true, "StyleCop.Analyzers.Unstable": true}
		if test {
			want["Microsoft.NET.Test.Sdk"] = true
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("project.assets.json (test project %v): development (-want +got):\n%s", test, diff)
		}
	}
}

// TestDotnetCentralPackages: AArnott's Library.Template, as committed: a
// Directory.Packages.props versions every package (central package
// management), and the projects name them without versions. A central
// version is development-only where every project that uses it is a test
// project (xunit.v3 on the Microsoft Testing Platform, no
// Microsoft.NET.Test.Sdk; the test directory's Directory.Build.targets adds
// the platform's extensions); a GlobalPackageReference (analyzers,
// versioning) always is; one no project uses (Telemetry) is not marked.
func TestDotnetCentralPackages(t *testing.T) {
	want := map[string]bool{
		"CSharpIsNullAnalyzer@0.2.19":                          true,
		"DotNetAnalyzers.DocumentationAnalyzers@1.0.0-beta.59": true,
		"Nerdbank.GitVersioning@3.10.91":                       true,
		"PolySharp@1.16.0":                                     true,
		"StyleCop.Analyzers.Unstable@1.2.0.556":                true,
		"Microsoft.Testing.Extensions.CodeCoverage@18.10.0":    true,
		"Microsoft.Testing.Extensions.CrashDump@2.3.3":         true,
		"Microsoft.Testing.Extensions.HangDump@2.3.3":          true,
		"Microsoft.Testing.Extensions.TrxReport@2.3.3":         true,
		"Microsoft.Testing.Extensions.Telemetry@2.3.3":         false,
		"xunit.v3.mtp-v2@4.0.0":                                true,
	}
	got := map[string]bool{}
	for _, c := range mustExtract(t, filepath.Join("testdata", "dotnet-cpm")).Components {
		got[c.Name+"@"+c.Version] = c.Development
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("components and their development marks (-want +got):\n%s", diff)
	}
}

// TestDotnetMSTestSDKCentral: a project of the MSTest SDK references
// MSTest's packages itself, at the versions Directory.Packages.props
// gives (dotnet/eShop's unit tests): a central MSTest version only such
// projects use is development-only.
func TestDotnetMSTestSDKCentral(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Directory.Packages.props": `<Project>
  <PropertyGroup><ManagePackageVersionsCentrally>true</ManagePackageVersionsCentrally></PropertyGroup>
  <ItemGroup>
    <PackageVersion Include="MSTest" Version="4.0.2" />
    <PackageVersion Include="Newtonsoft.Json" Version="13.0.3" />
  </ItemGroup>
</Project>`,
		"src/App/App.csproj": `<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup><PackageReference Include="Newtonsoft.Json" /></ItemGroup>
</Project>`,
		"tests/App.UnitTests/App.UnitTests.csproj": `<Project Sdk="MSTest.Sdk">
  <ItemGroup><ProjectReference Include="..\..\src\App\App.csproj" /></ItemGroup>
</Project>`,
	})
	res, err := sbom.Extract(context.Background(), root, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range res.Components {
		got[c.Name+"@"+c.Version] = c.Development
	}
	if want := map[string]bool{"MSTest@4.0.2": true, "Newtonsoft.Json@13.0.3": false}; !maps.Equal(got, want) {
		t.Errorf("components and their development marks %v, want %v", got, want)
	}
}
