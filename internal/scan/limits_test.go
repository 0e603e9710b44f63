package scan_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/scan"
)

// TestScan_InfiniteSite: every page links to ten new pages, forever. The
// crawl stops at MaxPages and MaxDepth and says so.
func TestScan_InfiniteSite(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body>")
		for i := 0; i < 10; i++ {
			fmt.Fprintf(w, `<a href="%s/%d">next</a> <script src="/s%s%d.js"></script>`, strings.TrimSuffix(r.URL.Path, "/"), i, strings.ReplaceAll(r.URL.Path, "/", "-"), i)
		}
		fmt.Fprintf(w, "</body></html>")
	}))
	defer srv.Close()

	for _, tt := range []struct {
		name               string
		pages, depth       int
		wantPagesAtMost    int
		wantTruncated      string
		wantRequestsAtMost int64
	}{
		{name: "pages", pages: 25, depth: 10, wantPagesAtMost: 25, wantTruncated: "pages"},
		{name: "depth", pages: 1000, depth: 1, wantPagesAtMost: 11, wantTruncated: "depth"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requests.Store(0)
			cfg := testConfig()
			cfg.MaxPages, cfg.MaxDepth, cfg.MaxAssets, cfg.NoProbes = tt.pages, tt.depth, 30, true
			res := mustScan(t, srv.URL, cfg)
			if res.Stats.Pages > tt.wantPagesAtMost {
				t.Errorf("Pages = %d, want at most %d", res.Stats.Pages, tt.wantPagesAtMost)
			}
			if !slices.Contains(res.Stats.Truncated, tt.wantTruncated) {
				t.Errorf("Truncated = %q, want %q among them", res.Stats.Truncated, tt.wantTruncated)
			}
			if !slices.Contains(res.Stats.Truncated, "assets") {
				t.Errorf("Truncated = %q, want assets among them", res.Stats.Truncated)
			}
			if max := int64(tt.wantPagesAtMost + 30 + 5); requests.Load() > max {
				t.Errorf("%d requests, want at most %d", requests.Load(), max)
			}
		})
	}
}

// TestScan_HugeFiles: a page and a script that never end. Each response is
// cut at MaxResponseBytes, the scan at MaxTotalBytes, and what was read of
// the script is still analysed (its banner).
func TestScan_HugeFiles(t *testing.T) {
	endless := func(w http.ResponseWriter, r *http.Request, first string) {
		w.Write([]byte(first))
		chunk := []byte(strings.Repeat("/* padding padding padding */\n", 1024))
		for i := 0; i < 1<<16; i++ { // 2 GiB, if anyone read it all
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		endless(w, r, `<html><head><script src="/big.js"></script><script src="/big2.js"></script></head><body><a href="/p2">p</a>`)
	})
	mux.HandleFunc("/big.js", func(w http.ResponseWriter, r *http.Request) {
		endless(w, r, "/*! jQuery v3.6.1 | (c) OpenJS Foundation */\n")
	})
	mux.HandleFunc("/big2.js", func(w http.ResponseWriter, r *http.Request) {
		endless(w, r, "/*! jQuery v1.12.4 | (c) jQuery Foundation */\n")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cfg := testConfig()
	cfg.MaxResponseBytes = 256 << 10
	cfg.MaxTotalBytes = 600 << 10
	cfg.NoProbes = true
	start := time.Now()
	res := mustScan(t, srv.URL, cfg)
	if time.Since(start) > 30*time.Second {
		t.Errorf("scan took %v", time.Since(start))
	}
	if res.Stats.Bytes > cfg.MaxTotalBytes {
		t.Errorf("read %d bytes, more than MaxTotalBytes %d", res.Stats.Bytes, cfg.MaxTotalBytes)
	}
	for _, l := range []string{"response_bytes", "bytes"} {
		if !slices.Contains(res.Stats.Truncated, l) {
			t.Errorf("Truncated = %q, want %q among them", res.Stats.Truncated, l)
		}
	}
	if find(res, "jQuery", "3.6.1") == nil && find(res, "jQuery", "1.12.4") == nil {
		t.Errorf("no banner read from the truncated scripts: %v", versions(res))
	}
}

// TestScan_Cancel: a scan of a slow site returns promptly once ctx is
// canceled, with the context's error.
func TestScan_Cancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><a href="/a">a</a><a href="/b">b</a>`))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	cfg := testConfig()
	cfg.RequestTimeout = time.Minute
	res, err := scan.Run(ctx, srv.URL, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel: err = %v, want context.Canceled", err)
	}
	if res == nil {
		t.Errorf("Run after cancel: no partial result")
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Run returned %v after start, want promptly after the cancel at 300ms", d)
	}
}

// TestScan_Timeout: Config.Timeout ends the scan without an error.
func TestScan_Timeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/" {
			w.Write([]byte(`<html><a href="/slow">slow</a>`))
			return
		}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	cfg := testConfig()
	cfg.Timeout = 500 * time.Millisecond
	cfg.NoProbes = true
	res, err := scan.Run(context.Background(), srv.URL, cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !slices.Contains(res.Stats.Truncated, "time") || !res.Reachable {
		t.Errorf("Truncated = %q, Reachable = %v; want time and reachable", res.Stats.Truncated, res.Reachable)
	}
}

// TestScan_SameOriginAndRedirects: redirects from the target within the
// site are followed and set the origin; links to another origin and
// redirects off the site are not followed.
func TestScan_SameOriginAndRedirects(t *testing.T) {
	var otherHits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><meta name="generator" content="WordPress 5.0"></html>`))
	}))
	defer other.Close()
	mux := http.NewServeMux()
	var site *httptest.Server
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/home/", http.StatusFound)
	})
	mux.HandleFunc("/home/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<html><head><meta name="generator" content="Drupal 10.1.5 (https://www.drupal.org)"></head>
<a href="%s/elsewhere">other origin</a> <a href="/jump">redirect away</a> <a href="/inside">inside</a></html>`, other.URL)
	})
	mux.HandleFunc("/jump", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/landing", http.StatusFound)
	})
	mux.HandleFunc("/inside", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/home/deeper", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/home/deeper", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html>deeper</html>`))
	})
	site = httptest.NewServer(mux)
	defer site.Close()

	cfg := testConfig()
	cfg.NoProbes = true
	res := mustScan(t, site.URL, cfg)
	if want := site.URL + "/home/"; res.FinalURL != want {
		t.Errorf("FinalURL = %q, want %q", res.FinalURL, want)
	}
	if otherHits.Load() != 0 {
		t.Errorf("another origin was requested %d times", otherHits.Load())
	}
	if res.Stats.Pages != 2 {
		t.Errorf("Pages = %d, want 2 (home and the page reached by an in-site redirect)", res.Stats.Pages)
	}
	checkDetections(t, res, []want{{name: "Drupal", versions: []string{"10.1.5"}, purl: "pkg:composer/drupal/core@10.1.5", kinds: []string{sentinel.EvidenceGenerator}}})
	if got := versions(res)["WordPress"]; len(got) != 0 {
		t.Errorf("WordPress detected from another origin: %v", got)
	}
}

