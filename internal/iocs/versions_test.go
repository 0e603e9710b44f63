package iocs_test

import (
	"testing"

	"github.com/sentinel-sca/sentinel/internal/iocs"
)

func TestVersions(t *testing.T) {
	tests := []struct {
		eco, expr string
		in, out   []string
	}{
		{"npm", "*", []string{"0.0.1", "4.17.21"}, []string{""}},
		{"npm", "=4.17.20", []string{"4.17.20"}, []string{"4.17.21", "4.17.2", "4.17.200"}},
		{"npm", "==4.17.20", []string{"4.17.20"}, []string{"4.17.19"}},
		{"npm", "1.0.0, 1.0.1", []string{"1.0.0", "1.0.1"}, []string{"1.0.2", "0.9.9"}},
		// Pre-releases are ordered, not left out: 1.3.0-beta.1 is below 1.3.0.
		{"npm", ">=1.2.0 <1.3.0", []string{"1.2.0", "1.2.9", "1.3.0-beta.1"}, []string{"1.3.0", "1.1.9"}},
		{"npm", ">= 1.2.0 < 1.3.0", []string{"1.2.5"}, []string{"1.3.1"}},
		{"npm", "<2.0.0 || >=3.0.0 <3.1.0", []string{"1.9.0", "3.0.5"}, []string{"2.5.0", "3.1.0"}},
		{"npm", "!=1.0.0", []string{"1.0.1"}, []string{"1.0.0"}},
		// Between bounds a comma means "and" (PEP 440, Cargo, Composer):
		// the range, not every version.
		{"npm", ">=1.2.0, <1.3.0", []string{"1.2.0", "1.2.9"}, []string{"1.3.0", "1.1.9", "0.1.0", "9.0.0"}},
		{"PyPI", ">=2.0,<2.5,!=2.3", []string{"2.0", "2.4.1"}, []string{"2.3", "2.5", "1.9"}},
		// Exact versions stay alternatives of their own, beside a range.
		{"npm", "1.0.0, >=2.0.0 <2.1.0", []string{"1.0.0", "2.0.5"}, []string{"1.5.0", "2.1.0"}},
		{"npm", ">=1.2.0, <1.3.0, 2.0.0", []string{"1.2.1", "2.0.0"}, []string{"1.3.0", "2.0.1"}},
		{"npm", "1.0.0 || 1.0.1", []string{"1.0.0", "1.0.1"}, []string{"1.0.2"}},
		// The ecosystem's order: PyPI's 1.0 is 1.0.0; Maven's 1.0-SNAPSHOT
		// is before 1.0.
		{"PyPI", "=1.0", []string{"1.0", "1.0.0"}, []string{"1.0.1"}},
		{"PyPI", "<2.0", []string{"1.9", "2.0rc1"}, []string{"2.0", "2.0.post1"}},
		{"Maven", "<1.0", []string{"1.0-SNAPSHOT", "0.9"}, []string{"1.0", "1.0.1"}},
		{"Go", ">=v1.2.0", []string{"v1.2.0", "v1.10.0"}, []string{"v1.1.9"}},
		{"Debian", "<1:2.0-1", []string{"1:1.9-3", "2.5-1"}, []string{"1:2.0-1", "2:0.1-1"}},
	}
	for _, tc := range tests {
		vs, err := iocs.ParseVersions(tc.eco, tc.expr)
		if err != nil {
			t.Errorf("ParseVersions(%q, %q): %v", tc.eco, tc.expr, err)
			continue
		}
		for _, v := range tc.in {
			if !vs.Contains(v) {
				t.Errorf("%s %q does not contain %q", tc.eco, tc.expr, v)
			}
		}
		for _, v := range tc.out {
			if v == "" && tc.expr == "*" {
				continue
			}
			if vs.Contains(v) {
				t.Errorf("%s %q contains %q", tc.eco, tc.expr, v)
			}
		}
	}
	for _, bad := range []string{"", ">", ">=", "banana", ">=1.0 banana", "1.0,,2.0", "=*", "<=>1.0", "1.0 || ", "|| 1.0", ">=1.0, ", ",1.0"} {
		if _, err := iocs.ParseVersions("npm", bad); err == nil {
			t.Errorf("ParseVersions(npm, %q) accepted", bad)
		}
	}
}

// FuzzParseVersions: the parser never panics, and an expression it
// accepts answers Contains for any version without panicking.
func FuzzParseVersions(f *testing.F) {
	for _, s := range []string{"*", "=4.17.20", "1.0.0, 1.0.1", ">=1.2.0 <1.3.0", "<2 || >=3 <3.1", ">= 1", "!=0", "1:2.0-1", "v1.2.3"} {
		f.Add("npm", s, "1.2.3")
	}
	f.Add("PyPI", "<2.0", "2.0rc1")
	f.Add("Maven", ">=1.0-SNAPSHOT", "1.0")
	f.Fuzz(func(t *testing.T, eco, expr, v string) {
		if iocs.Ecosystem(eco) != "" {
			eco = iocs.Ecosystem(eco)
		}
		vs, err := iocs.ParseVersions(eco, expr)
		if err != nil {
			return
		}
		_ = vs.Contains(v)
	})
}
