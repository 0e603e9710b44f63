package sbom_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

// TestReadSBOMSubjectWithoutPurl: a document whose subject has no purl (a
// product, a SaaS offering) keeps it as the project, by name and version,
// with its direct dependencies, and a CycloneDX SBOM written from it says
// so; it is never named after the directory the command ran in.
func TestReadSBOMSubjectWithoutPurl(t *testing.T) {
	for _, c := range []struct {
		file, name, version string
		direct              []string
		components          int
	}{
		{"spdx-examples-appbomination.spdx.json", "App-BOM-ination", "1.0", []string{
			"pkg:maven/junit/junit@4.12", "pkg:maven/org.apache.commons/commons-lang3@3.4", "pkg:maven/org.slf4j/slf4j-api@1.7.21",
		}, 4},
		{"bom-examples-saasbom.cdx.json", "Acme Cloud Example", "2022-1", nil, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			res := mustReadSBOM(t, c.file)
			if len(res.Components) != c.components {
				t.Errorf("%d components, want %d", len(res.Components), c.components)
			}
			main := res.MainProject()
			if main == nil {
				t.Fatalf("no project; projects %+v", res.Projects)
			}
			if main.Name != c.name || main.Version != c.version || main.Purl != "" {
				t.Errorf("project %+v, want %s %s without a purl", main, c.name, c.version)
			}
			if diff := cmp.Diff(c.direct, main.DependsOn); diff != "" {
				t.Errorf("direct dependencies (-want +got):\n%s", diff)
			}
			bom := sbom.NewBOM(res.Components, sbom.BOMOptions{Projects: res.Projects, Now: fixedNow})
			mc := bom.Metadata.Component
			if mc.Name != c.name || mc.Version != c.version {
				t.Errorf("metadata.component %s %s, want %s %s", mc.Name, mc.Version, c.name, c.version)
			}
			var rootDeps []string
			if bom.Dependencies != nil {
				for _, d := range *bom.Dependencies {
					if d.Ref == mc.BOMRef && d.Dependencies != nil {
						rootDeps = *d.Dependencies
					}
				}
			}
			if diff := cmp.Diff(c.direct, rootDeps); diff != "" {
				t.Errorf("the written root's dependencies (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadSBOMOnlySubject: a document whose one package is the one it
// describes has no components, and its subject is the project.
func TestReadSBOMOnlySubject(t *testing.T) {
	res := mustReadSBOM(t, "spdx-examples-minimal.spdx.json")
	if len(res.Components) != 0 {
		t.Errorf("components %+v, want none", res.Components)
	}
	if p := res.MainProject(); p == nil || p.Name != "tools-java" {
		t.Errorf("project %+v, want tools-java", p)
	}
}

// TestReadSPDXTagValue: SPDX 2.2 tag-value (the SPDX examples' hello
// world) reads: its one package, described by a DESCRIBES relationship,
// is the project, not a package left out for want of a purl.
func TestReadSPDXTagValue(t *testing.T) {
	res := mustReadSBOM(t, "spdx-examples-example1.spdx")
	if p := res.MainProject(); p == nil || p.Name != "hello" || len(p.Licenses) != 1 || p.Licenses[0] != "GPL-3.0-or-later" {
		t.Errorf("project %+v, want hello under GPL-3.0-or-later", p)
	}
	if len(res.Components) != 0 || len(res.Warnings) != 0 {
		t.Errorf("components %+v, warnings %+v; want none", res.Components, res.Warnings)
	}
	if res.Files[0].Extractor != "spdx-2.3" {
		t.Errorf("read as %s, want spdx-2.3 (tag-value 2.2, converted)", res.Files[0].Extractor)
	}
}

// TestReadSPDXEncodings: the SPDX 2.3 specification's example document,
// written by the SPDX project as JSON, YAML and tag-value (with a snippet
// after its last package, which the tag-value library alone refuses),
// reads to the same components, project, graph and warnings each way.
func TestReadSPDXEncodings(t *testing.T) {
	want := mustReadSBOM(t, "spdx-spec-2.3-example.spdx.json")
	if len(want.Components) == 0 || len(want.Warnings) == 0 {
		t.Fatalf("the JSON example reads to %d components and %d warnings; the test needs both", len(want.Components), len(want.Warnings))
	}
	for _, name := range []string{"spdx-spec-2.3-example.spdx.yaml", "spdx-spec-2.3-example.spdx"} {
		got := mustReadSBOM(t, name)
		sameReading(t, want, got, "json", name)
		if len(got.Warnings) != len(want.Warnings) {
			t.Errorf("%s: %d warnings, the JSON %d", name, len(got.Warnings), len(want.Warnings))
		}
	}
}

// TestReadSPDXYAMLLenient: the YAML form reads as leniently as the JSON
// one: a number where the schema wants a string (licenseListVersion: 3.17,
// unquoted, as hand-written and some tools' YAML has it) and an SPDXID
// with a character the pattern forbids (a '/' of a Go module path) do not
// refuse the document.
func TestReadSPDXYAMLLenient(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(sboms, "spdx-spec-2.3-example.spdx.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(b), `licenseListVersion: "3.17"`, `licenseListVersion: 3.17`, 1)
	doc = strings.ReplaceAll(doc, `"SPDXRef-Saxon"`, `"SPDXRef-Package-java-archive-net.sf/saxon"`)
	if doc == string(b) || !strings.Contains(doc, "net.sf/saxon") || !strings.Contains(doc, "licenseListVersion: 3.17\n") {
		t.Fatal("the test's edits did not apply")
	}
	want := mustReadSBOM(t, "spdx-spec-2.3-example.spdx.json")
	got, err := sbom.ReadSBOM([]byte(doc))
	if err != nil {
		t.Fatalf("ReadSBOM: %v", err)
	}
	sameReading(t, want, got, "json", "lenient yaml")
}

// sameReading reports where two readings of one document (in two forms,
// named a and b) give other components or projects.
func sameReading(t *testing.T, want, got *sbom.Result, a, b string) {
	t.Helper()
	if diff := cmp.Diff(want.Components, got.Components); diff != "" {
		t.Errorf("components (-%s +%s):\n%s", a, b, diff)
	}
	if diff := cmp.Diff(want.Projects, got.Projects); diff != "" {
		t.Errorf("projects (-%s +%s):\n%s", a, b, diff)
	}
}

// TestReadCycloneDX17: cdxgen 12's default output, CycloneDX 1.7, is valid
// against the official 1.7 schema and reads to every purl it lists.
func TestReadCycloneDX17(t *testing.T) {
	const name = "cdxgen-12.8.4-npm.cdx.json"
	b, err := os.ReadFile(filepath.Join(sboms, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := validation.Validate(b); err != nil {
		t.Errorf("Validate: %v", err)
	}
	res := mustReadSBOM(t, name)
	if diff := cmp.Diff(filePurls(t, name), purlSet(res.Components)); diff != "" {
		t.Errorf("purls mismatch with the file's (-file +read):\n%s", diff)
	}
	if len(res.Components) < 60 {
		t.Errorf("%d components; the file lists 70", len(res.Components))
	}
	if p := res.MainProject(); p == nil || p.Purl != "pkg:npm/npmproj@1.0.0" {
		t.Errorf("project %+v, want pkg:npm/npmproj@1.0.0", p)
	}
}

// TestReadSPDX3: SPDX 3 (JSON-LD) documents say what their SPDX 2
// versions say: the SPDX project's examples written both ways give the
// same components (purls, versions, licenses, dependencies) and the same
// described project.
func TestReadSPDX3(t *testing.T) {
	for _, c := range []struct{ v2, v3 string }{
		{"spdx-examples-example11.spdx.json", "spdx-examples-example11.spdx3.json"},
		{"spdx-examples-appbomination.spdx.json", "spdx-examples-appbomination.spdx3.json"},
	} {
		t.Run(c.v3, func(t *testing.T) {
			want := mustReadSBOM(t, c.v2)
			got := mustReadSBOM(t, c.v3)
			if len(want.Components) < 3 {
				t.Fatalf("the SPDX 2 file gives %d components", len(want.Components))
			}
			sameReading(t, want, got, "SPDX 2", "SPDX 3")
			if len(got.Files) != 1 || got.Files[0].Extractor != "spdx-3.0" {
				t.Errorf("files %+v", got.Files)
			}
		})
	}
	// JSON-LD's own keywords, a full type IRI, and an optional dependency.
	ld := `{"@context":"https://spdx.org/rdf/3.0.1/spdx-context.jsonld","@graph":[
	 {"@type":"SpdxDocument","@id":"urn:doc","rootElement":["urn:app"]},
	 {"@type":"https://spdx.org/rdf/3.0.1/terms/Software/Package","@id":"urn:app","name":"app","software_packageVersion":"1.0.0","software_packageUrl":"pkg:npm/app@1.0.0"},
	 {"@type":"software_Package","@id":"urn:lodash","name":"lodash","software_packageVersion":"4.17.20","software_packageUrl":"pkg:npm/lodash@4.17.20"},
	 {"@type":"Relationship","@id":"urn:r","relationshipType":"hasOptionalDependency","from":"urn:app","to":"urn:lodash"}]}`
	res, err := sbom.ReadSBOM([]byte(ld))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 1 || res.Components[0].Purl != "pkg:npm/lodash@4.17.20" {
		t.Errorf("components %+v", res.Components)
	}
	if p := res.MainProject(); p == nil || p.Purl != "pkg:npm/app@1.0.0" || !slices.Equal(p.DependsOn, []string{"pkg:npm/lodash@4.17.20"}) {
		t.Errorf("project %+v", p)
	}
	// Another major version under an SPDX 3 context is refused.
	doc := `{"@context":"https://spdx.org/rdf/3.0.1/spdx-context.jsonld","@graph":[{"type":"CreationInfo","specVersion":"4.0"}]}`
	if _, err := sbom.ReadSBOM([]byte(doc)); !errors.Is(err, sbom.ErrUnsupportedSBOM) {
		t.Errorf("SPDX 4 in an SPDX 3 document: %v", err)
	}
}

// TestReadSBOMUnreadForms: the forms that are not read say so, and what to
// give instead.
func TestReadSBOMUnreadForms(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>`, "SPDX RDF/XML"},
		{`<?xml version="1.0"?><project xmlns="http://maven.apache.org/POM/4.0.0"/>`, "not a CycloneDX BOM"},
		{`<bom xmlns="http://cyclonedx.org/schema/bom/9.9"/>`, "unsupported CycloneDX XML namespace"},
		{`<bom xmlns="http://cyclonedx.org/schema/bom/1.5"><components>`, "CycloneDX XML"},
		{`<?xml version="1.0"?>`, "not well-formed XML"},
		{"SPDXVersion: SPDX-2.3\nPackageName: \n", "SPDX tag-value"},
	} {
		_, err := sbom.ReadSBOM([]byte(c.doc))
		var de *sbom.DecodeError
		if !errors.Is(err, sbom.ErrUnsupportedSBOM) || !errors.As(err, &de) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v; want an unsupported-SBOM error saying %q", c.doc, err, c.want)
		}
	}
}

// FuzzReadSBOM: whatever the bytes (JSON, XML, tag-value), ReadSBOM answers
// with components or with an unsupported-SBOM error that says why; it
// never panics, and every component it returns has a purl that parses.
func FuzzReadSBOM(f *testing.F) {
	for _, name := range []string{"spdx-examples-example1.spdx", "spdx-examples-minimal.spdx.json", "bom-examples-saasbom.cdx.json", "spdx-examples-example11.spdx3.json"} {
		if b, err := os.ReadFile(filepath.Join(sboms, name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<?xml version="1.0"?><bom xmlns="http://cyclonedx.org/schema/bom/1.4" version="1"><metadata><component type="application"><name>app</name><purl>pkg:npm/app@1.0.0</purl></component></metadata>` +
		`<components><component type="library" bom-ref="a"><name>lodash</name><version>4.17.20</version><purl>pkg:npm/lodash@4.17.20</purl></component></components>` +
		`<dependencies><dependency ref="a"/></dependencies></bom>`))
	f.Add([]byte("SPDXVersion: SPDX-2.3\nDataLicense: CC0-1.0\nSPDXID: SPDXRef-DOCUMENT\nDocumentName: d\nDocumentNamespace: https://example.com/d\nCreator: Tool: t\nCreated: 2026-01-01T00:00:00Z\n\n" +
		"PackageName: lodash\nSPDXID: SPDXRef-p\nPackageVersion: 4.17.20\nPackageDownloadLocation: NOASSERTION\nExternalRef: PACKAGE-MANAGER purl pkg:npm/lodash@4.17.20\n"))
	f.Add([]byte("spdxVersion: SPDX-2.3\ndataLicense: CC0-1.0\nSPDXID: SPDXRef-DOCUMENT\nname: d\ndocumentNamespace: https://example.com/d\n" +
		"creationInfo:\n  created: \"2026-01-01T00:00:00Z\"\n  creators: [\"Tool: t\"]\npackages:\n- name: lodash\n  SPDXID: SPDXRef-p\n  versionInfo: 4.17.20\n" +
		"  downloadLocation: NOASSERTION\n  externalRefs:\n  - referenceCategory: PACKAGE-MANAGER\n    referenceType: purl\n    referenceLocator: pkg:npm/lodash@4.17.20\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := sbom.ReadSBOM(data)
		if err != nil {
			var de *sbom.DecodeError
			if !errors.As(err, &de) || !errors.Is(err, sbom.ErrUnsupportedSBOM) || de.Message() == "" {
				t.Fatalf("ReadSBOM error %v (%T) is not a DecodeError with a message", err, err)
			}
			return
		}
		for _, c := range res.Components {
			if !purlParses(c.Purl) || c.Name == "" {
				t.Fatalf("component %+v: want a parsing purl and a name", c)
			}
		}
	})
}
