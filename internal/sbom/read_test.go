package sbom_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

const sboms = "testdata/sboms"

func mustReadSBOM(tb testing.TB, name string) *sbom.Result {
	tb.Helper()
	res, err := sbom.ReadSBOMFile(filepath.Join(sboms, name))
	if err != nil {
		tb.Fatalf("ReadSBOMFile(%s): %v", name, err)
	}
	return res
}

func purlSet(cs []sentinel.Component) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Purl)
	}
	return set(out)
}

// filePurls reads every purl a CycloneDX or SPDX JSON document gives its
// components or packages, except the described one.
func filePurls(tb testing.TB, name string) []string {
	var doc struct {
		Metadata struct {
			Component struct{ Purl string } `json:"component"`
		} `json:"metadata"`
		Components []struct{ Purl string } `json:"components"`
		Packages   []struct {
			SPDXID       string
			ExternalRefs []struct{ ReferenceType, ReferenceLocator string }
		} `json:"packages"`
		DocumentDescribes []string `json:"documentDescribes"`
	}
	mustJSON(tb, filepath.Join(sboms, name), &doc)
	var out []string
	for _, c := range doc.Components {
		if c.Purl != "" && c.Purl != doc.Metadata.Component.Purl {
			out = append(out, c.Purl)
		}
	}
	for _, p := range doc.Packages {
		if slices.Contains(doc.DocumentDescribes, p.SPDXID) {
			continue
		}
		for _, r := range p.ExternalRefs {
			if r.ReferenceType == "purl" {
				out = append(out, r.ReferenceLocator)
			}
		}
	}
	return set(out)
}

// TestReadSBOMNpm: the SBOMs npm 11 writes for express's lockfile (CycloneDX
// 1.5 and SPDX 2.3) read into the components, project and direct
// dependencies that extracting the same lockfile gives.
func TestReadSBOMNpm(t *testing.T) {
	ext := mustExtract(t, filepath.Join(sboms, "express-tree"))
	for _, name := range []string{"npm-11.19.1-express.cdx.json", "npm-11.19.1-express.spdx.json"} {
		t.Run(name, func(t *testing.T) {
			res := mustReadSBOM(t, name)
			if diff := cmp.Diff(filePurls(t, name), purlSet(res.Components)); diff != "" {
				t.Errorf("purls mismatch with the file's (-file +read):\n%s", diff)
			}
			if diff := cmp.Diff(nameVersions(ext.Components), nameVersions(res.Components)); diff != "" {
				t.Errorf("components mismatch with extraction (-extracted +read):\n%s", diff)
			}
			main := ext.MainProject()
			if len(res.Projects) == 0 || res.Projects[0].Purl != main.Purl {
				t.Fatalf("projects = %+v, want %s", res.Projects, main.Purl)
			}
			if diff := cmp.Diff(main.DependsOn, res.Projects[0].DependsOn); diff != "" {
				t.Errorf("direct dependencies mismatch (-extracted +read):\n%s", diff)
			}
			edges := 0
			for _, c := range res.Components {
				edges += len(c.DependsOn)
			}
			if edges < 100 {
				t.Errorf("%d edges read, want the document's graph", edges)
			}
		})
	}
}

