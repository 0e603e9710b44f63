package scan

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReadBody reads bodies whose Content-Length is right, absent, wrong
// either way or past the limit: always what io.ReadAll of the limited
// reader gives.
func TestReadBody(t *testing.T) {
	const limit = 10
	for _, tc := range []struct {
		body string
		size int64
	}{
		{"hello", 5}, {"hello", -1}, {"hello", 0}, {"hello", 3}, {"hello", 8},
		{"hello world, longer", 19}, {"hello world, longer", 5}, {"", 0}, {"", 4},
	} {
		want, _ := io.ReadAll(io.LimitReader(strings.NewReader(tc.body), limit+1))
		got, err := readBody(io.LimitReader(strings.NewReader(tc.body), limit+1), tc.size, limit)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("readBody(%q, size %d) = %q, %v; want %q", tc.body, tc.size, got, err, want)
		}
	}
}

func TestLicenseFile(t *testing.T) {
	base, _ := url.Parse("https://shop.example/static/js/main.53629e5a.js?v=2")
	for _, c := range []struct{ body, want string }{
		{"/*! For license information please see main.53629e5a.js.LICENSE.txt */\n(()=>{})()", "https://shop.example/static/js/main.53629e5a.js.LICENSE.txt"},
		{`"use strict";/*! For license information please see ../licences/vendor.txt */`, "https://shop.example/static/licences/vendor.txt"},
		{"/*! For license information please see https://other.example/x.LICENSE.txt */", ""},
		{"/*! For license information please see //other.example/x.LICENSE.txt */", ""},
		{"/*! For license information please see main.js.LICENSE */", ""},
		{"/*! For license information please see a b.txt */", ""},
		{"(()=>{})() /* no licence file */", ""},
		{strings.Repeat(" ", 600) + "/*! For license information please see main.js.LICENSE.txt */", ""},
	} {
		if got := licenseFile(&response{url: base, body: []byte(c.body)}); got != c.want {
			t.Errorf("licenseFile(%.60q) = %q, want %q", c.body, got, c.want)
		}
	}
}

func TestSourceMapURL(t *testing.T) {
	base, _ := url.Parse("https://shop.example/static/js/main.3f2a1c.js")
	for _, c := range []struct {
		header, body, want string
	}{
		{"", "(()=>{})();\n//# sourceMappingURL=main.3f2a1c.js.map", "https://shop.example/static/js/main.3f2a1c.js.map"},
		{"", "(()=>{})();\n//# sourceMappingURL=/maps/main.js.map\n", "https://shop.example/maps/main.js.map"},
		{"", "x\n/*# sourceMappingURL=main.css.map */", ""},
		{"", "x\n//# sourceMappingURL=data:application/json;base64,eyJ2ZXJzaW9uIjozfQ==", ""},
		{"", "x\n//# sourceMappingURL=https://cdn.other.example/main.js.map", ""},
		{"", "x", ""},
		{"main.js.map", "x", "https://shop.example/static/js/main.js.map"},
	} {
		h := http.Header{}
		if c.header != "" {
			h.Set("SourceMap", c.header)
		}
		if got := sourceMapURL(&response{url: base, header: h, body: []byte(c.body)}); got != c.want {
			t.Errorf("sourceMapURL(%q, %q) = %q, want %q", c.header, c.body, got, c.want)
		}
	}
}

// TestSourceMapObservations reads library sources only, in either key
// order, and as much of a map cut short as was read.
func TestSourceMapObservations(t *testing.T) {
	jq := "/*! jQuery v3.4.1 | (c) JS Foundation */\n!function(){}"
	own := "/*! jQuery v9.9.9 | our copy */"
	whole := `{"version":3,"sources":["webpack://app/./src/index.js","webpack://app/./node_modules/jquery/dist/jquery.js","webpack://app/./node_modules/moment/moment.js"],` +
		`"sourcesContent":[` + strconv.Quote(own) + `,` + strconv.Quote(jq) + `,"//! version : 2.29.1\n"],"mappings":"AAAA"}`
	got := func(body string) []string {
		var out []string
		for _, o := range sourceMapObservations("https://x/m.map", "https://x/m.js", []byte(body)) {
			out = append(out, string(o.key)+"@"+o.version)
		}
		return out
	}
	if g := got(whole); !slices.Equal(g, []string{"npm:jquery@3.4.1", "npm:moment@2.29.1"}) {
		t.Errorf("whole map: %v", g)
	}
	reordered := `{"sourcesContent":[` + strconv.Quote(own) + `,null,` + strconv.Quote(jq) + `],"sources":["src/a.js","node_modules/x/y.js","node_modules/jquery/dist/jquery.js"]}`
	if g := got(reordered); !slices.Equal(g, []string{"npm:jquery@3.4.1"}) {
		t.Errorf("sources after contents: %v", g)
	}
	cut := whole[:strings.Index(whole, "//! version")+5]
	if g := got(cut); !slices.Equal(g, []string{"npm:jquery@3.4.1"}) {
		t.Errorf("cut map: %v", g)
	}
	for _, bad := range []string{"", "[]", "{", `{"sources":7}`, "not json"} {
		if g := got(bad); len(g) != 0 {
			t.Errorf("%q: %v", bad, g)
		}
	}
}

