package sbom

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
)

// The NuGet packages of an MSBuild project that has no packages.lock.json:
// most .NET projects. A project file (.csproj, .fsproj, .vbproj) lists its
// direct dependencies as PackageReference items; with central package
// management, Directory.Packages.props gives their versions as
// PackageVersion items. scalibr's readers of both take a Version attribute
// literally, so "$(MSBuildVersion)" or "[1.0,2.0)" became a version: this
// reader resolves the file's own properties and reads NuGet's version
// forms. MSBuild imports Directory.Build.props and Directory.Build.targets
// into every project below them: a PackageReference there (an analyzer,
// SourceLink, a package every project shares) is each project's too. A project with packages.lock.json beside it is read from the
// lockfile, and a restored one from obj/project.assets.json
// (dotnetbuild.go): both also have the transitive dependencies.

// msbuild is the extractor.
var msbuild = ownExtractor{name: "dotnet/msbuild", required: msbuildFile, read: readMSBuildPackages}

// msbuildFile reports whether p is a project file or central package
// management's props file.
func msbuildFile(p string) bool {
	b := path.Base(p)
	switch strings.ToLower(path.Ext(b)) {
	case ".csproj", ".fsproj", ".vbproj":
		return true
	}
	return b == "Directory.Packages.props" || b == "Directory.Build.props" || b == "Directory.Build.targets"
}