// TestReadSBOMSyft: Syft v1.33.0's CycloneDX 1.6 and SPDX 2.3 documents of
// a tree of three lockfile cases (ripgrep's Cargo.lock, retire.js's
// package-lock.json, OSS-Fuzz's poetry.lock): every purl, Syft's locations,
// the graph. Syft lists the same packages as extraction, plus the projects
// that their lockfiles name.
func TestReadSBOMSyft(t *testing.T) {
	root := t.TempDir()
	for _, c := range []string{"cargo-ripgrep", "npm-v3-retirejs-chrome", "poetry-ossfuzzvulns-infra"} {
		copyDir(t, filepath.Join(lockfiles, c), filepath.Join(root, c))
	}
	ext := mustExtract(t, root)
	extracted := map[string]bool{}
	for _, c := range append(slices.Clone(ext.Components), ext.Projects...) {
		extracted[c.Name+"@"+c.Version] = true
	}
	for _, name := range []string{"syft-1.33.0-tree.cdx.json", "syft-1.33.0-tree.spdx.json"} {
		t.Run(name, func(t *testing.T) {
			res := mustReadSBOM(t, name)
			if diff := cmp.Diff(filePurls(t, name), purlSet(res.Components)); diff != "" {
				t.Errorf("purls mismatch with the file's (-file +read):\n%s", diff)
			}
			for _, c := range res.Components {
				if !extracted[c.Name+"@"+c.Version] {
					t.Errorf("Syft lists %s, extraction does not", c.Purl)
				}
			}
			edges := 0
			for _, c := range res.Components {
				edges += len(c.DependsOn)
			}
			if edges == 0 {
				t.Error("no edges read")
			}
		})
	}
	// Syft's locations are the components': "syft:location:0:path" in
	// CycloneDX; in SPDX the file an "evident-by" relationship names,
	// the same path without its leading "/".
	cdx := map[string][]string{}
	for _, c := range mustReadSBOM(t, "syft-1.33.0-tree.cdx.json").Components {
		if len(c.Locations) == 0 {
			t.Errorf("%s: no location", c.Purl)
		}
		for _, l := range c.Locations {
			cdx[c.Purl] = append(cdx[c.Purl], strings.TrimPrefix(l, "/"))
		}
	}
	for _, c := range mustReadSBOM(t, "syft-1.33.0-tree.spdx.json").Components {
		if !slices.Equal(c.Locations, cdx[c.Purl]) {
			t.Errorf("%s: SPDX locations %q, CycloneDX's %q", c.Purl, c.Locations, cdx[c.Purl])
		}
	}
}

// TestReadCycloneDXLocations: where other tools say a component was
// found: cdxgen's SrcFile property, and CycloneDX 1.5's
// evidence.occurrences (the specification's own test vector, in JSON and
// XML).
func TestReadCycloneDXLocations(t *testing.T) {
	res := mustReadSBOM(t, "cdxgen-12.8.4-npm.cdx.json")
	if len(res.Components) < 50 {
		t.Fatalf("%d components", len(res.Components))
	}
	for _, c := range res.Components {
		if !slices.Equal(c.Locations, []string{"package-lock.json"}) {
			t.Errorf("%s: locations %q, want cdxgen's SrcFile", c.Purl, c.Locations)
		}
	}
	for _, v := range []string{"valid-evidence-1.5.json", "valid-evidence-1.5.xml"} {
		res := readResult(t, filepath.Join(specVectors, "1.5", v))
		if len(res.Components) != 1 || !slices.Equal(res.Components[0].Locations, []string{"/another/path/to/component", "/path/to/component"}) {
			t.Errorf("%s: components %+v, want the two occurrences' locations", v, res.Components)
		}
	}
}

// TestReadTrivyFiles: Trivy lists each lockfile as an application
// without a purl, named by its path: in CycloneDX one of class
// "lang-pkgs" that depends on the lockfile's direct packages, in SPDX one
// that CONTAINS its packages, each of which says "package found in:
// <lockfile>" in its sourceInfo. Every package is located in its
// lockfile; the lockfiles (and the scanned folder) are not components,
// and no note calls them packages without a purl.
func TestReadTrivyFiles(t *testing.T) {
	for _, name := range []string{"trivy-0.74.0-tree.cdx.json", "trivy-0.74.0-tree.spdx.json"} {
		t.Run(name, func(t *testing.T) { checkTrivyFiles(t, name) })
	}
}