func FuzzSourceMap(f *testing.F) {
	f.Add([]byte(`{"version":3,"sources":["node_modules/jquery/dist/jquery.js"],"sourcesContent":["/*! jQuery v3.4.1 | x */"]}`))
	f.Add([]byte(`{"sourcesContent":[null,"//! version : 2.29.1\n"],"sources":["a.js","node_modules/moment/moment.js"]}`))
	f.Add([]byte(`{"sources":["node_modules/a.js"],"sourcesContent":["/*! jQuery v3`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, o := range sourceMapObservations("https://x/m.map", "https://x/m.js", body) {
			if o.key == "" || o.version == "" || !strings.Contains(o.detail, "node_modules/") {
				t.Fatalf("bad observation %+v", o)
			}
		}
	})
}

func TestPathPackage(t *testing.T) {
	for _, c := range []struct{ src, name, version string }{
		{"../../node_modules/.pnpm/dompurify@3.0.5/node_modules/dompurify/dist/purify.es.js", "dompurify", "3.0.5"},
		{"../../node_modules/.pnpm/vue-router@4.3.0_vue@3.4.21/node_modules/vue-router/dist/vue-router.mjs", "vue-router", "4.3.0"},
		{"../../node_modules/.pnpm/@vue+runtime-core@3.4.21/node_modules/@vue/runtime-core/dist/runtime-core.esm-bundler.js", "@vue/runtime-core", "3.4.21"},
		{"webpack://app/./node_modules/.pnpm/react-dom@18.2.0(react@18.2.0)/node_modules/react-dom/cjs/react-dom.production.min.js", "react-dom", "18.2.0"},
		{"node_modules/.pnpm/@babel+runtime@7.24.0-rc.1/node_modules/@babel/runtime/helpers/esm/extends.js", "@babel/runtime", "7.24.0-rc.1"},
		{"../../.yarn/cache/lodash-npm-4.17.21-6382451519-eb835a2e51.zip/node_modules/lodash/lodash.js", "lodash", "4.17.21"},
		{"webpack://x/./.yarn/cache/@babel-runtime-npm-7.24.0-8d2d6bc4d6-7c5f2bd4ad.zip/node_modules/@babel/runtime/helpers/esm/extends.js", "@babel/runtime", "7.24.0"},
		{"webpack://app/./node_modules/jquery/dist/jquery.js", "", ""},
		{"../../src/main.js", "", ""},
		{"node_modules/.pnpm/dompurify@3.0.5/node_modules/other/x.js", "", ""},
		{"node_modules/.pnpm/dompurify@latest/node_modules/dompurify/x.js", "", ""},
		{"node_modules/.pnpm/dompurify@3.0.5x/node_modules/dompurify/x.js", "", ""},
		{".yarn/cache/lodash-npm-4.17.21-not-a-hash.zip/node_modules/lodash/lodash.js", "", ""},
	} {
		name, v, ok := pathPackage(c.src)
		if ok != (c.name != "") || name != c.name || v != c.version {
			t.Errorf("pathPackage(%q) = %q %q %v, want %q %q", c.src, name, v, ok, c.name, c.version)
		}
	}
}

// TestParseLargeInlineScript: an inline script larger than a mebibyte (a
// page's serialized state, as Next.js, Nuxt and shop pages carry) does not
// end the page: the scripts, styles and links after it are read.
func TestParseLargeInlineScript(t *testing.T) {
	state := `{"items":[` + strings.Repeat(`{"id":1,"name":"x"},`, 90_000) + `{}]}`
	body := []byte(`<html><head><script src="/js/jquery.min.js"></script>
<script id="__NEXT_DATA__" type="application/json">` + state + `</script>
<script src="/js/lodash.min.js"></script><link rel="stylesheet" href="/css/bootstrap.min.css"></head>
<body><a href="/about">about</a></body></html>`)
	if len(state) <= 1<<20 {
		t.Fatalf("the state is %d bytes, want more than 1 MiB", len(state))
	}
	base, _ := url.Parse("http://example.com/")
	p := parseHTML(base, body)
	if want := []string{"http://example.com/js/jquery.min.js", "http://example.com/js/lodash.min.js"}; !slices.Equal(p.scripts, want) {
		t.Errorf("scripts %v, want %v", p.scripts, want)
	}
	if want := []string{"http://example.com/css/bootstrap.min.css"}; !slices.Equal(p.styles, want) {
		t.Errorf("styles %v, want %v", p.styles, want)
	}
	if want := []string{"http://example.com/about"}; !slices.Equal(p.links, want) {
		t.Errorf("links %v, want %v", p.links, want)
	}
}
