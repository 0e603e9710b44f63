package portal_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// Benchmark sizes: the 1,000,000 inventory rows (10,000
// submissions of 100 components from 1,000 hosts: 30 of each from 300
// popular packages, 70 from a tail of 50,000) and 100,000 findings over
// the same 1,000 hosts, first seen over a year: 60% open, 10% accepted,
// 25% resolved, 5% false positives; 2% known-exploited; 30% with an owner.
const (
	benchSubs      = 10_000
	benchPerSub    = 100
	benchHosts     = 1_000
	benchPopular   = 300
	benchTail      = 50_000
	benchFindings  = 100_000
	benchOwners    = 20
	benchDayMillis = 86_400_000
)

// noLimit lets every request through: the benchmark measures pages, not
// the rate limiter (which would stop one user after 600 reads a minute).
type noLimit struct{}

func (noLimit) Allow(context.Context, string, int, time.Duration) (ratelimit.Result, error) {
	return ratelimit.Result{Allowed: true, Limit: 1 << 30, Remaining: 1 << 30, Reset: time.Minute}, nil
}

// seed fills the store with bulk SQL: recursive CTEs that both engines
// run, so that a million rows take seconds rather than a million inserts.
func seed(b *testing.B, db *store.DB, org *sentinel.Organization, now time.Time) {
	ctx := context.Background()
	t0 := time.Now()
	exec := func(what, q string, args ...any) {
		b.Helper()
		if _, err := db.Exec(ctx, q, args...); err != nil {
			b.Fatalf("seed %s: %v", what, err)
		}
	}
	// n(x) counts from 0 to $max - 1 as BIGINT (the products below
	// overflow a 32-bit integer).
	counter := func(max int) string {
		return fmt.Sprintf(`WITH RECURSIVE n(x) AS (SELECT CAST(0 AS BIGINT) UNION ALL SELECT x + 1 FROM n WHERE x < %d) `, max-1)
	}
	start := now.Add(-365 * 24 * time.Hour).UnixMilli()
	exec("submissions", counter(benchSubs)+`INSERT INTO sbom_submissions (id, org_id, host, asset, spec_version, component_count,
		indexed_count, size, sha256, created_at) SELECT 'sub_bench' || x, $1, 'host-' || (x % `+fmt.Sprint(benchHosts)+`), '', '1.5', 100, 100, 1000, '00',
		CAST($2 AS BIGINT) + x * 3000000 FROM n`, org.ID, start)
	// Component k of submission s: popular for k < 30, else from the tail;
	// versions 1.0.0 to 1.4.0.
	exec("inventory", counter(benchSubs*benchPerSub)+`INSERT INTO inventory (org_id, submission_id, host, purl, ecosystem, name, version,
		first_seen, last_seen)
		SELECT $1, 'sub_bench' || s, 'host-' || (s % `+fmt.Sprint(benchHosts)+`), 'pkg:npm/lib-' || p || '@1.' || v || '.0', 'npm',
			'lib-' || p, '1.' || v || '.0', CAST($2 AS BIGINT) + s * 3000000, CAST($2 AS BIGINT) + s * 3000000
		FROM (SELECT x / 100 AS s, (x * 31) % 5 AS v,
			CASE WHEN x % 100 < 30 THEN (x * 7919) % `+fmt.Sprint(benchPopular)+` ELSE `+fmt.Sprint(benchPopular)+` + (x * 104729) % `+fmt.Sprint(benchTail)+` END AS p
			FROM n) t`, org.ID, start)
	exec("sightings", `INSERT INTO inventory_sightings (org_id, host, ecosystem, name, version, purl, first_seen, last_seen, occurrences,
		last_submission_id) SELECT org_id, host, ecosystem, name, version, MIN(purl), MIN(first_seen), MAX(last_seen), COUNT(*), MAX(submission_id)
		FROM inventory WHERE org_id = $1 GROUP BY org_id, host, ecosystem, name, version`, org.ID)
	exec("assets", counter(benchHosts)+`INSERT INTO assets (id, org_id, name, kind, criticality, first_seen, last_seen)
		SELECT 'ast_bench' || x, $1, 'host-' || x, 'host', 'medium', $2, $2 FROM n`, org.ID, start)
	kev := "x % 50 = 0"
	exec("findings", counter(benchFindings)+`INSERT INTO findings (id, org_id, asset_id, purl, advisory_id, category, cwe, summary, aliases,
		severity, cvss_score, kev, kev_date_added, fixed_versions, nearest_fix, risk_score, band, sla_due_at, status, owner, compliance,
		source, first_seen, last_seen, resolved_at, updated_at, evidence)
		SELECT 'fnd_' || (1000000 + x), $1, 'ast_bench' || (x % `+fmt.Sprint(benchHosts)+`), 'pkg:npm/lib-' || (x % 5000) || '@1.0.0',
			'GHSA-bench-' || x, 'vulnerable_component', 'CWE-1395', 'A vulnerability in lib-' || (x % 5000), '[]',
			CASE WHEN risk >= 90 THEN 'critical' WHEN risk >= 70 THEN 'high' WHEN risk >= 40 THEN 'medium' ELSE 'low' END, risk / 10.0,
			`+kev+`, '', '["1.0.1"]', '1.0.1', risk,
			CASE WHEN risk >= 90 THEN 'critical' WHEN risk >= 70 THEN 'high' WHEN risk >= 40 THEN 'medium' ELSE 'low' END,
			first + CASE WHEN risk >= 90 THEN 3 WHEN risk >= 70 THEN 7 WHEN risk >= 40 THEN 30 ELSE 90 END * CAST(`+fmt.Sprint(benchDayMillis)+` AS BIGINT),
			CASE WHEN x % 20 < 12 THEN 'open' WHEN x % 20 < 14 THEN 'accepted' WHEN x % 20 < 19 THEN 'resolved' ELSE 'false_positive' END,
			CASE WHEN x % 10 < 3 THEN 'team-' || (x % `+fmt.Sprint(benchOwners)+`) ELSE '' END, '[]', 'sbom', first, first,
			CASE WHEN x % 20 >= 14 AND x % 20 < 19 THEN first + (x % 10) * 3600000 END, first, '[]'
		FROM (SELECT x, CASE WHEN `+kev+` THEN 95 ELSE (x * 37) % 100 END AS risk,
			CAST($2 AS BIGINT) - (x % 365) * `+fmt.Sprint(benchDayMillis)+` - (x % 1000) * 60000 AS first FROM n) t`, org.ID, now.UnixMilli())
	if db.Engine == store.Postgres {
		// What autovacuum does after a bulk load: statistics, and the
		// visibility map that allows index-only scans.
		exec("analyze", `VACUUM ANALYZE`)
	}
	var inv, fs int
	_ = db.QueryRow(ctx, `SELECT COUNT(*) FROM inventory`).Scan(&inv)
	_ = db.QueryRow(ctx, `SELECT COUNT(*) FROM findings`).Scan(&fs)
	b.Logf("%s: %d inventory rows, %d findings seeded in %v", db.Engine, inv, fs, time.Since(t0).Round(time.Second))
}

