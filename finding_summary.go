package sentinel

import (
	"encoding/json"
	"time"
)

// FindingSummary is an organization's findings at a glance: what the
// portal's overview and GET /v1/findings/summary show.
type FindingSummary struct {
	// OpenByBand counts open findings per band; KEVOpen the open ones that
	// are known-exploited; Overdue the open ones past their SLA.
	OpenByBand    map[string]int `json:"open_by_band"`
	Open          int            `json:"open"`
	KEVOpen       int            `json:"kev_open"`
	Overdue       int            `json:"overdue"`
	Accepted      int            `json:"accepted"`
	FalsePositive int            `json:"false_positive"`
	Resolved      int            `json:"resolved"`
	// TopKEV are the riskiest open known-exploited findings; TopOverdue the
	// open findings longest past their SLA (at most 10 each).
	TopKEV     []*Finding `json:"top_kev"`
	TopOverdue []*Finding `json:"top_overdue"`
	// Trend has one point per day of the window, oldest first.
	Trend []TrendPoint `json:"trend"`
	// ComputedAt is when the counts were made (a summary is reused for a
	// few seconds).
	ComputedAt time.Time `json:"computed_at"`
}

// TrendPoint is one day of the findings trend. Unresolved counts the
// findings first seen by the end of the day and not resolved by then
// (open or accepted; false positives are left out throughout); New and
// Resolved count the day's arrivals and resolutions. A finding that was
// resolved and came back counts from its first sighting and is not
// counted as resolved: only the current resolution time is kept.
type TrendPoint struct {
	Day        string `json:"day"` // 2006-01-02, UTC
	Unresolved int    `json:"unresolved"`
	New        int    `json:"new"`
	Resolved   int    `json:"resolved"`
}

// FindingHistoryEntry is one line of a finding's history: an event about
// it (created, reopened, escalated, status changed, SLA breached, assigned)
// or an audit entry of an operator's change to it.
type FindingHistoryEntry struct {
	At time.Time `json:"at"`
	// Kind is "event" or "audit".
	Kind string `json:"kind"`
	// Type is the event type or the audit action.
	Type string `json:"type"`
	// Actor is who made an audited change (an API key or a user).
	Actor   string          `json:"actor,omitempty"`
	Details json.RawMessage `json:"details,omitempty"`
}

// SubmissionFilter selects an organization's SBOM submissions.
type SubmissionFilter struct {
	OrgID string
	// Host keeps the submissions of one host.
	Host string
	// Newest lists the newest first (default: oldest first).
	Newest bool
	Page   Page
}
