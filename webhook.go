package sentinel

import "time"

// Webhook is a webhook registration as stored. Secret and PrevSecret are
// sealed with the master key (seal.Box, associated data = ID); the store
// never sees them in the clear.
type Webhook struct {
	ID          string
	OrgID       string
	URL         string
	Description string
	// Events are subscription patterns: an exact type, "group.*" or "*".
	Events []string
	Active bool
	Secret []byte
	// PrevSecret is the secret before the last rotation; deliveries are
	// signed with it too until PrevSecretUntil.
	PrevSecret      []byte
	PrevSecretUntil *time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Delivery states.
const (
	// DeliveryWaiting: an earlier delivery about the same subject to the
	// same webhook is not finished; this one starts when it is.
	DeliveryWaiting = "waiting"
	// DeliveryPending: due at NextAttemptAt (or in flight while its lease
	// runs).
	DeliveryPending = "pending"
	// DeliverySucceeded: a 2xx answer arrived.
	DeliverySucceeded = "succeeded"
	// DeliveryFailed: given up (retry window over, or webhook deactivated);
	// it can be redelivered by hand.
	DeliveryFailed = "failed"
)

// Delivery is one event's delivery to one webhook, with the outcome of its
// latest attempt.
type Delivery struct {
	ID            string
	OrgID         string
	WebhookID     string
	EventSeq      int64
	EventID       string
	EventType     string
	Subject       string
	State         string
	Attempts      int
	NextAttemptAt time.Time
	LeaseUntil    time.Time
	Deadline      time.Time
	// LastStatus is the last attempt's HTTP status (0: no answer).
	LastStatus int
	LastError  string
	// LastAttemptID is the Service-Delivery UUID of the last attempt.
	LastAttemptID string
	LastAttemptAt *time.Time
	DeliveredAt   *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// MaxWebhooksPerOrg bounds an organization's registrations.
const MaxWebhooksPerOrg = 100

// WebhookUpdate holds optional changes to a webhook.
type WebhookUpdate struct {
	URL         *string
	Events      *[]string
	Description *string
	Active      *bool
}

// ClaimedDelivery is a delivery leased to one sender for one attempt, with
// everything the attempt needs.
type ClaimedDelivery struct {
	ID        string
	WebhookID string
	EventID   string
	EventType string
	Subject   string
	// Attempt is this attempt's number (1 for the first); it guards the
	// outcome against a sender whose lease ran out.
	Attempt  int
	Deadline time.Time
	// Envelope is the exact JSON stored when the event was emitted.
	Envelope        []byte
	URL             string
	Secret          []byte // sealed
	PrevSecret      []byte // sealed, nil when none
	PrevSecretUntil time.Time
}

// AttemptOutcome is what one attempt of a claimed delivery came to.
type AttemptOutcome struct {
	ID      string
	Attempt int
	// AttemptID is the attempt's Service-Delivery UUID.
	AttemptID string
	At        time.Time
	// Status is the HTTP status (0: no answer); Error says what went wrong.
	Status int
	Error  string
	// State is DeliverySucceeded, DeliveryFailed (given up) or
	// DeliveryPending (retry at RetryAt).
	State   string
	RetryAt time.Time
}

// DeliveryFilter selects a webhook's deliveries.
type DeliveryFilter struct {
	OrgID     string
	WebhookID string
	// State, when set, keeps only deliveries in that state.
	State string
	Page  Page
}
