package sbom

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestNpmLicenses: the forms package.json and package-lock.json give a
// license in, read the same through the fast path for plain strings and
// through JSON decoding.
func TestNpmLicenses(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{`"MIT"`, []string{"MIT"}},
		{`"(MIT OR Apache-2.0)"`, []string{"(MIT OR Apache-2.0)"}},
		{`" ISC "`, []string{"ISC"}},
		{`"SEE LICENSE IN \"LICENSE.md\""`, []string{`SEE LICENSE IN "LICENSE.md"`}},
		{`"caf\u00e9"`, []string{"café"}},
		{`{"type": "BSD-3-Clause", "url": "https://x"}`, []string{"BSD-3-Clause"}},
		{`""`, nil},
		{`null`, nil},
		{`["MIT"]`, nil},
		{"\"\xff\"", []string{"\ufffd"}},
	} {
		if got := npmLicenses(json.RawMessage(c.raw)); !slices.Equal(got, c.want) {
			t.Errorf("npmLicenses(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// TestNPMName: the names npm publishes, and a template's, which it does not.
func TestNPMName(t *testing.T) {
	for name, want := range map[string]bool{
		"lodash": true, "@babel/core": true, "endoflife.date": true, "Zepto": true, "left_pad~2": true,
		"": false, "{{ name }}": false, "my app": false, "<%= name %>": false, "ü": false,
	} {
		if got := npmName(name); got != want {
			t.Errorf("npmName(%q) = %v, want %v", name, got, want)
		}
	}
}