// readMSBuildPackages reads the NuGet packages a project file or props
// file names with a version NuGet restores.
func readMSBuildPackages(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	if in.FS != nil && !strings.HasPrefix(path.Base(in.Path), "Directory.") && anyFile(in.FS, path.Dir(in.Path), "packages.lock.json", "obj/project.assets.json") {
		return nil, nil // the lockfile, or what restore resolved, is read instead
	}
	proj, err := readMSBuild(b)
	if err != nil {
		return nil, err
	}
	var uses map[string]uint8
	if in.FS != nil && path.Base(in.Path) == "Directory.Packages.props" {
		uses = centralUses(in.FS, path.Dir(in.Path))
	}
	var pkgs []*extractor.Package
	for _, r := range proj.refs {
		v, bound := nugetVersion(r.version)
		if v == "" {
			continue // managed centrally, floating, or unresolved: no version known
		}
		p := &extractor.Package{Name: r.name, Version: v, PURLType: purl.TypeNuget, Location: extractor.LocationFromPath(in.Path)}
		dev := proj.test || r.private
		if r.kind == "PackageVersion" {
			dev = uses[strings.ToLower(r.name)] == devSeen
		}
		if bound != "" || dev {
			p.Metadata = &declaredMeta{bound: bound, dev: dev}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// declaredMeta is what a project file says of a package beyond its name and
// version: the range its version was read from, when it is the range's
// lower bound rather than a pinned version (PropVersionConstraint), and
// whether only development needs it (see msbuildProject).
type declaredMeta struct {
	bound string
	dev   bool
}

// IsProtoable implements scalibr's metadata marker; Sentinel never
// converts it to a protocol buffer.
func (*declaredMeta) IsProtoable() {}

// DepGroups gives the development mark as devGroups reads it.
func (m *declaredMeta) DepGroups() []string {
	if m.dev {
		return []string{"dev"}
	}
	return nil
}

// msbuildProject is what Sentinel reads of a project or props file.
//
// Development-only packages, as NuGet and CycloneDX's .NET tool tell
// them: every package of a test project (one that references
// Microsoft.NET.Test.Sdk or a test framework, testPackage; uses the
// MSTest SDK; or sets IsTestProject), and a reference whose assets stay private to the
// project (PrivateAssets="all": analyzers, SourceLink, versioning and
// coverage tools, which restore records as suppressParent "All"), as
// every GlobalPackageReference is. A central PackageVersion item is a
// version, not a use: it is development-only where every project below
// its Directory.Packages.props that uses it does so for development
// (centralUses). One no project uses directly stays, unmarked: with
// transitive pinning (CentralPackageTransitivePinningEnabled) it is the
// version restore takes wherever the package comes in transitively.
type msbuildProject struct {
	refs []msbuildRef
	test bool
	// mstestSDK is set on a project of the MSTest SDK, which references
	// MSTest's packages itself, at the central versions where the
	// solution manages them.
	mstestSDK bool
}

// centralUses reads the projects below a Directory.Packages.props (and
// the Directory.Build.props and .targets that add references to them)
// for how they use the packages it versions: by lower-cased name,
// devSeen where a test project uses it or a project keeps it private,
// prodSeen otherwise. A central version, used only by test projects, is
// then development-only, as a version catalog's library is.
func centralUses(fsys fs.FS, root string) map[string]uint8 {
	uses := map[string]uint8{}
	want := func(p string) bool { return msbuildFile(p) && path.Base(p) != "Directory.Packages.props" }
	walkBuildFiles(fsys, root, []string{"bin", "obj"}, want, func(_ string, data []byte) {
		proj, err := readMSBuild(data)
		if err != nil {
			return
		}
		if proj.mstestSDK {
			for _, n := range []string{"mstest", "mstest.testframework", "mstest.testadapter", "mstest.analyzers", "microsoft.net.test.sdk", "microsoft.testing.platform"} {
				uses[n] |= devSeen
			}
		}
		for _, r := range proj.refs {
			if r.kind == "PackageVersion" {
				continue
			}
			if proj.test || r.private {
				uses[strings.ToLower(r.name)] |= devSeen
			} else {
				uses[strings.ToLower(r.name)] |= prodSeen
			}
		}
	})
	return uses
}

// msbuildRef is one PackageReference, GlobalPackageReference or
// PackageVersion item (kind).
type msbuildRef struct {
	name, version, kind string
	private             bool
}

// testPackage reports whether a project that references the package is
// a test project: Microsoft.NET.Test.Sdk, which VSTest's `dotnet test`
// needs, or a test framework or the Microsoft Testing Platform that runs
// tests without it (xunit.v3, TUnit, MSTest's runner): no library ships
// with them.
func testPackage(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "microsoft.net.test.sdk", "xunit", "xunit.core", "xunit.v3", "nunit", "nunitlite", "nunit3testadapter",
		"mstest", "mstest.testframework", "mstest.testadapter", "tunit", "microsoft.testing.platform":
		return true
	}
	return strings.HasPrefix(n, "xunit.v3.mtp") || strings.HasPrefix(n, "microsoft.testing.extensions.")
}

// msbuildTestSDK is a project SDK that makes a test project
// (<Project Sdk="MSTest.Sdk/3.6.0">).
var msbuildTestSDK = lazyRegexp(`(?i)^\s*MSTest\.Sdk\b`)

// privateAll reports whether a PrivateAssets value keeps every asset
// from the project's consumers ("all", perhaps among others: "All;
// contentfiles").
func privateAll(v string) bool {
	for part := range strings.SplitSeq(v, ";") {
		if strings.EqualFold(strings.TrimSpace(part), "all") {
			return true
		}
	}
	return false
}

// readMSBuild reads an MSBuild file's PackageReference and PackageVersion
// items (Include, or Update in a props file, and Version as an attribute
// or a child element), with $(Property) references resolved against the
// file's own PropertyGroups. Conditions are not evaluated: an item under
// any condition counts.
func readMSBuild(b []byte) (*msbuildProject, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = false // project files in the wild carry stray entities
	props := map[string]string{}
	var refs []msbuildRef
	var stack []string
	var item *msbuildRef // the item whose child elements are being read
	var text strings.Builder
	root := ""
	testSDK := false // a test project's SDK
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if root == "" {
				return nil, fmt.Errorf("not an MSBuild project: %w", err)
			}
			return nil, fmt.Errorf("could not read the project: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			if root == "" {
				if root = name; root != "Project" {
					return nil, fmt.Errorf("not an MSBuild project: the root element is <%s>", truncate(name))
				}
				testSDK = msbuildTestSDK().MatchString(attr(t, "Sdk"))
			}
			text.Reset()
			if len(stack) == 2 && stack[1] == "ItemGroup" && msbuildItems[name] {
				r := msbuildRef{name: attr(t, "Include"), version: attr(t, "Version"), kind: name,
					private: name == "GlobalPackageReference" || privateAll(attr(t, "PrivateAssets"))}
				if r.name == "" {
					r.name = attr(t, "Update")
				}
				if r.version == "" {
					r.version = attr(t, "VersionOverride") // central management, overridden
				}
				refs = append(refs, r)
				item = &refs[len(refs)-1]
			}
			stack = append(stack, name)
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			if len(stack) == 0 {
				continue
			}
			name := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch {
			case len(stack) == 2 && stack[1] == "PropertyGroup":
				props[strings.ToLower(name)] = strings.TrimSpace(text.String())
			case len(stack) == 3 && item != nil && (name == "Version" || name == "VersionOverride"):
				item.version = strings.TrimSpace(text.String())
			case len(stack) == 3 && item != nil && name == "PrivateAssets":
				item.private = item.private || privateAll(text.String())
			case len(stack) == 2 && stack[1] == "ItemGroup":
				item = nil
			}
			text.Reset()
		}
	}
	if root == "" {
		return nil, errors.New("not an MSBuild project: no root element")
	}
	proj := &msbuildProject{test: testSDK || strings.EqualFold(expandProps(props["istestproject"], props), "true"), mstestSDK: testSDK}
	for _, r := range refs {
		if r.name = strings.TrimSpace(r.name); r.name == "" || strings.Contains(r.name, "$(") {
			continue
		}
		r.version = expandProps(strings.TrimSpace(r.version), props)
		proj.refs = append(proj.refs, r)
		if r.kind == "PackageReference" && testPackage(r.name) {
			proj.test = true
		}
	}
	return proj, nil
}

