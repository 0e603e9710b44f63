package sbom

import "testing"

// TestWorkspaceMatch: the workspace patterns npm, yarn, pnpm and bun
// accept, against a member's directory.
func TestWorkspaceMatch(t *testing.T) {
	for _, c := range []struct {
		glob, rel string
		want      bool
	}{
		{"packages/*", "packages/tool", true},
		{"packages/*", "packages/tool/sub", false},
		{"./packages/*/", "packages/tool", true},
		{"apps/**", "apps/web/admin", true},
		{"apps/**", "examples/web", false},
		{"tools/cli", "tools/cli", true},
		{"!packages/private", "packages/private", false},
		{"", "packages/tool", false},
		{"[", "packages/tool", false},
	} {
		if got := workspaceMatch(c.glob, c.rel); got != c.want {
			t.Errorf("workspaceMatch(%q, %q) = %v, want %v", c.glob, c.rel, got, c.want)
		}
	}
}
