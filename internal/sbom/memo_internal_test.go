package sbom

import (
	"regexp"
	"testing"
)

// TestPatternsCompile: the package's patterns are compiled on first use,
// so one that does not compile would panic in a scan of the one format it
// is for; compile them all here.
func TestPatternsCompile(t *testing.T) {
	if len(patterns) < 60 {
		t.Fatalf("only %d patterns were registered", len(patterns))
	}
	for _, expr := range patterns {
		if _, err := regexp.Compile(expr); err != nil {
			t.Errorf("%s: %v", expr, err)
		}
	}
}
