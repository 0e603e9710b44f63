package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
)

// TestEndOfLifeFindings submits an SBOM of six components whose release
// cycles endoflife.date lists as past end of life, some of them also
// vulnerable, and expects one CWE-1104 finding for each, listed by
// GET /v1/findings?cwe=CWE-1104 and counted by the SA-22 row of the
// Evidence Bundle's compliance.csv.
func TestEndOfLifeFindings(t *testing.T) {
	ctx := context.Background()
	s, org, key := startAcme(t)
	purls := []string{
		"pkg:npm/vue@2.6.14",
		"pkg:npm/angular@1.8.3",
		"pkg:pypi/django@3.2.25",
		"pkg:maven/org.apache.logging.log4j/log4j-core@2.12.4",
		"pkg:npm/jquery@1.12.4",
		"pkg:docker/library/python@3.7-slim", // a base image: no advisory database, end-of-life data all the same
	}
	var comps []string
	for i, p := range purls {
		comps = append(comps, fmt.Sprintf(`{"type":"library","bom-ref":"c%d","name":"c%d","version":"1","purl":%q}`, i, i, p))
	}
	doc := `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[` + strings.Join(comps, ",") + `]}`
	if _, err := s.Inventory.Ingest(ctx, org, "key_test", "legacy-host", "", []byte(doc)); err != nil {
		t.Fatal(err)
	}

	var got struct{ Data []sentinel.Finding }
	deadline := time.Now().Add(30 * time.Second)
	for {
		req, _ := http.NewRequest("GET", s.APIURL()+"/v1/findings?cwe=CWE-1104", nil)
		req.Header.Set("Authorization", "ApiKey "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("findings: %d %s", resp.StatusCode, b)
		}
		if len(got.Data) >= len(purls) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	var eol []string
	for _, f := range got.Data {
		if f.CWE != sentinel.CWEUnmaintained || f.Category != sentinel.CategoryVulnerableComponent || !strings.HasPrefix(f.AdvisoryID, "EOL-") ||
			!slices.Equal(f.Weaknesses, []string{sentinel.CWEUnmaintained, sentinel.CWEOWASPComponents}) {
			t.Errorf("end-of-life finding %+v", f)
		}
		eol = append(eol, f.Purl)
	}
	slices.Sort(eol)
	want := slices.Clone(purls)
	slices.Sort(want)
	if !slices.Equal(eol, want) {
		t.Fatalf("end-of-life findings for %v, want %v", eol, want)
	}

	// The bundle's compliance.csv counts them under SA-22.
	var buf bytes.Buffer
	now := time.Now().UTC()
	_, err := evidence.Build(ctx, &buf, s.DB, evidence.Options{Org: org, BundleID: "bundle_eoleoleoleoleol",
		CreatedAt: now, WindowStart: now.AddDate(0, 0, -30), WindowEnd: now, CA: s.Evidence.CA,
		Identity: "https://sentinel.example/orgs/acme/evidence", Issuer: "https://sentinel.example", TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	f, err := zr.Open(evidence.FileCompliance)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "findings")
	var sa22 []string
	for _, r := range rows {
		if len(r) > 1 && r[1] == "SA-22" {
			sa22 = r
		}
	}
	if col < 0 || sa22 == nil || sa22[col] != fmt.Sprint(len(purls)) {
		t.Errorf("compliance.csv SA-22 row %q, want %d findings; header %q", sa22, len(purls), rows[0])
	}
}
