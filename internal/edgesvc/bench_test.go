package edgesvc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/edgesvc"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// fixture is a store with one organization, a site asset with findingCount
// open findings (a few that the traffic matches), and the API in front of
// the edge service.
type fixture struct {
	db      *store.DB
	org     *sentinel.Organization
	api     *httpapi.Server
	matched []string // the findings the traffic targets
}

// keyAuth authenticates every request as the organization's edge key.
type keyAuth struct{ p *sentinel.Principal }

func (k keyAuth) Authenticate(context.Context, string) (*sentinel.Principal, error) { return k.p, nil }

// unlimited lets every request through: the benchmark measures ingest,
// not the 60-per-minute write limit.
type unlimited struct{}

func (unlimited) Allow(context.Context, string, int, time.Duration) (ratelimit.Result, error) {
	return ratelimit.Result{Allowed: true, Limit: 60, Remaining: 60, Reset: time.Minute}, nil
}

func newFixture(tb testing.TB, dsn string, findingCount int) *fixture {
	ctx := context.Background()
	db := testenv.Open(tb, dsn)
	fx := &fixture{db: db}
	err := db.InTx(ctx, func(tx *store.Tx) error {
		org, err := tx.CreateOrg(ctx, "bench", "")
		if err != nil {
			return err
		}
		fx.org = org
		a, _, err := tx.EnsureSite(ctx, org.ID, "https://shop.example.com", "https://shop.example.com/", "medium", "off")
		if err != nil {
			return err
		}
		for i := range findingCount {
			f := &sentinel.Finding{OrgID: org.ID, AssetID: a.ID, Purl: fmt.Sprintf("pkg:npm/package-%d@1.0.%d", i, i),
				AdvisoryID: fmt.Sprintf("GHSA-bench-%04d", i), Aliases: []string{fmt.Sprintf("CVE-2024-%05d", i)},
				Category: sentinel.CategoryVulnerableComponent, CWE: sentinel.CWEVulnerableDependency, Severity: "medium",
				RiskScore: 45, Band: sentinel.BandMedium, Status: sentinel.StatusOpen, Source: "scan",
				Evidence:  []sentinel.FindingEvidence{{Kind: "path", URL: fmt.Sprintf("https://shop.example.com/static/js/lib-%d.min.js", i)}},
				FirstSeen: tx.Now(), LastSeen: tx.Now(), SLADueAt: tx.Now().Add(720 * time.Hour)}
			switch i {
			case 0:
				f.Purl, f.AdvisoryID, f.Aliases = "pkg:composer/wpackagist-plugin/wp-file-manager@6.0", "GHSA-bench-wpfm", []string{"CVE-2020-25213"}
			case 1:
				f.Purl, f.AdvisoryID, f.Aliases = "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", "GHSA-jfh8-c2jp-5v3q", []string{"CVE-2021-44228"}
			}
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
			if i < 2 {
				fx.matched = append(fx.matched, f.ID)
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	svc := &edgesvc.Service{DB: store.Bind[edgesvc.Tx](db)}
	fx.api = &httpapi.Server{Auth: keyAuth{&sentinel.Principal{OrgID: fx.org.ID, OrgSlug: fx.org.Slug, KeyID: "key_bench",
		Scopes: []string{sentinel.ScopeEdgeSubmit}}}, Limiter: unlimited{}}
	fx.api.Handle(svc.Routes()...)
	return fx
}

// batches returns n observations as JSON batches of at most size: one in
// ten targets a finding (a WordPress plugin probe, a Log4Shell attempt
// naming its CVE), the rest is noise to the same site and to hosts
// Sentinel does not know. Times advance a second per observation, so
// 100,000 of them span more than one 24-hour window.
func batches(n, size int, start time.Time) [][]byte {
	var out [][]byte
	for i := 0; i < n; i += size {
		var obs []map[string]any
		for j := i; j < min(i+size, n); j++ {
			o := map[string]any{"time": start.Add(time.Duration(j) * time.Second).Format(time.RFC3339), "host": "shop.example.com",
				"source": fmt.Sprintf("203.0.113.%d", j%250+1), "action": "blocked", "path": "/search", "query": "q=1%27%20OR%201=1",
				"method": "GET", "rule_id": "942100", "message": "SQL Injection Attack Detected via libinjection", "tags": []string{"attack-sqli", "OWASP_CRS"},
				"severity": "critical", "status": 403, "user_agent": "sqlmap/1.7.2#stable (https://sqlmap.org)"}
			switch {
			case j%20 == 0:
				o["path"], o["rule_id"], o["tags"] = "/wp-content/plugins/wp-file-manager/lib/php/connector.minimal.php", "913100", []string{"attack-reputation-scanner"}
			case j%20 == 10:
				o["path"], o["cves"], o["action"], o["rule_id"] = "/api/v1/products", []string{"CVE-2021-44228"}, "detected", "944150"
			case j%3 == 0:
				o["host"] = fmt.Sprintf("unknown-%d.example.org", j%7)
			}
			obs = append(obs, o)
		}
		b, _ := json.Marshal(map[string]any{"observations": obs})
		out = append(out, b)
	}
	return out
}

func (fx *fixture) post(tb testing.TB, body []byte) edgesvc.Result {
	req := httptest.NewRequest("POST", "/v1/edge/events", bytes.NewReader(body))
	req.Header.Set("Authorization", "ApiKey bench")
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	fx.api.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		tb.Fatalf("POST /v1/edge/events: %d %s", w.Code, w.Body)
	}
	var res edgesvc.Result
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
		tb.Fatal(err)
	}
	return res
}

// BenchmarkIngest100k sends 100,000 observations through the API route
// (decoding, asset resolution, correlation with 50 open findings, the
// window policy, and the store's writes: windows, raised findings, events,
// the audit entry) in ten batches of 10,000, on SQLite. It reports
// observations per second; the requirement is at least 20,000 on two
// cores.
func BenchmarkIngest100k(b *testing.B) {
	const n = 100_000
	for _, engine := range []string{"sqlite", "postgres"} {
		b.Run(engine, func(b *testing.B) {
			dsn := filepath.Join(b.TempDir(), "bench.db")
			if engine == "postgres" {
				dsn = testenv.DSNs(b)["postgres"]
			}
			fx := newFixture(b, dsn, 50)
			start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
			var last edgesvc.Result
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				bs := batches(n, 10_000, start)
				start = start.Add(48 * time.Hour) // every run opens fresh windows
				b.StartTimer()
				for _, body := range bs {
					last = fx.post(b, body)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "obs/s")
			b.ReportMetric(0, "ns/op")
			_ = last
		})
	}
}

// TestIngestCounts runs a smaller ingest and checks what the benchmark's
// traffic does: the matching tenth correlates, windows count every match,
// and each finding's window alerts once (the plugin's probes are all
// blocked; the Log4Shell attempts all reached the application).
func TestIngestCounts(t *testing.T) {
	fx := newFixture(t, filepath.Join(t.TempDir(), "s.db"), 50)
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var total edgesvc.Result
	for _, body := range batches(2000, 1000, start) {
		r := fx.post(t, body)
		total.Accepted += r.Accepted
		total.Correlated += r.Correlated
		total.Alerts += r.Alerts
		total.Unresolved += r.Unresolved
	}
	if total.Accepted != 2000 || total.Unresolved == 0 {
		t.Errorf("counts: %+v", total)
	}
	ctx := context.Background()
	for _, id := range fx.matched {
		w, err := fx.db.EdgeWindow(ctx, fx.org.ID, id)
		if err != nil || w.Count != 100 || w.Total != 100 {
			t.Errorf("window of %s: %+v, %v; want 100 observations counted", id, w, err)
		}
	}
	if total.Correlated != 200 || total.Alerts != 2 {
		t.Errorf("2000 observations: %d correlated, %d alerts; want 200 and 2 (one per finding per window)", total.Correlated, total.Alerts)
	}
}
