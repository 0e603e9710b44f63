package sbom_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// TestReadWrapped reads real SBOMs inside the envelopes they travel in:
// GitHub's API answer, in-toto Statements (v0.1 and v1), DSSE envelopes,
// Sigstore bundles, cosign's older {"Data": "..."} predicate and
// `cosign download attestation`'s one envelope per line. Each must give the
// components the bare document gives.
func TestReadWrapped(t *testing.T) {
	for _, name := range []string{
		"github-dependency-graph-osv-scanner.spdx.json",
		"npm-11.19.1-express.cdx.json",
		"syft-1.33.0-tree.cdx.json",
	} {
		raw, err := os.ReadFile(filepath.Join(sboms, name))
		if err != nil {
			t.Fatal(err)
		}
		want := purlSet(mustReadSBOM(t, name).Components)
		if len(want) < 10 {
			t.Fatalf("%s: only %d components bare", name, len(want))
		}
		predType := "https://cyclonedx.org/bom"
		if strings.Contains(name, "spdx") {
			predType = "https://spdx.dev/Document/v2.3"
		}
		statement := func(typ string, pred any) []byte {
			return mustMarshal(t, map[string]any{
				"_type":         typ,
				"subject":       []any{map[string]any{"name": "app", "digest": map[string]string{"sha256": strings.Repeat("a", 64)}}},
				"predicateType": predType,
				"predicate":     pred,
			})
		}
		envelope := func(payload []byte, enc *base64.Encoding) []byte {
			return mustMarshal(t, map[string]any{
				"payloadType": "application/vnd.in-toto+json",
				"payload":     enc.EncodeToString(payload),
				"signatures":  []any{map[string]string{"keyid": "", "sig": "MEUCIQ=="}},
			})
		}
		v1 := statement("https://in-toto.io/Statement/v1", json.RawMessage(raw))
		provenance := envelope(mustMarshal(t, map[string]any{
			"_type":         "https://in-toto.io/Statement/v1",
			"predicateType": "https://slsa.dev/provenance/v1",
			"predicate":     map[string]any{"buildDefinition": map[string]any{"buildType": "x"}},
		}), base64.StdEncoding)
		forms := map[string][]byte{
			"github api":        mustMarshal(t, map[string]any{"sbom": json.RawMessage(raw)}),
			"statement v1":      v1,
			"statement v0.1":    statement("https://in-toto.io/Statement/v0.1", json.RawMessage(raw)),
			"cosign data":       statement("https://in-toto.io/Statement/v0.1", map[string]any{"Data": string(raw), "Timestamp": "2026-01-02T03:04:05Z"}),
			"string predicate":  statement("https://in-toto.io/Statement/v1", string(raw)),
			"dsse":              envelope(v1, base64.StdEncoding),
			"dsse url unpadded": envelope(v1, base64.RawURLEncoding),
			"sigstore bundle": mustMarshal(t, map[string]any{
				"mediaType":    "application/vnd.dev.sigstore.bundle.v0.3+json",
				"dsseEnvelope": json.RawMessage(envelope(v1, base64.StdEncoding)),
			}),
			"one per line": []byte(string(provenance) + "\n" + string(envelope(v1, base64.StdEncoding)) + "\n"),
		}
		for form, doc := range forms {
			res, err := sbom.ReadSBOM(doc)
			if err != nil {
				t.Errorf("%s, %s: %v", name, form, err)
				continue
			}
			if diff := cmp.Diff(want, purlSet(res.Components)); diff != "" {
				t.Errorf("%s, %s: components differ from the bare document (-bare +wrapped):\n%s", name, form, diff)
			}
		}
	}
}

// TestReadCosignAttestation: an attestation cosign made (a Sigstore bundle
// of an in-toto Statement whose predicate is npm's CycloneDX SBOM of
// cheerio) reads as that SBOM.
func TestReadCosignAttestation(t *testing.T) {
	want := purlSet(mustReadSBOM(t, "npm-11.19.1-cheerio.cdx.json").Components)
	got := purlSet(mustReadSBOM(t, "cosign-3.1.3-attest-cheerio.sigstore.json").Components)
	if len(want) < 10 {
		t.Fatalf("only %d components in the bare SBOM", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("components differ (-bare +attested):\n%s", diff)
	}
}

// TestReadWrappedNotSBOM: an attestation of something else is refused,
// saying it is an envelope whose content is not an SBOM.
func TestReadWrappedNotSBOM(t *testing.T) {
	st := mustMarshal(t, map[string]any{
		"_type":         "https://in-toto.io/Statement/v1",
		"predicateType": "https://slsa.dev/provenance/v1",
		"predicate":     map[string]any{"buildDefinition": map[string]any{"buildType": "x"}},
	})
	env := mustMarshal(t, map[string]any{"payloadType": "application/vnd.in-toto+json", "payload": base64.StdEncoding.EncodeToString(st)})
	for _, doc := range [][]byte{st, env, []byte(`{"sbom": {"x": 1}}`)} {
		_, err := sbom.ReadSBOM(doc)
		var de *sbom.DecodeError
		if err == nil || !strings.Contains(err.Error(), "envelope") || !errors.As(err, &de) || !errors.Is(err, sbom.ErrUnsupportedSBOM) {
			t.Errorf("ReadSBOM(%.60s): err %v, want one naming the envelope", doc, err)
		}
	}
	if _, err := sbom.ReadSBOM([]byte(`{"payloadType": "x", "payload": "not base64!"}`)); err == nil {
		t.Error("an envelope with a payload that is not base64 was read")
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
