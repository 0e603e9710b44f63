package sentinel

import "time"

// Finding statuses (docs/design.md).
const (
	StatusOpen          = "open"
	StatusAccepted      = "accepted" // risk accepted, with a reason and an expiry
	StatusResolved      = "resolved" // no longer present
	StatusFalsePositive = "false_positive"
)

// Finding categories: vulnerable_component marks every supply-chain
// finding (an advisory, an end-of-life component, an indicator);
// exposed_secret a credential found in a tree.
const (
	CategoryVulnerableComponent = "vulnerable_component"
	CategoryExposedSecret       = "exposed_secret"
)

// Categories lists every finding category.
var Categories = []string{CategoryVulnerableComponent, CategoryExposedSecret}

// Weakness classes of supply-chain findings.
const (
	CWEVulnerableDependency = "CWE-1395" // a dependency with a known vulnerability
	CWEUnmaintained         = "CWE-1104" // an unmaintained (end-of-life) component
	CWEOWASPComponents      = "CWE-937"  // OWASP's category both roll up to
)

// Weaknesses returns the weakness classes of a finding of category with
// the given CWE: the CWE itself and, for a component finding, CWE-937
// (OWASP's "using components with known vulnerabilities"), which both
// CWE-1395 and CWE-1104 roll up to.
func Weaknesses(category, cwe string) []string {
	out := []string{}
	if cwe != "" {
		out = append(out, cwe)
	}
	if category == CategoryVulnerableComponent && cwe != CWEOWASPComponents {
		out = append(out, CWEOWASPComponents)
	}
	return out
}

// Risk bands, from highest.
const (
	BandCritical = "critical"
	BandHigh     = "high"
	BandMedium   = "medium"
	BandLow      = "low"
)

// Band returns the band of a 0-100 risk score: critical >= 90, high >= 70,
// medium >= 40, else low.
func Band(score int) string {
	switch {
	case score >= 90:
		return BandCritical
	case score >= 70:
		return BandHigh
	case score >= 40:
		return BandMedium
	}
	return BandLow
}

// BandRank orders bands: low 1 ... critical 4.
func BandRank(b string) int {
	switch b {
	case BandCritical:
		return 4
	case BandHigh:
		return 3
	case BandMedium:
		return 2
	case BandLow:
		return 1
	}
	return 0
}

// SLAWindow is how long a finding of a band may stay open: 72, 168, 720 or
// 2160 hours.
func SLAWindow(band string) time.Duration {
	switch band {
	case BandCritical:
		return 72 * time.Hour
	case BandHigh:
		return 168 * time.Hour
	case BandMedium:
		return 720 * time.Hour
	}
	return 2160 * time.Hour
}

// Finding is one advisory affecting one component on one asset.
type Finding struct {
	ID         string `json:"id"`
	OrgID      string `json:"-"`
	AssetID    string `json:"asset_id"`
	AssetName  string `json:"asset_name,omitempty"`
	Purl       string `json:"purl"`
	AdvisoryID string `json:"advisory_id"`
	Category   string `json:"category"`
	CWE        string `json:"cwe"`
	// Weaknesses are the classes the finding maps to: its CWE and, for a
	// component finding, the category CWE-937 it rolls up to.
	Weaknesses   []string `json:"weaknesses"`
	Summary      string   `json:"summary,omitempty"`
	Aliases      []string `json:"aliases"`
	Severity     string   `json:"severity"`
	CVSSScore    float64  `json:"cvss_score"`
	KEV          bool     `json:"kev"`
	KEVDateAdded string   `json:"kev_date_added,omitempty"`
	// Malicious is true for a package known to be malicious (an OSV MAL-
	// record, an indicator that says so).
	Malicious bool `json:"malicious"`
	// Development is true when the asset's source marks the component as
	// needed only for development (a test runner, a linter, a bundler):
	// what is deployed does not carry it. The risk score does not change
	// for it; a triage filters on it.
	Development   bool       `json:"development"`
	FixedVersions []string   `json:"fixed_versions"`
	NearestFix    string     `json:"nearest_fix,omitempty"`
	RiskScore     int        `json:"risk_score"`
	Band          string     `json:"band"`
	SLADueAt      time.Time  `json:"sla_due_at"`
	SLABreachedAt *time.Time `json:"sla_breached_at,omitempty"`
	Status        string     `json:"status"`
	StatusReason  string     `json:"status_reason,omitempty"`
	AcceptedUntil *time.Time `json:"accepted_until,omitempty"`
	Owner         string     `json:"owner,omitempty"`
	Compliance    []string   `json:"compliance"`
	// Source says which entry point found it: "sbom", "scan", "ioc".
	Source string `json:"source,omitempty"`
	// Evidence says where the component was seen: the submission, the
	// scan's URLs and signals, the indicator.
	Evidence   []FindingEvidence `json:"evidence"`
	FirstSeen  time.Time         `json:"first_seen"`
	LastSeen   time.Time         `json:"last_seen"`
	ResolvedAt *time.Time        `json:"resolved_at,omitempty"`
	UpdatedAt  time.Time         `json:"updated_at"`
}

// FindingScope names the findings of an asset a reconciliation reads: all
// of them when Purls is nil, else those of these purls.
type FindingScope struct {
	AssetID string
	Purls   []string
}

// FindingFilter selects findings; nil and empty fields do not filter.
type FindingFilter struct {
	OrgID    string
	Status   []string
	Category string
	// CWE keeps findings of one weakness class ("CWE-1104").
	CWE string
	KEV *bool
	// Development keeps findings of development-only components (true)
	// or of what is deployed (false).
	Development *bool
	Severity    string
	Band        string
	AssetID     string
	Purl        string
	Advisory    string
	// Owner keeps findings assigned to this exact owner.
	Owner string
	// Sort is "" (by id) or FindingSortRisk: highest risk first, then by
	// id, so that known-exploited findings lead.
	Sort string
	Page Page
}

// FindingSortRisk orders findings by risk score, highest first.
const FindingSortRisk = "risk"

// FindingEvidence is one place a finding's component was seen.
type FindingEvidence struct {
	// Kind is "sbom" for a submission, one of the scan evidence kinds
	// (hash, path, fingerprint, ...), or "ioc".
	Kind string `json:"kind"`
	// Source names the submission, scan or indicator (sub_, scan_, ioc_).
	Source string `json:"source,omitempty"`
	// URL is the page or asset of a scan, or the manifest of a submission.
	URL string `json:"url,omitempty"`
	// Detail is the matched text or hash.
	Detail string `json:"detail,omitempty"`
}
