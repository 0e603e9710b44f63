package scan_test

import (
	"context"
	"crypto/sha1"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/scan"
	"github.com/sentinel-sca/sentinel/internal/scan/catalog"
)

// benchSite serves 50 pages that link to each other, each referencing 4
// of 200 distinct asset URLs; the assets are the real library files of
// testdata (npm and Debian copies), served under 200 different paths.
func benchSite(b *testing.B) string {
	b.Helper()
	var files []string
	for _, root := range []string{filepath.Join("testdata", "npm"), filepath.Join("testdata", "sites", "libs")} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".css")) {
				files = append(files, p)
			}
			return nil
		})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/asset/", func(w http.ResponseWriter, r *http.Request) {
		var i int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/asset/"), "%d", &i)
		f := files[i%len(files)]
		if strings.HasSuffix(f, ".css") {
			w.Header().Set("Content-Type", "text/css")
		} else {
			w.Header().Set("Content-Type", "application/javascript")
		}
		http.ServeFile(w, r, f)
	})
	page := func(w http.ResponseWriter, n int) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var sb strings.Builder
		sb.WriteString(`<!DOCTYPE html><html><head><meta name="generator" content="WordPress 6.1.9"><title>p</title>`)
		for k := 0; k < 4; k++ {
			a := n*4 + k
			f := files[a%len(files)]
			if strings.HasSuffix(f, ".css") {
				fmt.Fprintf(&sb, `<link rel="stylesheet" href="/asset/%d/%s">`, a, filepath.Base(f))
			} else {
				fmt.Fprintf(&sb, `<script src="/asset/%d/%s"></script>`, a, filepath.Base(f))
			}
		}
		sb.WriteString(`</head><body>`)
		sb.WriteString(strings.Repeat(`<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>`, 200))
		for k := 1; k <= 7; k++ {
			fmt.Fprintf(&sb, `<a href="/page/%d.html">page</a>`, (n*7+k)%50)
		}
		sb.WriteString(`</body></html>`)
		w.Write([]byte(sb.String()))
	}
	mux.HandleFunc("/page/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/page/"), "%d.html", &n)
		page(w, n%50)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) { page(w, 0) })
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	return srv.URL
}

// BenchmarkScan_50Pages200Assets is one whole scan of a 50-page site with
// 200 assets on loopback (the goal: at most 3 s).
func BenchmarkScan_50Pages200Assets(b *testing.B) {
	site := benchSite(b)
	cfg := testConfig()
	cfg.MaxPages, cfg.MaxDepth, cfg.MaxAssets = 50, 10, 200
	s, err := scan.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.Scan(context.Background(), site)
		if err != nil {
			b.Fatal(err)
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
