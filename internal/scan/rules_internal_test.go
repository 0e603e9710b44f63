package scan

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
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