// msbuildItems are the items that name a NuGet package and its version:
// a project's references, and central package management's versions and
// global references.
var msbuildItems = map[string]bool{"PackageReference": true, "PackageVersion": true, "GlobalPackageReference": true}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// msbuildProp is an MSBuild property reference.
var msbuildProp = lazyRegexp(`\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)`)

// expandProps resolves $(Name) references (property names are
// case-insensitive), a few levels deep; one it cannot resolve stays.
func expandProps(s string, props map[string]string) string {
	for range 4 {
		if !strings.Contains(s, "$(") {
			return s
		}
		s = msbuildProp().ReplaceAllStringFunc(s, func(ref string) string {
			if v, ok := props[strings.ToLower(ref[2:len(ref)-1])]; ok {
				return v
			}
			return ref
		})
	}
	return s
}

// nugetVersion reads a NuGet version specification as the version NuGet
// restores: "1.2.3" (a minimum: NuGet takes the lowest version allowed,
// the one written) and "[1.2.3]" are that version; a range with an
// inclusive lower bound ("[1.0,2.0)") gives its bound, returned as bound
// too; a floating version ("1.*"), an exclusive or missing lower bound,
// or an unresolved property gives no version.
func nugetVersion(spec string) (version, bound string) {
	switch {
	case spec == "" || strings.ContainsAny(spec, "*$@"):
		return "", ""
	case strings.HasPrefix(spec, "[") && strings.HasSuffix(spec, "]") && !strings.Contains(spec, ","):
		return strings.TrimSpace(spec[1 : len(spec)-1]), ""
	case strings.HasPrefix(spec, "["):
		lo, _, ok := strings.Cut(spec[1:], ",")
		if lo = strings.TrimSpace(lo); !ok || lo == "" {
			return "", ""
		}
		return lo, spec
	case strings.HasPrefix(spec, "("):
		return "", ""
	}
	return spec, ""
}
