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
	"github.com/sentinel-sca/sentinel/internal/testing/benchdata"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// Benchmark sizes: the 1,000,000 inventory rows
// (benchdata.Search1M: 10,000 submissions of 100 components from 1,000
// hosts: 30 of each from 300 popular packages, 70 from a tail of 50,000)
// and 100,000 findings over the same 1,000 hosts, first seen over a year:
// 60% open, 10% accepted, 25% resolved, 5% false positives; 2%
// known-exploited; 30% with an owner.
var benchShape = benchdata.Search1M

const (
	benchFindings = 100_000
	benchOwners   = 20
)

// noLimit lets every request through: the benchmark measures pages, not
// the rate limiter (which would stop one user after 600 reads a minute).
type noLimit struct{}

func (noLimit) Allow(context.Context, string, int, time.Duration) (ratelimit.Result, error) {
	return ratelimit.Result{Allowed: true, Limit: 1 << 30, Remaining: 1 << 30, Reset: time.Minute}, nil
}

// seed fills the store with bulk SQL (package benchdata).
func seed(b *testing.B, db *store.DB, org *sentinel.Organization, now time.Time) {
	benchdata.SeedInventory(b, db, org.ID, benchShape, now.Add(-365*24*time.Hour))
	benchdata.SeedFindings(b, db, org.ID, benchdata.Findings{N: benchFindings, Hosts: benchShape.Hosts, Owners: benchOwners}, now)
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
				p := r.IntN(benchShape.Popular)
				if r.IntN(2) == 0 {
					p = benchShape.Popular + r.IntN(benchShape.Tail)
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
					return fmt.Sprintf("/findings?asset=ast_bench%d", r.IntN(benchShape.Hosts))
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
