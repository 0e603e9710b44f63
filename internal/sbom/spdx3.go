package sbom

import (
	"bytes"
	"encoding/json"
	"strings"
)

// SPDX 3 (JSON-LD).
//
// An SPDX 3 document is one "@graph" of elements, each with a "type" and
// an "spdxId"; what SPDX 2 kept inside a package (its licenses) or in a
// relationships list are elements of their own, linked by Relationship
// elements ("from" one element "to" a list). Sentinel reads the subset an
// SBOM needs and hands it to the SPDX 2 reading (readSPDXDoc), as the
// document SPDX 2 would have written:
//
//   - software_Package: spdxId, name, software_packageVersion, the purl
//     (software_packageUrl, or an externalIdentifier of type packageUrl),
//     software_primaryPurpose;
//   - SpdxDocument: its rootElement, the elements the document describes;
//   - Relationship and LifecycleScopedRelationship: describes, dependsOn
//     and the other kinds of dependency (optional, provided, static and
//     dynamic links; SPDX 2's DEPENDS_ON, and for development only when the
//     lifecycle scope is development or test),
//     hasDeclaredLicense and hasConcludedLicense, whose target is a
//     simplelicensing_LicenseExpression.
//
// Types are read with or without their namespace ("Package",
// "software_Package", a full IRI), and JSON-LD's own "@type" and "@id"
// as "type" and "spdxId", which the spec's context maps them to.

// isSPDX3 reports whether b (trimmed) is an SPDX 3 JSON-LD document.
func isSPDX3(b []byte) bool {
	head := b[:min(len(b), 4096)]
	return len(b) > 0 && b[0] == '{' && bytes.Contains(head, []byte(`"@context"`)) && bytes.Contains(head, []byte("spdx.org/rdf/3"))
}

// spdx3Element is the part of any element Sentinel reads.
type spdx3Element struct {
	Type    string `json:"type"`
	SPDXID  string `json:"spdxId"`
	AtType  string `json:"@type"` // the same, in JSON-LD's own keywords
	AtID    string `json:"@id"`
	Name    string `json:"name"`
	Version string `json:"software_packageVersion"`
	Purl    string `json:"software_packageUrl"`
	Purpose string `json:"software_primaryPurpose"`
	IDs     []struct {
		Type       string `json:"externalIdentifierType"`
		Identifier string `json:"identifier"`
	} `json:"externalIdentifier"`
	RootElement      []string        `json:"rootElement"`
	RelationshipType string          `json:"relationshipType"`
	From             string          `json:"from"`
	Scope            string          `json:"scope"` // a LifecycleScopedRelationship's
	To               json.RawMessage `json:"to"`    // a list, or one id
	Expression       string          `json:"simplelicensing_licenseExpression"`
	CreationInfo     json.RawMessage `json:"creationInfo"`
	SpecVersion      string          `json:"specVersion"`
}

// spdx3DevelopmentScopes are the lifecycle scopes of a dependency that a
// running application does without. Not "build": what a compiled program
// is built from is linked into it (the SPDX project's own example scopes
// a Rust server's tokio and hyper so).
var spdx3DevelopmentScopes = map[string]bool{"development": true, "test": true}

