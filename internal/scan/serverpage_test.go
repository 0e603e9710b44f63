package scan_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// tomcat404 is Apache Tomcat 9's error report valve page, as Tomcat writes
// it for a path no application answers.
const tomcat404 = `<!doctype html><html lang="en"><head><title>HTTP Status 404 – Not Found</title><style type="text/css">body {font-family:Tahoma,Arial,sans-serif;} h1, h2, h3, b {color:white;background-color:#525D76;}</style></head><body><h1>HTTP Status 404 – Not Found</h1><hr class="line" /><p><b>Type</b> Status Report</p><p><b>Message</b> Not found</p><p><b>Description</b> The origin server did not find a current representation for the target resource or is not willing to disclose that one exists.</p><hr class="line" /><h3>Apache Tomcat/9.0.30</h3></body></html>`

// TestScan_ServerPages: a server that names itself only in the pages it
// makes (Tomcat since 8.5 sends no Server header) is still found, with its
// version: from its 404 page, also when the site's root is one, and from
// nginx's and Apache's error pages.
func TestScan_ServerPages(t *testing.T) {
	for _, c := range []struct {
		name    string
		root    bool // the root itself answers the error page
		page    string
		product string
		version string
	}{
		{"tomcat_app", false, tomcat404, "Apache Tomcat", "9.0.30"},
		{"tomcat_no_app", true, tomcat404, "Apache Tomcat", "9.0.30"},
		{"nginx", false, "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n", "Nginx", "1.18.0"},
		{"apache", false, "<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n<hr>\n<address>Apache/2.4.49 (Unix) Server at 127.0.0.1 Port 80</address>\n</body></html>\n", "Apache HTTP Server", "2.4.49"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html;charset=utf-8")
				if r.URL.Path == "/" && !c.root {
					w.Write([]byte(`<!doctype html><html><head><title>Shop</title></head><body><a href="/about">about</a></body></html>`))
					return
				}
				w.WriteHeader(http.StatusNotFound)
				w.Write([]byte(c.page))
			}))
			t.Cleanup(srv.Close)
			res := mustScan(t, srv.URL, testConfig())
			d := find(res, c.product, c.version)
			if d == nil {
				t.Fatalf("no %s %s in %v", c.product, c.version, versions(res))
			}
			if d.Purl == "" {
				t.Errorf("%s %s: no purl", c.product, c.version)
			}
		})
	}
}

// TestScan_DrupalCoreVersion: Drupal 8+ says only its major release in its
// generator, and its core libraries' files carry the core version
// (?v=9.2.6); a vendor library's carries its own (jQuery's 3.6.0).
func TestScan_DrupalCoreVersion(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=UTF-8")
			w.Header().Set("X-Generator", "Drupal 9 (https://www.drupal.org)")
			w.Write([]byte(`<!DOCTYPE html><html lang="en"><head><meta name="Generator" content="Drupal 9 (https://www.drupal.org)" />` +
				`<script src="/core/assets/vendor/jquery/jquery.min.js?v=3.6.0"></script>` +
				`<script src="/core/misc/drupalSettingsLoader.js?v=9.2.6"></script><script src="/core/misc/drupal.js?v=9.2.6"></script>` +
				`</head><body></body></html>`))
		default:
			w.Header().Set("Content-Type", "application/javascript")
			w.Write([]byte("(function(){})();\n"))
		}
	}))
	t.Cleanup(srv.Close)
	res := mustScan(t, srv.URL, testConfig())
	d := find(res, "Drupal", "9.2.6")
	if d == nil {
		t.Fatalf("no Drupal 9.2.6 in %v", versions(res))
	}
	if d.Purl == "" {
		t.Errorf("Drupal 9.2.6: no purl")
	}
	for _, v := range versions(res)["jQuery"] {
		if v == "9.2.6" {
			t.Errorf("jQuery took Drupal's version")
		}
	}
}

