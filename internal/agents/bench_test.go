package agents_test

import (
	"bytes"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/testing/sbomtest"
)

// BenchmarkSubmit50MB submits a 50 MB SBOM (about 65,000 components and
// their dependency graph) through the agent listener and reports the peak
// heap growth while it is received, decoded and stored, and the time it
// takes.
func BenchmarkSubmit50MB(b *testing.B) {
	doc := sbomtest.Generate(65_000, 450, 3)
	for len(doc) < 50<<20 {
		doc = sbomtest.Generate(65_000+(50<<20-len(doc))/700, 450, 3)
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
