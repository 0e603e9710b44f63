package intel_test

import (
	"testing"

	"github.com/sentinel-sca/sentinel/internal/intel"
)

// TestCVSSBaseScore uses vectors whose base scores are well known (NVD and
// FIRST calculators): Log4Shell-like 10.0, the common 9.8, 7.5 and 5.3, and
// the CVSS v4.0 examples 9.3 and 10.0.
func TestCVSSBaseScore(t *testing.T) {
	tests := []struct {
		vector string
		want   float64
		ok     bool
	}{
		{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H", 10.0, true},
		{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", 9.8, true},
		{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H", 7.5, true},
		{"CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N", 5.3, true},
		{"CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N", 9.1, true},
		{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N", 0, true},
		{"CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N", 9.3, true},
		{"CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H", 10.0, true},
		// Threat metrics are not part of the base score.
		{"CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U", 9.3, true},
		{"AV:N/AC:L/Au:N/C:P/I:P/A:P", 0, false}, // CVSS v2: not scored
		{"CVSS:3.1/AV:X", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := intel.CVSSBaseScore(tt.vector)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CVSSBaseScore(%q) = %v, %v; want %v, %v", tt.vector, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSeverityLabels(t *testing.T) {
	scores := []struct {
		score float64
		want  string
	}{{10, "critical"}, {9.0, "critical"}, {8.9, "high"}, {7.0, "high"}, {6.9, "medium"}, {4.0, "medium"}, {3.9, "low"}, {0.1, "low"}, {0, "none"}}
	for _, tt := range scores {
		if got := intel.SeverityFromScore(tt.score); got != tt.want {
			t.Errorf("SeverityFromScore(%v) = %q, want %q", tt.score, got, tt.want)
		}
	}
	labels := []struct{ label, want string }{
		{"CRITICAL", "critical"}, {"HIGH", "high"}, {"MODERATE", "medium"}, {"Medium", "medium"},
		{"LOW", "low"}, {"negligible", "low"}, {"important", "high"}, {"bogus", ""},
	}
	for _, tt := range labels {
		if got := intel.SeverityFromLabel(tt.label); got != tt.want {
			t.Errorf("SeverityFromLabel(%q) = %q, want %q", tt.label, got, tt.want)
		}
	}
}
