package webhook

import (
	"encoding/json"
	"time"
)

// Delivery headers (specification: Events, Delivery headers).
const (
	// HeaderSignature carries "t=<unix>,v1=<hex>[,v1=<hex>...]".
	HeaderSignature = "Service-Signature"
	// HeaderEvent carries the event type, equal to the envelope's type.
	HeaderEvent = "Service-Event"
	// HeaderDelivery carries the UUID of this delivery attempt. It changes on
	// every retry; the event id does not, so deduplicate on [Event.ID].
	HeaderDelivery = "Service-Delivery"
)

// Event is the envelope every delivery's body holds.
//
// Delivery is at least once: a retried event arrives again with the same ID,
// and consumers should process each ID once.
type Event struct {
	// ID identifies the event, "evt_..."; it is the same on every retry.
	ID string `json:"id"`
	// Type is one of the event types ("finding.created", ...); it tells the
	// consumer how to read Data. Unknown types must be skipped, not failed.
	Type string `json:"type"`
	// CreatedAt is when the change happened, sent as RFC 3339 in UTC.
	CreatedAt time.Time `json:"created_at"`
	// Organization is the slug of the organization the event belongs to.
	Organization string `json:"organization"`
	// Data is the type-specific payload, left raw for the consumer to decode.
	Data json.RawMessage `json:"data"`
}
