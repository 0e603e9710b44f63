package inventory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/inventory"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/store/storetest"
	"github.com/sentinel-sca/sentinel/internal/testing/benchdata"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
	"github.com/sentinel-sca/sentinel/internal/testing/sbomtest"
)

func benchDB(b *testing.B, engine string) *store.DB {
	b.Helper()
	dsn := filepath.Join(b.TempDir(), "bench.db")
	if engine == store.Postgres {
		dsn = pgtest.DSN(b)
	}
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkIngest5000 measures one submission of a 5,000-component SBOM
// (about 2.4 MB): decoding, the inventory and sightings rows, the original
// bytes, the meter and the event, committed. Goal: 250 ms.
func BenchmarkIngest5000(b *testing.B) {
	for _, engine := range []string{store.SQLite, store.Postgres} {
		b.Run(engine, func(b *testing.B) {
			db := benchDB(b, engine)
			org := storetest.MustOrg(b, db, "bench")
			svc := &inventory.Service{DB: store.Bind[inventory.Tx](db)}
			docs := [][]byte{sbomtest.Generate(5000, 300, 1), sbomtest.Generate(5000, 300, 2)}
			b.SetBytes(int64(len(docs[0])))
			i := 0
			for b.Loop() {
				// Alternate hosts and documents: half the rows are new
				// sightings, half update existing ones.
				if _, err := svc.Ingest(context.Background(), org, "key_bench", "", "host-"+strconv.Itoa(i%4), docs[i%2]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkSearch1M fills the inventory with 1,000,000 component
// occurrences (10,000 submissions of 100 components from 1,000 hosts; 30
// of each submission's components come from 300 popular packages, the rest
// from a long tail of 50,000) and measures the component search: half the
// queries name a popular package, half a tail one; half give a version.
// It reports p50 and p99 in milliseconds. Goal: p99 <= 5 ms.
func BenchmarkSearch1M(b *testing.B) {
	for _, engine := range []string{store.SQLite, store.Postgres} {
		b.Run(engine, func(b *testing.B) {
			db := benchDB(b, engine)
			org := storetest.MustOrg(b, db, "bench")
			ctx := context.Background()
			r := rand.New(rand.NewPCG(7, 7))
			ecos := []string{"npm", "pypi", "maven", "golang", "cargo"}
			purlOf := func(pkg, version int) string {
				switch e := ecos[pkg%len(ecos)]; e {
				case "maven":
					return fmt.Sprintf("pkg:maven/org.example/lib-%d@1.%d.0", pkg, version)
				case "golang":
					return fmt.Sprintf("pkg:golang/github.com/example/mod-%d@v1.%d.0", pkg, version)
				default:
					return fmt.Sprintf("pkg:%s/lib-%d@1.%d.0", e, pkg, version)
				}
			}
			start := time.Now()
			// The shape of benchdata.Search1M, written through the ingest
			// path (CreateSubmission) and over five ecosystems.
			sh := benchdata.Search1M
			subs, perSub, hosts, popular, tail := sh.Subs, sh.PerSub, sh.Hosts, sh.Popular, sh.Tail
			base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			for s := 0; s < subs; s += 50 {
				db.Clock = func() time.Time { return base.Add(time.Duration(s) * time.Minute) }
				err := db.InTx(ctx, func(tx *store.Tx) error {
					for k := s; k < s+50; k++ {
						items := make([]sentinel.InventoryItem, 0, perSub)
						seen := map[int]bool{}
						for len(items) < perSub {
							pkg := popular + r.IntN(tail)
							if len(items) < sh.PopularPerSub {
								pkg = r.IntN(popular)
							}
							if seen[pkg] {
								continue
							}
							seen[pkg] = true
							items = append(items, purl.ItemFromPurl(purlOf(pkg, r.IntN(5)), "", ""))
						}
						sub := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: org.ID,
							Host: "host-" + strconv.Itoa(k%hosts), SpecVersion: "1.5", ComponentCount: perSub, SHA256: "00"}
						if err := tx.CreateSubmission(ctx, sub, []byte("{}"), items); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			db.Clock = time.Now
			var occ int
			_ = db.QueryRow(ctx, `SELECT COUNT(*) FROM inventory`).Scan(&occ)
			b.Logf("%s: %d occurrences loaded in %v", engine, occ, time.Since(start).Round(time.Second))
			if engine == store.Postgres {
				// What autovacuum does after a bulk load: statistics, and
				// the visibility map that allows index-only scans.
				if _, err := db.Exec(ctx, `VACUUM ANALYZE`); err != nil {
					b.Fatal(err)
				}
			}

			svc := &inventory.Service{DB: store.Bind[inventory.Tx](db)}
			var lat []time.Duration
			var matches int
			for b.Loop() {
				pkg := r.IntN(popular)
				if r.IntN(2) == 0 {
					pkg = popular + r.IntN(tail)
				}
				name := fmt.Sprintf("lib-%d", pkg)
				switch ecos[pkg%len(ecos)] {
				case "maven":
					name = "org.example:" + name
				case "golang":
					name = fmt.Sprintf("github.com/example/mod-%d", pkg)
				}
				version := ""
				if r.IntN(2) == 0 {
					version = fmt.Sprintf("1.%d.0", r.IntN(5))
				}
				t0 := time.Now()
				res, err := svc.Search(ctx, org.ID, name, version)
				lat = append(lat, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				matches += res.Matches
			}
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(float64(len(lat))*p))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(matches)/float64(len(lat)), "matches/query")
		})
	}
}
