package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/edgesvc"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// modsecLog is the real ModSecurity + CRS audit log package edge keeps:
// attacks fired at a loopback Apache (see its README).
const modsecLog = "../edge/testdata/modsec/audit.log"

// TestEdgeEndToEnd ingests a real ModSecurity audit log through the API
// against findings of the host it names: an SBOM with log4j-core 2.14.1
// (findings from the real intel, matched by the log's Log4Shell attempt)
// and a scanned site's WordPress plugin (matched by the log's probe of its
// directory). The matches raise the findings' risk with
// edge.correlation_match, the site finding crosses into the high band
// (finding.escalated, checked field by field), the same traffic again is
// counted, not alerted, and traffic that matches nothing emits nothing.
func TestEdgeEndToEnd(t *testing.T) {
	ctx := context.Background()
	s, org, admin := startAcme(t)
	edgeKey := mustKey(t, s, "acme", []string{sentinel.ScopeEdgeSubmit})

	// The host's SBOM: log4j-core 2.14.1, whose advisories become findings.
	sbom := `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[{"type":"library","group":"org.apache.logging.log4j","name":"log4j-core","version":"2.14.1","purl":"pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1"}]}`
	if _, err := s.Inventory.Ingest(ctx, org, "key_test", "shop.example.com", "", []byte(sbom)); err != nil {
		t.Fatal(err)
	}
	var log4j []*sentinel.Finding
	testenv.WaitFor(t, 20*time.Second, "the SBOM's findings", func() bool {
		log4j, _, _ = s.DB.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID, Purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1"})
		return len(log4j) > 0
	})
	// The scanned site's WordPress plugin, seen by an external scan.
	site := &sentinel.Finding{OrgID: org.ID, Purl: "pkg:composer/wpackagist-plugin/wp-file-manager@6.0", AdvisoryID: "GHSA-edge-wpfm-0001",
		Aliases: []string{"CVE-2020-25213"}, Category: sentinel.CategoryVulnerableComponent, CWE: sentinel.CWEVulnerableDependency,
		Severity: "medium", RiskScore: 65, Band: sentinel.BandMedium, Status: sentinel.StatusOpen, Source: "scan",
		Compliance: []string{"NIST-800-53:RA-5", "NIST-800-53:SI-2"},
		Evidence:   []sentinel.FindingEvidence{{Kind: "path", URL: "https://shop.example.com/wp-content/plugins/wp-file-manager/readme.txt"}}}
	// A finding elsewhere, which no traffic targets.
	other := &sentinel.Finding{OrgID: org.ID, Purl: "pkg:composer/wpackagist-plugin/wp-file-manager@6.0", AdvisoryID: "GHSA-edge-wpfm-0002",
		Category: sentinel.CategoryVulnerableComponent, CWE: sentinel.CWEVulnerableDependency, Severity: "medium", RiskScore: 65,
		Band: sentinel.BandMedium, Status: sentinel.StatusOpen, Source: "scan"}
	err := s.DB.InTx(ctx, func(tx *store.Tx) error {
		a, _, err := tx.EnsureSite(ctx, org.ID, "https://shop.example.com", "https://shop.example.com/", "medium", "off")
		if err != nil {
			return err
		}
		b, _, err := tx.EnsureSite(ctx, org.ID, "https://blog.example.com", "https://blog.example.com/", "medium", "off")
		if err != nil {
			return err
		}
		for _, x := range []struct {
			f *sentinel.Finding
			a *sentinel.Asset
		}{{site, a}, {other, b}} {
			x.f.AssetID, x.f.FirstSeen, x.f.LastSeen, x.f.SLADueAt = x.a.ID, tx.Now(), tx.Now(), tx.Now().Add(720*time.Hour)
			if err := tx.SaveFinding(ctx, x.f); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	post := func(contentType, query string, body []byte) (int, edgesvc.Result) {
		t.Helper()
		req, _ := http.NewRequest("POST", s.APIURL()+"/v1/edge/events"+query, strings.NewReader(string(body)))
		req.Header.Set("Authorization", "ApiKey "+edgeKey)
		req.Header.Set("Content-Type", contentType)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var res edgesvc.Result
		_ = json.Unmarshal(b, &res)
		if resp.StatusCode != 200 {
			t.Logf("answer: %s", b)
		}
		return resp.StatusCode, res
	}
	matchEvents := func() map[string]int {
		es, err := s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Type: sentinel.EventEdgeCorrelationMatch, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, e := range es {
			out[e.Subject]++
		}
		return out
	}
	log, err := os.ReadFile(modsecLog)
	if err != nil {
		t.Fatal(err)
	}

	code, res := post(edgesvc.ContentTypeModSec, "", log)
	if code != 200 || res.Accepted != 11 || res.NotAttacks != 1 || res.Rejected != 0 || res.Unresolved != 1 || res.Correlated != 2 || res.Alerts < 2 {
		t.Fatalf("ingest the audit log: %d %+v", code, res)
	}
	events := matchEvents()
	if events[site.ID] != 1 || events[other.ID] != 0 {
		t.Errorf("edge.correlation_match by finding: %v", events)
	}
	for _, f := range log4j {
		if events[f.ID] != 1 {
			t.Errorf("log4j finding %s (%s): %d edge.correlation_match, want 1", f.ID, f.AdvisoryID, events[f.ID])
		}
	}
	// The event: the finding, the asset, the traffic (path, never the
	// query), why, the count in the window and the risk change.
	es, _ := s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Type: sentinel.EventEdgeCorrelationMatch, Limit: 1000})
	for _, e := range es {
		if e.Subject != site.ID {
			continue
		}
		var d struct {
			Finding     string `json:"finding_id"`
			Asset       string `json:"asset_id"`
			Observation struct {
				Host, Path, Source, Action, RuleID string
				Time                               time.Time
			} `json:"observation"`
			Reasons           []struct{ Kind, Value string } `json:"reasons"`
			Count             int                            `json:"count"`
			RiskScore         int                            `json:"risk_score"`
			PreviousRiskScore int                            `json:"previous_risk_score"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatal(err)
		}
		if d.Finding != site.ID || d.Asset != site.AssetID || d.Observation.Host != "shop.example.com" ||
			d.Observation.Path != "/wp-content/plugins/wp-file-manager/lib/php/connector.minimal.php" || d.Observation.Action != "blocked" ||
			d.Count != 1 || d.PreviousRiskScore != 65 || d.RiskScore != 75 || len(d.Reasons) == 0 || d.Reasons[0].Kind != "path" {
			t.Errorf("edge.correlation_match data: %s", e.Data)
		}
	}
	var f sentinel.Finding
	req, _ := http.NewRequest("GET", s.APIURL()+"/v1/findings/"+site.ID, nil)
	req.Header.Set("Authorization", "ApiKey "+admin)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		_ = json.NewDecoder(resp.Body).Decode(&f)
		resp.Body.Close()
	}
	if f.RiskScore != 75 || f.Band != sentinel.BandHigh {
		t.Errorf("site finding after the match: risk %d, band %s", f.RiskScore, f.Band)
	}
	esc, _ := s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Type: sentinel.EventFindingEscalated, Limit: 100})
	var escalated map[string]any
	for _, e := range esc {
		if e.Subject == site.ID {
			_ = json.Unmarshal(e.Data, &escalated)
		}
	}
	checkEscalatedData(t, escalated, map[string]any{"finding_id": site.ID, "category": "vulnerable_component", "cwe": "CWE-1395",
		"risk_score": 75.0, "previous_risk_score": 65.0, "asset_id": site.AssetID, "asset_criticality": "medium", "sla_window_hours": 168.0,
		"primary_risk_category": "vulnerable_component"})

	// The raised risk survives the next SBOM of the host: reconciliation
	// keeps what edge traffic added on top of the advisory's risk.
	raised := map[string]int{}
	for _, f := range log4j {
		fr, _ := s.DB.FindFindingByID(ctx, org.ID, f.ID)
		if fr.RiskScore <= f.RiskScore && f.RiskScore < 100 {
			t.Errorf("log4j finding %s: risk %d -> %d", f.AdvisoryID, f.RiskScore, fr.RiskScore)
		}
		raised[f.ID] = fr.RiskScore
	}
	resubmitted := time.Now()
	if _, err := s.Inventory.Ingest(ctx, org, "key_test", "shop.example.com", "", []byte(sbom)); err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, 20*time.Second, "the second SBOM's reconciliation", func() bool {
		fr, _ := s.DB.FindFindingByID(ctx, org.ID, log4j[0].ID)
		return fr.LastSeen.After(resubmitted.Add(-time.Millisecond))
	})
	for id, want := range raised {
		if fr, _ := s.DB.FindFindingByID(ctx, org.ID, id); fr.RiskScore != want {
			t.Errorf("after the next SBOM, finding %s: risk %d, want %d (the edge rise kept)", id, fr.RiskScore, want)
		}
	}

	// The same traffic again, inside the window: counted, not alerted.
	code, res = post("application/json", "?format=modsecurity", log)
	if code != 200 || res.Correlated != 2 || res.Alerts != 0 || res.Escalated != 0 {
		t.Errorf("the same log again: %d %+v", code, res)
	}
	if again := matchEvents(); again[site.ID] != 1 {
		t.Errorf("edge.correlation_match after a repeat: %v", again)
	}
	w, err := s.DB.EdgeWindow(ctx, org.ID, site.ID)
	if err != nil || w.Count != 2 || w.Total != 2 {
		t.Errorf("site finding's window: %+v, %v; want a count of 2", w, err)
	}
	if fr, _ := s.DB.FindFindingByID(ctx, org.ID, site.ID); fr.RiskScore != 75 {
		t.Errorf("a repeat moved the risk: %d", fr.RiskScore)
	}

	// Traffic that matches nothing: no event, no write.
	before := len(es)
	batch := `{"observations":[
		{"time":"2026-11-23T20:00:00Z","host":"shop.example.com","source":"203.0.113.9","action":"blocked","path":"/products.php","rule_id":"942100","tags":["attack-sqli"]},
		{"time":"2026-11-23T20:00:01Z","host":"unknown.example.org","source":"203.0.113.9","action":"allowed","path":"/wp-content/plugins/wp-file-manager/x.php"},
		{"time":"not a time","host":"shop.example.com","source":"203.0.113.9","action":"blocked"}]}`
	code, res = post("application/json", "", []byte(batch))
	if code != 200 || res.Accepted != 2 || res.Rejected != 1 || len(res.Errors) != 1 || res.Errors[0].Index != 2 ||
		res.Correlated != 0 || res.Unresolved != 1 || res.Alerts != 0 {
		t.Errorf("unmatched traffic: %d %+v", code, res)
	}
	es, _ = s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Type: sentinel.EventEdgeCorrelationMatch, Limit: 1000})
	if len(es) != before {
		t.Errorf("traffic that matches nothing emitted %d events", len(es)-before)
	}

	// Refusals: a body that is not a batch, an unknown format.
	if code, _ := post("application/json", "", []byte(`[1,2]`)); code != 400 {
		t.Errorf("not a batch: %d", code)
	}
	if code, _ := post("text/csv", "", []byte(`a,b`)); code != 400 {
		t.Errorf("text/csv: %d", code)
	}
}