// TestScan_PhpMyAdminAtRoot: phpMyAdmin installed at the site's root (not
// under /phpmyadmin/) is found with its version from its ChangeLog.
func TestScan_PhpMyAdminAtRoot(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(`<!DOCTYPE HTML><html lang="en" dir="ltr"><head><title>phpMyAdmin</title></head><body><form method="post" id="login_form"><input type="text" name="pma_username"></form></body></html>`))
		case "/ChangeLog":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("phpMyAdmin - ChangeLog\n======================\n\n5.1.1 (2021-06-04)\n- issue #13325 Fixed created procedure shows up in triggers and events and vice versa\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	res := mustScan(t, srv.URL, testConfig())
	if d := find(res, "phpMyAdmin", "5.1.1"); d == nil {
		t.Fatalf("no phpMyAdmin 5.1.1 in %v", versions(res))
	}
}

// TestScan_DistributionBuilds: a server that announces a distribution's
// build (Ubuntu's Apache and PHP, in the headers and on Apache's error
// page) is reported at the upstream version, naming the distribution,
// whose packages may carry backported fixes.
func TestScan_DistributionBuilds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		if r.URL.Path != "/" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte("<html><head><title>404 Not Found</title></head><body>\n<h1>Not Found</h1>\n<hr>\n<address>Apache/2.4.41 (Ubuntu) Server at shop.example Port 80</address>\n</body></html>\n"))
			return
		}
		w.Header().Set("Server", "Apache/2.4.41 (Ubuntu)")
		w.Header().Set("X-Powered-By", "PHP/7.4.3-4ubuntu2.19")
		w.Write([]byte(`<!doctype html><html><head><title>Shop</title></head><body><a href="/about">about</a></body></html>`))
	}))
	t.Cleanup(srv.Close)
	res := mustScan(t, srv.URL+"/", testConfig())
	for _, w := range []struct{ name, version string }{{"Apache HTTP Server", "2.4.41"}, {"PHP", "7.4.3"}} {
		d := find(res, w.name, w.version)
		if d == nil {
			t.Errorf("%s %s not detected: %v", w.name, w.version, versions(res))
			continue
		}
		if d.Distribution != "Ubuntu" || d.Purl == "" {
			t.Errorf("%s %s: distribution %q purl %q, want Ubuntu and the upstream purl", w.name, w.version, d.Distribution, d.Purl)
		}
	}
}

// TestScan_SiteGenerators: the generator tags JavaScript site generators
// write name npm packages, with their versions.
func TestScan_SiteGenerators(t *testing.T) {
	for _, c := range []struct{ generator, name, version, purl string }{
		{"Gatsby 5.12.4", "Gatsby", "5.12.4", "pkg:npm/gatsby@5.12.4"},
		{"Astro v4.4.0", "Astro", "4.4.0", "pkg:npm/astro@4.4.0"},
		{"Docusaurus v3.1.1", "Docusaurus", "3.1.1", "pkg:npm/%40docusaurus/core@3.1.1"},
		{"VitePress v1.0.0", "VitePress", "1.0.0", "pkg:npm/vitepress@1.0.0"},
		{"Hexo 6.3.0", "Hexo", "6.3.0", "pkg:npm/hexo@6.3.0"},
		{"Eleventy v2.0.1", "Eleventy", "2.0.1", "pkg:npm/%4011ty/eleventy@2.0.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write([]byte(`<!doctype html><html><head><meta name="generator" content="` + c.generator + `"><title>Docs</title></head><body>docs</body></html>`))
			}))
			t.Cleanup(srv.Close)
			res := mustScan(t, srv.URL+"/", testConfig())
			if d := find(res, c.name, c.version); d == nil || d.Purl != c.purl || len(res.Detections) != 1 {
				t.Errorf("detections %+v, want %s %s (%s) alone", res.Detections, c.name, c.version, c.purl)
			}
		})
	}
}
