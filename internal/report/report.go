package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// Schema names the JSON format and SchemaVersion its version; a consumer
// checks both.
const (
	Schema        = "sentinel-ci-report"
	SchemaVersion = 1
)

// Input is what a gate run produced before any decision.
type Input struct {
	// Root is the scanned directory as given on the command line.
	Root string
	// Project names what is built (the directory's base name by default).
	Project string
	// Host is the host the agent ran on (CycloneDX metadata).
	Host string
	// ToolVersion is the agent's version.
	ToolVersion string
	// Intel says where the matches came from.
	Intel Intel
	// Components are every extracted component (sbom.Result.Components).
	Components []sentinel.Component
	// Results are the match results of the components' purls, from the
	// service's gate or an offline intel index. A result with an Error
	// counts as no component, as on the service.
	Results []sentinel.MatchResult
	// Skipped are the files extraction could not read.
	Skipped []sbom.FileError
	// Warnings are shown to the user and kept in the JSON output.
	Warnings []string
	// Created is the time of the run (zero in tests: it is then omitted).
	Created time.Time
	// Projects are the projects the manifests name (sbom.Result.Projects),
	// for the CycloneDX output's metadata.component.
	Projects []sentinel.Component
	// GraphFiles are the files whose dependency graph was read
	// (sbom.Result.GraphFiles), for the CycloneDX output's dependencies.
	GraphFiles []string
	// FailOn is the lowest severity of a match that is not known-exploited
	// that fails the gate (exit 71): critical, high, medium or low; empty
	// means any match. A known-exploited match fails whatever it is, and
	// a match whose severity is unknown is counted (fail closed).
	FailOn string
	// Uncovered is Summary.Uncovered: components left out of Results for
	// want of advisories that cover them.
	Uncovered int
}

// FailOnLevels are the values of Input.FailOn.
var FailOnLevels = []string{sentinel.SeverityCritical, sentinel.SeverityHigh, sentinel.SeverityMedium, sentinel.SeverityLow}

// Intel describes the source of the matches.
type Intel struct {
	// Mode is "service" or "offline".
	Mode string `json:"mode"`
	// Source is the service URL or the snapshot file.
	Source string `json:"source,omitempty"`
	// Created is the offline snapshot's creation time.
	Created time.Time `json:"created,omitzero"`
}

// Tool names the program that made the report.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Report is one gate run: every finding, suppressed or not, and the
// verdict. It is the JSON output as is.
type Report struct {
	projects      []sentinel.Component // for the CycloneDX output
	graphFiles    []string             // the same
	Schema        string               `json:"schema"`
	SchemaVersion int                  `json:"schema_version"`
	Tool          Tool                 `json:"tool"`
	// Root is the scanned directory as given.
	Root    string    `json:"root"`
	Project string    `json:"project,omitempty"`
	Host    string    `json:"host,omitempty"`
	Created time.Time `json:"created,omitzero"`
	Intel   Intel     `json:"intel"`
	// Verdict is kev, vulnerable or ok; ExitCode its exit code (70, 71,
	// 72).
	Verdict sentinel.Verdict `json:"verdict"`
	// FailOn is the --fail-on severity the verdict was decided with
	// (empty: any match fails).
	FailOn   string  `json:"fail_on,omitempty"`
	ExitCode int     `json:"exit_code"`
	Summary  Summary `json:"summary"`
	// Findings are sorted: known-exploited first, then by severity and
	// CVSS score, then by package, version and advisory id.
	Findings []Finding `json:"findings"`
	// EndOfLife lists components whose release cycle is past end of life.
	EndOfLife []EOLComponent `json:"end_of_life,omitempty"`
	// Undecided lists advisories that name a component but cannot be
	// decided from its version; they are not findings.
	Undecided  []Undecided          `json:"undecided,omitempty"`
	Skipped    []sbom.FileError     `json:"skipped,omitempty"`
	Warnings   []string             `json:"warnings,omitempty"`
	Components []sentinel.Component `json:"-"`
}

