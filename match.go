package sentinel

import "time"

// The match protocol: what the service's match API (POST /v1/sca/match)
// and CI gate (POST /v1/sca/gate) take and answer, what the intel index
// returns, and the gate's verdict. The service, the agent's online and
// offline gates and the report all use these types and DecideGate, so the
// three cannot drift apart.

// MaxMatchPurls bounds one match or gate request; a caller with more
// purls sends several requests.
const MaxMatchPurls = 10_000

// MatchRequest is POST /v1/sca/match's body.
type MatchRequest struct {
	Purls []string `json:"purls" maxItems:"10000"`
}

// MatchResult is the answer for one component (one purl): in request
// order in the match and gate answers, in input order from the intel
// index.
type MatchResult struct {
	// Purl is the query as given (empty for a match by package rather
	// than by purl).
	Purl string `json:"purl"`
	// Matches are the advisories that affect the component, ordered by id;
	// never null in JSON.
	Matches []AdvisoryMatch `json:"matches"`
	// EOL is the component's end-of-life status when known.
	EOL *EOLStatus `json:"eol,omitempty"`
	// Undecided lists advisories that name the package but whose
	// applicability cannot be decided from the version: GIT-only ranges,
	// an ecosystem without a version order, a version that does not parse.
	// They are not matches; a caller may surface them for review.
	Undecided []string `json:"undecided,omitempty"`
	// Error is set, instead of failing the batch, for a purl that cannot be
	// parsed ("cannot parse the purl: ..."). Such a result counts as no
	// component in the gate's verdict.
	Error string `json:"error,omitempty"`
}

// MatchResponse is POST /v1/sca/match's answer.
type MatchResponse struct {
	Results []MatchResult `json:"results"`
	// Intel says how current the intel behind the answer is.
	Intel *IntelFreshness `json:"intel,omitempty"`
}

// StaleAfter is the age past which intel is called stale: three days
// without a successful sync.
const StaleAfter = 72 * time.Hour

// IntelFreshness says what intel an answer was matched against and how
// old it is, so that no caller takes an empty or outdated database for a
// clean result.
type IntelFreshness struct {
	// Advisories is the number of advisories matched against.
	Advisories int `json:"advisories"`
	// KEV is the number of known-exploited catalog entries loaded.
	KEV int `json:"kev"`
	// EOLProducts is the number of end-of-life products loaded.
	EOLProducts int `json:"eol_products"`
	// SyncedAt is when the newest successful sync finished; absent
	// before the first.
	SyncedAt *time.Time `json:"synced_at,omitempty"`
	// AgeSeconds is the time since SyncedAt.
	AgeSeconds int64 `json:"age_seconds"`
	// Stale is set when SyncedAt is older than StaleAfter.
	Stale bool `json:"stale"`
	// Ecosystems are the OSV ecosystems the advisories name ("npm",
	// "Debian"): a component of another one was not checked against any.
	Ecosystems []string `json:"ecosystems,omitempty"`
}

// GateRequest is POST /v1/sca/gate's body: the components a build found.
type GateRequest struct {
	Purls []string `json:"purls" maxItems:"10000"`
	// Project names what is being built, for the audit log.
	Project string `json:"project,omitempty" maxLength:"200"`
}

// GateResponse is the gate's verdict with every component's matches.
type GateResponse struct {
	// Verdict is kev, vulnerable or ok; ExitCode is the specification's
	// code for it (70, 71, 72).
	Verdict  Verdict       `json:"verdict"`
	ExitCode int           `json:"exit_code"`
	Summary  GateSummary   `json:"summary"`
	Results  []MatchResult `json:"results"`
	// Intel says how current the intel behind the verdict is.
	Intel *IntelFreshness `json:"intel,omitempty"`
}

// GateSummary counts a gate's outcome.
type GateSummary struct {
	// Components is the number of results without an error.
	Components int `json:"components"`
	// Vulnerable is the number of components with at least one match.
	Vulnerable int `json:"vulnerable"`
	// KEV is the number of components with a known-exploited match.
	KEV int `json:"kev"`
	// Advisories is the number of (component, advisory) matches.
	Advisories int `json:"advisories"`
}

// Verdict is the CI gate's decision.
type Verdict string

// The gate's verdicts.
const (
	VerdictKEV        Verdict = "kev"        // a known-exploited component
	VerdictVulnerable Verdict = "vulnerable" // a vulnerable component, none known-exploited
	VerdictOK         Verdict = "ok"         // no known vulnerable component
)

// Exit codes of the CI gate (specification, Errors).
const (
	GateExitKEV        = 70 // a known-exploited component
	GateExitVulnerable = 71 // a vulnerable component, none known-exploited
	GateExitOK         = 72 // no known vulnerable component
	GateExitCapacity   = 77 // scan_capacity: the organization's concurrency cap was reached
	GateExitMetered    = 78 // metered: the monthly scans meter is exhausted
)

// ExitCode returns the specification's exit code of the verdict: 70, 71
// or 72. Any other value (DecideGate never returns one) is 1, an error:
// the gate fails closed.
func (v Verdict) ExitCode() int {
	switch v {
	case VerdictKEV:
		return GateExitKEV
	case VerdictVulnerable:
		return GateExitVulnerable
	case VerdictOK:
		return GateExitOK
	}
	return 1
}

// DecideGate decides the CI gate from match results: any known-exploited
// match is kev (70), else any match vulnerable (71), else ok (72). Results
// with an Error count as no component. End-of-life status and undecided
// advisories are reported by callers but do not change the verdict. A
// caller that suppresses matches (an ignore file, OpenVEX) removes them
// from the results first.
func DecideGate(results []MatchResult) (Verdict, GateSummary) {
	var s GateSummary
	for _, r := range results {
		if r.Error != "" {
			continue
		}
		s.Components++
		if len(r.Matches) > 0 {
			s.Vulnerable++
			s.Advisories += len(r.Matches)
		}
		for _, m := range r.Matches {
			if m.KEV {
				s.KEV++
				break
			}
		}
	}
	switch {
	case s.KEV > 0:
		return VerdictKEV, s
	case s.Vulnerable > 0:
		return VerdictVulnerable, s
	}
	return VerdictOK, s
}
