package evidence_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/seal"
	"github.com/sentinel-sca/sentinel/internal/store"
)

var (
	storeSubs  = flag.Int("store-subs", 1000, "BenchmarkBuildFromStore: submissions (one host each)")
	storeComps = flag.Int("store-comps", 1000, "BenchmarkBuildFromStore: distinct components per submission")
)

// BenchmarkBuildFromStore runs the whole build job against a SQLite store
// seeded through the real ingest path: -store-subs submissions of
// -store-comps distinct components each (1,000 x 1,000 by default: a
// million current components), each component but the last of a
// submission depending on the next one (the dependency graph, migration
// 0007). Seeding is not timed. It reports the build's peak Go heap and the
// zip's size.
//
//	go test ./internal/evidence -run XXX -bench BenchmarkBuildFromStore -benchtime 1x
func BenchmarkBuildFromStore(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var org *sentinel.Organization
	if err := db.InTx(ctx, func(tx *store.Tx) (err error) { org, err = tx.CreateOrg(ctx, "acme", "Acme"); return err }); err != nil {
		b.Fatal(err)
	}
	// Seeded with multi-row INSERTs into the agent's tables (migrations
	// 0004 and 0007), not through CreateSubmission, which also maintains the search
	// index and would take most of an hour for a million rows here.
	seed := time.Now()
	now := store.MS(time.Now().Add(-time.Hour))
	for i := 0; i < *storeSubs; i++ {
		subID, host := fmt.Sprintf("sub_%016d", i), fmt.Sprintf("host-%04d", i)
		doc := []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[`)
		for j := 0; j < *storeComps; j++ {
			if j > 0 {
				doc = append(doc, ',')
			}
			n := i*(*storeComps) + j
			doc = fmt.Appendf(doc, `{"type":"library","name":"pkg-%07d","version":"1.0.%d","purl":"pkg:npm/pkg-%07d@1.0.%d"}`, n, j%7, n, j%7)
		}
		doc = append(doc, "]}"...)
		err := db.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO sbom_submissions (id, org_id, host, spec_version, component_count, indexed_count, size, sha256, created_at)
				VALUES ($1, $2, $3, '1.5', $4, $4, $5, 'x', $6)`, subID, org.ID, host, *storeComps, len(doc), now+int64(i)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO sbom_documents (submission_id, body) VALUES ($1, $2)`, subID, doc); err != nil {
				return err
			}
			for start := 0; start < *storeComps; start += 100 {
				q := []byte(`INSERT INTO inventory (org_id, submission_id, host, purl, ecosystem, name, version, first_seen, last_seen) VALUES `)
				args := []any{org.ID, subID, host, now}
				for j := start; j < min(start+100, *storeComps); j++ {
					n := i*(*storeComps) + j
					if j > start {
						q = append(q, ',')
					}
					k := len(args)
					q = fmt.Appendf(q, "($1, $2, $3, $%d, 'npm', $%d, $%d, $4, $4)", k+1, k+2, k+3)
					args = append(args, fmt.Sprintf("pkg:npm/pkg-%07d@1.0.%d", n, j%7), fmt.Sprintf("pkg-%07d", n), fmt.Sprintf("1.0.%d", j%7))
				}
				if _, err := tx.Exec(ctx, string(q), args...); err != nil {
					return err
				}
				q = []byte(`INSERT INTO inventory_edges (org_id, submission_id, from_purl, to_purl) VALUES `)
				args = args[:2]
				for j := start; j < min(start+100, *storeComps-1); j++ {
					n := i*(*storeComps) + j
					if j > start {
						q = append(q, ',')
					}
					k := len(args)
					q = fmt.Appendf(q, "($1, $2, $%d, $%d)", k+1, k+2)
					args = append(args, fmt.Sprintf("pkg:npm/pkg-%07d@1.0.%d", n, j%7), fmt.Sprintf("pkg:npm/pkg-%07d@1.0.%d", n+1, (j+1)%7))
				}
				if len(args) > 2 {
					if _, err := tx.Exec(ctx, string(q), args...); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("seeded %d submissions x %d components in %v", *storeSubs, *storeComps, time.Since(seed))
	box, _ := seal.NewBox(make([]byte, 32))
	ca, err := evidence.LoadOrCreateCA(ctx, store.Bind[evidence.Tx](db), box, time.Now().Add(-time.Hour))
	if err != nil {
		b.Fatal(err)
	}
	svc := &evidence.Service{DB: store.Bind[evidence.Tx](db), CA: ca, PublicURL: "https://sentinel.example", TempDir: b.TempDir()}

	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if v := ms.HeapInuse + ms.StackInuse; v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	b.ResetTimer()
	var bd *sentinel.Bundle
	for i := 0; i < b.N; i++ {
		now := time.Now()
		bd = &sentinel.Bundle{ID: sentinel.NewID(sentinel.PrefixBundle), OrgID: org.ID, Scope: evidence.Scopes, WindowDays: 90,
			WindowStart: now.AddDate(0, 0, -90), WindowEnd: now, TokenHash: []byte(sentinel.NewID("t_")), PasswordHash: "x",
			CreatedBy: "bench", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateBundle(ctx, bd) }); err != nil {
			b.Fatal(err)
		}
		args, _ := json.Marshal(map[string]string{"bundle_id": bd.ID})
		if err := svc.BuildJob(ctx, &sentinel.Job{Args: args, Attempts: 1, MaxAttempts: 5}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	bd, _ = db.FindBundle(ctx, org.ID, bd.ID)
	// The graph made it into the consolidated SBOM: one entry per
	// component with a dependency.
	var zipBytes bytes.Buffer
	if err := evidence.OpenZip(ctx, db, bd.ID, &zipBytes); err != nil {
		b.Fatal(err)
	}
	cdx := zipFiles(b, zipBytes.Bytes())["sbom/consolidated.cdx.json"]
	_, graph, _ := bytes.Cut(cdx, []byte(`"dependencies":[`))
	if got, want := bytes.Count(graph, []byte(`{"dependsOn":["pkg:npm/`)), *storeSubs*(*storeComps-1); got != want {
		b.Errorf("consolidated SBOM: %d dependency entries, want %d", got, want)
	}
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(bd.Size)/(1<<20), "zip-MiB")
	b.ReportMetric(float64(len(bd.Artifacts)), "artifacts")
}
