package sbom_test

import (
	"encoding/json"
	"testing"
	"time"

	cdx "github.com/CycloneDX/cyclonedx-go"
	"github.com/google/go-cmp/cmp"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

func TestEnrich(t *testing.T) {
	bom := sampleBOM()
	log4shell := sentinel.AdvisoryMatch{
		ID:            "GHSA-jfh8-c2jp-5v3q",
		Aliases:       []string{"CVE-2021-44228"},
		Summary:       "Remote code injection in Log4j",
		Severity:      sentinel.SeverityCritical,
		CVSSScore:     10,
		CVSSVector:    "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H",
		CWEs:          []string{"CWE-20", "CWE-400", "CWE-502", "CWE-917"},
		FixedVersions: []string{"2.3.1", "2.12.2", "2.15.0"},
		NearestFix:    "2.15.0",
		KEV:           true,
		KEVDateAdded:  "2021-12-10",
		KEVRansomware: true,
		Modified:      time.Date(2025, 5, 9, 13, 13, 16, 0, time.UTC),
	}
	lodashV4 := sentinel.AdvisoryMatch{
		ID:            "GHSA-p6mc-m468-83gw",
		Aliases:       []string{"CVE-2020-8203"},
		Severity:      sentinel.SeverityHigh,
		CVSSScore:     7.4,
		CVSSVector:    "CVSS:4.0/AV:N/AC:H/AT:N/PR:N/UI:N/VC:N/VI:H/VA:H/SC:N/SI:N/SA:N",
		CWEs:          []string{"CWE-1321", "CWE-770"},
		FixedVersions: []string{"4.17.19"},
		NearestFix:    "4.17.19",
	}
	noFix := sentinel.AdvisoryMatch{ID: "PYSEC-0000-1", Severity: sentinel.SeverityMedium, CWEs: []string{"not-a-cwe"}}
	unrated := sentinel.AdvisoryMatch{ID: "MAL-2025-1", Severity: sentinel.SeverityUnknown}
	matches := map[string][]sentinel.AdvisoryMatch{
		// keyed by bom-ref (the agent's own SBOMs use the purl as bom-ref)
		"pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1": {log4shell},
		// keyed by purl of a nested component with another bom-ref
		"pkg:maven/commons-lang/commons-lang@2.6": {noFix},
		"pkg:npm/lodash@4.17.15":                  {lodashV4, unrated},
		"pkg:npm/express@4.17.1":                  {unrated},
		"pkg:npm/not-in-this-bom@1.0.0":           {log4shell},
	}
	sbom.Enrich(bom, matches)

	data, err := sbom.Marshal(bom)
	if err != nil {
		t.Fatal(err)
	}
	if err := validation.Validate(data); err != nil {
		t.Fatalf("enriched SBOM does not validate: %v", err)
	}
	var doc struct {
		Vulnerabilities []map[string]any `json:"vulnerabilities"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var want []map[string]any
	if err := json.Unmarshal([]byte(`[
	  {
	    "id": "GHSA-jfh8-c2jp-5v3q",
	    "source": {"name": "OSV", "url": "https://osv.dev/vulnerability/GHSA-jfh8-c2jp-5v3q"},
	    "references": [{"id": "CVE-2021-44228", "source": {"name": "NVD", "url": "https://nvd.nist.gov/vuln/detail/CVE-2021-44228"}}],
	    "ratings": [{"score": 10, "severity": "critical", "method": "CVSSv31", "vector": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H"}],
	    "cwes": [20, 400, 502, 917],
	    "description": "Remote code injection in Log4j",
	    "recommendation": "Upgrade org.apache.logging.log4j:log4j-core to 2.15.0 or later (fixed in: 2.3.1, 2.12.2, 2.15.0).",
	    "updated": "2025-05-09T13:13:16Z",
	    "affects": [{"ref": "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", "versions": [{"version": "2.14.1", "status": "affected"}]}],
	    "properties": [
	      {"name": "sentinel:nearest_fix", "value": "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1=2.15.0"},
	      {"name": "sentinel:kev", "value": "true"},
	      {"name": "sentinel:kev_date_added", "value": "2021-12-10"},
	      {"name": "sentinel:kev_ransomware", "value": "true"}
	    ]
	  },
	  {
	    "id": "GHSA-p6mc-m468-83gw",
	    "source": {"name": "OSV", "url": "https://osv.dev/vulnerability/GHSA-p6mc-m468-83gw"},
	    "references": [{"id": "CVE-2020-8203", "source": {"name": "NVD", "url": "https://nvd.nist.gov/vuln/detail/CVE-2020-8203"}}],
	    "ratings": [{"score": 7.4, "severity": "high", "method": "CVSSv4", "vector": "CVSS:4.0/AV:N/AC:H/AT:N/PR:N/UI:N/VC:N/VI:H/VA:H/SC:N/SI:N/SA:N"}],
	    "cwes": [770, 1321],
	    "recommendation": "Upgrade lodash to 4.17.19 or later (fixed in: 4.17.19).",
	    "affects": [{"ref": "pkg:npm/lodash@4.17.15", "versions": [{"version": "4.17.15", "status": "affected"}]}],
	    "properties": [{"name": "sentinel:nearest_fix", "value": "pkg:npm/lodash@4.17.15=4.17.19"}]
	  },
	  {
	    "id": "MAL-2025-1",
	    "source": {"name": "OSV", "url": "https://osv.dev/vulnerability/MAL-2025-1"},
	    "recommendation": "express@4.17.1: No fixed version of express is known.\nlodash@4.17.15: No fixed version of lodash is known.",
	    "affects": [
	      {"ref": "pkg:npm/express@4.17.1", "versions": [{"version": "4.17.1", "status": "affected"}]},
	      {"ref": "pkg:npm/lodash@4.17.15", "versions": [{"version": "4.17.15", "status": "affected"}]}
	    ]
	  },
	  {
	    "id": "PYSEC-0000-1",
	    "source": {"name": "OSV", "url": "https://osv.dev/vulnerability/PYSEC-0000-1"},
	    "ratings": [{"severity": "medium", "method": "other"}],
	    "recommendation": "No fixed version of commons-lang:commons-lang is known.",
	    "affects": [{"ref": "inner-shaded", "versions": [{"version": "2.6", "status": "affected"}]}]
	  }
	]`), &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, doc.Vulnerabilities); diff != "" {
		t.Errorf("Enrich vulnerabilities mismatch (-want +got):\n%s", diff)
	}

	// Enrich is deterministic and a no-op without matches.
	again := sampleBOM()
	sbom.Enrich(again, matches)
	data2, err := sbom.Marshal(again)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(data2) {
		t.Error("Enrich output differs between runs")
	}
	empty := sampleBOM()
	sbom.Enrich(empty, nil)
	sbom.Enrich(nil, matches)
	if empty.Vulnerabilities != nil {
		t.Error("Enrich with no matches added vulnerabilities")
	}
}

// TestEnrichRealCase enriches the SBOM of a real lockfile case and checks the
// result against the schema, with every rating method Sentinel writes.
func TestEnrichRealCase(t *testing.T) {
	res := mustExtract(t, "testdata/lockfiles/npm-v1-pkgsite-2020")
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{Now: fixedNow})
	vectors := []string{
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
		"CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N",
		"CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N",
		"AV:N/AC:L/Au:N/C:P/I:P/A:P",
		"",
	}
	matches := map[string][]sentinel.AdvisoryMatch{}
	for i, c := range res.Components[:25] {
		matches[c.Purl] = []sentinel.AdvisoryMatch{{
			ID: "GHSA-test-" + c.Name, Aliases: []string{"CVE-2020-0001", "GHSA-aaaa-bbbb-cccc"},
			Severity: sentinel.SeverityHigh, CVSSScore: 7.5, CVSSVector: vectors[i%len(vectors)],
			CWEs: []string{"CWE-79"}, KEV: i%3 == 0, KEVDateAdded: "2024-01-02",
			EOL: &sentinel.EOLStatus{Product: "x", ReleaseCycle: "1", EOL: i%2 == 0},
		}}
	}
	sbom.Enrich(bom, matches)
	if got := len(*bom.Vulnerabilities); got != 25 {
		t.Errorf("%d vulnerabilities, want 25", got)
	}
	methods := map[cdx.ScoringMethod]bool{}
	for _, v := range *bom.Vulnerabilities {
		for _, r := range *v.Ratings {
			methods[r.Method] = true
		}
	}
	if len(methods) != 5 {
		t.Errorf("rating methods %v, want CVSSv31, CVSSv3, CVSSv4, CVSSv2 and other", methods)
	}
	data, err := sbom.Marshal(bom)
	if err != nil {
		t.Fatal(err)
	}
	if err := validation.Validate(data); err != nil {
		t.Errorf("Validate: %v", err)
	}
}
