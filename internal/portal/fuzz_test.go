package portal

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzLocalPath: whatever an attacker puts in the sign-in page's return
// address, the redirect stays on this site: a path that a browser resolves
// against the portal's own origin.
func FuzzLocalPath(f *testing.F) {
	for _, s := range []string{"/", "/findings?band=high", "//evil.example", "/\\evil.example", "https://evil.example/",
		"javascript:alert(1)", "/%2F%2Fevil.example", "\\\\evil", "/\t/evil.example", "", "/a\r\nSet-Cookie: x=y", "/../..//x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, next string) {
		got := localPath(next)
		if got != "/" && got != next {
			t.Fatalf("localPath(%q) = %q: neither the input nor /", next, got)
		}
		base, _ := url.Parse("https://portal.example/login")
		u, err := url.Parse(got)
		if err != nil {
			t.Fatalf("localPath(%q) = %q does not parse: %v", next, got, err)
		}
		// Browsers treat a backslash as a slash and drop tabs and newlines.
		cleaned := strings.NewReplacer("\\", "/", "\t", "", "\n", "", "\r", "").Replace(got)
		if r := base.ResolveReference(u); r.Host != "portal.example" || strings.HasPrefix(cleaned, "//") {
			t.Fatalf("localPath(%q) = %q leaves the site (%s)", next, got, r)
		}
	})
}
