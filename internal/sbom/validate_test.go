package sbom_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

// specVectors are the official CycloneDX test vectors (testdata/
// cyclonedx-spec-tests/README.md): valid-*.json and invalid-*.json per
// spec version.
const specVectors = "testdata/cyclonedx-spec-tests"

// TestSpecVectors: every valid vector of 1.2 to 1.6 validates against the
// schema of its declared version, and every invalid one is refused with at
// least one located error. For 1.5 that is 36 valid and 22 invalid
// documents.
func TestSpecVectors(t *testing.T) {
	wantCounts := map[string][2]int{"1.5": {36, 22}}
	for _, v := range []string{"1.2", "1.3", "1.4", "1.5", "1.6"} {
		t.Run(v, func(t *testing.T) {
			entries, err := os.ReadDir(filepath.Join(specVectors, v))
			if err != nil {
				t.Fatal(err)
			}
			valid, invalid := 0, 0
			for _, e := range entries {
				name := e.Name()
				if filepath.Ext(name) != ".json" {
					continue // the XML twins are ReadSBOM's (read_encodings_test.go)
				}
				data := mustRead(t, filepath.Join(specVectors, v, name))
				err := validation.Validate(data)
				switch {
				case strings.HasPrefix(name, "valid-"):
					valid++
					if err != nil {
						t.Errorf("%s: %v", name, err)
					}
				case strings.HasPrefix(name, "invalid-"):
					invalid++
					var ve *validation.ValidationError
					if !errors.As(err, &ve) || !errors.Is(err, validation.ErrInvalidBOM) || len(ve.Errors) == 0 {
						t.Errorf("%s: Validate = %v, want a ValidationError", name, err)
						continue
					}
					for _, se := range ve.Errors {
						if !strings.HasPrefix(se.Path, "$") || se.Reason == "" {
							t.Errorf("%s: error without path or reason: %+v", name, se)
						}
					}
				}
			}
			if w, ok := wantCounts[v]; ok && (valid != w[0] || invalid != w[1]) {
				t.Errorf("%d valid and %d invalid vectors, want %d and %d", valid, invalid, w[0], w[1])
			}
			t.Logf("%s: %d valid, %d invalid", v, valid, invalid)
		})
	}
}

// TestValidateErrors pins the errors of a few 1.5 vectors: JSONPath and
// reason.
func TestValidateErrors(t *testing.T) {
	tests := []struct {
		file, path, reason string
	}{
		{"invalid-hash-md5-1.5.json", "$.components[0].hashes[0].content", "does not match pattern"},
		{"invalid-serialnumber-1.5.json", "$.serialNumber", "does not match pattern"},
		{"invalid-license-id-1.5.json", "$.components[0].licenses[0].license.id", "value must be one of"},
		{"invalid-metadata-timestamp-1.5.json", "$.metadata.timestamp", "is not valid date-time"},
		{"invalid-component-type-1.5.json", "$.components[0].type", "value must be one of"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			err := validation.Validate(mustRead(t, filepath.Join(specVectors, "1.5", tc.file)))
			var ve *validation.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate = %v", err)
			}
			found := false
			for _, se := range ve.Errors {
				found = found || (se.Path == tc.path && strings.Contains(se.Reason, tc.reason))
			}
			if !found {
				t.Errorf("errors %+v lack %s: %s", ve.Errors, tc.path, tc.reason)
			}
		})
	}
}

