package scan_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	sentinel "github.com/sentinel-sca/sentinel"
)

// TestScan_ExposedRecords: a site that serves its lockfiles and Composer's
// installed.json from its root gives away every package they list, with
// its version. Each is a detection with the file as its evidence; the
// packages are read off the files here, independently of the readers.
func TestScan_ExposedRecords(t *testing.T) {
	files := map[string]string{
		"/composer.lock":                  "testdata/exposed/composer.lock",
		"/package-lock.json":              "testdata/exposed/package-lock.json",
		"/Gemfile.lock":                   "testdata/exposed/Gemfile.lock",
		"/vendor/composer/installed.json": "../sbom/testdata/lock-variants/composer-installed-v2/vendor/composer/installed.json",
		"/requirements.txt":               "testdata/exposed/requirements.txt",
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if f, ok := files[r.URL.Path]; ok {
			http.ServeFile(w, r, f)
			return
		}
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><title>Shop</title></head><body>Welcome</body></html>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	res := mustScan(t, srv.URL+"/", testConfig())

	// What each file lists, read here.
	want := map[string][]string{} // purl -> the files that list it
	add := func(purl, file string) { want[purl] = append(want[purl], file) }
	var composer struct {
		Packages    []struct{ Name, Version string } `json:"packages"`
		PackagesDev []struct{ Name, Version string } `json:"packages-dev"`
	}
	readJSON(t, files["/composer.lock"], &composer)
	// Development packages (packages-dev, npm's "dev": true) build or test
	// the site; it runs without them: not its components, unless also
	// installed for production.
	var devOnly []string
	for _, p := range composer.Packages {
		add("pkg:composer/"+p.Name+"@"+p.Version, "/composer.lock")
	}
	for _, p := range composer.PackagesDev {
		if purl := "pkg:composer/" + p.Name + "@" + p.Version; want[purl] == nil {
			devOnly = append(devOnly, purl)
		}
	}
	var installed struct {
		Packages []struct{ Name, Version string } `json:"packages"`
	}
	readJSON(t, files["/vendor/composer/installed.json"], &installed)
	for _, p := range installed.Packages {
		add("pkg:composer/"+p.Name+"@"+p.Version, "/vendor/composer/installed.json")
	}
	var npm struct {
		Packages map[string]struct {
			Version string
			Link    bool
			Dev     bool
		}
	}
	readJSON(t, files["/package-lock.json"], &npm)
	npmDev := map[string]bool{}
	for k, p := range npm.Packages {
		if k == "" || p.Link {
			continue
		}
		name := k[strings.LastIndex(k, "node_modules/")+len("node_modules/"):]
		purl := "pkg:npm/" + strings.Replace(name, "@", "%40", 1) + "@" + p.Version
		if p.Dev {
			npmDev[purl] = true
			continue
		}
		add(purl, "/package-lock.json")
	}
	for purl := range npmDev {
		if want[purl] == nil {
			devOnly = append(devOnly, purl)
		}
	}
	if len(devOnly) < 20 {
		t.Fatalf("the lockfiles list %d development-only packages", len(devOnly))
	}
	gems, err := os.ReadFile(files["/Gemfile.lock"])
	if err != nil {
		t.Fatal(err)
	}
	// The gems of the GEM and PATH sections (without the Gemfile, nothing
	// says a PATH gem is the site's own). A gem's platform builds ("ffi
	// (1.17.3-x86_64-linux-gnu)") are one version of it.
	platform := regexp.MustCompile(`-(x86|x64|arm|aarch64|universal|java|mingw|mswin|darwin)[\w-]*$`)
	inSpecs := false
	for _, line := range strings.Split(string(gems), "\n") {
		switch {
		case line == "GEM" || line == "PATH":
			inSpecs = true
		case line == "" || !strings.HasPrefix(line, " "):
			inSpecs = false
		case inSpecs && strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "     "):
			name, version, ok := strings.Cut(strings.TrimSpace(line), " (")
			if ok {
				version = platform.ReplaceAllString(strings.TrimSuffix(version, ")"), "")
				if !slices.Contains(want["pkg:gem/"+name+"@"+version], "/Gemfile.lock") {
					add("pkg:gem/"+name+"@"+version, "/Gemfile.lock")
				}
			}
		}
	}
	reqs, err := os.ReadFile(files["/requirements.txt"])
	if err != nil {
		t.Fatal(err)
	}
	pinned := regexp.MustCompile(`(?m)^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)`)
	for _, m := range pinned.FindAllStringSubmatch(string(reqs), -1) {
		name := strings.NewReplacer("_", "-", ".", "-").Replace(strings.ToLower(m[1]))
		add("pkg:pypi/"+name+"@"+m[2], "/requirements.txt")
	}
	if len(want) < 120 {
		t.Fatalf("the files list %d packages", len(want))
	}

	got := map[string][]string{}
	for _, d := range res.Detections {
		for _, e := range d.Evidence {
			if e.Kind != sentinel.EvidencePath || !strings.Contains(e.Detail, " lists ") {
				continue
			}
			if d.Purl == "" {
				t.Errorf("%s %s from %s has no purl", d.Name, d.Version, e.URL)
				continue
			}
			got[d.Purl] = append(got[d.Purl], strings.TrimPrefix(e.URL, srv.URL))
			if d.Confidence != sentinel.ConfidenceBanner {
				t.Errorf("%s: confidence %d, want %d", d.Purl, d.Confidence, sentinel.ConfidenceBanner)
			}
		}
	}
	for p, fs := range want {
		slices.Sort(fs)
		slices.Sort(got[p])
		if !slices.Equal(fs, got[p]) {
			t.Errorf("%s: listed by %v, reported from %v", p, fs, got[p])
		}
	}
	for p := range got {
		if want[p] == nil {
			t.Errorf("%s reported, listed by none (or for development only: %v)", p, slices.Contains(devOnly, p))
		}
	}
	// One detection per package and version.
	seen := map[string]bool{}
	for _, d := range res.Detections {
		if d.Purl != "" && seen[d.Purl] {
			t.Errorf("%s is reported twice", d.Purl)
		}
		seen[d.Purl] = true
	}
}

