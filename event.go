package sentinel

import (
	"encoding/json"
	"strings"
	"time"
)

// Event types: the specification's full list (Events, Event types). New
// types may be added; consumers ignore unknown ones.
const (
	EventFindingCreated       = "finding.created"
	EventFindingReopened      = "finding.reopened"
	EventFindingEscalated     = "finding.escalated"
	EventFindingStatusChanged = "finding.status_changed"
	EventFindingSLABreached   = "finding.sla_breached"
	EventFindingAssigned      = "finding.assigned"
	EventScanQueued           = "scan.queued"
	EventScanStarted          = "scan.started"
	EventScanCompleted        = "scan.completed"
	EventScanFailed           = "scan.failed"
	EventScanCanceled         = "scan.canceled"
	EventAssetFirstSeen       = "asset.first_seen"
	EventAssetDisappeared     = "asset.disappeared"
	EventAssetReappeared      = "asset.reappeared"
	EventSBOMSubmitted        = "sbom.submitted"
	EventSBOMIntelMatch       = "sbom.intel_match"
	EventBundleCreated        = "bundle.created"
	EventBundleAccessed       = "bundle.accessed"
	EventBundleRevoked        = "bundle.revoked"
	EventSecretDetected       = "secret.detected"
	EventSecretVerifiedLive   = "secret.verified_live"
	EventEdgeCorrelationMatch = "edge.correlation_match"
	EventWebhookTest          = "webhook.test"
)

// EventTypes is the registry of every event type, in the specification's order.
var EventTypes = []string{
	EventFindingCreated, EventFindingReopened, EventFindingEscalated,
	EventFindingStatusChanged, EventFindingSLABreached, EventFindingAssigned,
	EventScanQueued, EventScanStarted, EventScanCompleted, EventScanFailed, EventScanCanceled,
	EventAssetFirstSeen, EventAssetDisappeared, EventAssetReappeared,
	EventSBOMSubmitted, EventSBOMIntelMatch, EventBundleCreated, EventBundleAccessed,
	EventBundleRevoked, EventSecretDetected, EventSecretVerifiedLive,
	EventEdgeCorrelationMatch, EventWebhookTest,
}

// KnownEventType reports whether t is in the registry.
func KnownEventType(t string) bool {
	for _, e := range EventTypes {
		if e == t {
			return true
		}
	}
	return false
}

// ValidEventPattern reports whether p is a subscription pattern Sentinel
// accepts: an exact known type, "group.*" for a known group, or "*".
func ValidEventPattern(p string) bool {
	if p == "*" || KnownEventType(p) {
		return true
	}
	group, ok := strings.CutSuffix(p, ".*")
	if !ok {
		return false
	}
	for _, e := range EventTypes {
		if strings.HasPrefix(e, group+".") {
			return true
		}
	}
	return false
}

// MatchEventPattern reports whether event type t matches pattern p.
func MatchEventPattern(p, t string) bool {
	if p == "*" || p == t {
		return true
	}
	group, ok := strings.CutSuffix(p, ".*")
	return ok && strings.HasPrefix(t, group+".")
}

// Event is the specification's envelope. It is written to the store's outbox
// in the same transaction as the change it describes, and delivered later.
type Event struct {
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	CreatedAt    time.Time       `json:"created_at"`
	Organization string          `json:"organization"`
	Data         json.RawMessage `json:"data"`

	// OrgID is the owning organization's id (not part of the envelope).
	OrgID string `json:"-"`
	// Subject orders deliveries: events with the same subject (a finding id)
	// go to each webhook in the order they were written.
	Subject string `json:"-"`
	// Seq is the outbox sequence number, increasing in commit order per store.
	Seq int64 `json:"-"`
}

// MarshalEnvelope returns the envelope's JSON with created_at in RFC 3339 UTC
// at second precision, as every delivery carries it.
func (e *Event) MarshalEnvelope() ([]byte, error) {
	return json.Marshal(struct {
		ID           string          `json:"id"`
		Type         string          `json:"type"`
		CreatedAt    string          `json:"created_at"`
		Organization string          `json:"organization"`
		Data         json.RawMessage `json:"data"`
	}{e.ID, e.Type, e.CreatedAt.UTC().Format(time.RFC3339), e.Organization, e.Data})
}

// FindingEscalatedData is the data of finding.escalated, exactly the
// specification's table.
type FindingEscalatedData struct {
	FindingID           string   `json:"finding_id"`
	Category            string   `json:"category"`
	CWE                 string   `json:"cwe"`
	RiskScore           int      `json:"risk_score"`
	PreviousRiskScore   int      `json:"previous_risk_score"`
	AssetID             string   `json:"asset_id"`
	AssetCriticality    string   `json:"asset_criticality"`
	SLAWindowHours      int      `json:"sla_window_hours"`
	PrimaryRiskCategory string   `json:"primary_risk_category"`
	Compliance          []string `json:"compliance"`
}

// EventFilter selects an organization's events.
type EventFilter struct {
	OrgID string
	Type  string
	Limit int
}