// TestValidateProducers: real producers' documents validate. npm sbom
// copies a repository written as "git@github.com:owner/repo.git" into
// externalReferences[].url, which is not an RFC 3987 IRI reference;
// CycloneDX's own validator does not assert that format, nor does this one.
// An error is reported once, however many branches of the schema it fails.
func TestValidateProducers(t *testing.T) {
	for _, name := range []string{"npm-11.19.1-cheerio.cdx.json", "npm-11.19.1-express.cdx.json", "cyclonedx-npm-express.cdx.json"} {
		b := mustRead(t, filepath.Join("testdata/sboms", name))
		if name == "npm-11.19.1-cheerio.cdx.json" && !bytes.Contains(b, []byte(`"url": "git@github.com:`)) {
			t.Fatalf("%s has no scp-style repository URL", name)
		}
		if err := validation.Validate(b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}

	doc := `{"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1, "metadata": {"timestamp": "yesterday"},
		"components": [{"type": "library", "name": "a", "externalReferences": [{"type": "vcs", "url": 42}]}]}`
	var ve *validation.ValidationError
	if err := validation.Validate([]byte(doc)); !errors.As(err, &ve) {
		t.Fatalf("Validate = %v", err)
	}
	seen := map[validation.SchemaError]bool{}
	for _, e := range ve.Errors {
		if seen[e] {
			t.Errorf("%s: %s reported twice in %+v", e.Path, e.Reason, ve.Errors)
		}
		seen[e] = true
	}
	if len(ve.Errors) < 2 {
		t.Errorf("errors %+v: want the timestamp's and the url's", ve.Errors)
	}
}

func TestValidateDeclaredVersion(t *testing.T) {
	// A 1.6 feature (a component of type "cryptographic-asset") is valid in
	// 1.6 and refused when the same document declares 1.5.
	doc := `{"bomFormat":"CycloneDX","specVersion":"%s","version":1,"components":[{"type":"cryptographic-asset","name":"aes"}]}`
	if err := validation.Validate([]byte(strings.Replace(doc, "%s", "1.6", 1))); err != nil {
		t.Errorf("1.6: %v", err)
	}
	if err := validation.Validate([]byte(strings.Replace(doc, "%s", "1.5", 1))); err == nil {
		t.Error("1.5 accepted a 1.6 component type")
	}
	for _, bad := range []string{`{"bomFormat":"CycloneDX","specVersion":"1.8"}`, `{"spdxVersion":"SPDX-2.3"}`, `not json`} {
		var ve *validation.ValidationError
		if err := validation.Validate([]byte(bad)); !errors.As(err, &ve) || len(ve.Errors) != 1 {
			t.Errorf("Validate(%q) = %v, want one error", bad, err)
		}
	}
}

// sbom5000 is a CycloneDX 1.5 document of 5,000 real components (the first
// 5,000 of every lockfile case, with their licenses, locations and graph),
// as the agent writes it.
func sbom5000(tb testing.TB) []byte {
	tb.Helper()
	res := mustExtract(tb, lockfiles)
	if len(res.Components) < 5000 {
		tb.Fatalf("%d components", len(res.Components))
	}
	res.Components = res.Components[:5000]
	return mustBOMBytes(tb, res, "lockfiles")
}

// BenchmarkDecodeValidated5000 measures the submission path (schema
// validation, then decoding) on 5,000 components; the budget is 250 ms.
//
//	go test ./internal/sbom -run '^$' -bench DecodeValidated -benchtime 20x
func BenchmarkDecodeValidated5000(b *testing.B) {
	data := sbom5000(b)
	if _, err := validation.DecodeValidated(data); err != nil { // compiles the schema
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		doc, err := validation.DecodeValidated(data)
		if err != nil || len(doc.Components) < 5000 {
			b.Fatalf("DecodeValidated: %v", err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/sbom")
}

// TestDecodeValidatedAgrees: the submission path's conversion of the
// validator's parse gives what Decode gives, on every valid test vector,
// the SBOMs of other tools, and the agent's own output.
func TestDecodeValidatedAgrees(t *testing.T) {
	var files []string
	for _, v := range []string{"1.2", "1.3", "1.4", "1.5", "1.6"} {
		m, _ := filepath.Glob(filepath.Join(specVectors, v, "valid-*.json"))
		files = append(files, m...)
	}
	m, _ := filepath.Glob(filepath.Join(sboms, "*.cdx.json"))
	files = append(files, m...)
	files = append(files, filepath.Join("testdata", "golden", "npm-v3-retirejs-chrome.cdx.json"))
	docs := map[string][]byte{}
	for _, f := range files {
		docs[f] = mustRead(t, f)
	}
	docs["sbom5000"] = sbom5000(t)
	for name, data := range docs {
		want, werr := sbom.Decode(data)
		got, gerr := validation.DecodeValidated(data)
		if werr != nil {
			// Decode refuses what the schema allows (a component without a
			// name in 1.2, ...): the submission path refuses it too.
			if gerr == nil {
				t.Errorf("%s: Decode refuses (%v), DecodeValidated accepts", name, werr)
			}
			continue
		}
		if gerr != nil {
			t.Errorf("%s: DecodeValidated: %v", name, gerr)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: DecodeValidated differs from Decode (-Decode +DecodeValidated):\n%s", name, diff)
		}
	}
}
