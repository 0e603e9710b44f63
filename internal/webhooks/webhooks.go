// Package webhooks is the sending side of Sentinel's webhooks: registration
// (the /v1/webhooks routes), the fan-out from the events outbox to one
// delivery per subscribed webhook, and the delivery worker that signs and
// POSTs each delivery until it succeeds or its retry window ends.
//
// How the parts meet:
//
//   - A change writes its event to the outbox (store.Tx.EmitEvent) in its
//     own transaction. The fan-out loop takes pending events (locked with
//     SKIP LOCKED on PostgreSQL, so replicas take disjoint batches) and, in
//     one transaction, writes a delivery row per matching active webhook and
//     marks the events fanned out. It wakes on Notify, on PostgreSQL's
//     NOTIFY from the events table, and polls besides.
//   - The dispatcher claims due deliveries with a lease (store
//     ClaimDeliveries), several senders POST them, and one recorder writes
//     the outcomes back in batches. A sender that dies leaves a lease that
//     runs out: the delivery is due again, and the attempt counter guards
//     against the late outcome of the dead attempt.
//   - Deliveries about the same subject (a finding id) to the same webhook
//     go out in event order: a later one waits (state "waiting") until the
//     earlier one succeeded or failed for good.
//
// Why not the generic jobs runner (internal/jobs)? Deliveries need their
// own visible records (the deliveries API), per-subject ordering, retry
// windows measured from the event rather than attempt counts, and a
// throughput of thousands per second, which one job row and one
// transaction per attempt would not give. The queue semantics are the
// same: leases, SKIP LOCKED claims, backoff with jitter.
package webhooks

