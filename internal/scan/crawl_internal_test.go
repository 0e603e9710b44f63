package scan

import (
	"bytes"
	"io"
	"net/url"
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