// Summary counts a run. Components, Vulnerable, KEV and Advisories count
// as the service's sentinel.GateSummary does, over unsuppressed findings
// only.
type Summary struct {
	// Components is the number of components checked (with a version).
	Components int `json:"components"`
	// Vulnerable is the number of components with an unsuppressed finding.
	Vulnerable int `json:"vulnerable"`
	// KEV is the number of components with an unsuppressed known-exploited
	// finding.
	KEV int `json:"kev"`
	// Advisories is the number of unsuppressed findings ((component,
	// advisory) pairs).
	Advisories int `json:"advisories"`
	// Suppressed is the number of suppressed findings.
	Suppressed int `json:"suppressed"`
	// Unversioned is the number of components without a version, which
	// cannot be matched.
	Unversioned int `json:"unversioned"`
	// Undecided is the number of undecided (component, advisory) pairs.
	Undecided int `json:"undecided"`
	// EndOfLife is the number of components past end of life.
	EndOfLife int `json:"end_of_life"`
	// BelowThreshold is the number of (component, advisory) matches
	// listed but not counted: below the --fail-on severity.
	BelowThreshold int `json:"below_threshold,omitempty"`
	// Uncovered is the number of versioned components that were not
	// checked because no advisories cover them: a package type without an
	// OSV ecosystem (pkg:github, pkg:conda, pkg:oci), or an ecosystem the
	// intel used does not hold.
	Uncovered int `json:"uncovered,omitempty"`
}

// Finding is one advisory affecting one component.
type Finding struct {
	Purl      string   `json:"purl"`
	Name      string   `json:"name"`
	Version   string   `json:"version"`
	Ecosystem string   `json:"ecosystem,omitempty"`
	Locations []string `json:"locations"`
	// Development is set when only development needs the component, as
	// its lockfile or manifest says (Component.Development): a test or
	// build tool, not what is deployed. It counts like any other; the
	// agent's --omit-dev leaves such components out of the run.
	Development bool `json:"development,omitempty"`
	// Advisory is the match as the intel index gives it (id, aliases,
	// severity, CVSS, fixed versions, nearest_fix, KEV).
	Advisory sentinel.AdvisoryMatch `json:"advisory"`
	// Suppressed is set when an ignore entry or a VEX statement
	// suppresses the finding; it then does not count in the verdict.
	Suppressed *Suppression `json:"suppressed,omitempty"`
}

// Suppression says why a finding is not counted.
type Suppression struct {
	// Kind is "ignore" (an ignore-file entry) or "vex" (an OpenVEX
	// statement).
	Kind string `json:"kind"`
	// Source is the file, with the entry's line for an ignore file.
	Source string `json:"source"`
	// Reason is the ignore entry's reason, or the VEX impact statement.
	Reason string `json:"reason,omitempty"`
	// Expires is the ignore entry's expiry as written.
	Expires string `json:"expires,omitempty"`
	// Status and Justification are the VEX statement's.
	Status        string `json:"status,omitempty"`
	Justification string `json:"justification,omitempty"`
}

// EOLComponent is a component past end of life.
type EOLComponent struct {
	Name      string   `json:"name"`
	Version   string   `json:"version"`
	Purl      string   `json:"purl"`
	Locations []string `json:"locations"`
	// Development is Finding.Development.
	Development bool               `json:"development,omitempty"`
	EOL         sentinel.EOLStatus `json:"eol"`
}

// Undecided is a component with advisories that cannot be decided.
type Undecided struct {
	Purl       string   `json:"purl"`
	Advisories []string `json:"advisories"`
}

