package sentinel

import "time"

// Finding statuses (DESIGN.md).
const (
	StatusOpen          = "open"
	StatusAccepted      = "accepted" // risk accepted, with a reason and an expiry
	StatusResolved      = "resolved" // no longer present
	StatusFalsePositive = "false_positive"
)

// CategoryVulnerableComponent marks every supply-chain finding.
const CategoryVulnerableComponent = "vulnerable_component"

// Weakness classes of supply-chain findings.
const (
	CWEVulnerableDependency = "CWE-1395" // a dependency with a known vulnerability
	CWEUnmaintained         = "CWE-1104" // an unmaintained (end-of-life) component
	CWEOWASPComponents      = "CWE-937"  // OWASP's category both roll up to
)

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

// Asset is what findings are about: a host or project an agent names, or a
// site an external scan reaches.
type Asset struct {
	ID          string    `json:"id"`
	OrgID       string    `json:"-"`
	Name        string    `json:"name"`
	Kind        string    `json:"kind"`        // "host", "project", "site"
	Criticality string    `json:"criticality"` // "low", "medium", "high", "critical"
	FirstSeen   time.Time `json:"first_seen"`
	LastSeen    time.Time `json:"last_seen"`
}

// Finding is one advisory affecting one component on one asset.
type Finding struct {
	ID            string     `json:"id"`
	OrgID         string     `json:"-"`
	AssetID       string     `json:"asset_id"`
	AssetName     string     `json:"asset_name,omitempty"`
	Purl          string     `json:"purl"`
	AdvisoryID    string     `json:"advisory_id"`
	Category      string     `json:"category"`
	CWE           string     `json:"cwe"`
	Summary       string     `json:"summary,omitempty"`
	Aliases       []string   `json:"aliases"`
	Severity      string     `json:"severity"`
	CVSSScore     float64    `json:"cvss_score"`
	KEV           bool       `json:"kev"`
	KEVDateAdded  string     `json:"kev_date_added,omitempty"`
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
	Source     string     `json:"source,omitempty"`
	FirstSeen  time.Time  `json:"first_seen"`
	LastSeen   time.Time  `json:"last_seen"`
	ResolvedAt *time.Time `json:"resolved_at,omitempty"`
	UpdatedAt  time.Time  `json:"updated_at"`
}
