package sbom_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// readResult is what an SBOM reads to, whatever its encoding: the
// components and the projects.
func readResult(tb testing.TB, path string) *sbom.Result {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := sbom.ReadSBOM(b)
	if err != nil {
		tb.Fatalf("ReadSBOM(%s): %v", path, err)
	}
	return res
}

// TestReadSBOMEncodings: one run of a tool written in each encoding it has
// (Syft: CycloneDX JSON and XML, SPDX JSON and tag-value, from one scan;
// cyclonedx-npm: CycloneDX JSON and XML) reads to the same components,
// licenses, dependency graph and project in every encoding of one format,
// and to the same packages across the two formats.
func TestReadSBOMEncodings(t *testing.T) {
	for _, c := range []struct {
		base      string
		cdx, spdx []string
		atLeast   int
	}{
		{"syft-1.33.0-tree", []string{".cdx.json", ".cdx.xml"}, []string{".spdx.json", ".spdx"}, 110},
		{"cyclonedx-npm-express", []string{".cdx.json", ".cdx.xml"}, nil, 370},
	} {
		t.Run(c.base, func(t *testing.T) {
			want := xmlPurls(t, filepath.Join(sboms, c.base+".cdx.xml"))
			if len(want) < c.atLeast {
				t.Fatalf("%s.cdx.xml lists %d purls; want at least %d", c.base, len(want), c.atLeast)
			}
			for _, group := range [][]string{c.cdx, c.spdx} {
				if len(group) == 0 {
					continue
				}
				first := readResult(t, filepath.Join(sboms, c.base+group[0]))
				if diff := cmp.Diff(want, purlSet(first.Components)); diff != "" {
					t.Errorf("%s: purls differ from those the XML lists (-xml +read):\n%s", group[0], diff)
				}
				for _, ext := range group[1:] {
					res := readResult(t, filepath.Join(sboms, c.base+ext))
					if diff := cmp.Diff(first.Components, res.Components); diff != "" {
						t.Errorf("%s reads differently from %s (-%s +%s):\n%s", ext, group[0], group[0], ext, diff)
					}
					if diff := cmp.Diff(first.Projects, res.Projects); diff != "" {
						t.Errorf("%s: projects differ from %s's:\n%s", ext, group[0], diff)
					}
					if len(res.Files) != 1 || res.Files[0].Extractor != first.Files[0].Extractor {
						t.Errorf("%s: files %+v, want one read as %s", ext, res.Files, first.Files[0].Extractor)
					}
				}
			}
		})
	}
}

// TestReadCycloneDXXMLVectors: every valid XML test vector of the
// CycloneDX specification (1.2 to 1.6) reads, to every purl its components
// list (nested ones included), and each vector's JSON twin reads too. (The
// two are written separately and differ in content, so they are not
// compared with each other.)
func TestReadCycloneDXXMLVectors(t *testing.T) {
	n, purls := 0, 0
	for _, v := range []string{"1.2", "1.3", "1.4", "1.5", "1.6"} {
		xmls, err := filepath.Glob(filepath.Join(specVectors, v, "valid-*.xml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range xmls {
			n++
			name := strings.TrimSuffix(filepath.Base(x), ".xml")
			t.Run(name, func(t *testing.T) {
				readResult(t, filepath.Join(specVectors, v, name+".json"))
				res := readResult(t, x)
				want := xmlPurls(t, x)
				purls += len(want)
				if diff := cmp.Diff(want, purlSet(res.Components)); diff != "" {
					t.Errorf("purls (-xml +read):\n%s", diff)
				}
				if res.Files[0].Extractor != "cyclonedx-"+max(v, "1.2") {
					t.Errorf("read as %s, want cyclonedx-%s", res.Files[0].Extractor, v)
				}
			})
		}
	}
	if n < 150 || purls < 50 {
		t.Errorf("%d XML vectors listing %d purls; want the 154 in testdata, with purls", n, purls)
	}
}

// xmlPurls reads, with encoding/xml alone, the purls of a CycloneDX XML
// document's components (bom/components/component, nested
// component/components/component too; not the metadata's subject, nor
// pedigree ancestors) that parse, as a set.
func xmlPurls(tb testing.TB, path string) []string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	var stack []string
	var out []string
	inComponentsTree := func() bool { // the stack is bom (components component)+
		if len(stack) < 3 || stack[0] != "bom" || (len(stack)-1)%2 != 0 {
			return false
		}
		for i := 1; i < len(stack); i += 2 {
			if stack[i] != "components" || stack[i+1] != "component" {
				return false
			}
		}
		return true
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "purl" && inComponentsTree() {
				var p string
				if err := dec.DecodeElement(&p, &e); err != nil {
					tb.Fatal(err)
				}
				if p = strings.TrimSpace(p); purlParses(p) {
					out = append(out, p)
				}
				continue
			}
			stack = append(stack, e.Name.Local)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	return set(out)
}
