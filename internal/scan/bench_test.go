package scan_test

import (
	"context"
	"crypto/sha1"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/scan"
	"github.com/sentinel-sca/sentinel/internal/scan/catalog"
	"github.com/sentinel-sca/sentinel/internal/testing/sitetest"
)

// BenchmarkScan_50Pages200Assets is one whole scan, with the default
// limits, of a 50-page site loading 200 distinct assets (real library
// files) on loopback: the goal is at most 3 s. It fails unless the scan
// fetched every page and every asset.
func BenchmarkScan_50Pages200Assets(b *testing.B) {
	site := sitetest.Start(b, 50)
	cfg := testConfig()
	s, err := scan.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.Scan(context.Background(), site.URL)
		if err != nil {
			b.Fatal(err)
		}
		if res.Stats.Pages != site.Pages || res.Stats.Assets != site.Assets || len(res.Stats.Truncated) != 0 {
			b.Fatalf("scanned %d pages and %d assets (truncated: %v), want %d and %d", res.Stats.Pages, res.Stats.Assets, res.Stats.Truncated, site.Pages, site.Assets)
		}
		if i == 0 {
			b.ReportMetric(float64(res.Stats.Pages), "pages")
			b.ReportMetric(float64(res.Stats.Assets), "assets")
			b.ReportMetric(float64(res.Stats.Bytes)/(1<<20), "MiB")
			b.ReportMetric(float64(len(res.Detections)), "detections")
		}
	}
}

// BenchmarkCatalogLookup is the per-asset catalog work: SHA-1 of a 90 KB
// file (jQuery) and its look-up in the embedded catalog.
func BenchmarkCatalogLookup(b *testing.B) {
	c, err := catalog.Default()
	if err != nil {
		b.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join("testdata", "sites", "libs", "javascript", "jquery", "jquery.min.js"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("hash_and_lookup", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for i := 0; i < b.N; i++ {
			if es := c.Lookup(sha1.Sum(body)); len(es) == 0 {
				b.Fatal("not found")
			}
		}
	})
	sum := sha1.Sum(body)
	b.Run("lookup_only", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			c.Lookup(sum)
		}
	})
}