func checkTrivyFiles(t *testing.T, name string) {
	res := mustReadSBOM(t, name)
	byFile := map[string]int{}
	for _, c := range res.Components {
		if len(c.Locations) != 1 {
			t.Errorf("%s: locations %q, want its lockfile", c.Purl, c.Locations)
			continue
		}
		byFile[c.Locations[0]]++
		eco := map[string]string{"cargo-ripgrep/Cargo.lock": "crates.io", "poetry-ossfuzzvulns-infra/poetry.lock": "PyPI",
			"npm-v3-retirejs-chrome/package-lock.json": "npm"}[c.Locations[0]]
		if c.Ecosystem != eco {
			t.Errorf("%s (%s) is located in %s", c.Purl, c.Ecosystem, c.Locations[0])
		}
	}
	if diff := cmp.Diff(filePurls(t, name), purlSet(res.Components)); diff != "" {
		t.Errorf("purls mismatch with the file's (-file +read):\n%s", diff)
	}
	if len(byFile) != 3 {
		t.Errorf("components in files %v; want Trivy's three lockfiles", byFile)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings %v: the lockfiles are not components without a purl", res.Warnings)
	}
}

// TestReadManyFiles: a CycloneDX document of 2,000 Trivy-style lockfile
// components over one chain of 2,000 packages reads, each package
// located in at most maxFileLocations (16) of the files.
func TestReadManyFiles(t *testing.T) {
	var comps, deps []string
	for i := range 2000 {
		comps = append(comps, fmt.Sprintf(`{"bom-ref":"p%d","type":"library","name":"p%d","version":"1.0.0","purl":"pkg:npm/p%d@1.0.0"}`, i, i, i))
		comps = append(comps, fmt.Sprintf(`{"bom-ref":"f%d","type":"application","name":"app%d/package-lock.json","properties":[{"name":"aquasecurity:trivy:Class","value":"lang-pkgs"}]}`, i, i))
		deps = append(deps, fmt.Sprintf(`{"ref":"f%d","dependsOn":["p0"]}`, i))
		if i > 0 {
			deps = append(deps, fmt.Sprintf(`{"ref":"p%d","dependsOn":["p%d"]}`, i-1, i))
		}
	}
	doc := `{"bomFormat":"CycloneDX","specVersion":"1.6","version":1,"components":[` + strings.Join(comps, ",") +
		`],"dependencies":[` + strings.Join(deps, ",") + `]}`
	res, err := sbom.ReadSBOM([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 2000 {
		t.Fatalf("%d components, want 2000", len(res.Components))
	}
	for _, c := range res.Components {
		if len(c.Locations) == 0 || len(c.Locations) > 16 {
			t.Fatalf("%s: %d locations, want 1 to 16", c.Purl, len(c.Locations))
		}
	}
}

// TestReadSPDXSourceInfo: without a file relationship, the paths a
// package's sourceInfo ends with are its locations, as Syft ("acquired
// package info from ...: /a, /b") and Trivy ("package found in: ...")
// write it; a sourceInfo that names no path gives none.
func TestReadSPDXSourceInfo(t *testing.T) {
	const doc = `{"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", "packages": [
	{"SPDXID": "SPDXRef-a", "name": "lodash", "versionInfo": "4.17.20", "sourceInfo": "acquired package info from installed node module manifest file: /app/package-lock.json, /web/package-lock.json",
	 "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl", "referenceLocator": "pkg:npm/lodash@4.17.20"}]},
	{"SPDXID": "SPDXRef-b", "name": "ms", "versionInfo": "2.1.3", "sourceInfo": "package found in: api/yarn.lock",
	 "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl", "referenceLocator": "pkg:npm/ms@2.1.3"}]},
	{"SPDXID": "SPDXRef-c", "name": "debug", "versionInfo": "4.3.1", "sourceInfo": "built from source: see the vendor notes.",
	 "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl", "referenceLocator": "pkg:npm/debug@4.3.1"}]}]}`
	res, err := sbom.ReadSBOM([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, c := range res.Components {
		got[c.Name] = c.Locations
	}
	want := map[string][]string{"lodash": {"/app/package-lock.json", "/web/package-lock.json"}, "ms": {"api/yarn.lock"}, "debug": nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("locations (-want +got):\n%s", diff)
	}
}

func copyDir(tb testing.TB, from, to string) {
	tb.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		mustWrite(tb, filepath.Join(to, rel), mustRead(tb, p))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// TestReadSBOMRejects: neither CycloneDX nor SPDX JSON, or an SPDX version
// not read.
func TestReadSBOMRejects(t *testing.T) {
	for _, doc := range []string{`{"spdxVersion": "SPDX-2.1", "packages": []}`, `<bom/>`, `{"bomFormat": "other"}`, ``} {
		if _, err := sbom.ReadSBOM([]byte(doc)); err == nil {
			t.Errorf("ReadSBOM(%q) = nil error", doc)
		}
	}
}

// TestReadGoPackages: cyclonedx-gomod lists, in its -packages mode, each
// module's packages beside it; the root package has the module's path and
// version (type=package), and Go advisories, keyed by module, would match
// both. It is the module; the other packages stay.
func TestReadGoPackages(t *testing.T) {
	res := mustReadSBOM(t, "cyclonedx-gomod-1.10.0-packages.cdx.json")
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Purl)
	}
	want := []string{
		"pkg:golang/google.golang.org/grpc/attributes@v1.35.0?type=package",
		"pkg:golang/google.golang.org/grpc@v1.35.0?goarch=amd64&goos=linux&type=module",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("components %v, want %v", got, want)
	}
	// Its 19 "file" components (each package's source files) are not
	// packages left out.
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %+v, want none", res.Warnings)
	}
}

// TestReadTrivyOSPackages: Trivy names a Debian package's source package
// in properties (aquasecurity:trivy:SrcName, SrcVersion, SrcRelease,
// SrcEpoch), not in its purl, and Debian's advisories are keyed by source
// package: the purl gains the qualifiers Sentinel's own SBOMs write
// (source, and source_version where it differs from the binary's, epochs
// included). The image's operating system, a component without a purl,
// is no package left out.
func TestReadTrivyOSPackages(t *testing.T) {
	res := mustReadSBOM(t, "trivy-fluentd-image.cdx.json")
	got := map[string]string{}
	for _, c := range res.Components {
		got[c.Name] = c.Purl
	}
	for name, want := range map[string]string{
		// bsdutils has an epoch, its source util-linux none
		"bsdutils": "pkg:deb/debian/bsdutils@2.33.1-0.1?arch=amd64&distro=debian-10.2&epoch=1&source=util-linux&source_version=2.33.1-0.1",
		// the same epoch on both: the source's version is the binary's
		"libattr1": "pkg:deb/debian/libattr1@2.4.48-4?arch=amd64&distro=debian-10.2&epoch=1&source=attr",
		"libc6":    "pkg:deb/debian/libc6@2.28-10?arch=amd64&distro=debian-10.2&source=glibc",
		"bash":     "pkg:deb/debian/bash@5.0-4?arch=amd64&distro=debian-10.2",
	} {
		if got[name] != want {
			t.Errorf("%s: purl %s, want %s", name, got[name], want)
		}
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings %v: the operating system is no package without a purl", res.Warnings)
	}
}

// TestReadLenientTagValue: Syft 0.33 wrote tag-value documents whose File
// sections have SPDXIDs without "SPDXRef-", which the SPDX library's
// reader refuses whole. Their packages are read all the same, the same as
// from the JSON document Syft wrote beside it.
func TestReadLenientTagValue(t *testing.T) {
	tv := mustReadSBOM(t, "syft-0.33-flagger.spdx")
	js := mustReadSBOM(t, "syft-0.33-flagger.spdx.json")
	if len(tv.Components) == 0 {
		t.Fatal("no components")
	}
	if diff := cmp.Diff(purlSet(js.Components), purlSet(tv.Components)); diff != "" {
		t.Errorf("purls of the tag-value document differ from the JSON one's (-json +tag-value):\n%s", diff)
	}
}

// TestReadEncodedSlash: older Syft releases percent-encode the slash of an
// npm scope in their purls (pkg:npm/@babel%2Ftraverse@7.17.3); every
// package with a purl is read, a scoped one under its scope.
func TestReadEncodedSlash(t *testing.T) {
	const name = "syft-0.33-boxyhq-jackson.spdx"
	res := mustReadSBOM(t, name)
	data, err := os.ReadFile(filepath.Join(sboms, name))
	if err != nil {
		t.Fatal(err)
	}
	var purls []string
	for _, l := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(l), "ExternalRef: PACKAGE_MANAGER purl "); ok {
			purls = append(purls, strings.ReplaceAll(p, "%2F", "/"))
		}
	}
	if diff := cmp.Diff(set(purls), purlSet(res.Components)); diff != "" {
		t.Errorf("purls mismatch (-document +read):\n%s", diff)
	}
	if !slices.ContainsFunc(res.Components, func(c sentinel.Component) bool {
		return c.Name == "@babel/traverse" && c.Ecosystem == "npm"
	}) {
		t.Error("no @babel/traverse")
	}
}

