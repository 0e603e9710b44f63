package agentapi_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agentapi"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/store/storetest"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
)

// genSBOM returns a CycloneDX 1.5 document with n npm, PyPI and Maven
// components; pad bytes of description per component make it as large as
// real SBOMs with hashes, licenses and descriptions are. Its dependency
// graph has about two edges per component: component i depends on
// components i+1 and i+7.
func genSBOM(n, pad int, seed uint64) []byte {
	var b bytes.Buffer
	b.WriteString(`{"$schema":"http://cyclonedx.org/schema/bom-1.5.schema.json","bomFormat":"CycloneDX","specVersion":"1.5","version":1,`)
	b.WriteString(`"metadata":{"timestamp":"2026-11-21T22:19:05Z","component":{"type":"application","name":"bench"},"properties":[{"name":"sentinel:host","value":"bench-host"}]},"components":[`)
	desc := bytes.Repeat([]byte("x"), pad)
	r := rand.New(rand.NewPCG(seed, 1))
	purls := make([]string, n)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		v := fmt.Sprintf("%d.%d.%d", r.IntN(5), r.IntN(20), r.IntN(30))
		var p string
		switch i % 3 {
		case 0:
			p = fmt.Sprintf("pkg:npm/pkg-%d@%s", i, v)
		case 1:
			p = fmt.Sprintf("pkg:pypi/py-pkg-%d@%s", i, v)
		default:
			p = fmt.Sprintf("pkg:maven/org.example.g%d/artifact-%d@%s", i%50, i, v)
		}
		fmt.Fprintf(&b, `{"type":"library","bom-ref":%q,"name":"pkg-%d","version":%q,"purl":%q,"description":"%s","hashes":[{"alg":"SHA-256","content":"%064x"}],"licenses":[{"license":{"id":"MIT"}}]}`,
			p, i, v, p, desc, r.Uint64())
		purls[i] = p
	}
	b.WriteString(`],"dependencies":[`)
	for i, p := range purls {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"ref":%q,"dependsOn":[`, p)
		for k, j := range []int{i + 1, i + 7} {
			if j < n {
				if k > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%q", purls[j])
			}
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

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
			svc := agentapi.New(db, nil, nil)
			docs := [][]byte{genSBOM(5000, 300, 1), genSBOM(5000, 300, 2)}
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
			const subs, perSub, hosts, popular, tail = 10_000, 100, 1_000, 300, 50_000
			base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			for s := 0; s < subs; s += 50 {
				db.Now = func() time.Time { return base.Add(time.Duration(s) * time.Minute) }
				err := db.InTx(ctx, func(tx *store.Tx) error {
					for k := s; k < s+50; k++ {
						items := make([]store.InventoryItem, 0, perSub)
						seen := map[int]bool{}
						for len(items) < perSub {
							pkg := popular + r.IntN(tail)
							if len(items) < 30 {
								pkg = r.IntN(popular)
							}
							if seen[pkg] {
								continue
							}
							seen[pkg] = true
							items = append(items, store.ItemFromPurl(purlOf(pkg, r.IntN(5)), "", ""))
						}
						sub := &store.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: org.ID,
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
			db.Now = time.Now
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

			svc := agentapi.New(db, nil, nil)
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

// BenchmarkSubmit50MB submits a 50 MB SBOM (about 65,000 components and
// their dependency graph) through the agent listener and reports the peak
// heap growth while it is received, decoded and stored, and the time it
// takes.
func BenchmarkSubmit50MB(b *testing.B) {
	doc := genSBOM(65_000, 450, 3)
	for len(doc) < 50<<20 {
		doc = genSBOM(65_000+(50<<20-len(doc))/700, 450, 3)
	}
	b.Logf("SBOM: %.1f MB", float64(len(doc))/(1<<20))
	e := newEnv(b, nil)
	c := e.agentClient(b)
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		req, _ := http.NewRequest("POST", e.s.AgentURL()+"/sentinel/sbom/submit", bytes.NewReader(doc))
		req.Header.Set("Authorization", "ApiKey "+e.acmeKey)
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 201 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	close(stop)
	wg.Wait()
	// The client's copy of the document is part of the baseline.
	b.ReportMetric(float64(peak.Load()-base.HeapInuse)/(1<<20), "peak-heap-MB")
}
