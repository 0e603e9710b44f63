package sbom_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	cdx "github.com/CycloneDX/cyclonedx-go"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestEncodeAsCycloneDXGo: Encode writes the bytes cyclonedx-go's own
// pretty encoder writes (encoding/json's two-space indent), for an SBOM of
// every testdata lockfile, enriched with advisories (vulnerabilities,
// ratings, KEV properties), and for strings JSON escapes.
func TestEncodeAsCycloneDXGo(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lockfiles", sbom.Options{Kinds: sbom.Languages})
	if err != nil {
		t.Fatal(err)
	}
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{Projects: res.Projects})
	matches := map[string][]sentinel.AdvisoryMatch{}
	for i, c := range res.Components[:40] {
		m := sentinel.AdvisoryMatch{ID: fmt.Sprintf("GHSA-test-%04d", i), Aliases: []string{fmt.Sprintf("CVE-2024-%05d", i)},
			Summary: "A <flaw> & \"more\"", Severity: sentinel.SeverityHigh, CVSSScore: 7.5,
			CVSSVector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", CWEs: []string{"CWE-79"},
			FixedVersions: []string{"9.9.9"}, NearestFix: "9.9.9", KEV: i%3 == 0, KEVDateAdded: "2024-01-02",
			Modified: time.Date(2025, 5, 9, 13, 13, 16, 0, time.UTC)}
		matches[c.Purl] = []sentinel.AdvisoryMatch{m, {ID: fmt.Sprintf("MAL-%d", i), Severity: sentinel.SeverityUnknown}}
	}
	sbom.Enrich(bom, matches)
	if bom.Vulnerabilities == nil || len(*bom.Vulnerabilities) == 0 {
		t.Fatal("the enriched SBOM has no vulnerabilities")
	}
	odd := cdx.Component{Type: cdx.ComponentTypeLibrary, BOMRef: "odd", Name: "<a&b> \"q\" \\ \u2028 \u00e9 \U0001F600 \x01", Version: "1.0.0",
		Properties: &[]cdx.Property{}, Hashes: &[]cdx.Hash{{Algorithm: cdx.HashAlgoSHA256, Value: ""}}}
	*bom.Components = append(*bom.Components, odd)
	for _, b := range []*cdx.BOM{bom, {SpecVersion: cdx.SpecVersion1_5, BOMFormat: cdx.BOMFormat, Components: &[]cdx.Component{}}} {
		var want bytes.Buffer
		enc := cdx.NewBOMEncoder(&want, cdx.BOMFileFormatJSON)
		enc.SetPretty(true)
		enc.SetEscapeHTML(false)
		c := *b
		c.JSONSchema = "http://cyclonedx.org/schema/bom-1.5.schema.json"
		if err := enc.Encode(&c); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := sbom.Encode(&got, b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("Encode differs from cyclonedx-go's pretty encoder:\n%s\n---\n%s", got.Bytes()[:min(got.Len(), 2000)], want.Bytes()[:min(want.Len(), 2000)])
		}
	}
}
