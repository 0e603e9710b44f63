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
