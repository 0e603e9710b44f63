package sbom

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
)

// SBOMs inside something else.
//
// An SBOM often reaches a gate wrapped: GitHub's REST API answers
// GET /repos/{owner}/{repo}/dependency-graph/sbom with {"sbom": <SPDX>};
// `syft attest`, `cosign attest --type cyclonedx|spdxjson` and
// `trivy image --format cosign-vuln`'s siblings put it in an in-toto
// Statement ({"_type": ".../Statement/v…", "predicateType", "predicate"}),
// signed as a DSSE envelope ({"payloadType", "payload": base64, "signatures"}),
// which `cosign download attestation` prints one per line and a Sigstore
// bundle holds as "dsseEnvelope". unwrapSBOM peels those layers off so that
// the document inside is read as if it had been given on its own.

// maxUnwrap bounds the layers unwrapSBOM peels (bundle, envelope,
// statement, predicate string, API wrapper: five at most in practice).
const maxUnwrap = 6

// unwrapSBOM returns the SBOM inside b, or b itself when it is not a
// wrapper this package knows. ok says whether anything was peeled.
func unwrapSBOM(b []byte) (inner []byte, ok bool) {
	for range maxUnwrap {
		next, peeled := unwrapOnce(b)
		if !peeled {
			break
		}
		b, ok = bytes.TrimLeft(plainText(next), " \t\r\n"), true
	}
	return b, ok
}

// wrapper holds the members of the wrappers unwrapOnce knows; a document
// with none of them set is not a wrapper.
type wrapper struct {
	// GitHub's dependency-graph API.
	SBOM json.RawMessage `json:"sbom"`
	// DSSE envelope.
	PayloadType string `json:"payloadType"`
	Payload     string `json:"payload"`
	// in-toto Statement (v0.1 and v1).
	Type          string          `json:"_type"`
	PredicateType string          `json:"predicateType"`
	Predicate     json.RawMessage `json:"predicate"`
	// Sigstore bundle.
	MediaType    string          `json:"mediaType"`
	DSSEEnvelope json.RawMessage `json:"dsseEnvelope"`
	// The members an SBOM itself has: a document with any of them is
	// the SBOM, whatever else it carries.
	BOMFormat   string `json:"bomFormat"`
	SPDXVersion string `json:"spdxVersion"`
	Context     any    `json:"@context"`
}

// unwrapOnce peels one layer off b.
func unwrapOnce(b []byte) ([]byte, bool) {
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	var w wrapper
	if err := json.Unmarshal(b, &w); err != nil {
		// Several envelopes, one per line (cosign download attestation):
		// the first that holds an SBOM.
		return firstLine(b)
	}
	switch {
	case w.BOMFormat != "" || w.SPDXVersion != "" || w.Context != nil:
		return nil, false
	case isObject(w.DSSEEnvelope):
		return w.DSSEEnvelope, true
	case w.Payload != "" && w.PayloadType != "":
		p, err := decodeBase64(w.Payload)
		if err != nil {
			return nil, false
		}
		return p, true
	case w.Type != "" && len(w.Predicate) > 0:
		return predicateDocument(w.Predicate)
	case isObject(w.SBOM):
		return w.SBOM, true
	}
	return nil, false
}

// predicateDocument is the SBOM an in-toto predicate holds: the document
// itself, or (cosign's predicate for --type custom and older releases) a
// {"Data": "<document>", "Timestamp": …} object or a JSON string.
func predicateDocument(p json.RawMessage) ([]byte, bool) {
	switch {
	case isObject(p):
		var c struct {
			Data json.RawMessage `json:"Data"`
		}
		if json.Unmarshal(p, &c) == nil && len(c.Data) > 0 {
			if s, ok := jsonString(c.Data); ok {
				return []byte(s), true
			}
			if isObject(c.Data) {
				return c.Data, true
			}
		}
		return p, true
	default:
		if s, ok := jsonString(p); ok {
			return []byte(s), true
		}
	}
	return nil, false
}

// firstLine tries each line of b as a wrapper and returns the first SBOM
// one holds.
func firstLine(b []byte) ([]byte, bool) {
	for line := range bytes.Lines(b) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || !json.Valid(line) {
			continue
		}
		if inner, ok := unwrapSBOM(line); ok && looksLikeSBOM(inner) {
			return inner, true
		}
	}
	return nil, false
}

func isObject(r json.RawMessage) bool {
	r = bytes.TrimLeft(r, " \t\r\n")
	return len(r) > 0 && r[0] == '{'
}

func jsonString(r json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(r, &s); err != nil || s == "" {
		return "", false
	}
	return s, true
}

// decodeBase64 decodes standard or URL-safe base64, padded or not (DSSE
// allows both).
func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	_, err := base64.StdEncoding.DecodeString(s)
	return nil, err
}

// looksLikeSBOM reports whether b, a peeled document, names itself an
// SBOM near its start: not an attestation of something else (SLSA
// provenance, a vulnerability scan).
func looksLikeSBOM(b []byte) bool {
	head := b[:min(len(b), 64<<10)]
	for _, k := range []string{`"bomFormat"`, `"spdxVersion"`, `"@context"`, "SPDXVersion:", "spdxVersion:", "<bom"} {
		if bytes.Contains(head, []byte(k)) {
			return true
		}
	}
	return false
}
