package sentinel

import "time"

// Component is one third-party package found by any entry point: a lockfile
// walked by the agent, an SBOM submitted to the service, or a fingerprint seen
// during an external scan. The purl is its identity everywhere.
type Component struct {
	// Purl is the package URL with version, e.g. "pkg:npm/lodash@4.17.15".
	Purl string `json:"purl"`
	// Ecosystem is the OSV ecosystem name ("npm", "PyPI", "Go", "Maven", ...).
	Ecosystem string `json:"ecosystem,omitempty"`
	// Name is the package name as the ecosystem writes it (Maven "group:artifact",
	// npm "@scope/name", Go module path).
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	// Type is the CycloneDX component type ("library", "application", ...).
	Type string `json:"type,omitempty"`
	// Locations are the manifest or lockfile paths (relative to the scanned
	// root) or URLs the component was found in.
	Locations []string `json:"locations,omitempty"`
	// DependsOn lists the purls this component depends on, where the source
	// records a dependency graph.
	DependsOn []string `json:"depends_on,omitempty"`
	// Licenses are the component's licenses where its source records them:
	// SPDX identifiers or expressions where they are, else the names as
	// written.
	Licenses []string `json:"licenses,omitempty"`
	// Development is set when only development needs the component (a
	// test runner, a linter, a bundler), as its lockfile, manifest or SBOM
	// says; CycloneDX writes it as scope "excluded". A component is
	// development-only where every file that lists it says so.
	Development bool `json:"development,omitempty"`
	// Properties are facts about the component that have no field of their
	// own, by name (for example "sentinel:go_minimum").
	Properties map[string]string `json:"properties,omitempty"`
}

// AdvisoryMatch is one advisory that affects one component at its version,
// with everything a finding, a CI gate table or an enriched SBOM needs. It is
// the unit the intel index returns and every consumer reads.
type AdvisoryMatch struct {
	// ID is the advisory identifier (GHSA-..., PYSEC-..., GO-..., CVE-...).
	ID      string   `json:"id"`
	Aliases []string `json:"aliases"`
	Summary string   `json:"summary,omitempty"`
	// Severity is one of "critical", "high", "medium", "low", "none" or
	// "unknown": from the CVSS base score where a vector is present, else the
	// database's own severity label.
	Severity   string   `json:"severity"`
	CVSSScore  float64  `json:"cvss_score,omitempty"`
	CVSSVector string   `json:"cvss_vector,omitempty"`
	CWEs       []string `json:"cwes"`
	// FixedVersions are all versions named as fixes in the affected ranges
	// that apply to this package, in ecosystem order.
	FixedVersions []string `json:"fixed_versions"`
	// NearestFix is the lowest fixed version above the installed one; empty
	// when no fix is known.
	NearestFix string `json:"nearest_fix,omitempty"`
	// KEV is true when the advisory or any alias is in the CISA
	// known-exploited catalog.
	KEV           bool   `json:"kev"`
	KEVDateAdded  string `json:"kev_date_added,omitempty"`
	KEVRansomware bool   `json:"kev_ransomware"`
	// Malicious is true for a malicious-package report (an OSV MAL-
	// record) or an indicator that says so: any listed version is bad.
	Malicious bool `json:"malicious,omitempty"`
	// Indicator is set when the match is an operator's indicator (its
	// ioc_ id is ID) rather than an advisory.
	Indicator bool `json:"indicator,omitempty"`
	// EOL is set when end-of-life data knows the component's release cycle.
	EOL *EOLStatus `json:"eol,omitempty"`
	// Modified is the advisory's last modification time.
	Modified time.Time `json:"modified,omitzero"`
}

// EOLStatus tells whether a component's release cycle is past end of life.
type EOLStatus struct {
	Product      string `json:"product"`
	ReleaseCycle string `json:"release_cycle"`
	// EOL is true when the cycle's end-of-life date has passed (or the data
	// says true without a date).
	EOL bool `json:"eol"`
	// EOLDate is the end-of-life date (YYYY-MM-DD) when the data gives one.
	EOLDate string `json:"eol_date,omitempty"`
	// Latest is the newest release in the cycle.
	Latest string `json:"latest,omitempty"`
}

// Severity labels, from most to least severe.
const (
	SeverityCritical = "critical"
	SeverityHigh     = "high"
	SeverityMedium   = "medium"
	SeverityLow      = "low"
	SeverityNone     = "none"
	SeverityUnknown  = "unknown"
)
