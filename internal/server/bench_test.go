package server_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
)

// BenchmarkAuthenticatedGET measures one authenticated GET through the
// whole chain: request id, API key authentication, the rate limiter, the
// scope check and a store read (a page of API keys), in process. Run with
// -cpu 1 for the one-core figure. It reports p99 latency.
func BenchmarkAuthenticatedGET(b *testing.B) {
	for _, engine := range []string{"sqlite", "postgres"} {
		b.Run(engine, func(b *testing.B) {
			cfg := server.DefaultConfig()
			cfg.DataDir = b.TempDir()
			if engine == "postgres" {
				cfg.Database = pgtest.DSN(b)
				cfg.MasterKey = "0000000000000000000000000000000000000000000000000000000000000000"
			}
			s, err := server.Open(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			// The benchmark measures the chain, not the 600/min limit.
			s.API.Limiter = unlimited{ratelimit.NewMemory()}
			if _, err := server.CreateOrg(context.Background(), s.DB, "acme", ""); err != nil {
				b.Fatal(err)
			}
			key := mustKey(b, s, "acme", sentinel.AllScopes)
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := httptest.NewRequest("GET", "/v1/api-keys?limit=10", nil)
				r.Header.Set("Authorization", "ApiKey "+key)
				w := httptest.NewRecorder()
				start := time.Now()
				s.API.ServeHTTP(w, r)
				lat = append(lat, time.Since(start))
				if w.Code != 200 {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}

// unlimited counts like the real limiter but never refuses.
type unlimited struct{ *ratelimit.Memory }

func (u unlimited) Allow(ctx context.Context, key string, limit int, w time.Duration) (ratelimit.Result, error) {
	r, err := u.Memory.Allow(ctx, key, limit, w)
	r.Allowed = true
	return r, err
}
