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
		// Both: the licence file's banners and react-dom's own constant.
		{name: "React", versions: []string{"17.0.2"}, purl: "pkg:npm/react@17.0.2"},
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
	if len(res.Detections) != 10 {
		t.Errorf("%d detections, want 10: %v", len(res.Detections), versions(res))
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