// TestScan_SSRFGuard: without AllowPrivate, loopback is refused by the
// guard and the site is unreachable, with a reason that names the kind of
// address but not the address.
func TestScan_SSRFGuard(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	target := strings.Replace(srv.URL, "http://", "https://", 1) // https: the guard refuses plain http outright
	for _, tt := range []struct{ name, target string }{
		{"loopback_ip", target},
		{"localhost", strings.Replace(target, "127.0.0.1", "localhost", 1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := scan.DefaultConfig()
			cfg.Policy = netguard.Policy{}
			res, err := scan.Run(context.Background(), tt.target, cfg)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.Reachable || res.Unreachable == "" {
				t.Fatalf("Reachable = %v (%q), want unreachable", res.Reachable, res.Unreachable)
			}
			if strings.Contains(res.Unreachable, "127.0.0.1") {
				t.Errorf("Unreachable %q names the address", res.Unreachable)
			}
			if len(res.Detections) != 0 {
				t.Errorf("detections from a refused site: %v", res.Detections)
			}
		})
	}
	if hits.Load() != 0 {
		t.Errorf("the loopback server was reached %d times", hits.Load())
	}
}

func TestScan_BadTarget(t *testing.T) {
	for _, target := range []string{"", "ftp://example.com/", "example.com", "http://user:pw@example.com/", "http://%zz"} {
		if _, err := scan.Run(context.Background(), target, testConfig()); !errors.Is(err, scan.ErrTarget) {
			t.Errorf("Run(%q) err = %v, want ErrTarget", target, err)
		}
	}
}

// TestScan_SoftNotFound: a site that answers every path with its homepage
// (200) gives no CMS path evidence, even for probes whose marker the page
// happens to contain; a site that answers the real files does.
func TestScan_SoftNotFound(t *testing.T) {
	page := `<html><head><title>Shop</title></head><body>We run Drupal 7.98, 2023 and love it.
<form id="loginform"><input id="wp-submit"></form> phpMyAdmin - ChangeLog</body></html>`
	soft := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	defer soft.Close()
	res := mustScan(t, soft.URL, testConfig())
	for _, d := range res.Detections {
		for _, e := range d.Evidence {
			if e.Kind == sentinel.EvidenceCMSPath {
				t.Errorf("soft-404 site gave CMS path evidence: %s %+v", d.Name, e)
			}
		}
	}

	real := http.NewServeMux()
	real.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><title>Site</title></html>`))
	})
	real.HandleFunc("/CHANGELOG.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("\nDrupal 7.98, 2023-06-07\n-----------------------\n- Fixed a few things.\n\nDrupal 7.97, 2023-04-21\n"))
	})
	hard := httptest.NewServer(real)
	defer hard.Close()
	res = mustScan(t, hard.URL, testConfig())
	checkDetections(t, res, []want{{name: "Drupal", versions: []string{"7.98"}, purl: "pkg:bitnami/drupal@7.98", kinds: []string{sentinel.EvidenceCMSPath}}})
}