// New builds the report: one finding per (component, advisory), the
// suppressions applied, the verdict decided. sup may be nil.
func New(in Input, sup *Suppressions) *Report {
	r := &Report{
		Schema: Schema, SchemaVersion: SchemaVersion,
		Tool:       Tool{Name: sbom.ToolName, Version: in.ToolVersion},
		Root:       in.Root,
		Project:    in.Project,
		Host:       in.Host,
		Created:    in.Created,
		Intel:      in.Intel,
		Skipped:    in.Skipped,
		Warnings:   slices.Clone(in.Warnings),
		Components: in.Components,
		Findings:   []Finding{},
	}
	byPurl := make(map[string]*sentinel.Component, len(in.Components))
	for i := range in.Components {
		c := &in.Components[i]
		byPurl[c.Purl] = c
		if c.Version == "" {
			r.Summary.Unversioned++
		}
	}
	for _, res := range in.Results {
		if res.Error != "" {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s was not checked: %s", res.Purl, res.Error))
			continue
		}
		c := byPurl[res.Purl]
		if c == nil {
			c = &sentinel.Component{Purl: res.Purl, Name: res.Purl}
		}
		locs := c.Locations
		if locs == nil {
			locs = []string{}
		}
		for _, m := range res.Matches {
			r.Findings = append(r.Findings, Finding{Purl: res.Purl, Name: c.Name, Version: c.Version,
				Ecosystem: c.Ecosystem, Locations: locs, Development: c.Development, Advisory: m})
		}
		if res.EOL != nil && res.EOL.EOL {
			r.EndOfLife = append(r.EndOfLife, EOLComponent{Name: c.Name, Version: c.Version, Purl: res.Purl, Locations: locs,
				Development: c.Development, EOL: *res.EOL})
		}
		if len(res.Undecided) > 0 {
			r.Undecided = append(r.Undecided, Undecided{Purl: res.Purl, Advisories: res.Undecided})
			r.Summary.Undecided += len(res.Undecided)
		}
	}
	r.Summary.EndOfLife = len(r.EndOfLife)
	r.Summary.Uncovered = in.Uncovered
	for i := range r.Findings {
		r.Findings[i].Suppressed = sup.match(&r.Findings[i])
	}
	slices.SortStableFunc(r.Findings, compareFindings)
	r.projects, r.graphFiles, r.FailOn = in.Projects, in.GraphFiles, in.FailOn
	r.decide(in.Results)
	return r
}

// counts reports whether a match fails the gate under the report's
// --fail-on threshold.
func (r *Report) counts(m sentinel.AdvisoryMatch) bool {
	if m.KEV || r.FailOn == "" {
		return true
	}
	rank := severityRank(m.Severity)
	if rank == 4 { // unknown: cannot be ranked, so it is not let through
		return true
	}
	return rank <= severityRank(r.FailOn)
}

// decide sets the verdict and its counts: the service's rule
// (sentinel.DecideGate) over the results with the suppressed matches
// removed.
func (r *Report) decide(results []sentinel.MatchResult) {
	kept := map[string][]sentinel.AdvisoryMatch{} // unsuppressed, by purl
	for _, f := range r.Findings {
		if f.Suppressed != nil {
			r.Summary.Suppressed++
			continue
		}
		if !r.counts(f.Advisory) {
			r.Summary.BelowThreshold++
			continue
		}
		kept[f.Purl] = append(kept[f.Purl], f.Advisory)
	}
	unsuppressed := make([]sentinel.MatchResult, len(results))
	for i, res := range results {
		unsuppressed[i] = sentinel.MatchResult{Purl: res.Purl, Matches: kept[res.Purl], Error: res.Error}
		delete(kept, res.Purl) // a purl listed twice is one vulnerable component
	}
	verdict, s := sentinel.DecideGate(unsuppressed)
	r.Verdict, r.ExitCode = verdict, verdict.ExitCode()
	r.Summary.Components, r.Summary.Vulnerable, r.Summary.KEV, r.Summary.Advisories = s.Components, s.Vulnerable, s.KEV, s.Advisories
}

