package scan

import (
	"net/http"
	"net/url"
	"testing"
)

// TestProbe_DokuWikiVersion: DokuWiki's release file as Debian's dokuwiki
// 0.0.20220731.a-2 ships it, and answers that only look like it.
func TestProbe_DokuWikiVersion(t *testing.T) {
	var pr probe
	for _, p := range probes {
		if p.path == "/VERSION" {
			pr = p
		}
	}
	u, _ := url.Parse("https://wiki.example.com/VERSION")
	tests := []struct{ body, want string }{
		{"2022-07-31b \"Igor\"\n", "2022-07-31b"},
		{"2020-07-29 \"Hogfather\"\n", "2020-07-29"},
		{"<html><body>2022-07-31b \"Igor\"</body></html>", "-"}, // a page, not the file
		{"1.2.3\n", "-"},
	}
	for _, tt := range tests {
		obs := probeObservations(pr, &response{url: u, status: http.StatusOK, header: http.Header{}, body: []byte(tt.body)})
		got := "-"
		if len(obs) > 0 {
			got = obs[0].version
		}
		if got != tt.want {
			t.Errorf("%q: version %q, want %q", tt.body, got, tt.want)
		}
	}
}
