package sbom

import "testing"

// TestLockedRuby: the RUBY VERSION section as Bundler writes it, with and
// without a patch level, and files without one.
func TestLockedRuby(t *testing.T) {
	for _, c := range []struct{ lock, want string }{
		{"GEM\n  specs:\n\nRUBY VERSION\n   ruby 3.2.2p53\n\nBUNDLED WITH\n   2.4.10\n", "3.2.2"},
		{"GEM\n\nRUBY VERSION\n  ruby 4.0.6\n\nBUNDLED WITH\n  4.0.3\n", "4.0.6"},
		{"GEM\n\nPLATFORMS\n  ruby\n\nBUNDLED WITH\n   2.4.10\n", ""},
		{"GEM\n\nRUBY VERSION\n", ""},
	} {
		if got := lockedRuby([]byte(c.lock)); got != c.want {
			t.Errorf("lockedRuby(%q) = %q, want %q", c.lock, got, c.want)
		}
	}
}
