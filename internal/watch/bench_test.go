package watch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/benchdata"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// benchShape is the watched inventory: 10,000 live SBOMs of 500
// components (5,000,000 inventory rows).
var benchShape = benchdata.Watch5M

// openWatched opens a server on the engine holding benchShape's
// inventory, ten findings per host of earlier advisories, and the shipped
// intel.
func openWatched(b *testing.B, engine string) *server.Server {
	s, _ := benchdata.Open(b, engine, "watch-5m", func(s *server.Server, org *sentinel.Organization) {
		now := time.Now()
		benchdata.SeedInventory(b, s.DB, org.ID, benchShape, now.Add(-time.Duration(benchShape.Subs)*benchShape.Step))
		benchdata.SeedFindings(b, s.DB, org.ID, benchdata.Findings{N: 10 * benchShape.Hosts, Hosts: benchShape.Hosts, Owners: 20}, now)
		servertest.SyncIntel(b, s)
	})
	return s
}

// deltaDir writes n new OSV advisories (ids unique to round) into a fresh
// directory: one in ten names a popular package of the inventory (each is
// on about half the hosts), the others a package of its long tail (each on
// about a hundred hosts). Each affects versions below 1.2.0: two of the
// five versions in the inventory.
func deltaDir(b *testing.B, r *rand.Rand, round, n int) string {
	dir := b.TempDir()
	modified := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(round) * time.Hour).Format(time.RFC3339)
	sh := benchShape
	for j := range n {
		p := sh.Package(r.IntN(sh.Subs), sh.PopularPerSub+r.IntN(sh.PerSub-sh.PopularPerSub))
		if j%10 == 0 {
			p = sh.Package(r.IntN(sh.Subs), r.IntN(sh.PopularPerSub))
		}
		id := fmt.Sprintf("GHSA-bnch-%04d-%04d", round, j)
		rec := map[string]any{
			"schema_version": "1.6.0", "id": id, "modified": modified, "published": modified,
			"aliases": []string{fmt.Sprintf("CVE-2099-%d", round*10_000+j)},
			"summary": "Benchmark advisory in " + benchdata.Name(p),
			"affected": []any{map[string]any{
				"package": map[string]any{"ecosystem": "npm", "name": benchdata.Name(p)},
				"ranges": []any{map[string]any{"type": "SEMVER", "events": []any{
					map[string]any{"introduced": "0"}, map[string]any{"fixed": "1.2.0"}}}},
			}},
			"database_specific": map[string]any{"severity": "HIGH", "cwe_ids": []string{"CWE-400"}},
		}
		raw, _ := json.Marshal(rec)
		if err := os.WriteFile(filepath.Join(dir, id+".json"), raw, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkWatchDelta measures the watch after one intel sync (what the
// sync's job runs: the live components of the packages the delta names,
// re-matched and reconciled into findings and alerts) over 10,000 live
// SBOMs of 500 components, on SQLite and PostgreSQL, for deltas of 10, 100
// and 1,000 new advisories. The sync itself (storing the records,
// rebuilding the match index) is not timed. Its cost should follow the
// delta (components/op), not the inventory. Goal: 60 s on 2 cores.
func BenchmarkWatchDelta(b *testing.B) {
	for _, engine := range []string{store.SQLite, store.Postgres} {
		b.Run(engine, func(b *testing.B) {
			s := openWatched(b, engine)
			ctx := context.Background()
			r := rand.New(rand.NewPCG(12, 12))
			round := 0
			for _, n := range []int{10, 100, 1000} {
				b.Run(fmt.Sprintf("delta=%d", n), func(b *testing.B) {
					var comps int
					for b.Loop() {
						b.StopTimer()
						round++
						res, err := s.Intel.Sync(ctx, intelsvc.Sources{OSV: []string{deltaDir(b, r, round, n)}}, nil)
						if err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
						c, err := s.Watch.AfterSync(ctx, res.ID)
						if err != nil {
							b.Fatal(err)
						}
						comps += c
					}
					b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
					b.ReportMetric(float64(comps)/float64(b.N), "components/op")
					if comps > 0 {
						b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(comps), "µs/component")
					}
				})
			}
		})
	}
}

// BenchmarkWatchDaily measures the daily run (Service.Once): every live
// SBOM of the same 10,000 x 500 inventory read, matched again and
// reconciled, when nothing has changed since the last run (the first run,
// not timed, resolves the seeded findings whose advisories the index does
// not hold).
func BenchmarkWatchDaily(b *testing.B) {
	for _, engine := range []string{store.SQLite, store.Postgres} {
		b.Run(engine, func(b *testing.B) {
			s := openWatched(b, engine)
			ctx := context.Background()
			first := time.Now()
			if err := s.Watch.Once(ctx); err != nil {
				b.Fatal(err)
			}
			b.Logf("first run (resolves the seeded findings): %.1f s", time.Since(first).Seconds())
			for b.Loop() {
				if err := s.Watch.Once(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
			b.ReportMetric(float64(benchShape.Rows())/(b.Elapsed().Seconds()/float64(b.N)), "components/s")
		})
	}
}
