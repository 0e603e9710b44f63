package sbom

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNugetVersion: NuGet's version forms read as the version restore
// takes (its lowest allowed), or none.
func TestNugetVersion(t *testing.T) {
	for _, c := range []struct{ spec, version, bound string }{
		{"13.0.1", "13.0.1", ""},
		{"[13.0.1]", "13.0.1", ""},
		{"[ 13.0.1 ]", "13.0.1", ""},
		{"[1.0,2.0)", "1.0", "[1.0,2.0)"},
		{"[1.0, 2.0)", "1.0", "[1.0, 2.0)"},
		{"[1.0,)", "1.0", "[1.0,)"},
		{"(1.0,2.0)", "", ""}, // exclusive: the lowest allowed is not known
		{"(,2.0]", "", ""},
		{"[,2.0]", "", ""},
		{"1.*", "", ""},
		{"6.0.0-*", "", ""},
		{"$(NewtonsoftVersion)", "", ""},
		{"", "", ""},
		{"1.0.0-beta.2", "1.0.0-beta.2", ""},
	} {
		v, b := nugetVersion(c.spec)
		if v != c.version || b != c.bound {
			t.Errorf("nugetVersion(%q) = %q, %q; want %q, %q", c.spec, v, b, c.version, c.bound)
		}
	}
}

// TestReadMSBuild: the ways project files write a reference: a Version
// attribute or element, VersionOverride, Update in a props file, a
// property of the file (names are case-insensitive, and may nest), a
// condition (not evaluated); items outside an ItemGroup, and project
// references, are no packages.
func TestReadMSBuild(t *testing.T) {
	const proj = "\ufeff" + `<?xml version="1.0" encoding="utf-8"?>
<Project Sdk="Microsoft.NET.Sdk" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <PropertyGroup>
    <SerilogMajor>3</SerilogMajor>
    <SerilogVersion>$(SerilogMajor).1.1</SerilogVersion>
    <EfVersion>8.0.4</EfVersion>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="13.0.1" />
    <PackageReference Include="Serilog">
      <Version>$(SERILOGVERSION)</Version>
      <PrivateAssets>all</PrivateAssets>
    </PackageReference>
    <PackageReference Include="Microsoft.EntityFrameworkCore" VersionOverride="$(EfVersion)" />
    <PackageReference Update="Dapper" Version="2.1.35" />
    <PackageReference Include="Polly" Version="8.*" />
    <PackageReference Include="Unresolved" Version="$(FromElsewhere)" />
    <PackageReference Include="Central" />
    <PackageReference Include="Net48Only" Version="1.2.3" Condition="'$(TargetFramework)' == 'net48'" />
    <PackageReference Include="Microsoft.SourceLink.GitHub" Version="8.0.0" PrivateAssets="All; contentfiles" />
    <GlobalPackageReference Include="Nerdbank.GitVersioning" Version="3.6.133" />
    <PackageVersion Include="Microsoft.NET.Test.Sdk" Version="17.9.0" />
    <ProjectReference Include="..\Core\Core.csproj" />
  </ItemGroup>
  <Target Name="X"><ItemGroup><PackageReference Include="InTarget" Version="9.9.9" /></ItemGroup></Target>
</Project>`
	got, err := readMSBuild([]byte(proj))
	if err != nil {
		t.Fatal(err)
	}
	const ref = "PackageReference"
	want := &msbuildProject{refs: []msbuildRef{
		{"Newtonsoft.Json", "13.0.1", ref, false}, {"Serilog", "3.1.1", ref, true},
		{"Microsoft.EntityFrameworkCore", "8.0.4", ref, false}, {"Dapper", "2.1.35", ref, false},
		{"Polly", "8.*", ref, false}, {"Unresolved", "$(FromElsewhere)", ref, false}, {"Central", "", ref, false},
		{"Net48Only", "1.2.3", ref, false}, {"Microsoft.SourceLink.GitHub", "8.0.0", ref, true},
		{"Nerdbank.GitVersioning", "3.6.133", "GlobalPackageReference", true},
		{"Microsoft.NET.Test.Sdk", "17.9.0", "PackageVersion", false},
	}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(msbuildProject{}, msbuildRef{})); diff != "" {
		t.Errorf("project (-want +got):\n%s", diff)
	}
	// A central version of the test SDK makes no project a test project;
	// a reference to it, or the property, does.
	for _, c := range []struct {
		proj string
		test bool
	}{
		{`<Project><ItemGroup><PackageVersion Include="Microsoft.NET.Test.Sdk" Version="17.9.0" /></ItemGroup></Project>`, false},
		{`<Project><ItemGroup><PackageReference Include="microsoft.net.test.sdk" Version="17.9.0" /></ItemGroup></Project>`, true},
		{`<Project><ItemGroup><PackageReference Include="Microsoft.NET.Test.Sdk" /></ItemGroup></Project>`, true},
		{`<Project><PropertyGroup><T>True</T><IsTestProject>$(T)</IsTestProject></PropertyGroup></Project>`, true},
		{`<Project><PropertyGroup><IsTestProject>false</IsTestProject></PropertyGroup></Project>`, false},
		{`<Project Sdk="MSTest.Sdk/3.6.0"></Project>`, true},
		{`<Project><ItemGroup><PackageReference Include="xunit.v3.mtp-v2" /></ItemGroup></Project>`, true},
		{`<Project><ItemGroup><PackageReference Include="NUnit" Version="4.1.0" /></ItemGroup></Project>`, true},
		{`<Project><ItemGroup><PackageReference Include="Microsoft.Testing.Extensions.TrxReport" /></ItemGroup></Project>`, true},
		{`<Project><ItemGroup><PackageReference Include="xunit.v3.extensibility.core" Version="1.0.0" /></ItemGroup></Project>`, false},
		{`<Project Sdk="Microsoft.NET.Sdk"></Project>`, false},
	} {
		p, err := readMSBuild([]byte(c.proj))
		if err != nil {
			t.Fatalf("readMSBuild(%s): %v", c.proj, err)
		}
		if p.test != c.test {
			t.Errorf("readMSBuild(%s): test %v, want %v", c.proj, p.test, c.test)
		}
	}
	for _, bad := range []string{`<Package><ItemGroup/></Package>`, `not xml at all`, ``, `<Project><ItemGroup><PackageReference Include="A" Version="1"`} {
		if _, err := readMSBuild([]byte(bad)); err == nil {
			t.Errorf("readMSBuild(%q) = nil error", bad)
		}
	}
}

// FuzzMSBuild: any bytes read as a project either fail with an error or
// give references with a name and no unresolved name.
func FuzzMSBuild(f *testing.F) {
	f.Add([]byte(`<Project><PropertyGroup><V>1.0</V></PropertyGroup><ItemGroup><PackageReference Include="A" Version="$(V)"/></ItemGroup></Project>`))
	f.Add([]byte(`<Project><ItemGroup><PackageVersion Include="B"><Version>[1.0,2.0)</Version></PackageVersion></ItemGroup></Project>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		proj, err := readMSBuild(b)
		if err != nil {
			return
		}
		for _, r := range proj.refs {
			if r.name == "" || strings.Contains(r.name, "$(") {
				t.Fatalf("ref %+v", r)
			}
			nugetVersion(r.version)
		}
	})
}
