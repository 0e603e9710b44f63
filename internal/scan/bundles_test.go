package scan_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sentinel "github.com/sentinel-sca/sentinel"
)

// TestScan_Bundles scans a site of single-page applications as their
// build tools leave them (testdata/sites/bundles): a webpack 5 bundle of
// jQuery, lodash, Vue 2 and React 17, whose banners webpack's minifier
// moved to main.<hash>.js.LICENSE.txt, and three Vite bundles (Vue 3.4,
// which keeps its packages' banners; Vue 3.2, which has none; React 18),
// and npm's PDF.js 2.16 build.
// An Angular 17 application, prerendered, beside them. Only the libraries'
// own code, the licence file and Angular's stamp name their versions.
func TestScan_Bundles(t *testing.T) {
	dir := filepath.Join("testdata", "sites", "bundles")
	files := http.FileServer(http.Dir(dir))
	var licence int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".LICENSE.txt") {
			licence++
		}
		if r.URL.Path == "/" {
			http.ServeFile(w, r, filepath.Join(dir, "index.html"))
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	res := mustScan(t, srv.URL+"/", testConfig())
	checkDetections(t, res, []want{
		// The licence file's banner and jQuery's version constant.
		{name: "jQuery", versions: []string{"3.5.1"}, purl: "pkg:npm/jquery@3.5.1", kinds: []string{sentinel.EvidenceFingerprint}},
		// React 17: the licence file's banners and react-dom's own constant;
		// React 18: the constants after its last exports.
		{name: "React", versions: []string{"17.0.2", "18.2.0"}, purl: "pkg:npm/react@17.0.2"},
		{name: "ReactDOM", versions: []string{"17.0.2", "18.2.0"}, purl: "pkg:npm/react-dom@17.0.2"},
		// Minified code, beside code only each library has.
		{name: "Lodash", versions: []string{"4.17.20"}, purl: "pkg:npm/lodash@4.17.20"},
		{name: "Vue.js", versions: []string{"2.6.14", "3.2.47", "3.4.21"}, purl: "pkg:npm/vue@2.6.14"},
		// A copy of PDF.js: the version its API sends its worker.
		{name: "PDF.js", versions: []string{"2.16.105"}, purl: "pkg:npm/pdfjs-dist@2.16.105"},
		// The prerendered page's ng-version stamp and the bundle's.
		{name: "Angular", versions: []string{"17.3.12"}, purl: "pkg:npm/%40angular/core@17.3.12"},
	})
	if d := find(res, "Angular", "17.3.12"); d != nil && len(d.Evidence) != 2 {
		t.Errorf("Angular evidence %+v: want the page's stamp and the bundle's", d.Evidence)
	}
	if licence != 1 {
		t.Errorf("the licence file was requested %d times, want once", licence)
	}
	if d := find(res, "jQuery", "3.5.1"); d != nil {
		if d.Confidence != sentinel.ConfidenceBanner {
			t.Errorf("jQuery 3.5.1 confidence %d, want %d", d.Confidence, sentinel.ConfidenceBanner)
		}
		if !slices.ContainsFunc(d.Evidence, func(e sentinel.DetectionEvidence) bool {
			return strings.HasSuffix(e.URL, "/static/js/main.53629e5a.js.LICENSE.txt") && strings.Contains(e.Detail, "main.53629e5a.js)")
		}) {
			t.Errorf("jQuery 3.5.1 evidence %+v: want the licence file, naming its bundle", d.Evidence)
		}
	}
	if len(res.Detections) != 11 {
		t.Errorf("%d detections, want 11: %v", len(res.Detections), versions(res))
	}
}

// TestScan_NextJS scans the static export of a Next.js 14.2.3 application
// (testdata/sites/next, `next build` output): its page marks it as Next.js,
// its client runtime names the version, its framework chunk React DOM's.
// The polyfills chunk is left out: its 404 is part of the test.
func TestScan_NextJS(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("testdata", "sites", "next"))))
	t.Cleanup(srv.Close)
	res := mustScan(t, srv.URL+"/", testConfig())
	checkDetections(t, res, []want{
		{name: "Next.js", versions: []string{"14.2.3"}, purl: "pkg:npm/next@14.2.3", kinds: []string{sentinel.EvidenceFingerprint}},
		{name: "ReactDOM", versions: []string{"18.2.0"}, purl: "pkg:npm/react-dom@18.2.0"},
	})
	if d := find(res, "Next.js", "14.2.3"); d != nil && len(d.Evidence) != 2 {
		t.Errorf("Next.js evidence %+v: want the page's data script and the runtime's constant", d.Evidence)
	}
}

