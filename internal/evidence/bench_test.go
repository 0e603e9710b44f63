package evidence_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
)

// genSource generates a large organization on the fly, so the benchmark
// measures the builder and not a fixture held in memory.
type genSource struct {
	submissions, components, perSubmission, findings, audit int
}

func (g *genSource) EvidenceSubmissions(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.EvidenceSubmission) error) error {
	buf := make([]byte, 0, 256<<10)
	for i := 0; i < g.submissions; i++ {
		buf = buf[:0]
		buf = append(buf, `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[`...)
		for j := 0; j < g.perSubmission; j++ {
			if j > 0 {
				buf = append(buf, ',')
			}
			n := (i*g.perSubmission + j) % g.components
			buf = fmt.Appendf(buf, `{"type":"library","name":"pkg-%07d","version":"1.%d.0","purl":"pkg:npm/pkg-%07d@1.%d.0"}`, n, n%7, n, n%7)
		}
		buf = append(buf, "]}\n"...)
		s := sentinel.EvidenceSubmission{ID: fmt.Sprintf("sub_%016d", i), Host: "host-" + strconv.Itoa(i%200), Original: buf}
		if err := fn(&s); err != nil {
			return err
		}
	}
	return nil
}

func (g *genSource) EvidenceComponents(ctx context.Context, orgID string, fn func(*sentinel.EvidenceComponent) error) error {
	var c sentinel.EvidenceComponent
	for i := 0; i < g.components; i++ {
		p := fmt.Sprintf("pkg:npm/pkg-%07d@1.%d.0", i, i%7)
		c = sentinel.EvidenceComponent{Purl: p, Name: fmt.Sprintf("pkg-%07d", i), Version: fmt.Sprintf("1.%d.0", i%7),
			Ecosystem: "npm", Asset: "host-" + strconv.Itoa(i%200)}
		if i+2 < g.components {
			c.DependsOn = []string{fmt.Sprintf("pkg:npm/pkg-%07d@1.%d.0", i+1, (i+1)%7), fmt.Sprintf("pkg:npm/pkg-%07d@1.%d.0", i+2, (i+2)%7)}
		}
		if err := fn(&c); err != nil {
			return err
		}
	}
	return nil
}

func (g *genSource) EvidenceChanges(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.EvidenceChange) error) error {
	for i := 0; i < g.findings; i++ {
		c := sentinel.EvidenceChange{At: created, Change: "changed", Purl: fmt.Sprintf("pkg:npm/pkg-%07d@1.1.0", i), Name: fmt.Sprintf("pkg-%07d", i),
			FromVersion: "1.0.0", ToVersion: "1.1.0", Asset: "host-1", SubmissionID: "sub_0000000000000001"}
		if err := fn(&c); err != nil {
			return err
		}
	}
	return nil
}

func (g *genSource) EvidenceFindings(ctx context.Context, orgID string, statuses []string, fn func(*sentinel.EvidenceFinding) error) error {
	bands := []string{"critical", "high", "medium", "low"}
	for i := 0; i < g.findings; i++ {
		f := sentinel.EvidenceFinding{ID: fmt.Sprintf("fnd_%016d", i), Status: "open", Category: "vulnerable_component",
			AdvisoryID: fmt.Sprintf("GHSA-%04d", i), Purl: fmt.Sprintf("pkg:npm/pkg-%07d@1.1.0", i), Component: fmt.Sprintf("pkg-%07d", i),
			Version: "1.1.0", Asset: "host-1", Severity: bands[i%4], RiskScore: 90 - i%90, KEV: i%50 == 0, CWE: "CWE-1395", CreatedAt: created}
		if err := fn(&f); err != nil {
			return err
		}
	}
	return nil
}

func (g *genSource) EvidenceAudit(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.AuditEntry) error) error {
	for i := 0; i < g.audit; i++ {
		e := sentinel.AuditEntry{ID: int64(i + 1), Actor: "key_1", Action: "thing.update", Target: "t", CreatedAt: created,
			Details: map[string]any{"i": i}}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return nil
}

// countingWriter hashes and counts what it is given, as the store's chunk
// writer does, without keeping it.
type countingWriter struct {
	n int64
	h interface{ Write([]byte) (int, error) }
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return w.h.Write(p)
}

// BenchmarkBuildLarge builds a bundle of 1,000 submissions (1,000
// components each) and an inventory of 1,000,000 components, and reports
// the peak Go heap (sampled every 10 ms) and the process's peak RSS.
// docs/design.md's goal: at most 30 s and 256 MiB.
//
//	go test ./internal/evidence -run XXX -bench BenchmarkBuildLarge -benchtime 1x
func BenchmarkBuildLarge(b *testing.B) {
	g := &genSource{submissions: 1000, components: 1_000_000, perSubmission: 1000, findings: 10_000, audit: 10_000}
	ca := MustCA(b, created.Add(-24*time.Hour))
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
	var size int64
	var res *evidence.Result
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := &countingWriter{h: sha256.New()}
		var err error
		res, err = evidence.Build(context.Background(), w, g, evidence.Options{
			Org: testOrg(), BundleID: "bundle_benchbenchbench", CreatedAt: created, WindowStart: created.AddDate(0, 0, -90),
			WindowEnd: created, CA: ca, Identity: testIdentity, Issuer: testIssuer, TempDir: b.TempDir(),
		})
		if err != nil {
			b.Fatal(err)
		}
		size = w.n
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss-MiB") // Linux reports KiB
	b.ReportMetric(float64(size)/(1<<20), "zip-MiB")
	b.ReportMetric(float64(res.Components), "components")
	b.ReportMetric(float64(len(res.Artifacts)), "artifacts")
	_ = io.Discard
}