// TestReadGitHubDependencyGraph: GitHub's dependency graph export names
// each package with its ecosystem in front ("go:golang.org/x/net"); the
// component is named as its purl names it.
func TestReadGitHubDependencyGraph(t *testing.T) {
	const name = "github-dependency-graph-osv-scanner.spdx.json"
	res := mustReadSBOM(t, name)
	var doc struct {
		Packages []struct {
			Name         string
			ExternalRefs []struct{ ReferenceType, ReferenceLocator string }
		}
	}
	mustJSON(t, filepath.Join(sboms, name), &doc)
	byPurl := map[string]string{}
	for _, c := range res.Components {
		byPurl[c.Purl] = c.Name
	}
	n := 0
	for _, p := range doc.Packages {
		for _, r := range p.ExternalRefs {
			if r.ReferenceType != "purl" {
				continue
			}
			eco, want, ok := strings.Cut(p.Name, ":")
			if !ok || strings.ContainsAny(eco, "./@") {
				continue
			}
			if got, ok := byPurl[r.ReferenceLocator]; ok {
				n++
				if got != want {
					t.Errorf("%s: named %q, want %q", r.ReferenceLocator, got, want)
				}
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d packages checked", n)
	}
}

// TestReadSubjectPurlNamesNoPackage: a subject whose purl names no package
// (cdxgen writes "pkg:swift/<app>@latest" for a Swift project, without the
// namespace the swift type needs) is still the project, by its name and
// version, as a subject without a purl is.
func TestReadSubjectPurlNamesNoPackage(t *testing.T) {
	doc := `{"bomFormat": "CycloneDX", "specVersion": "1.6", "version": 1,
	  "metadata": {"component": {"type": "application", "name": "swift-dependabot-example", "version": "latest",
	    "purl": "pkg:swift/swift-dependabot-example@latest", "bom-ref": "pkg:swift/swift-dependabot-example@latest"}},
	  "components": [{"type": "library", "name": "swift-argument-parser", "group": "github.com/apple", "version": "1.0.3",
	    "purl": "pkg:swift/github.com/apple/swift-argument-parser@1.0.3", "bom-ref": "pkg:swift/github.com/apple/swift-argument-parser@1.0.3"}],
	  "dependencies": [{"ref": "pkg:swift/swift-dependabot-example@latest", "dependsOn": ["pkg:swift/github.com/apple/swift-argument-parser@1.0.3"]}]}`
	res, err := sbom.ReadSBOM([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	m := res.MainProject()
	if m == nil || m.Name != "swift-dependabot-example" || m.Version != "latest" ||
		!slices.Equal(m.DependsOn, []string{"pkg:swift/github.com/apple/swift-argument-parser@1.0.3"}) {
		t.Errorf("main project %+v, want swift-dependabot-example latest depending on swift-argument-parser", m)
	}
}