// TestScan_SPABuilds scans three applications as their build tools leave
// them (testdata/sites/spa): webpack 5 with every comment stripped (no
// banner, no licence file: only the libraries' code names them), Vite with
// React 18 (whose banners name no version), and a Nuxt 3 static site.
func TestScan_SPABuilds(t *testing.T) {
	for _, c := range []struct {
		dir   string
		wants []want
	}{
		{"webpack", []want{
			{name: "Bootstrap", versions: []string{"4.3.1"}, purl: "pkg:npm/bootstrap@4.3.1"},
			{name: "DOMPurify", versions: []string{"2.0.12"}, purl: "pkg:npm/dompurify@2.0.12"},
			{name: "Handlebars", versions: []string{"4.7.6"}, purl: "pkg:npm/handlebars@4.7.6"},
			{name: "jQuery", versions: []string{"3.4.1"}, purl: "pkg:npm/jquery@3.4.1"},
			{name: "Moment.js", versions: []string{"2.29.1"}, purl: "pkg:npm/moment@2.29.1"},
			{name: "React", versions: []string{"16.14.0"}, purl: "pkg:npm/react@16.14.0"},
			{name: "ReactDOM", versions: []string{"16.14.0"}, purl: "pkg:npm/react-dom@16.14.0"},
		}},
		{"vite-react", []want{
			{name: "Axios", versions: []string{"1.6.0"}, purl: "pkg:npm/axios@1.6.0"},
			{name: "DOMPurify", versions: []string{"3.0.5"}, purl: "pkg:npm/dompurify@3.0.5"},
			{name: "React", versions: []string{"18.3.1"}, purl: "pkg:npm/react@18.3.1"},
			{name: "ReactDOM", versions: []string{"18.3.1"}, purl: "pkg:npm/react-dom@18.3.1"},
		}},
		{"nuxt", []want{
			{name: "Nuxt.js", versions: []string{"3.21.11"}, purl: "pkg:npm/nuxt@3.21.11"},
			{name: "Vue.js", versions: []string{"3.5.45"}, purl: "pkg:npm/vue@3.5.45"},
		}},
	} {
		t.Run(c.dir, func(t *testing.T) {
			srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("testdata", "sites", "spa", c.dir))))
			t.Cleanup(srv.Close)
			res := mustScan(t, srv.URL+"/", testConfig())
			checkDetections(t, res, c.wants)
			if len(res.Detections) != len(c.wants) {
				t.Errorf("%d detections, want %d: %v", len(res.Detections), len(c.wants), versions(res))
			}
		})
	}
}

// TestScan_SourceMap: a bundle built with every comment stripped names no
// version of the Popper.js 1 in it, but its source map, served beside it,
// holds Popper's source with its banner (testdata/sites/sourcemap).
func TestScan_SourceMap(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("testdata", "sites", "sourcemap"))))
	t.Cleanup(srv.Close)
	res := mustScan(t, srv.URL+"/", testConfig())
	checkDetections(t, res, []want{{name: "Popper.js", versions: []string{"1.16.1"}, purl: "pkg:npm/popper.js@1.16.1", kinds: []string{sentinel.EvidenceFingerprint}}})
	if d := find(res, "Popper.js", "1.16.1"); d != nil && !slices.ContainsFunc(d.Evidence, func(e sentinel.DetectionEvidence) bool {
		return strings.HasSuffix(e.URL, "/static/js/main.b4fcdb5f.js.map") && strings.Contains(e.Detail, "node_modules/popper.js/dist/esm/popper.js")
	}) {
		t.Errorf("Popper.js evidence %+v: want the source map's file", d.Evidence)
	}
	if len(res.Detections) != 1 {
		t.Errorf("detections %v, want Popper.js alone", versions(res))
	}
}

// TestScan_SourceMapPaths: a Vite build of packages pnpm installed, whose
// source map (without its sources) names every bundled package's version
// in its paths (testdata/sites/sourcemap-pnpm).
func TestScan_SourceMapPaths(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("testdata", "sites", "sourcemap-pnpm"))))
	t.Cleanup(srv.Close)
	res := mustScan(t, srv.URL+"/", testConfig())
	checkDetections(t, res, []want{
		// Also from its packages' banners in the bundle.
		{name: "Vue.js", versions: []string{"3.4.21"}, purl: "pkg:npm/vue@3.4.21"},
		{name: "Vue Router", versions: []string{"4.3.0"}, purl: "pkg:npm/vue-router@4.3.0"},
		{name: "DOMPurify", versions: []string{"3.0.5"}, purl: "pkg:npm/dompurify@3.0.5"},
		{name: "dayjs", versions: []string{"1.11.10"}, purl: "pkg:npm/dayjs@1.11.10"},
	})
	if len(res.Detections) != 4 {
		t.Errorf("detections %v, want four", versions(res))
	}
	if d := find(res, "dayjs", "1.11.10"); d != nil && !strings.Contains(d.Evidence[0].Detail, "path node_modules/.pnpm/dayjs@1.11.10/node_modules/dayjs/") {
		t.Errorf("dayjs evidence %+v", d.Evidence)
	}
}

// TestScan_ProductMarkers: Svelte's and Preact's builds and SvelteKit's
// pages name no version, but code only they have says they are there (real
// excerpts of Vite builds and a SvelteKit page).
func TestScan_ProductMarkers(t *testing.T) {
	files := map[string]string{
		"/svelte.js": `t(e),this.$$.skip_bound=!1)}}const Kt="4";typeof window<"u"&&(window.__svelte||(window.__svelte={v:new Set})).v.add(Kt);const x=[];`,
		"/preact.js": `;function I_(e,_){y.__h&&y.__h(m,e,Q||_),Q=0;var t=m.__H||(m.__H={__:[],__h:[]});return e>=t.__.length&&t.__.push({}),t.__[e]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if js, ok := files[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(strings.Repeat("/* padding: a library's size */\n", 80) + js))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html><head><script type="module" src="/svelte.js"></script><script src="/preact.js"></script></head><body data-sveltekit-preload-data="hover"><div>app</div></body></html>`))
	}))
	t.Cleanup(srv.Close)
	res := mustScan(t, srv.URL+"/", testConfig())
	checkDetections(t, res, []want{
		{name: "Svelte", versions: []string{""}, kinds: []string{sentinel.EvidenceFingerprint}},
		{name: "SvelteKit", versions: []string{""}},
		{name: "Preact", versions: []string{""}},
	})
	if len(res.Detections) != 3 {
		t.Errorf("detections %v, want three", versions(res))
	}
}
