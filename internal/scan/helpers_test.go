package scan_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/scan"
)

// testConfig allows loopback (every test server is on 127.0.0.1) and keeps
// the limits small enough for tests.
func testConfig() scan.Config {
	cfg := scan.DefaultConfig()
	cfg.Policy = netguard.Policy{AllowPrivate: true}
	cfg.Timeout = 30 * time.Second
	return cfg
}

func mustScan(t testing.TB, target string, cfg scan.Config) *scan.Result {
	t.Helper()
	res, err := scan.Run(context.Background(), target, cfg)
	if err != nil {
		t.Fatalf("Run(%q): %v", target, err)
	}
	if !res.Reachable {
		t.Fatalf("Run(%q): unreachable: %s", target, res.Unreachable)
	}
	return res
}

// versions returns, per detection name, the sorted versions detected ("" for
// a detection without version).
func versions(res *scan.Result) map[string][]string {
	m := map[string][]string{}
	for _, d := range res.Detections {
		m[d.Name] = append(m[d.Name], d.Version)
	}
	for k := range m {
		sort.Strings(m[k])
	}
	return m
}

func find(res *scan.Result, name, version string) *sentinel.Detection {
	for i, d := range res.Detections {
		if d.Name == name && d.Version == version {
			return &res.Detections[i]
		}
	}
	return nil
}

// want is one expected detection: its versions exactly as listed (a ""
// version is a detection without version), and optionally the purl of the
// first, and the evidence kinds that must be among its evidence.
type want struct {
	name     string
	versions []string
	purl     string
	kinds    []string
}

func checkDetections(t *testing.T, res *scan.Result, wants []want) {
	t.Helper()
	got := versions(res)
	for _, w := range wants {
		vs := slices.Clone(w.versions)
		sort.Strings(vs)
		if !slices.Equal(got[w.name], vs) {
			t.Errorf("%s: versions %q, want %q", w.name, got[w.name], vs)
			continue
		}
		d := find(res, w.name, w.versions[0])
		if w.purl != "" && d.Purl != w.purl {
			t.Errorf("%s %s: purl %q, want %q", w.name, d.Version, d.Purl, w.purl)
		}
		for _, k := range w.kinds {
			if !slices.ContainsFunc(d.Evidence, func(e sentinel.DetectionEvidence) bool { return e.Kind == k }) {
				t.Errorf("%s %s: no %q evidence in %+v", w.name, d.Version, k, d.Evidence)
			}
		}
		if d.Version == "" && d.Purl != "" {
			t.Errorf("%s: purl %q without a version", w.name, d.Purl)
		}
	}
	if t.Failed() {
		t.Logf("all detections: %v", got)
	}
}

// counted wraps a handler and counts its requests.
type counted struct {
	h http.Handler
	n atomic.Int64
}

func (c *counted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.n.Add(1)
	c.h.ServeHTTP(w, r)
}

// libsSite serves testdata/sites/libs (real Debian libjs-* files) and
// testdata/npm (real npm files) under /npm/, with a second server standing
// in for a CDN (another origin) that serves npm's jQuery 3.4.1 at a cdnjs
// path. It returns the site's URL and the CDN's request counter.
func libsSite(t testing.TB) (string, *counted, *atomic.Int64) {
	t.Helper()
	var cdnPages atomic.Int64
	cdnMux := http.NewServeMux()
	cdnMux.HandleFunc("/ajax/libs/jquery/3.4.1/jquery.min.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		http.ServeFile(w, r, filepath.Join("testdata", "npm", "jquery", "3.4.1", "jquery.min.js"))
	})
	cdnMux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		cdnPages.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><a href="/more.html">more</a><script src="/x.js"></script></html>`))
	})
	cdn := httptest.NewServer(cdnMux)
	t.Cleanup(cdn.Close)

	index, err := os.ReadFile(filepath.Join("testdata", "sites", "libs", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	index = []byte(strings.ReplaceAll(string(index), `"CDN/`, `"`+cdn.URL+"/"))
	mux := http.NewServeMux()
	mux.Handle("/npm/", http.StripPrefix("/npm/", http.FileServer(http.Dir(filepath.Join("testdata", "npm")))))
	files := http.FileServer(http.Dir(filepath.Join("testdata", "sites", "libs")))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || r.URL.Path == "/index.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(index)
			return
		}
		files.ServeHTTP(w, r)
	})
	c := &counted{h: mux}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return srv.URL, c, &cdnPages
}

// wordpressSite serves the real files of Debian's wordpress 6.1.9 package
// (testdata/sites/wordpress: readme.html and the bundled libraries) behind
// a homepage and feed written in WordPress 6.1's markup, with the headers
// WordPress sends. There is no PHP: wp-login.php is a 404.
func wordpressSite(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("testdata", "sites", "wordpress")
	files := http.FileServer(http.Dir(dir))
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Powered-By", "PHP/8.2.7")
		switch r.URL.Path {
		case "/":
			w.Header().Set("Link", `</wp-json/>; rel="https://api.w.org/"`)
			w.Header().Set("Content-Type", "text/html; charset=UTF-8")
			http.ServeFile(w, r, filepath.Join(dir, "index.html"))
		case "/feed/":
			w.Header().Set("Content-Type", "application/rss+xml; charset=UTF-8")
			http.ServeFile(w, r, filepath.Join(dir, "feed.xml"))
		case "/wp-json/":
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			w.Write([]byte(`{"name":"Sentinel test blog","namespaces":["oembed\/1.0","wp\/v2","wp-site-health\/v1"]}`))
		case "/readme.html":
			http.ServeFile(w, r, filepath.Join(dir, "readme.html"))
		default:
			if strings.HasSuffix(r.URL.Path, ".html") || strings.HasSuffix(r.URL.Path, "/") || strings.HasSuffix(r.URL.Path, ".xml") {
				http.NotFound(w, r)
				return
			}
			files.ServeHTTP(w, r)
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}
