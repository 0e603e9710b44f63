package sbom

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	cdx "github.com/CycloneDX/cyclonedx-go"
	spdxjson "github.com/spdx/tools-golang/json"
	"github.com/spdx/tools-golang/spdx"
	"github.com/spdx/tools-golang/tagvalue"
	spdxyaml "github.com/spdx/tools-golang/yaml"
	"gopkg.in/yaml.v3"
)

// The other encodings of the two formats: CycloneDX XML (the default of
// the Maven and Gradle plugins, and what Dependency-Track exports) and
// SPDX 2 tag-value (Syft's spdx-tag-value, the SPDX tools) and YAML (the
// SPDX tools). XML and tag-value are decoded by their format's own
// library, YAML as plain YAML (spdxFromYAML), and written again as JSON,
// which ReadSBOM then reads like any JSON document: one reading of each
// format, whatever the encoding.

// cycloneDXFromXML decodes a CycloneDX XML document and encodes it as
// CycloneDX JSON of the same version (1.2 for 1.0 and 1.1, which had no
// JSON form).
func cycloneDXFromXML(data []byte) (out []byte, err error) {
	defer recoverDecode("CycloneDX XML", &err)
	root, err := xmlRoot(data)
	if err != nil {
		return nil, &DecodeError{msg: "the SBOM is not well-formed XML: " + err.Error(), err: err}
	}
	if root.Local != "bom" || !strings.HasPrefix(root.Space, "http://cyclonedx.org/schema/bom/") {
		if root.Space == "http://www.w3.org/1999/02/22-rdf-syntax-ns#" {
			// tools-golang's RDF reader fails on the SPDX specification's
			// own 2.2 and 2.3 examples: not read rather than read wrong.
			return nil, reject("the SBOM is SPDX RDF/XML, which is not read: give it as SPDX 2.2/2.3 JSON, YAML or tag-value, or SPDX 3 JSON-LD")
		}
		return nil, reject("the XML document is not a CycloneDX BOM (its root element is <%s> in namespace %q): give a CycloneDX or SPDX document",
			truncate(root.Local), truncate(root.Space))
	}
	var bom cdx.BOM
	if err := cdx.NewBOMDecoder(bytes.NewReader(data), cdx.BOMFileFormatXML).Decode(&bom); err != nil {
		return nil, &DecodeError{msg: "cannot read the CycloneDX XML: " + err.Error(), err: err}
	}
	if bom.SpecVersion == 0 {
		return nil, reject("unsupported CycloneDX XML namespace %q; versions 1.0 to 1.7 are read", truncate(root.Space))
	}
	v := max(bom.SpecVersion, cdx.SpecVersion1_2)
	bom.BOMFormat = cdx.BOMFormat // JSON's marker, which XML has no field for
	var buf bytes.Buffer
	if err := cdx.NewBOMEncoder(&buf, cdx.BOMFileFormatJSON).EncodeVersion(&bom, v); err != nil {
		return nil, &DecodeError{msg: "cannot convert the CycloneDX XML: " + err.Error(), err: err}
	}
	return buf.Bytes(), nil
}

// recoverDecode turns a panic of a format library on a malformed
// document into the document's rejection: a bad SBOM never stops the
// command with a stack trace.
func recoverDecode(form string, err *error) {
	if r := recover(); r != nil {
		*err = &DecodeError{msg: fmt.Sprintf("cannot read the %s: the document is malformed (%v)", form, r)}
	}
}

// xmlRoot returns the name of the document's root element.
func xmlRoot(data []byte) (xml.Name, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return xml.Name{}, errors.New("no root element")
			}
			return xml.Name{}, err
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name, nil
		}
	}
}

// spdxFromTagValue parses an SPDX 2.1-2.3 tag-value document and writes it
// as SPDX 2.3 JSON.
func spdxFromTagValue(data []byte) ([]byte, error) {
	data = withoutSnippets(data)
	out, err := spdxAsJSON("SPDX tag-value document", tagvalue.Read, data)
	if err == nil {
		return out, nil
	}
	// The reader refuses a whole document over parts Sentinel does not
	// read: File sections whose SPDXID lacks "SPDXRef-" (Syft 0.33 wrote
	// them so, and relationships naming them), a supplier or originator
	// without its "Person:" or "Organization:" (Syft's from package
	// metadata). Read again without those, else report the first error.
	if again, err2 := spdxAsJSON("SPDX tag-value document", tagvalue.Read, lenientTagValue(data)); err2 == nil {
		return again, nil
	}
	return nil, err
}