// BenchmarkPages measures the server time of the Overview, Inventory
// search and Findings pages (the handler, from the request to the last
// byte of HTML, through the in-process API calls and the store) with
// 1,000,000 inventory rows and 100,000 findings, on SQLite and
// PostgreSQL, and reports p50 and p99 in milliseconds. Goal: p99 <= 50 ms.
func BenchmarkPages(b *testing.B) {
	for _, engine := range []string{store.SQLite, store.Postgres} {
		b.Run(engine, func(b *testing.B) {
			clk := &clock{}
			s := servertest.Open(b, func(c *server.Config) {
				c.Now = clk.Now
				if engine == store.Postgres {
					c.Database = pgtest.DSN(b)
					c.MasterKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
				}
			})
			s.API.Limiter = noLimit{}
			ctx := context.Background()
			org, err := server.CreateOrg(ctx, s.DB, "bench", "Bench")
			if err != nil {
				b.Fatal(err)
			}
			now := clk.Now()
			seed(b, s.DB, org, now)

			// A signed-in admin: the session written as sign-in writes it.
			const cookie = "bench-session-cookie-0123456789abcdefghijklmnop"
			sum := sha256.Sum256([]byte(cookie))
			err = s.DB.InTx(ctx, func(tx *store.Tx) error {
				u := &sentinel.User{ID: sentinel.NewID(sentinel.PrefixUser), OrgID: org.ID, Email: "bench@bench.example", Role: sentinel.RoleAdmin, CreatedBy: "t"}
				if err := tx.CreateUser(ctx, u); err != nil {
					return err
				}
				return tx.CreatePortalSession(ctx, sum[:], &sentinel.PortalSession{UserID: u.ID, OrgID: org.ID, CSRF: "x", ExpiresAt: now.Add(240 * time.Hour)})
			})
			if err != nil {
				b.Fatal(err)
			}
			h := s.Handler()
			r := rand.New(rand.NewPCG(9, 9))
			get := func(path string) (time.Duration, int) {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.AddCookie(&http.Cookie{Name: "__Host-sentinel_session", Value: cookie})
				w := httptest.NewRecorder()
				t0 := time.Now()
				h.ServeHTTP(w, req)
				d := time.Since(t0)
				if w.Code != http.StatusOK {
					b.Fatalf("GET %s: %d %s", path, w.Code, w.Body.String())
				}
				return d, w.Body.Len()
			}
			search := func() string {
				p := r.IntN(benchPopular)
				if r.IntN(2) == 0 {
					p = benchPopular + r.IntN(benchTail)
				}
				q := url.Values{"name": {fmt.Sprintf("lib-%d", p)}}
				if r.IntN(2) == 0 {
					q.Set("version", fmt.Sprintf("1.%d.0", r.IntN(5)))
				}
				return "/inventory?" + q.Encode()
			}
			findings := func() string {
				switch r.IntN(6) {
				case 0:
					return "/findings"
				case 1:
					return "/findings?band=high"
				case 2:
					return "/findings?kev=true"
				case 3:
					return fmt.Sprintf("/findings?owner=team-%d", r.IntN(benchOwners))
				case 4:
					return fmt.Sprintf("/findings?asset=ast_bench%d", r.IntN(benchHosts))
				}
				return "/findings?status=any&band=critical"
			}
			for _, page := range []struct {
				name string
				path func() string
				// expire moves the clock past the findings summary's
				// reuse, so that every request counts afresh.
				expire bool
			}{
				{"overview", func() string { return "/" }, false},
				{"overview_uncached", func() string { return "/" }, true},
				{"inventory_search", search, false},
				{"findings", findings, false},
			} {
				b.Run(page.name, func(b *testing.B) {
					get(page.path()) // warm the caches a first request fills
					var lat []time.Duration
					var bytes int
					for b.Loop() {
						if page.expire {
							clk.Advance(finding.SummaryTTL)
						}
						d, n := get(page.path())
						lat = append(lat, d)
						bytes += n
					}
					slices.Sort(lat)
					pct := func(p float64) float64 {
						return float64(lat[min(len(lat)-1, int(float64(len(lat))*p))].Microseconds()) / 1000
					}
					b.ReportMetric(pct(0.50), "p50-ms")
					b.ReportMetric(pct(0.99), "p99-ms")
					b.ReportMetric(float64(bytes)/float64(len(lat)), "html-bytes")
				})
			}
		})
	}
}
