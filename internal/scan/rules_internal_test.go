package scan

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	wappalyzer "github.com/projectdiscovery/wappalyzergo"
)

func BenchmarkRulesMatch(b *testing.B) {
	rs, err := loadRules()
	if err != nil {
		b.Fatal(err)
	}
	body, _ := os.ReadFile("testdata/sites/wordpress/index.html")
	big := []byte(strings.Repeat(string(body), 40)) // ~100 KB of page
	u, _ := url.Parse("http://example.com/")
	r := &response{url: u, status: 200, header: http.Header{"Content-Type": {"text/html"}}, body: big}
	p := parseHTML(u, big)
	b.Logf("%d technologies, page %d bytes", rs.Len(), len(big))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rs.match(r, p, true)
	}
}

func TestRequiredLiterals(t *testing.T) {
	for rule, want := range map[string][]string{
		`<link [^>]+/wp-(?:content|includes)/[^>]+ rel=["']stylesheet["']`: {"<link ", "/wp-", " rel=", "stylesheet"},
		`jquery(?:-(\d+\.\d+\.\d+))[/.-]\;version:\1`:                      {"jquery"},
		`(?:a|b)c`:             nil,
		`(?!lookahead)x`:       nil,
		`Drupal(?: ([\d.]+))?`: {"drupal"},
		`foo+bar`:              {"fo", "bar"},
	} {
		got := requiredLiterals(rule, 2)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("requiredLiterals(%q) = %q, want %q", rule, got, want)
		}
	}
}

func TestWordPressKey(t *testing.T) {
	for _, tc := range []struct {
		f    wappalyzer.Fingerprint
		want productKey
	}{
		{wappalyzer.Fingerprint{ScriptSrc: []string{`/wp-content/plugins/contact-form-7/.+\.js(?:\?ver=(\d+(?:\.\d+)+))?\;version:\1`}}, "wp-plugin:contact-form-7"},
		{wappalyzer.Fingerprint{HTML: []string{`<link[^>]+wp-content\/themes\/astra\/`}}, "wp-theme:astra"},
		{wappalyzer.Fingerprint{Dom: map[string]map[string]any{"link[href*='/wp-content/plugins/woocommerce/']": nil}}, "wp-plugin:woocommerce"},
		// A free and a pro edition: no single directory, the rule keeps its name.
		{wappalyzer.Fingerprint{ScriptSrc: []string{`/wp-content/themes/phlox/`, `/wp-content/themes/phlox-pro/`}}, ""},
		{wappalyzer.Fingerprint{ScriptSrc: []string{`jquery[.-]([\d.]*\d)[^/]*\.js\;version:\1`}}, ""},
	} {
		if got := wordpressKey(&tc.f); got != tc.want {
			t.Errorf("wordpressKey(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
	rs, err := loadRules()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range rs.apps {
		if a.name == "Contact Form 7" && a.key != "wp-plugin:contact-form-7" {
			t.Errorf("Contact Form 7's rule has key %q", a.key)
		}
	}
}

// TestMatchScriptPlugins: a script URL rule for jQuery or Bootstrap that
// matches a plugin's URL (the plugin's name holds the library's, and the
// path the plugin's version) says nothing of the library; the library's
// own URLs still give its version.
func TestMatchScriptPlugins(t *testing.T) {
	rs, err := loadRules()
	if err != nil {
		t.Fatal(err)
	}
	versionOf := func(src, key string) (string, bool) {
		for _, o := range rs.matchScript(src) {
			if string(o.key) == key {
				return o.version, true
			}
		}
		return "", false
	}
	// Each plugin's URL, and the library whose rule it must not satisfy.
	for src, key := range map[string]string{
		"https://cdnjs.cloudflare.com/ajax/libs/jquery-migrate/1.4.1/jquery-migrate.min.js":                "npm:jquery",
		"https://cdnjs.cloudflare.com/ajax/libs/jquery-easing/1.4.1/jquery.easing.min.js":                  "npm:jquery",
		"https://cdnjs.cloudflare.com/ajax/libs/jquery.mask/1.14.16/jquery.mask.min.js":                    "npm:jquery",
		"https://cdnjs.cloudflare.com/ajax/libs/jquery-validate/1.19.5/jquery.validate.min.js":             "npm:jquery",
		"https://cdnjs.cloudflare.com/ajax/libs/jquery-modal/0.9.1/jquery.modal.min.js":                    "npm:jquery",
		"https://cdnjs.cloudflare.com/ajax/libs/bootstrap-datepicker/1.9.0/js/bootstrap-datepicker.min.js": "npm:bootstrap",
		"https://cdnjs.cloudflare.com/ajax/libs/bootstrap-select/1.13.18/js/bootstrap-select.min.js":       "npm:bootstrap",
		"https://example.com/vendor/bootstrap-select/1.13.14/js/bootstrap-select.min.js":                   "npm:bootstrap",
		"https://cdn.jsdelivr.net/npm/bootstrap-table@1.22.1/dist/bootstrap-table.min.js":                  "npm:bootstrap",
	} {
		if v, ok := versionOf(src, key); ok {
			t.Errorf("%s: %s %q, want none", src, key, v)
		}
	}
	for src, want := range map[string][2]string{
		"https://cdnjs.cloudflare.com/ajax/libs/jquery/3.6.0/jquery.min.js":            {"npm:jquery", "3.6.0"},
		"https://code.jquery.com/jquery-3.6.0.slim.min.js":                             {"npm:jquery", "3.6.0"},
		"https://cdn.jsdelivr.net/npm/bootstrap@5.3.2/dist/js/bootstrap.bundle.min.js": {"npm:bootstrap", "5.3.2"},
		"https://stackpath.bootstrapcdn.com/bootstrap/4.5.2/js/bootstrap.min.js":       {"npm:bootstrap", "4.5.2"},
	} {
		if v, ok := versionOf(src, want[0]); !ok || v != want[1] {
			t.Errorf("%s: %s %q (found %v), want %s", src, want[0], v, ok, want[1])
		}
	}
}
