package sentinel

import "time"

// Asset kinds.
const (
	AssetHost    = "host"    // a host an agent reports
	AssetProject = "project" // a repository or build an agent reports
	AssetSite    = "site"    // a web site external scans reach
)

// Asset states: a site that a later scan could not reach has disappeared
// until a scan reaches it again.
const (
	AssetActive      = "active"
	AssetDisappeared = "disappeared"
)

// Criticalities, from highest; an asset's criticality moves its findings'
// risk.
const (
	CriticalityCritical = "critical"
	CriticalityHigh     = "high"
	CriticalityMedium   = "medium"
	CriticalityLow      = "low"
)

// ValidCriticality reports whether c is one of the four criticalities.
func ValidCriticality(c string) bool {
	switch c {
	case CriticalityCritical, CriticalityHigh, CriticalityMedium, CriticalityLow:
		return true
	}
	return false
}

// Scan schedules of a site asset. The empty schedule of a host or project
// means the asset is not scanned.
const (
	ScheduleOff    = "off"
	ScheduleHourly = "hourly"
	ScheduleDaily  = "daily"
	ScheduleWeekly = "weekly"
)

// ScheduleInterval returns the time between scheduled scans, or 0 when the
// schedule runs no scans.
func ScheduleInterval(s string) time.Duration {
	switch s {
	case ScheduleHourly:
		return time.Hour
	case ScheduleDaily:
		return 24 * time.Hour
	case ScheduleWeekly:
		return 7 * 24 * time.Hour
	}
	return 0
}

// AssetRef names an asset and the kind it has when it is new.
type AssetRef struct{ Name, Kind string }

// Asset is what findings are about: a host or project an agent names, or a
// site external scans reach.
type Asset struct {
	ID          string    `json:"id"`
	OrgID       string    `json:"-"`
	Name        string    `json:"name"`
	Kind        string    `json:"kind"`        // AssetHost, AssetProject, AssetSite
	Criticality string    `json:"criticality"` // CriticalityCritical ... CriticalityLow
	FirstSeen   time.Time `json:"first_seen"`
	LastSeen    time.Time `json:"last_seen"`

	// Target is a site's URL, what its scans start from.
	Target string `json:"target,omitempty"`
	// Schedule is a site's scan schedule (Schedule*), NextScanAt when the
	// next scheduled scan is due.
	Schedule   string     `json:"schedule,omitempty"`
	NextScanAt *time.Time `json:"next_scan_at,omitempty"`
	// State is AssetActive or AssetDisappeared (DisappearedAt says since
	// when).
	State         string     `json:"state"`
	DisappearedAt *time.Time `json:"disappeared_at,omitempty"`
	// VerifiedAt is when the organization proved it controls the site
	// (VerifiedBy: "http" or "dns"); VerifyToken is what it must publish.
	VerifiedAt  *time.Time `json:"verified_at,omitempty"`
	VerifiedBy  string     `json:"verified_by,omitempty"`
	VerifyToken string     `json:"-"`
}

// AssetFilter selects an organization's assets.
type AssetFilter struct {
	OrgID string
	Kind  string
	State string
	// Name, when set, keeps the asset of that exact name.
	Name string
	Page Page
}

// AssetUpdate changes an asset; nil fields stay as they are.
type AssetUpdate struct {
	Criticality *string
	Schedule    *string
	Target      *string
}

// ScanFilter selects an organization's scans, newest first.
type ScanFilter struct {
	OrgID   string
	AssetID string
	Status  string
	Page    Page
}