// TestScan_ExposedRecordsInFolder: an application installed in a folder
// (the site's root redirects to /shop/) serves its lockfile there.
func TestScan_ExposedRecordsInFolder(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			http.Redirect(w, r, "/shop/", http.StatusFound)
		case "/shop/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><title>Shop</title></head><body>Welcome</body></html>`))
		case "/shop/composer.lock":
			http.ServeFile(w, r, "testdata/exposed/composer.lock")
		default:
			http.NotFound(w, r)
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	res := mustScan(t, srv.URL+"/", testConfig())
	var composer struct {
		Packages    []struct{ Name, Version string } `json:"packages"`
		PackagesDev []struct{ Name, Version string } `json:"packages-dev"`
	}
	readJSON(t, "testdata/exposed/composer.lock", &composer)
	for _, p := range composer.Packages { // its development packages are not the site's
		purl := "pkg:composer/" + p.Name + "@" + p.Version
		if !slices.ContainsFunc(res.Detections, func(d sentinel.Detection) bool {
			return d.Purl == purl && slices.ContainsFunc(d.Evidence, func(e sentinel.DetectionEvidence) bool {
				return e.URL == srv.URL+"/shop/composer.lock" && strings.HasPrefix(e.Detail, "/shop/composer.lock lists ")
			})
		}) {
			t.Errorf("%s: not reported from /shop/composer.lock", purl)
		}
	}
}

// TestScan_ExposedRecordsRefused: answers that are not the file are never
// read as one: a site that answers every path with its page (a soft 404),
// an API that answers every path with JSON, a file cut at the response
// limit.
func TestScan_ExposedRecordsRefused(t *testing.T) {
	lock, err := os.ReadFile("testdata/exposed/composer.lock")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"soft 404 page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><title>Shop</title></head><body>"lockfileVersion": 3 "_meta": {} Page ` + r.URL.Path + `</body></html>`))
		}},
		{"JSON API", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if r.URL.Path == "/" {
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte(`<html><body>app</body></html>`))
				return
			}
			w.Write([]byte(`{"error":"not found","path":"` + r.URL.Path + `","lockfileVersion": 3, "packages": [{"name":"a/b","version":"1.0.0"}]}`))
		}},
		{"cut", func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/composer.lock":
				w.Write(lock)
			case "/":
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte(`<html><body>app</body></html>`))
			default:
				http.NotFound(w, r)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.handler)
			defer srv.Close()
			cfg := testConfig()
			if c.name == "cut" {
				cfg.MaxResponseBytes = int64(len(lock) / 2)
			}
			res := mustScan(t, srv.URL+"/", cfg)
			for _, d := range res.Detections {
				for _, e := range d.Evidence {
					if strings.Contains(e.Detail, " lists ") {
						t.Errorf("%s %s from %s (%s)", d.Name, d.Version, e.URL, e.Detail)
					}
				}
			}
		})
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestScan_ExposedRecordsBounded: a record listing more packages than any
// application has adds at most maxRecordPackages detections.
func TestScan_ExposedRecordsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"content-hash":"x","packages":[`)
	for i := range 6000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"v/p%d","version":"1.0.%d"}`, i, i)
	}
	b.WriteString(`],"packages-dev":[]}`)
	lock := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/composer.lock":
			w.Write([]byte(lock))
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><body>app</body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	res := mustScan(t, srv.URL+"/", testConfig())
	n := 0
	for _, d := range res.Detections {
		if strings.HasPrefix(d.Purl, "pkg:composer/v/") {
			n++
		}
	}
	if n != 5000 {
		t.Errorf("%d detections from a record of 6000 packages, want 5000", n)
	}
}