// localScope is a lifecycle scope without its namespace.
func localScope(s string) string {
	if i := strings.LastIndexAny(s, "/_"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// localType is an element's type without its namespace
// ("software_Package", ".../terms/Software/Package" -> "Package").
func localType(e *spdx3Element) string {
	t := e.Type
	if t == "" {
		t = e.AtType
	}
	if i := strings.LastIndexByte(t, '/'); i >= 0 {
		t = t[i+1:]
	}
	if i := strings.LastIndexByte(t, '_'); i >= 0 {
		t = t[i+1:]
	}
	return t
}

// spdx3Doc reads an SPDX 3 JSON-LD document as the SPDX 2 document that
// says the same of its packages.
func spdx3Doc(data []byte) (*spdxDoc, error) {
	var ld struct {
		Graph []spdx3Element `json:"@graph"`
	}
	if err := json.Unmarshal(data, &ld); err != nil {
		return nil, jsonError(err, "")
	}
	if len(ld.Graph) == 0 {
		return nil, reject(`an SPDX 3 document without "@graph": no elements to read`)
	}
	doc := &spdxDoc{SPDXVersion: "SPDX-3.0"}
	licenses := map[string]string{} // license element id -> expression
	type rel struct {
		typ, from, scope string
		to               []string
	}
	var rels []rel
	for i := range ld.Graph {
		e := &ld.Graph[i]
		if e.SPDXID == "" {
			e.SPDXID = e.AtID
		}
		switch localType(e) {
		case "LicenseExpression":
			licenses[e.SPDXID] = unwrapExpression(e.Expression)
		case "SpdxDocument":
			doc.SPDXID = e.SPDXID
			doc.DocumentDescribes = append(doc.DocumentDescribes, e.RootElement...)
		case "Relationship", "LifecycleScopedRelationship":
			var to []string
			if json.Unmarshal(e.To, &to) != nil {
				var one string
				if json.Unmarshal(e.To, &one) == nil && one != "" {
					to = []string{one}
				}
			}
			rels = append(rels, rel{e.RelationshipType, e.From, e.Scope, to})
		case "CreationInfo":
			if v := strings.TrimSpace(e.SpecVersion); v != "" && !strings.HasPrefix(v, "3.") {
				return nil, reject("unsupported SPDX version %q in an SPDX 3 document", truncate(v))
			}
		}
	}
	index := map[string]int{} // package id -> position in doc.Packages
	for i := range ld.Graph {
		e := &ld.Graph[i]
		if localType(e) != "Package" || e.SPDXID == "" {
			continue
		}
		purl := e.Purl
		for _, id := range e.IDs {
			if purl == "" && strings.EqualFold(id.Type, "packageUrl") {
				purl = id.Identifier
			}
		}
		p := spdxPackage{SPDXID: e.SPDXID, Name: e.Name, VersionInfo: e.Version}
		if strings.EqualFold(e.Purpose, "application") {
			p.PrimaryPurpose = "APPLICATION"
		}
		if purl != "" {
			p.ExternalRefs = append(p.ExternalRefs, spdxExternalRef{Category: "PACKAGE-MANAGER", Type: "purl", Locator: purl})
		}
		index[e.SPDXID] = len(doc.Packages)
		doc.Packages = append(doc.Packages, p)
	}
	for _, r := range rels {
		switch r.typ {
		case "describes":
			if r.from == doc.SPDXID || doc.SPDXID == "" {
				doc.DocumentDescribes = append(doc.DocumentDescribes, r.to...)
			}
		case "dependsOn", "hasOptionalDependency", "hasProvidedDependency", "hasStaticLink", "hasDynamicLink":
			typ := "DEPENDS_ON"
			if spdx3DevelopmentScopes[localScope(r.scope)] {
				typ = "DEV_DEPENDS_ON" // for development only (readSPDXDoc)
			}
			for _, to := range r.to {
				doc.Relationships = append(doc.Relationships, spdxRelationship{Element: r.from, Type: typ, Related: to})
			}
		case "hasDeclaredLicense", "hasConcludedLicense":
			i, ok := index[r.from]
			if !ok || len(r.to) == 0 {
				continue
			}
			if r.typ == "hasDeclaredLicense" {
				doc.Packages[i].LicenseDeclared = licenses[r.to[0]]
			} else {
				doc.Packages[i].LicenseConcluded = licenses[r.to[0]]
			}
		}
	}
	return doc, nil
}

// unwrapExpression drops parentheses around a whole license expression,
// which SPDX 3 writers add and SPDX 2 ones do not: "(MIT OR Apache-2.0)"
// is "MIT OR Apache-2.0".
func unwrapExpression(x string) string {
	x = strings.TrimSpace(x)
	for len(x) >= 2 && x[0] == '(' && x[len(x)-1] == ')' {
		depth := 0
		for i := 0; i < len(x)-1; i++ {
			switch x[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				return x // the first group closes before the end: "(A) OR (B)"
			}
		}
		x = strings.TrimSpace(x[1 : len(x)-1])
	}
	return x
}
