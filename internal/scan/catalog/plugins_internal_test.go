package catalog

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginsNotLabelled: a plugin's banner names the library it needs
// ("Requires jQuery v1.7.2 or later"), a plugin's own name starts with
// another's ("jQuery UI Touch Punch 0.2.2"), a bundle names a sibling
// package's version ("moment-timezone-utils.js version : 0.5.45"): none of
// these files is that library at that version. The labeller leaves them
// out, and the embedded catalog has none of the whole files (their SHA-1s,
// from the Debian packages testdata/plugins/SOURCES.md names), so that a
// WordPress site serving them is not reported as running jQuery 1.7.2.
func TestPluginsNotLabelled(t *testing.T) {
	libs := map[string]bool{}
	for _, p := range DefaultPackages {
		libs[p.Name] = true
	}
	for name, upstream := range map[string]string{
		"jquery.form.js":           "6.1.9",
		"jquery.ui.touch-punch.js": "6.1.9",
		"date.min.js":              "6.1.9",
		"mediawiki-jquery.form.js": "1.39.17",
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "plugins", name))
		if err != nil {
			t.Fatal(err)
		}
		if lib, v := labelDebFile("usr/share/wordpress/wp-includes/js/jquery/"+name, b, libs, DefaultDebianRules, upstream); lib != "" {
			t.Errorf("%s labelled %s %s", name, lib, v)
		}
	}
	// A version constant beside code only that library has labels a file
	// named after the library, not a bundle that carries it: WordPress's
	// date.min.js has moment-timezone's past its first kilobyte
	// (testdata/plugins holds only its first 2 KiB, before the constant).
	tz := `S.version="0.5.45",S.dataVersion="",S._zones={}`
	for _, content := range []string{tz, "/*! x */" + strings.Repeat(";", 2000) + tz} {
		for name, want := range map[string]string{
			"usr/share/wordpress/wp-includes/js/dist/date.min.js":                   "",
			"usr/share/wordpress/wp-includes/js/dist/vendor/moment-timezone.min.js": "moment-timezone 0.5.45",
		} {
			lib, v := labelDebFile(name, []byte(content), libs, DefaultDebianRules, "6.1.9")
			if got := strings.TrimSpace(lib + " " + v); got != want {
				t.Errorf("labelDebFile(%s, %d bytes) = %q, want %q", name, len(content), got, want)
			}
		}
	}
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, sum := range []string{
		"458449ec06ddd2cd284b4a457ba37904dc041555", // wordpress 6.1.9 jquery.form.js
		"1a7dced360fb3a75168eb956f2671947b5ecde11", // wordpress 5.7.11 jquery.form.js
		"afeb5ecfd1ba1336dbda769ad9a8fb39fe1e6b34", // mediawiki 1.39.17 jquery.form.js
		"7e24d802fa52db547e437a5d92f21932bb858993", // wordpress 6.1.9 jquery.ui.touch-punch.js
		"8c9d0ac90e97b7837cf1c4e9acd55ca976a72b9a", // wordpress 6.1.9 date.min.js
		"95848f659dbef32a571919dc9c70428edc846271", // wordpress 6.1.9 date.js
	} {
		var h [20]byte
		if _, err := hex.Decode(h[:], []byte(sum)); err != nil {
			t.Fatal(err)
		}
		if es := c.Lookup(h); len(es) > 0 {
			t.Errorf("the embedded catalog labels %s: %+v", sum, es)
		}
	}
}
