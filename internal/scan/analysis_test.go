package scan_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/scan"
	"github.com/sentinel-sca/sentinel/internal/testing/sitetest"
)

// TestAnalysisBound runs three scans at once on one Scanner with
// Analysis 1: never more than one page or asset is analysed at a time
// (the tap runs inside the analysis), and every page and asset still is.
func TestAnalysisBound(t *testing.T) {
	const scans, pages = 3, 5
	cfg := testConfig()
	cfg.Analysis = 1
	cfg.NoProbes = true
	s, err := scan.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var now, most, total atomic.Int64
	scan.SetTap(s, func(string, string, http.Header, []byte) {
		n := now.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		total.Add(1)
		time.Sleep(time.Millisecond) // long enough for overlaps to show
		now.Add(-1)
	})
	var wg sync.WaitGroup
	for range scans {
		site := sitetest.Start(t, pages)
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.Scan(context.Background(), site.URL)
			if err != nil {
				t.Error(err)
				return
			}
			if res.Stats.Pages != site.Pages || res.Stats.Assets != site.Assets {
				t.Errorf("%s: %d pages and %d assets, want %d and %d", site.URL, res.Stats.Pages, res.Stats.Assets, site.Pages, site.Assets)
			}
		}()
	}
	wg.Wait()
	if got, want := total.Load(), int64(scans*pages*(1+sitetest.AssetsPerPage)); got != want {
		t.Errorf("analysed %d pages and assets, want %d", got, want)
	}
	if most.Load() != 1 {
		t.Errorf("%d analyses ran at once, want 1", most.Load())
	}
}
