package scan

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// The fuzz targets hold the readers of hostile input to their promises: no
// panic, bounded output, and quickly. Seeds are in testdata/fuzz.

func FuzzParseHTML(f *testing.F) {
	f.Add([]byte(`<html><head><base href="/sub/"><meta name="generator" content="WordPress 6.1.9"><link rel="stylesheet" href="a.css"><script src="//cdn.example/x.js"></script></head><a href="p.html#x">p</a><link rel="alternate" type="application/rss+xml" href="/feed/"></html>`))
	f.Add([]byte(`<a href="javascript:alert(1)"><a href="http://u:p@h/"><script src="   "></script><meta name=GENERATOR content=Drupal>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		base, _ := url.Parse("http://example.com/dir/page.html")
		start := time.Now()
		p := parseHTML(base, body)
		if d := time.Since(start); d > 10*time.Second && len(body) < 1<<20 {
			t.Fatalf("parseHTML took %v on %d bytes", d, len(body))
		}
		if len(p.links) > maxLinksOnPage || len(p.scripts) > maxAssetsOnPag || len(p.styles) > maxAssetsOnPag || len(p.meta) > maxMetaOnPage {
			t.Fatalf("unbounded output: %d links %d scripts %d styles %d meta", len(p.links), len(p.scripts), len(p.styles), len(p.meta))
		}
		for _, l := range append(append(p.links, p.scripts...), p.styles...) {
			u, err := url.Parse(l)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
				t.Fatalf("bad URL %q out of parseHTML", l)
			}
		}
	})
}

func FuzzFeedGenerator(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><rss><channel><generator>https://wordpress.org/?v=6.1.9</generator></channel></rss>`))
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><generator uri="https://wordpress.org/" version="6.1.9">WordPress</generator></feed>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if g := feedGenerator(body); len(g) > 300 {
			t.Fatalf("generator of %d bytes", len(g))
		}
	})
}

func FuzzPathObservations(f *testing.F) {
	for _, s := range []string{
		"https://cdnjs.cloudflare.com/ajax/libs/jquery/3.6.1/jquery.min.js",
		"https://cdn.jsdelivr.net/npm/@popperjs/core@2.11.8/dist/umd/popper.min.js",
		"https://unpkg.com/vue@2.6.14/dist/vue.js",
		"https://cdn.jsdelivr.net/gh/twbs/bootstrap@v4.6.2/dist/js/bootstrap.js",
		"https://code.jquery.com/ui/1.13.2/jquery-ui.min.js",
		"https://maxcdn.bootstrapcdn.com/bootstrap/3.4.1/css/bootstrap.min.css",
		"https://example.com/wp-content/plugins/akismet/_inc/akismet.js?ver=5.0.1",
		"https://example.com/sites/all/modules/views/js/base.js?v=7.x",
		"https://example.com/components/com_content/x.js",
		"https://example.com/js/jquery-3.6.1.min.js?v=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		for _, o := range pathObservations(u) {
			if o.key == "" || o.kind == "" {
				t.Fatalf("incomplete observation %+v", o)
			}
			if o.version != "" && normVersion(o.version) != o.version {
				t.Fatalf("observation version %q is not a normal version", o.version)
			}
		}
	})
}

func FuzzNormVersion(f *testing.F) {
	for _, s := range []string{"3.6.1", "v1.2", "10", "1.0.0-beta.1", "abc1234", "6.1.9deb1", "1.2.3.4.5.6", "", "1e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := normVersion(s)
		if v == "" {
			return
		}
		if len(v) > 40 || v[0] < '0' || v[0] > '9' || strings.ContainsAny(v, " /\n") {
			t.Fatalf("normVersion(%q) = %q", s, v)
		}
		if normVersion(v) != v {
			t.Fatalf("normVersion not idempotent on %q", v)
		}
	})
}

// FuzzAnalyzeResponse runs every reader of a response on hostile input: the
// header and cookie rules, the page rules, a script's content.
func FuzzAnalyzeResponse(f *testing.F) {
	f.Add("nginx/1.22.1", "PHP/8.2.7", "PHPSESSID=abc; path=/", []byte(`<meta name="generator" content="Joomla! - Open Source Content Management"><script src="/media/jui/js/jquery.min.js?v=3.9.28"></script>`))
	f.Add("Apache/2.4.57 (Debian) OpenSSL/3.0.11", "", "SESS0123456789abcdef0123456789abcdef=x", []byte("/*! jQuery v3.6.1 | x */"))
	rs, err := loadRules()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, server, poweredBy, cookie string, body []byte) {
		u, _ := url.Parse("http://example.com/")
		h := http.Header{}
		h.Set("Server", server)
		h.Set("X-Powered-By", poweredBy)
		h.Add("Set-Cookie", cookie)
		h.Set("Content-Type", "text/html")
		r := &response{url: u, status: 200, header: h, body: body}
		c := &crawl{s: &Scanner{rules: rs}, truncated: map[string]bool{}}
		c.analyzeHTTP(r)
		c.analyzePage(r, parseHTML(u, body))
		for _, d := range reconcile(c.obs) {
			if d.Version != "" && normVersion(d.Version) != d.Version {
				t.Fatalf("detection version %q", d.Version)
			}
			if d.Version == "" && d.Purl != "" {
				t.Fatalf("purl %q without version", d.Purl)
			}
		}
	})
}
