package catalog_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/scan/catalog"
)

func sum(s string) [20]byte { return sha1.Sum([]byte(s)) }

func TestReadWriteLookup(t *testing.T) {
	es := []catalog.Entry{
		{SHA1: sum("a"), Library: "jquery", Version: "3.6.1", File: "dist/jquery.min.js", Source: "npm:jquery@3.6.1"},
		{SHA1: sum("b"), Library: "bootstrap", Version: "3.3.6", File: "dist/css/x.css", Source: "npm:bootstrap@3.3.6"},
		{SHA1: sum("b"), Library: "bootstrap", Version: "3.3.7", File: "dist/css/x.css", Source: "npm:bootstrap@3.3.7"},
		{SHA1: sum("a"), Library: "jquery", Version: "3.6.1", File: "usr/share/javascript/jquery/jquery.min.js", Source: "deb:libjs-jquery_3.6.1"},
	}
	c := catalog.New(es)
	if c.Len() != 3 {
		t.Fatalf("Len = %d, want 3 (a duplicate of hash, library and version is dropped)", c.Len())
	}
	var buf bytes.Buffer
	if err := c.Write(&buf); err != nil {
		t.Fatal(err)
	}
	c2, err := catalog.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c.Entries(), c2.Entries()); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	if got := c2.Lookup(sum("b")); len(got) != 2 || got[0].Version != "3.3.6" || got[1].Version != "3.3.7" {
		t.Errorf("Lookup(b) = %+v, want both bootstrap versions", got)
	}
	if got := c2.Lookup(sum("zzz")); got != nil {
		t.Errorf("Lookup(unknown) = %+v, want nil", got)
	}
	name := filepath.Join(t.TempDir(), "c.csv.gz")
	if err := c.WriteFile(name); err != nil {
		t.Fatal(err)
	}
	if c3, err := catalog.Load(name); err != nil || c3.Len() != 3 {
		t.Errorf("Load = %v, %v; want 3 entries", c3.Len(), err)
	}
}

func TestReadRejects(t *testing.T) {
	gz := func(s string) *bytes.Reader {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return bytes.NewReader(b.Bytes())
	}
	for name, in := range map[string]*bytes.Reader{
		"not_gzip":   bytes.NewReader([]byte("sha1,library")),
		"bad_header": gz("a,b,c,d,e\n"),
		"bad_hash":   gz("sha1,library,version,file,source\nxyz,jquery,1,f,s\n"),
		"no_version": gz("sha1,library,version,file,source\n" + strings.Repeat("a", 40) + ",jquery,,f,s\n"),
		"fields":     gz("sha1,library,version,file,source\n" + strings.Repeat("a", 40) + ",jquery\n"),
	} {
		if _, err := catalog.Read(in); err == nil {
			t.Errorf("Read(%s) succeeded, want an error", name)
		}
	}
}

// TestDefault checks the embedded catalog against the real npm files the
// scan's tests serve (testdata/npm/INDEX.csv records their SHA-1s).
func TestDefault(t *testing.T) {
	c, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() < 5000 {
		t.Errorf("embedded catalog has %d entries, want thousands", c.Len())
	}
	index, err := os.ReadFile(filepath.Join("..", "testdata", "npm", "INDEX.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(index)), "\n")[1:] {
		f := strings.Split(line, ",")
		var h [20]byte
		if _, err := hex.Decode(h[:], []byte(f[3])); err != nil {
			t.Fatal(err)
		}
		es := c.Lookup(h)
		found := false
		for _, e := range es {
			found = found || (e.Library == f[1] && e.Version == f[2])
		}
		if !found {
			t.Errorf("Lookup(%s) = %+v, want %s %s", f[0], es, f[1], f[2])
		}
	}
}

// tgz makes an npm-style tarball.
func tgz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	return b.Bytes()
}

// deb makes a .deb (ar archive) with a data.tar.gz.
func deb(t *testing.T, files map[string]string) []byte {
	t.Helper()
	data := tgz(t, files)
	var b bytes.Buffer
	b.WriteString("!<arch>\n")
	member := func(name string, body []byte) {
		fmt.Fprintf(&b, "%-16s%-12s%-6s%-6s%-8s%-10d`\n", name, "0", "0", "0", "100644", len(body))
		b.Write(body)
		if len(body)%2 == 1 {
			b.WriteByte('\n')
		}
	}
	member("debian-binary", []byte("2.0\n"))
	member("control.tar.gz", tgz(t, map[string]string{"./control": "Package: x\n"}))
	member("data.tar.gz", data)
	return b.Bytes()
}