// lenientTagValue drops from a tag-value document what is not needed to
// read its packages and that the reader is strict about: File sections,
// relationships between elements whose identifiers lack "SPDXRef-", and
// suppliers and originators not written as "Person: ..." or
// "Organization: ...".
func lenientTagValue(data []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(data))
	inFile, inText := false, false
	for line := range bytes.Lines(data) {
		if inText {
			inText = !bytes.Contains(line, []byte("</text>"))
			if inFile {
				continue
			}
			out.Write(line)
			continue
		}
		tag, value, ok := bytes.Cut(line, []byte(":"))
		tag = bytes.TrimSpace(tag)
		value = bytes.TrimSpace(value)
		if ok {
			if i := bytes.Index(value, []byte("<text>")); i >= 0 && !bytes.Contains(value[i:], []byte("</text>")) {
				inText = true
			}
			switch string(tag) {
			case "FileName":
				inFile = true
			case "PackageName", "SnippetSPDXID", "LicenseID", "Relationship", "DocumentName", "SPDXVersion":
				inFile = false
			}
		}
		if inFile {
			continue
		}
		if ok && (string(tag) == "PackageSupplier" || string(tag) == "PackageOriginator") &&
			!bytes.HasPrefix(value, []byte("Person:")) && !bytes.HasPrefix(value, []byte("Organization:")) && !bytes.Equal(value, []byte("NOASSERTION")) {
			continue
		}
		if ok && string(tag) == "Relationship" && !spdxRelationshipIDs(value) {
			continue
		}
		out.Write(line)
	}
	return out.Bytes()
}

// spdxRelationshipIDs reports whether both elements of a relationship
// value ("SPDXRef-A CONTAINS SPDXRef-B") are identifiers the reader takes.
func spdxRelationshipIDs(value []byte) bool {
	f := bytes.Fields(value)
	if len(f) < 3 {
		return false
	}
	for _, id := range [][]byte{f[0], f[2]} {
		if !bytes.HasPrefix(id, []byte("SPDXRef-")) && !bytes.HasPrefix(id, []byte("DocumentRef-")) &&
			string(id) != "NOASSERTION" && string(id) != "NONE" {
			return false
		}
	}
	return true
}

// spdxFromYAML parses an SPDX 2 YAML document and writes it as SPDX 2.3
// JSON.
//
// SPDX 2's YAML is its JSON written as YAML, member for member: the
// document is decoded as plain YAML and written back as JSON, which the
// JSON reader then reads with the same tolerance (a number where the
// schema wants a string, an SPDXID that does not follow the pattern) that
// real documents need. The SPDX library's YAML reader, which refuses
// those, is only the fallback for what plain YAML cannot read.
func spdxFromYAML(data []byte) (out []byte, err error) {
	defer recoverDecode("SPDX YAML document", &err)
	var doc any
	if yerr := yaml.Unmarshal(data, &doc); yerr == nil {
		if m, ok := doc.(map[string]any); ok {
			if b, jerr := json.Marshal(m); jerr == nil {
				return b, nil
			}
		}
	}
	return spdxAsJSON("SPDX YAML document", spdxyaml.Read, data)
}

// spdxAsJSON reads an SPDX 2 document with its encoding's reader and
// writes it as SPDX 2.3 JSON.
func spdxAsJSON(form string, read func(io.Reader) (*spdx.Document, error), data []byte) (out []byte, err error) {
	defer recoverDecode(form, &err)
	doc, err := read(bytes.NewReader(data))
	if err != nil {
		return nil, &DecodeError{msg: fmt.Sprintf("cannot read the %s: %v", form, err), err: err}
	}
	var buf bytes.Buffer
	if err := spdxjson.Write(doc, &buf); err != nil {
		return nil, &DecodeError{msg: fmt.Sprintf("cannot convert the %s: %v", form, err), err: err}
	}
	return buf.Bytes(), nil
}

// withoutSnippets drops a tag-value document's snippet information (the
// Snippet* tags and LicenseInfoInSnippet, multi-line <text> values
// included), which Sentinel does not read. The tag-value reader refuses a
// snippet that does not follow a file, as the SPDX 2.3 specification's own
// example has one, after its last package.
func withoutSnippets(data []byte) []byte {
	if !bytes.Contains(data, []byte("SnippetSPDXID:")) {
		return data
	}
	var out bytes.Buffer
	out.Grow(len(data))
	inText := false // inside a dropped tag's <text> value
	for line := range bytes.Lines(data) {
		if inText {
			inText = !bytes.Contains(line, []byte("</text>"))
			continue
		}
		tag, value, ok := bytes.Cut(line, []byte(":"))
		if ok && (bytes.HasPrefix(tag, []byte("Snippet")) || string(tag) == "LicenseInfoInSnippet") {
			if i := bytes.Index(value, []byte("<text>")); i >= 0 && !bytes.Contains(value[i:], []byte("</text>")) {
				inText = true
			}
			continue
		}
		out.Write(line)
	}
	return out.Bytes()
}
