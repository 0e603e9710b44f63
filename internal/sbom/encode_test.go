package sbom_test

import (
	"bytes"
	"context"
	"testing"

	cdx "github.com/CycloneDX/cyclonedx-go"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestEncodeAsCycloneDXGo: Encode writes the bytes cyclonedx-go's own
// pretty encoder writes (encoding/json's two-space indent), for an SBOM of
// every testdata lockfile and for strings JSON escapes.
func TestEncodeAsCycloneDXGo(t *testing.T) {
	res, err := sbom.Extract(context.Background(), "testdata/lockfiles", sbom.Options{Kinds: sbom.Languages})
	if err != nil {
		t.Fatal(err)
	}
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{Projects: res.Projects})
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
