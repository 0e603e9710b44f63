package sentinel

import (
	"context"
	"time"
)

// The write-side capabilities that many packages' transaction interfaces
// share. Each feature package defines its own Store and Tx interfaces with
// just the methods it uses, embedding these where it writes events or
// audit entries; the store implements all of them on one transaction type.

// Clock tells the time: a store's current time, or a transaction's time
// (fixed when it began, so every row it writes carries the same time).
type Clock interface {
	Now() time.Time
}

// EventWriter writes an event to the outbox in the caller's transaction:
// if the change commits, the event exists, and it is delivered later.
// subject orders deliveries (a finding id, else "").
type EventWriter interface {
	EmitEvent(ctx context.Context, org *Organization, typ, subject string, data any) (*Event, error)
}

// AuditWriter records a state-changing action in the caller's transaction.
type AuditWriter interface {
	Audit(ctx context.Context, orgID string, actor Actor, action, target string, details map[string]any) error
}

// OrgFinder looks up organizations. Errors: ENOTFOUND.
type OrgFinder interface {
	FindOrgByID(ctx context.Context, id string) (*Organization, error)
	FindOrgBySlug(ctx context.Context, slug string) (*Organization, error)
}

// JobEnqueuer adds a durable job in the caller's transaction, so that the
// job exists if and only if the change that asked for it commits. It
// reports whether a job was inserted (false when UniqueKey matched a
// pending job).
type JobEnqueuer interface {
	Enqueue(ctx context.Context, kind string, args []byte, o EnqueueOptions) (id int64, inserted bool, err error)
}