// TestBuild runs the builder against a fake registry and a fake .deb: it
// keeps stable versions only, checks the tarball's SHA-1, hashes the files
// the package rule selects, and labels Debian files by banner or rule.
func TestBuild(t *testing.T) {
	good := tgz(t, map[string]string{
		"package/dist/jquery.min.js": "/*! jQuery v3.6.1 | x */",
		"package/src/core.js":        "source, not hashed",
	})
	goodSum := sha1.Sum(good)
	// highlight.js's browser builds, published under another package name.
	hl := tgz(t, map[string]string{"package/highlight.min.js": "/*!\n  Highlight.js v11.9.0 (git: f47103d4f1)\n */"})
	hlSum := sha1.Sum(hl)
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/jquery":
			fmt.Fprintf(w, `{"versions":{
				"3.6.1":{"dist":{"tarball":"%[1]s/jquery-3.6.1.tgz","shasum":"%[2]s"}},
				"3.6.2":{"dist":{"tarball":"%[1]s/jquery-3.6.1.tgz","shasum":"0000000000000000000000000000000000000000"}},
				"4.0.0-beta":{"dist":{"tarball":"%[1]s/none.tgz"}}}}`, srv.URL, hex.EncodeToString(goodSum[:]))
		case "/jquery-3.6.1.tgz":
			w.Write(good)
		case "/@highlightjs/cdn-assets":
			fmt.Fprintf(w, `{"versions":{"11.9.0":{"dist":{"tarball":"%s/cdn-assets-11.9.0.tgz","shasum":"%s"}}}}`, srv.URL, hex.EncodeToString(hlSum[:]))
		case "/cdn-assets-11.9.0.tgz":
			w.Write(hl)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	dir := t.TempDir()
	debPath := filepath.Join(dir, "libjs-jquery_3.6.1+dfsg+~3.5.14-1_all.deb")
	os.WriteFile(debPath, deb(t, map[string]string{
		"./usr/share/javascript/jquery/jquery.min.js": "!function(){/* rebuilt, no banner */}",
		"./usr/share/javascript/jquery/bundled.js":    "/*! jQuery v3.5.0 | x */ more",
		"./usr/share/javascript/jquery/other.js":      "unlabelled",
		"./usr/share/doc/libjs-jquery/x.js":           "/*! jQuery v1.0.0 | docs are skipped */",
		"./usr/share/javascript/jquery/hl.js":         "/*!\n  Highlight.js 10.7.3 (0c4cc8a1)\n */",
	}), 0o644)

	pkg := catalog.NPMPackage{Name: "jquery", Files: regexp.MustCompile(`^dist/jquery(\.min)?\.js$`), License: "MIT"}
	c, st, err := catalog.Build(context.Background(), catalog.BuildOptions{
		Registry: srv.URL, Packages: []catalog.NPMPackage{pkg, {Name: "@highlightjs/cdn-assets", Library: "highlight.js",
			Files: regexp.MustCompile(`^highlight(\.min)?\.js$`), License: "BSD-3-Clause"}}, Debs: []string{debPath},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range c.Entries() {
		got = append(got, e.Library+"@"+e.Version+" "+e.File+" "+e.Source)
	}
	want := []string{
		"jquery@3.6.1 dist/jquery.min.js npm:jquery@3.6.1",
		"jquery@3.6.1 usr/share/javascript/jquery/jquery.min.js deb:libjs-jquery_3.6.1+dfsg+~3.5.14-1",
		"jquery@3.5.0 usr/share/javascript/jquery/bundled.js deb:libjs-jquery_3.6.1+dfsg+~3.5.14-1",
		"highlight.js@11.9.0 highlight.min.js npm:@highlightjs/cdn-assets@11.9.0",
		"highlight.js@10.7.3 usr/share/javascript/jquery/hl.js deb:libjs-jquery_3.6.1+dfsg+~3.5.14-1",
	}
	if diff := cmp.Diff(sorted(want), sorted(got)); diff != "" {
		t.Errorf("Build entries mismatch (-want +got):\n%s", diff)
	}
	if st.Versions != 2 || len(st.Skipped) != 1 || !strings.Contains(st.Skipped[0], "3.6.2") {
		t.Errorf("stats = %+v, want 2 versions hashed and 3.6.2 skipped for its bad shasum", st)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
