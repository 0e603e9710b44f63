package benchdata

import (
	"context"
	"os"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// MasterKey is the master key of the benchmarks' PostgreSQL servers.
const MasterKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

// Open returns a server (not started: no job runs unless the benchmark
// runs it) on engine, holding what seed writes for the organization
// "bench". On SQLite the seeded data directory is cached between runs
// under key (see Cached); on PostgreSQL, benchmarked only when
// SENTINEL_TEST_PG_DSN is set, seed runs in a fresh schema every time.
func Open(b *testing.B, engine, key string, seed func(s *server.Server, org *sentinel.Organization)) (*server.Server, *sentinel.Organization) {
	b.Helper()
	ctx := context.Background()
	if engine == store.Postgres {
		if os.Getenv("SENTINEL_TEST_PG_DSN") == "" {
			b.Skip("set SENTINEL_TEST_PG_DSN to benchmark PostgreSQL")
		}
		s := servertest.Open(b, func(c *server.Config) {
			c.Database = pgtest.DSN(b)
			c.MasterKey = MasterKey
		})
		org, err := server.CreateOrg(ctx, s.DB, "bench", "Bench")
		if err != nil {
			b.Fatal(err)
		}
		seed(s, org)
		return s, org
	}
	dir := Cached(b, key, func(dir string) {
		cfg := server.DefaultConfig()
		cfg.DataDir = dir
		cfg.Addr, cfg.AgentAddr, cfg.ShareAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
		s, err := server.Open(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		org, err := server.CreateOrg(ctx, s.DB, "bench", "Bench")
		if err != nil {
			b.Fatal(err)
		}
		seed(s, org)
	})
	s := servertest.Open(b, func(c *server.Config) { c.DataDir = dir })
	org, err := s.DB.FindOrgBySlug(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	return s, org
}