// VerdictLine is the one-line verdict, e.g. "FAIL (exit 70): 1
// known-exploited component".
func (r *Report) VerdictLine() string {
	s := r.Summary
	switch r.ExitCode {
	case sentinel.GateExitKEV:
		return fmt.Sprintf("FAIL (exit %d): %s known-exploited (CISA KEV): upgrade to the fixed versions listed, or record an accepted risk with a reason and an expiry",
			sentinel.GateExitKEV, plural(s.KEV, "component is", "components are"))
	case sentinel.GateExitVulnerable:
		return fmt.Sprintf("FAIL (exit %d): %s vulnerable, none known-exploited: upgrade to the fixed versions listed, or record an accepted risk with a reason and an expiry",
			sentinel.GateExitVulnerable, plural(s.Vulnerable, "component is", "components are"))
	}
	return fmt.Sprintf("PASS (exit %d): no known vulnerable component among %s", sentinel.GateExitOK, plural(s.Components, "component", "components"))
}

// SummaryLine is the one-line count of the run.
func (r *Report) SummaryLine() string {
	s := r.Summary
	var b strings.Builder
	fmt.Fprintf(&b, "%s checked, %d vulnerable (%d known-exploited), %s",
		plural(s.Components, "component", "components"), s.Vulnerable, s.KEV, plural(s.Advisories, "advisory", "advisories"))
	if s.Suppressed > 0 {
		fmt.Fprintf(&b, ", %d suppressed", s.Suppressed)
	}
	if s.BelowThreshold > 0 {
		fmt.Fprintf(&b, ", %d below --fail-on %s (not counted)", s.BelowThreshold, r.FailOn)
	}
	if s.Undecided > 0 {
		fmt.Fprintf(&b, ", %d undecided", s.Undecided)
	}
	if s.Unversioned > 0 {
		fmt.Fprintf(&b, ", %d without a version (not checked)", s.Unversioned)
	}
	if s.Uncovered > 0 {
		fmt.Fprintf(&b, ", %d that no advisories cover (not checked)", s.Uncovered)
	}
	if s.EndOfLife > 0 {
		fmt.Fprintf(&b, ", %d past end of life", s.EndOfLife)
	}
	return b.String()
}

// DevelopmentLine says, when the gate fails, how many of the failing
// components only development needs, and how to gate without them; ""
// when none does.
func (r *Report) DevelopmentLine() string {
	if r.ExitCode != sentinel.GateExitKEV && r.ExitCode != sentinel.GateExitVulnerable {
		return ""
	}
	failing, dev := map[string]bool{}, map[string]bool{}
	for _, f := range r.Findings {
		if f.Suppressed != nil || !r.counts(f.Advisory) {
			continue
		}
		failing[f.Purl] = true
		if f.Development {
			dev[f.Purl] = true
		}
	}
	if len(dev) == 0 {
		return ""
	}
	const hint = "needed by development only (marked dev): --omit-dev gates what is deployed without them"
	if len(failing) == 1 {
		return "The failing component is " + hint
	}
	return fmt.Sprintf("%d of the %d failing components are %s", len(dev), len(failing), hint)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// severityRank orders severities, most severe first; unknown sorts after
// low (a label we cannot rank is still a finding) and before none.
func severityRank(s string) int {
	switch s {
	case sentinel.SeverityCritical:
		return 0
	case sentinel.SeverityHigh:
		return 1
	case sentinel.SeverityMedium:
		return 2
	case sentinel.SeverityLow:
		return 3
	case sentinel.SeverityNone:
		return 5
	}
	return 4
}

// compareFindings: known-exploited first, then severity, CVSS score
// (higher first), package, version, purl, advisory id.
func compareFindings(a, b Finding) int {
	if a.Advisory.KEV != b.Advisory.KEV {
		if a.Advisory.KEV {
			return -1
		}
		return 1
	}
	return cmp.Or(
		cmp.Compare(severityRank(a.Advisory.Severity), severityRank(b.Advisory.Severity)),
		cmp.Compare(b.Advisory.CVSSScore, a.Advisory.CVSSScore),
		strings.Compare(a.Name, b.Name),
		strings.Compare(a.Version, b.Version),
		strings.Compare(a.Purl, b.Purl),
		strings.Compare(a.Advisory.ID, b.Advisory.ID),
	)
}
