package sentinel_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel"
)

func TestDecideGate(t *testing.T) {
	kev := sentinel.AdvisoryMatch{ID: "GHSA-kev", KEV: true}
	plain := sentinel.AdvisoryMatch{ID: "GHSA-plain"}
	for _, tc := range []struct {
		name    string
		results []sentinel.MatchResult
		verdict sentinel.Verdict
		code    int
		summary sentinel.GateSummary
	}{
		{"none", nil, sentinel.VerdictOK, 72, sentinel.GateSummary{}},
		{"clean", []sentinel.MatchResult{{Purl: "a", Matches: []sentinel.AdvisoryMatch{}}, {Purl: "b"}},
			sentinel.VerdictOK, 72, sentinel.GateSummary{Components: 2}},
		{"vulnerable", []sentinel.MatchResult{{Purl: "a", Matches: []sentinel.AdvisoryMatch{plain, plain}}, {Purl: "b"}},
			sentinel.VerdictVulnerable, 71, sentinel.GateSummary{Components: 2, Vulnerable: 1, Advisories: 2}},
		{"kev", []sentinel.MatchResult{{Purl: "a", Matches: []sentinel.AdvisoryMatch{plain, kev, kev}}, {Purl: "b", Matches: []sentinel.AdvisoryMatch{plain}}},
			sentinel.VerdictKEV, 70, sentinel.GateSummary{Components: 2, Vulnerable: 2, KEV: 1, Advisories: 4}},
		{"error_is_no_component", []sentinel.MatchResult{{Purl: "::", Error: "cannot parse the purl", Matches: []sentinel.AdvisoryMatch{kev}}, {Purl: "b"}},
			sentinel.VerdictOK, 72, sentinel.GateSummary{Components: 1}},
		{"eol_and_undecided_do_not_count", []sentinel.MatchResult{{Purl: "a", EOL: &sentinel.EOLStatus{EOL: true}, Undecided: []string{"GHSA-git"}}},
			sentinel.VerdictOK, 72, sentinel.GateSummary{Components: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			verdict, summary := sentinel.DecideGate(tc.results)
			if verdict != tc.verdict || verdict.ExitCode() != tc.code {
				t.Errorf("DecideGate = %s (exit %d), want %s (exit %d)", verdict, verdict.ExitCode(), tc.verdict, tc.code)
			}
			if diff := cmp.Diff(tc.summary, summary); diff != "" {
				t.Errorf("DecideGate summary mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestVerdictExitCode: the specification's codes, and an unknown verdict
// fails closed (never 72, never 0).
func TestVerdictExitCode(t *testing.T) {
	for v, want := range map[sentinel.Verdict]int{
		sentinel.VerdictKEV: 70, sentinel.VerdictVulnerable: 71, sentinel.VerdictOK: 72, "": 1, "OK": 1,
	} {
		if got := v.ExitCode(); got != want {
			t.Errorf("Verdict(%q).ExitCode() = %d, want %d", v, got, want)
		}
	}
}

// TestGateResponseJSON pins the wire format of the gate's answer, which
// the agent decodes.
func TestGateResponseJSON(t *testing.T) {
	resp := sentinel.GateResponse{
		Verdict: sentinel.VerdictVulnerable, ExitCode: 71,
		Summary: sentinel.GateSummary{Components: 2, Vulnerable: 1, Advisories: 1},
		Results: []sentinel.MatchResult{
			{Purl: "pkg:npm/a@1.0.0", Matches: []sentinel.AdvisoryMatch{{ID: "GHSA-1", Aliases: []string{}, Severity: "high", CWEs: []string{}, FixedVersions: []string{"1.0.1"}}},
				EOL: &sentinel.EOLStatus{Product: "a", ReleaseCycle: "1"}, Undecided: []string{"GHSA-2"}},
			{Purl: "::", Matches: []sentinel.AdvisoryMatch{}, Error: "cannot parse the purl: x"},
		},
	}
	got, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"verdict":"vulnerable","exit_code":71,"summary":{"components":2,"vulnerable":1,"kev":0,"advisories":1},"results":[` +
		`{"purl":"pkg:npm/a@1.0.0","matches":[{"id":"GHSA-1","aliases":[],"severity":"high","cwes":[],"fixed_versions":["1.0.1"],"kev":false,"kev_ransomware":false}],` +
		`"eol":{"product":"a","release_cycle":"1","eol":false},"undecided":["GHSA-2"]},` +
		`{"purl":"::","matches":[],"error":"cannot parse the purl: x"}]}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("json.Marshal(GateResponse) mismatch (-want +got):\n%s", diff)
	}
}
