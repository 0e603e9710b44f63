// Package sitetest serves generated web sites on loopback for scan
// benchmarks: many pages that link to each other, each loading a few of
// many distinct script and style sheet URLs whose bodies are real library
// files (the npm and Debian copies kept in internal/scan/testdata; see its
// SOURCES.md).
package sitetest

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Site is a generated site being served.
type Site struct {
	// URL is the homepage, with a trailing slash.
	URL string
	// Pages is the number of distinct HTML pages, the homepage included;
	// Assets the number of distinct asset URLs they load.
	Pages, Assets int
}

// AssetsPerPage is how many assets each page loads.
const AssetsPerPage = 4

// linksPerPage is how many other pages each page links to.
const linksPerPage = 7

type file struct {
	name, contentType string
	body              []byte
}

var (
	loadOnce sync.Once
	files    []file
	loadErr  error
)

// load reads the library files of internal/scan/testdata once per process.
func load() ([]file, error) {
	loadOnce.Do(func() {
		_, self, _, _ := runtime.Caller(0)
		data := filepath.Join(filepath.Dir(self), "..", "..", "scan", "testdata")
		for _, root := range []string{filepath.Join(data, "npm"), filepath.Join(data, "sites", "libs")} {
			err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				ct := ""
				switch {
				case strings.HasSuffix(p, ".js"):
					ct = "application/javascript"
				case strings.HasSuffix(p, ".css"):
					ct = "text/css"
				default:
					return nil
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				files = append(files, file{name: filepath.Base(p), contentType: ct, body: b})
				return nil
			})
			if err != nil {
				loadErr = fmt.Errorf("sitetest: %w", err)
				return
			}
		}
		if len(files) == 0 {
			loadErr = fmt.Errorf("sitetest: no library files under %s", data)
		}
	})
	return files, loadErr
}

// Start serves a site of pages HTML pages until the test ends. The
// homepage is page 0 ("/"), the others /page/<n>.html; page n links to
// pages 7n+1 … 7n+7 (mod pages), so every page is at most three links
// from the homepage for up to 400 pages, and loads assets 4n … 4n+3 at
// /asset/<i>/<file name>: pages×4 distinct asset URLs, served from the
// real library files in turn. Each page carries a WordPress generator tag
// and some text, about 14 KB in all.
func Start(tb testing.TB, pages int) *Site {
	tb.Helper()
	lib, err := load()
	if err != nil {
		tb.Fatal(err)
	}
	if pages < 1 {
		pages = 1
	}
	pageURL := func(n int) string {
		if n == 0 {
			return "/"
		}
		return fmt.Sprintf("/page/%d.html", n)
	}
	page := func(w http.ResponseWriter, n int) {
		var sb strings.Builder
		sb.WriteString(`<!DOCTYPE html><html><head><meta name="generator" content="WordPress 6.1.9"><title>p</title>`)
		for k := 0; k < AssetsPerPage; k++ {
			a := n*AssetsPerPage + k
			f := lib[a%len(lib)]
			if f.contentType == "text/css" {
				fmt.Fprintf(&sb, `<link rel="stylesheet" href="/asset/%d/%s">`, a, f.name)
			} else {
				fmt.Fprintf(&sb, `<script src="/asset/%d/%s"></script>`, a, f.name)
			}
		}
		sb.WriteString(`</head><body>`)
		sb.WriteString(strings.Repeat(`<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>`, 200))
		for k := 1; k <= linksPerPage; k++ {
			fmt.Fprintf(&sb, `<a href="%s">page</a>`, pageURL((n*linksPerPage+k)%pages))
		}
		sb.WriteString(`</body></html>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(sb.String()))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/asset/", func(w http.ResponseWriter, r *http.Request) {
		var i int
		if _, err := fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/asset/"), "%d/", &i); err != nil || i < 0 || i >= pages*AssetsPerPage {
			http.NotFound(w, r)
			return
		}
		f := lib[i%len(lib)]
		if path.Base(r.URL.Path) != f.name {
			http.NotFound(w, r) // a file the asset names beside it (jquery.min.map)
			return
		}
		w.Header().Set("Content-Type", f.contentType)
		w.Write(f.body)
	})
	mux.HandleFunc("/page/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/page/"), "%d.html", &n); err != nil || n <= 0 || n >= pages {
			http.NotFound(w, r)
			return
		}
		page(w, n)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) { page(w, 0) })
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return &Site{URL: srv.URL + "/", Pages: pages, Assets: pages * AssetsPerPage}
}
