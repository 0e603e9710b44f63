package sentinel

import (
	"strings"
	"testing"
)

func TestValidHost(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"build-01", true}, {"ci.example.com", true}, {"10.0.0.7", true}, {"host_with:port", true},
		{"", false}, {"a b", false}, {"a/b", false}, {"tab\there", false}, {"é", false}, {strings.Repeat("h", 254), false},
	} {
		if got := ValidHost(tc.in); got != tc.want {
			t.Errorf("ValidHost(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// FuzzValidHost checks that an accepted host name is printable ASCII
// without spaces or path and quote characters: it lands in certificates,
// logs and CSV files.
func FuzzValidHost(f *testing.F) {
	f.Add("build-01")
	f.Add("a\x00b")
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidHost(s) {
			return
		}
		if len(s) == 0 || len(s) > 253 || strings.ContainsAny(s, " /\\\"'<>") {
			t.Fatalf("ValidHost(%q) = true", s)
		}
		for _, r := range s {
			if r <= ' ' || r >= 0x7f {
				t.Fatalf("ValidHost(%q) = true", s)
			}
		}
	})
}
