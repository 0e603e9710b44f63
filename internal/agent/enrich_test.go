package agent_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

// TestSBOMEnrichOffline: `sentinel sbom --enrich --offline-db` writes a
// CycloneDX 1.5 SBOM, valid against the official schema, whose
// vulnerabilities carry the known-exploited flag of Ghostcat.
func TestSBOMEnrichOffline(t *testing.T) {
	out := filepath.Join(t.TempDir(), "enriched.cdx.json")
	code, stdout, stderr := ciRun(t, []string{"SENTINEL_HOME=" + t.TempDir()}, "sbom", "--enrich", "--offline-db", ciMustSnapshot(t),
		"--host", "build-1", "-o", out, "testdata/ci/trees/kev")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := validation.Validate(data); err != nil {
		t.Fatalf("enriched SBOM is not valid CycloneDX 1.5: %v", err)
	}
	var doc struct {
		Vulnerabilities []struct {
			ID         string `json:"id"`
			Properties []struct{ Name, Value string }
			Affects    []struct{ Ref string }
		} `json:"vulnerabilities"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var kev bool
	for _, v := range doc.Vulnerabilities {
		if v.ID != "GHSA-c9hw-wf7x-jp9j" {
			continue
		}
		for _, p := range v.Properties {
			kev = kev || (p.Name == "sentinel:kev" && p.Value == "true")
		}
		if len(v.Affects) == 0 || v.Affects[0].Ref != "pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30" {
			t.Errorf("affects: %+v", v.Affects)
		}
	}
	if !kev {
		t.Errorf("Ghostcat not marked known-exploited: %+v", doc.Vulnerabilities)
	}
	// Without intel the enrichment refuses instead of writing a clean SBOM.
	if code, _, _ := ciRun(t, []string{"SENTINEL_HOME=" + t.TempDir()}, "sbom", "--enrich", "testdata/ci/trees/kev"); code != 2 {
		t.Errorf("--enrich without intel: exit %d, want 2", code)
	}
}
