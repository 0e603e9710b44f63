package scan_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sentinel "github.com/sentinel-sca/sentinel"
)

// TestScan_CopiesAndNames: evidence that names a file, a rule or a header
// must not say more than it knows.
//
//   - /js/lodash.min.js is a custom lodash build (3 KB): its hash names nothing
//     and it keeps no version, so it is Lodash without a version, not the
//     version of the npm copy at /vendor/utils.js, which would hide a
//     vulnerable copy behind it.
//   - jquery-migrate-3.3.2.min.js is jQuery Migrate; the fingerprint rule
//     that matches "jquery" in any script URL must not add it to jQuery.
//   - popper-1.16.1.min.js is Popper 1, the npm package popper.js.
//   - "X-Powered-By: PHP/7.4.3-1ubuntu1" is PHP; the rule for the bun
//     runtime ("bun" anywhere in the header) must not fire inside
//     "ubuntu".
//   - jQuery pasted into the page keeps its banner: an inline script is
//     read like a script file.
//   - /js/chart.js is the site's own two lines: too small to be Chart.js,
//     and nothing in it names a library, so its name says nothing.
//   - the same file at two URLs is listed at both.
//   - a webpack vendor chunk holding React DOM 16 and lodash 4.17.21 (whose
//     minified build has no banner with its version) names both.
func TestScan_CopiesAndNames(t *testing.T) {
	min, err := os.ReadFile(filepath.Join("testdata", "npm", "lodash", "4.17.15", "lodash.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(filepath.Join("testdata", "npm", "jquery", "1.12.4", "jquery.js"))
	if err != nil {
		t.Fatal(err)
	}
	js := func(b []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/javascript")
			w.Write(b)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/vendor/utils.js", js(min))
	mux.HandleFunc("/admin/vendor.js", js(min))
	var bundle []byte
	for _, f := range []string{"react-dom/16.14.0/react-dom.production.min.js", "lodash/4.17.21/lodash.min.js"} {
		b, err := os.ReadFile(filepath.Join("testdata", "npm", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		bundle = append(append(bundle, b...), ";\n"...)
	}
	mux.HandleFunc("/static/js/vendors~main.3f2a1c.chunk.js", js(bundle))
	custom := "/* lodash custom build */ (function(){ var _ = {};" + strings.Repeat(" _.f = function(a, b) { return a === b ? a : b; };", 80) + " window._ = _; })();"
	mux.HandleFunc("/js/lodash.min.js", js([]byte(custom)))
	mux.HandleFunc("/js/chart.js", js([]byte("// the site's charts\ndocument.querySelectorAll('.chart').forEach(draw);\n")))
	mux.HandleFunc("/js/jquery-migrate-3.3.2.min.js", js([]byte(`/* site copy */ (function(){ window.migrated = true; })();`)))
	mux.HandleFunc("/js/popper-1.16.1.min.js", js([]byte(`(function(){ window.Popper = {}; })();`)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Powered-By", "PHP/7.4.3-1ubuntu1")
		w.Write([]byte(`<!doctype html><html><head><title>shop</title>
<script src="/vendor/utils.js"></script>
<script src="/admin/vendor.js"></script>
<script src="/js/lodash.min.js"></script>
<script src="/js/jquery-migrate-3.3.2.min.js"></script>
<script src="/js/popper-1.16.1.min.js"></script>
<script src="/js/chart.js"></script>
<script src="/static/js/vendors~main.3f2a1c.chunk.js"></script>
</head><body><script>` + string(full[:4096]) + `</script></body></html>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	res := mustScan(t, srv.URL, testConfig())
	got := versions(res)
	t.Logf("detections: %v", got)
	checkDetections(t, res, []want{
		{name: "Lodash", versions: []string{"4.17.15", "4.17.21", ""}, purl: "pkg:npm/lodash@4.17.15"},
		{name: "ReactDOM", versions: []string{"16.14.0"}, purl: "pkg:npm/react-dom@16.14.0"},
		{name: "jQuery Migrate", versions: []string{"3.3.2"}, purl: "pkg:npm/jquery-migrate@3.3.2"},
		{name: "Popper.js", versions: []string{"1.16.1"}, purl: "pkg:npm/popper.js@1.16.1"},
		{name: "PHP", versions: []string{"7.4.3"}},
		{name: "jQuery", versions: []string{"1.12.4"}, purl: "pkg:npm/jquery@1.12.4"},
	})
	for _, name := range []string{"Popper", "bun", "Chart.js"} {
		if vs, ok := got[name]; ok {
			t.Errorf("%s detected (%q): no evidence names it", name, vs)
		}
	}
	if d := find(res, "Lodash", "4.17.15"); d != nil {
		files := map[string]bool{}
		for _, e := range d.Evidence {
			if e.URL == srv.URL+"/js/lodash.min.js" {
				t.Errorf("Lodash 4.17.15 carries the custom build's evidence %+v", e)
			}
			if e.Kind == sentinel.EvidenceHash {
				files[e.URL] = true
			}
		}
		// Two copies of one file: the same hash, each file listed.
		if !files[srv.URL+"/vendor/utils.js"] || !files[srv.URL+"/admin/vendor.js"] {
			t.Errorf("Lodash 4.17.15: hash evidence for %v, want both copies", files)
		}
	}
	if d := find(res, "jQuery", "1.12.4"); d != nil {
		for _, e := range d.Evidence {
			if e.URL != srv.URL+"/" {
				t.Errorf("jQuery 1.12.4 carries evidence of another file %+v", e)
			}
		}
	}
}