import (
	sentinel "github.com/sentinel-sca/sentinel"

	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// Defaults (docs/design.md, Webhooks).
const (
	// DefaultTimeout is how long a receiver has to answer: success is any
	// 2xx within it.
	DefaultTimeout = 10 * time.Second
	// DefaultWindow is how long after the event a delivery is retried.
	DefaultWindow = 24 * time.Hour
	// DefaultRotationOverlap is how long the previous secret still signs
	// deliveries after a rotation.
	DefaultRotationOverlap = 24 * time.Hour
	// PurgeJobKind is the periodic job that deletes old finished deliveries.
	PurgeJobKind = "webhooks.purge"
)

// Store is what the webhooks service reads, and Update its write
// transaction. The store implements it (store.Bind[webhooks.Tx]).
type Store interface {
	sentinel.Clock
	FindWebhook(ctx context.Context, orgID, id string) (*sentinel.Webhook, error)
	ListWebhooks(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.Webhook, string, error)
	ListDeliveries(ctx context.Context, f sentinel.DeliveryFilter) ([]*sentinel.Delivery, string, error)
	// HasPendingEvents reports whether the outbox holds events not yet
	// fanned out (a read: an idle poll takes no write lock).
	HasPendingEvents(ctx context.Context) (bool, error)
	// ClaimDeliveries leases up to n due deliveries for lease; each claim
	// counts as an attempt.
	ClaimDeliveries(ctx context.Context, n int, lease time.Duration) ([]*sentinel.ClaimedDelivery, error)
	// NextDeliveryDue says when the earliest pending delivery is due.
	NextDeliveryDue(ctx context.Context) (time.Time, bool, error)
	// RecordAttempts writes attempt outcomes; stale ones are ignored.
	RecordAttempts(ctx context.Context, outs []sentinel.AttemptOutcome) (int, error)
	PurgeDeliveries(ctx context.Context, before time.Time) (int64, error)
	// ReleaseOrphanedDeliveryLeases frees leases no live process can hold.
	ReleaseOrphanedDeliveryLeases(ctx context.Context) (int64, error)
	// Notifies reports whether ListenEvents works on this store;
	// ListenEvents calls wake whenever events commit anywhere.
	Notifies() bool
	ListenEvents(ctx context.Context, wake func()) error
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what the webhooks service writes in one transaction.
type Tx interface {
	sentinel.Clock
	sentinel.AuditWriter
	CreateWebhook(ctx context.Context, w *sentinel.Webhook) error
	FindWebhook(ctx context.Context, orgID, id string) (*sentinel.Webhook, error)
	UpdateWebhook(ctx context.Context, orgID, id string, u sentinel.WebhookUpdate) (*sentinel.Webhook, error)
	DeleteWebhook(ctx context.Context, orgID, id string) error
	RotateWebhookSecret(ctx context.Context, orgID, id string, sealed []byte, prevUntil time.Time) (*sentinel.Webhook, error)
	// EmitTestEvent writes a webhook.test event with one delivery, to
	// that webhook only, and returns the event and the delivery id.
	EmitTestEvent(ctx context.Context, org *sentinel.Organization, webhookID string, data any, window time.Duration) (*sentinel.Event, string, error)
	Redeliver(ctx context.Context, orgID, webhookID, id string, window time.Duration) (*sentinel.Delivery, error)
	// FanOutEvents turns up to limit pending events into deliveries.
	FanOutEvents(ctx context.Context, limit int, window time.Duration) (events, deliveries int, err error)
}

// Service registers webhooks and delivers their events. Set the fields,
// then serve Routes and call Run; Notify after committing events to skip
// the poll delay.
type Service struct {
	DB     Store
	Box    *seal.Box
	Logger *slog.Logger
	// Policy decides which URLs may be registered and dialled.
	Policy netguard.Policy
	// Client sends deliveries; nil means netguard.NewClient(Policy, Timeout).
	// Tests may set their own, but the real one is used everywhere else.
	Client *http.Client
	// UserAgent is sent with every delivery.
	UserAgent string
	// Now is the clock used to sign and schedule (default DB.Now).
	Now func() time.Time

	// Senders is the number of deliveries sent at once (default 32).
	Senders int
	// Batch bounds one claim (default 2*Senders).
	Batch int
	// Timeout bounds one attempt (default DefaultTimeout).
	Timeout time.Duration
	// Lease is how long a claimed delivery is reserved for its sender
	// (default Timeout + 30s). It must exceed Timeout.
	Lease time.Duration
	// Poll is how often the fan-out and the dispatcher look for work
	// without a notification (default 50ms; an idle poll is one indexed
	// read).
	Poll time.Duration
	// RetryBase is the first retry's delay; each further retry doubles it,
	// up to RetryMax, with jitter (defaults 5s and 1h).
	RetryBase time.Duration
	RetryMax  time.Duration
	// Window is how long after the event deliveries are retried
	// (default DefaultWindow).
	Window time.Duration
	// RotationOverlap is how long a rotated-out secret still signs
	// (default DefaultRotationOverlap).
	RotationOverlap time.Duration
	// MaxBody bounds request bodies (default 64 KiB).
	MaxBody int64
	// Retention is how long finished deliveries are kept (default 30 days).
	Retention time.Duration
	// Metrics, when set, receives the delivery metrics.
	Metrics prometheus.Registerer

	once     sync.Once
	metrics  *metrics
	fanWake  chan struct{}
	sendWake chan struct{}
}

func (s *Service) init() {
	s.once.Do(func() {
		if s.Logger == nil {
			s.Logger = slog.New(slog.DiscardHandler)
		}
		if s.Now == nil {
			s.Now = s.DB.Now
		}
		if s.Senders <= 0 {
			s.Senders = 32
		}
		if s.Batch <= 0 {
			s.Batch = 2 * s.Senders
		}
		if s.Timeout <= 0 {
			s.Timeout = DefaultTimeout
		}
		if s.Lease <= s.Timeout {
			s.Lease = s.Timeout + 30*time.Second
		}
		if s.Poll <= 0 {
			s.Poll = 50 * time.Millisecond
		}
		if s.RetryBase <= 0 {
			s.RetryBase = 5 * time.Second
		}
		if s.RetryMax <= 0 {
			s.RetryMax = time.Hour
		}
		if s.Window <= 0 {
			s.Window = DefaultWindow
		}
		if s.RotationOverlap <= 0 {
			s.RotationOverlap = DefaultRotationOverlap
		}
		if s.MaxBody <= 0 {
			s.MaxBody = 64 << 10
		}
		if s.Retention <= 0 {
			s.Retention = 30 * 24 * time.Hour
		}
		if s.UserAgent == "" {
			s.UserAgent = "Sentinel-Webhooks/1"
		}
		if s.Client == nil {
			s.Client = netguard.NewClient(s.Policy, s.Timeout)
		}
		s.metrics = newMetrics(s.Metrics)
		s.fanWake = make(chan struct{}, 1)
		s.sendWake = make(chan struct{}, 1)
	})
}

// Notify wakes the fan-out (and so the senders): call it after committing
// events, so they go out without waiting for the next poll.
func (s *Service) Notify() {
	s.init()
	signal(s.fanWake)
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Purge deletes finished deliveries older than Retention; it is the
// handler of the PurgeJobKind periodic job.
func (s *Service) Purge(ctx context.Context, _ *sentinel.Job) error {
	s.init()
	n, err := s.DB.PurgeDeliveries(ctx, s.Now().Add(-s.Retention))
	if err == nil && n > 0 {
		s.Logger.Info("purged old webhook deliveries", "count", n)
	}
	return err
}
