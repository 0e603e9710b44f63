package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// Webhook is a webhook registration as stored. Secret and PrevSecret are
// sealed with the master key (secret.Box, associated data = ID); the store
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

// CreateWebhook stores a new registration. Errors: ECONFLICT (the
// organization has MaxWebhooksPerOrg webhooks), ENOTFOUND (organization).
func (tx *Tx) CreateWebhook(ctx context.Context, w *Webhook) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM webhooks WHERE org_id = $1`, w.OrgID).Scan(&n); err != nil {
		return fmt.Errorf("count webhooks: %w", err)
	}
	if n >= MaxWebhooksPerOrg {
		return sentinel.Errorf(sentinel.ECONFLICT, "an organization can register at most %d webhooks; delete one first", MaxWebhooksPerOrg)
	}
	ev, err := json.Marshal(w.Events)
	if err != nil {
		return err
	}
	w.CreatedAt, w.UpdatedAt = tx.Now, tx.Now
	_, err = tx.Exec(ctx, `INSERT INTO webhooks (id, org_id, url, description, events, active, secret, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
		w.ID, w.OrgID, w.URL, w.Description, string(ev), w.Active, w.Secret, MS(tx.Now))
	if err != nil {
		return fmt.Errorf("create webhook: %w", err)
	}
	return nil
}

const webhookColumns = `id, org_id, url, description, events, active, secret, prev_secret, prev_secret_until, created_at, updated_at`

func scanWebhook(row interface{ Scan(...any) error }) (*Webhook, error) {
	var w Webhook
	var events string
	var until sql.NullInt64
	var created, updated int64
	if err := row.Scan(&w.ID, &w.OrgID, &w.URL, &w.Description, &events, &w.Active, &w.Secret, &w.PrevSecret, &until, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(events), &w.Events); err != nil {
		return nil, fmt.Errorf("webhook %s events: %w", w.ID, err)
	}
	w.PrevSecretUntil = nullMS(until)
	w.CreatedAt, w.UpdatedAt = FromMS(created), FromMS(updated)
	return &w, nil
}

// FindWebhook returns an organization's webhook. Errors: ENOTFOUND (also
// for another organization's webhook).
func (db *DB) FindWebhook(ctx context.Context, orgID, id string) (*Webhook, error) {
	w, err := scanWebhook(db.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("webhook")
	}
	return w, err
}

// FindWebhook is FindWebhook inside the transaction.
func (tx *Tx) FindWebhook(ctx context.Context, orgID, id string) (*Webhook, error) {
	w, err := scanWebhook(tx.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("webhook")
	}
	return w, err
}

// ListWebhooks returns an organization's webhooks in id order; the cursor
// is the last id.
func (db *DB) ListWebhooks(ctx context.Context, orgID string, page Page) ([]*Webhook, string, error) {
	if page.Limit <= 0 {
		page.Limit = 50
	}
	rows, err := db.Query(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
		orgID, page.Cursor, page.Limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("list webhooks: %w", err)
	}
	out, err := scanRows(rows, scanWebhook)
	if err != nil {
		return nil, "", err
	}
	out, next := TrimPage(out, page.Limit, func(w *Webhook) string { return w.ID })
	return out, next, nil
}

// WebhookUpdate holds optional changes to a webhook.
type WebhookUpdate struct {
	URL         *string
	Events      *[]string
	Description *string
	Active      *bool
}

// UpdateWebhook changes a webhook and returns it as updated. Deactivating
// a webhook fails its unfinished deliveries (they stay visible and can be
// redelivered by hand after it is active again). Errors: ENOTFOUND.
func (tx *Tx) UpdateWebhook(ctx context.Context, orgID, id string, u WebhookUpdate) (*Webhook, error) {
	var events *string
	if u.Events != nil {
		b, err := json.Marshal(*u.Events)
		if err != nil {
			return nil, err
		}
		s := string(b)
		events = &s
	}
	res, err := tx.Exec(ctx, `UPDATE webhooks SET url = COALESCE($3, url), events = COALESCE($4, events),
		description = COALESCE($5, description), active = COALESCE($6, active), updated_at = $7
		WHERE org_id = $1 AND id = $2`, orgID, id, u.URL, events, u.Description, u.Active, MS(tx.Now))
	if err != nil {
		return nil, fmt.Errorf("update webhook: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, notFound("webhook")
	}
	if u.Active != nil && !*u.Active {
		if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET state = $2, last_error = $3, lease_until = 0, updated_at = $4
			WHERE webhook_id = $1 AND state IN ($5, $6)`,
			id, DeliveryFailed, "webhook deactivated", MS(tx.Now), DeliveryPending, DeliveryWaiting); err != nil {
			return nil, fmt.Errorf("fail deliveries of deactivated webhook: %w", err)
		}
	}
	return tx.FindWebhook(ctx, orgID, id)
}

// DeleteWebhook deletes a webhook and its deliveries; an attempt in flight
// finishes but is not recorded. Errors: ENOTFOUND.
func (tx *Tx) DeleteWebhook(ctx context.Context, orgID, id string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2`, orgID, id); err != nil {
		return fmt.Errorf("delete deliveries: %w", err)
	}
	res, err := tx.Exec(ctx, `DELETE FROM webhooks WHERE org_id = $1 AND id = $2`, orgID, id)
	if err != nil {
		return fmt.Errorf("delete webhook: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound("webhook")
	}
	return nil
}

// RotateWebhookSecret makes sealed the webhook's secret; the current one
// becomes the previous secret, still used to sign until prevUntil. A
// previous secret from an earlier rotation is dropped. Errors: ENOTFOUND.
func (tx *Tx) RotateWebhookSecret(ctx context.Context, orgID, id string, sealed []byte, prevUntil time.Time) (*Webhook, error) {
	res, err := tx.Exec(ctx, `UPDATE webhooks SET prev_secret = secret, prev_secret_until = $3, secret = $4, updated_at = $5
		WHERE org_id = $1 AND id = $2`, orgID, id, MS(prevUntil), sealed, MS(tx.Now))
	if err != nil {
		return nil, fmt.Errorf("rotate webhook secret: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, notFound("webhook")
	}
	return tx.FindWebhook(ctx, orgID, id)
}

// lockSubjects serialises, on PostgreSQL, the transactions that decide
// whether a delivery about a subject waits (fan-out) or may start (a
// finished predecessor): without it, a fan-out could see a predecessor
// still pending while the predecessor's completion sees no waiting row, and
// the new row would wait for ever. Keys are locked in sorted order so that
// two transactions cannot deadlock. SQLite has one writer: nothing to do.
func (tx *Tx) lockSubjects(ctx context.Context, keys []string) error {
	if tx.Engine() != Postgres || len(keys) == 0 {
		return nil
	}
	keys = slices.Clone(keys)
	slices.Sort(keys)
	keys = slices.Compact(keys)
	for _, k := range keys {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 7460003))`, k); err != nil {
			return fmt.Errorf("lock delivery subject: %w", err)
		}
	}
	return nil
}

func subjectKey(webhookID, subject string) string { return webhookID + " " + subject }

// insertDelivery adds the delivery of event e to webhook w; it is a no-op
// when that delivery exists. A delivery about a subject waits while an
// earlier one about the same subject to the same webhook is unfinished.
func (tx *Tx) insertDelivery(ctx context.Context, e *sentinel.Event, webhookID string, window time.Duration) (string, error) {
	state := DeliveryPending
	if e.Subject != "" {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = $1 AND subject = $2 AND state IN ($3, $4)`,
			webhookID, e.Subject, DeliveryPending, DeliveryWaiting).Scan(&n); err != nil {
			return "", fmt.Errorf("check delivery order: %w", err)
		}
		if n > 0 {
			state = DeliveryWaiting
		}
	}
	id := sentinel.NewID(sentinel.PrefixDelivery)
	now := MS(tx.Now)
	_, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (id, org_id, webhook_id, event_seq, event_id, event_type, subject, state,
		next_attempt_at, deadline, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $9, $9) ON CONFLICT (webhook_id, event_seq) DO NOTHING`,
		id, e.OrgID, webhookID, e.Seq, e.ID, e.Type, e.Subject, state, now, MS(e.CreatedAt.Add(window)))
	if err != nil {
		return "", fmt.Errorf("insert delivery: %w", err)
	}
	return id, nil
}

// FanOutEvents takes up to limit events from the outbox and, in this
// transaction, writes one delivery per matching active webhook of the
// event's organization and marks the events fanned out. window is how long
// after the event its deliveries are retried. It returns the number of
// events and of deliveries written.
//
// On PostgreSQL one replica fans out at a time (a transaction-scoped
// advisory lock, tried without waiting: a replica that does not get it
// returns 0, 0 and the holder carries on). Disjoint batches taken in
// parallel (PendingEvents' SKIP LOCKED alone) could commit out of order,
// and a later event about a finding would then be queued ahead of an
// earlier one. Fan-out is one cheap transaction per 500 events, so
// serialising it costs little.
func (tx *Tx) FanOutEvents(ctx context.Context, limit int, window time.Duration) (events, deliveries int, err error) {
	if tx.Engine() == Postgres {
		var got bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(7460004)`).Scan(&got); err != nil {
			return 0, 0, fmt.Errorf("fan-out lock: %w", err)
		}
		if !got {
			return 0, 0, nil
		}
	}
	pending, err := tx.PendingEvents(ctx, limit)
	if err != nil || len(pending) == 0 {
		return 0, 0, err
	}
	orgs := map[string][]*Webhook{}
	for _, e := range pending {
		if _, ok := orgs[e.OrgID]; ok {
			continue
		}
		ws, err := tx.activeWebhooks(ctx, e.OrgID)
		if err != nil {
			return 0, 0, err
		}
		orgs[e.OrgID] = ws
	}
	type target struct {
		e *sentinel.Event
		w string
	}
	var targets []target
	var keys []string
	for _, e := range pending {
		for _, w := range orgs[e.OrgID] {
			if e.Type == sentinel.EventWebhookTest {
				continue // test events go only to the webhook they test
			}
			if slices.ContainsFunc(w.Events, func(p string) bool { return sentinel.MatchEventPattern(p, e.Type) }) {
				targets = append(targets, target{e, w.ID})
				if e.Subject != "" {
					keys = append(keys, subjectKey(w.ID, e.Subject))
				}
			}
		}
	}
	if err := tx.lockSubjects(ctx, keys); err != nil {
		return 0, 0, err
	}
	for _, t := range targets {
		if _, err := tx.insertDelivery(ctx, t.e, t.w, window); err != nil {
			return 0, 0, err
		}
	}
	seqs := make([]int64, len(pending))
	for i, e := range pending {
		seqs[i] = e.Seq
	}
	if err := tx.MarkFannedOut(ctx, seqs); err != nil {
		return 0, 0, fmt.Errorf("mark fanned out: %w", err)
	}
	return len(pending), len(targets), nil
}

func (tx *Tx) activeWebhooks(ctx context.Context, orgID string) ([]*Webhook, error) {
	rows, err := tx.Query(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE org_id = $1 AND active = $2`, orgID, true)
	if err != nil {
		return nil, fmt.Errorf("active webhooks: %w", err)
	}
	return scanRows(rows, scanWebhook)
}

// HasPendingEvents reports, cheaply and without a write transaction,
// whether the outbox holds events not yet fanned out.
func (db *DB) HasPendingEvents(ctx context.Context) (bool, error) {
	var seq int64
	err := db.QueryRow(ctx, `SELECT seq FROM events WHERE fanned_out = $1 LIMIT 1`, false).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// EmitTestEvent writes a webhook.test event for one webhook and its single
// delivery, in this transaction: the event is marked fanned out at once, so
// other webhooks subscribed to webhook.test or "*" do not receive it.
// Errors: ENOTFOUND.
func (tx *Tx) EmitTestEvent(ctx context.Context, org *sentinel.Organization, webhookID string, data any, window time.Duration) (*sentinel.Event, string, error) {
	if _, err := tx.FindWebhook(ctx, org.ID, webhookID); err != nil {
		return nil, "", err
	}
	e, err := tx.EmitEvent(ctx, org, sentinel.EventWebhookTest, "", data)
	if err != nil {
		return nil, "", err
	}
	if err := tx.QueryRow(ctx, `SELECT seq FROM events WHERE id = $1`, e.ID).Scan(&e.Seq); err != nil {
		return nil, "", fmt.Errorf("test event: %w", err)
	}
	if err := tx.MarkFannedOut(ctx, []int64{e.Seq}); err != nil {
		return nil, "", err
	}
	id, err := tx.insertDelivery(ctx, e, webhookID, window)
	return e, id, err
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

// ClaimDeliveries leases up to n due deliveries for lease. Each claim
// counts as an attempt. Two replicas never claim the same delivery at once:
// PostgreSQL skips rows another transaction has locked; SQLite has one
// writer. A delivery whose sender died is due again when its lease ends.
func (db *DB) ClaimDeliveries(ctx context.Context, n int, lease time.Duration) ([]*ClaimedDelivery, error) {
	if n <= 0 {
		return nil, nil
	}
	var out []*ClaimedDelivery
	err := db.InTx(ctx, func(tx *Tx) error {
		out = out[:0]
		now := MS(tx.Now)
		until := now + lease.Milliseconds()
		sub := `SELECT id FROM webhook_deliveries WHERE state = $1 AND next_attempt_at <= $2 ORDER BY next_attempt_at, event_seq LIMIT $3`
		if tx.Engine() == Postgres {
			sub += ` FOR UPDATE SKIP LOCKED`
		}
		rows, err := tx.Query(ctx, `UPDATE webhook_deliveries SET attempts = attempts + 1, lease_until = $4, next_attempt_at = $4, updated_at = $2
			WHERE id IN (`+sub+`) RETURNING id`, DeliveryPending, now, n, until)
		if err != nil {
			return fmt.Errorf("claim deliveries: %w", err)
		}
		var ids []any
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(ids) == 0 {
			return err
		}
		ph := make([]string, len(ids))
		for i := range ids {
			ph[i] = "$" + strconv.Itoa(i+1)
		}
		rows, err = tx.Query(ctx, `SELECT d.id, d.webhook_id, d.event_id, d.event_type, d.subject, d.attempts, d.deadline,
			e.envelope, w.url, w.secret, w.prev_secret, w.prev_secret_until
			FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq JOIN webhooks w ON w.id = d.webhook_id
			WHERE d.id IN (`+strings.Join(ph, ",")+`)`, ids...)
		if err != nil {
			return fmt.Errorf("read claimed deliveries: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var c ClaimedDelivery
			var deadline int64
			var until sql.NullInt64
			if err := rows.Scan(&c.ID, &c.WebhookID, &c.EventID, &c.EventType, &c.Subject, &c.Attempt, &deadline,
				&c.Envelope, &c.URL, &c.Secret, &c.PrevSecret, &until); err != nil {
				return err
			}
			c.Deadline = FromMS(deadline)
			if until.Valid {
				c.PrevSecretUntil = FromMS(until.Int64)
			}
			out = append(out, &c)
		}
		return rows.Err()
	})
	return out, err
}

// NextDeliveryDue returns when the earliest pending delivery is due (or
// its lease ends), and false when none is pending.
func (db *DB) NextDeliveryDue(ctx context.Context) (time.Time, bool, error) {
	var ms sql.NullInt64
	err := db.QueryRow(ctx, `SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE state = $1`, DeliveryPending).Scan(&ms)
	if err != nil || !ms.Valid {
		return time.Time{}, false, err
	}
	return FromMS(ms.Int64), true, nil
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

// RecordAttempts records the outcomes of attempts, in one transaction. An
// outcome whose attempt is no longer the delivery's current one (its lease
// ran out and another sender took over, or the delivery was deactivated,
// redelivered or deleted meanwhile) is ignored. When a delivery finishes,
// the next waiting delivery about the same subject to the same webhook
// becomes due, unless another one of them is still pending. It returns how
// many outcomes were recorded.
func (db *DB) RecordAttempts(ctx context.Context, outs []AttemptOutcome) (int, error) {
	if len(outs) == 0 {
		return 0, nil
	}
	var recorded int
	err := db.InTx(ctx, func(tx *Tx) error {
		recorded = 0
		type key struct{ webhook, subject string }
		var finished []key
		var lockKeys []string
		if tx.Engine() == Postgres {
			// Learn the subjects first so their locks are taken in order.
			for _, o := range outs {
				if o.State == DeliveryPending {
					continue
				}
				var w, s string
				err := tx.QueryRow(ctx, `SELECT webhook_id, subject FROM webhook_deliveries WHERE id = $1`, o.ID).Scan(&w, &s)
				if err == nil && s != "" {
					lockKeys = append(lockKeys, subjectKey(w, s))
				}
			}
			if err := tx.lockSubjects(ctx, lockKeys); err != nil {
				return err
			}
		}
		now := MS(tx.Now)
		for _, o := range outs {
			errText := o.Error
			if len(errText) > 1000 {
				errText = errText[:1000]
			}
			var delivered any
			next := MS(o.RetryAt)
			switch o.State {
			case DeliverySucceeded:
				delivered, next = MS(o.At), 0
			case DeliveryFailed:
				next = 0
			case DeliveryPending:
			default:
				return fmt.Errorf("record attempt: bad state %q", o.State)
			}
			var w, s string
			err := tx.QueryRow(ctx, `UPDATE webhook_deliveries SET state = $3, next_attempt_at = $4, lease_until = 0,
				last_status = $5, last_error = $6, last_attempt_id = $7, last_attempt_at = $8,
				delivered_at = COALESCE($9, delivered_at), updated_at = $10
				WHERE id = $1 AND attempts = $2 AND state = $11 RETURNING webhook_id, subject`,
				o.ID, o.Attempt, o.State, next, o.Status, errText, o.AttemptID, MS(o.At), delivered, now, DeliveryPending).Scan(&w, &s)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return fmt.Errorf("record attempt of %s: %w", o.ID, translate(err))
			}
			recorded++
			if o.State != DeliveryPending && s != "" {
				finished = append(finished, key{w, s})
			}
		}
		for _, k := range finished {
			if err := tx.startNext(ctx, k.webhook, k.subject); err != nil {
				return err
			}
		}
		return nil
	})
	return recorded, err
}

// startNext makes the oldest waiting delivery about subject to the webhook
// due, when none of them is pending. The caller holds the subject's lock.
func (tx *Tx) startNext(ctx context.Context, webhookID, subject string) error {
	_, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET state = $3, next_attempt_at = $4, updated_at = $4
		WHERE id = (SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND subject = $2 AND state = $5 ORDER BY event_seq LIMIT 1)
		AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE webhook_id = $1 AND subject = $2 AND state = $3)`,
		webhookID, subject, DeliveryPending, MS(tx.Now), DeliveryWaiting)
	if err != nil {
		return fmt.Errorf("start next delivery: %w", err)
	}
	return nil
}

const deliveryColumns = `id, org_id, webhook_id, event_seq, event_id, event_type, subject, state, attempts, next_attempt_at, lease_until,
	deadline, last_status, last_error, last_attempt_id, last_attempt_at, delivered_at, created_at, updated_at`

func scanDelivery(row interface{ Scan(...any) error }) (*Delivery, error) {
	var d Delivery
	var next, lease, deadline, created, updated int64
	var last, delivered sql.NullInt64
	if err := row.Scan(&d.ID, &d.OrgID, &d.WebhookID, &d.EventSeq, &d.EventID, &d.EventType, &d.Subject, &d.State, &d.Attempts,
		&next, &lease, &deadline, &d.LastStatus, &d.LastError, &d.LastAttemptID, &last, &delivered, &created, &updated); err != nil {
		return nil, err
	}
	d.NextAttemptAt, d.LeaseUntil, d.Deadline = FromMS(next), FromMS(lease), FromMS(deadline)
	d.LastAttemptAt, d.DeliveredAt = nullMS(last), nullMS(delivered)
	d.CreatedAt, d.UpdatedAt = FromMS(created), FromMS(updated)
	return &d, nil
}

// DeliveryFilter selects a webhook's deliveries.
type DeliveryFilter struct {
	OrgID     string
	WebhookID string
	// State, when set, keeps only deliveries in that state.
	State string
	Page  Page
}

// ListDeliveries returns a webhook's deliveries, newest event first; the
// cursor is the last event's sequence number. Errors: ENOTFOUND (webhook),
// EINVALID (cursor).
func (db *DB) ListDeliveries(ctx context.Context, f DeliveryFilter) ([]*Delivery, string, error) {
	if _, err := db.FindWebhook(ctx, f.OrgID, f.WebhookID); err != nil {
		return nil, "", err
	}
	before := int64(1<<62 - 1)
	if f.Page.Cursor != "" {
		v, err := strconv.ParseInt(f.Page.Cursor, 10, 64)
		if err != nil {
			return nil, "", sentinel.InvalidField("cursor", "cursor is not valid")
		}
		before = v
	}
	if f.Page.Limit <= 0 {
		f.Page.Limit = 50
	}
	rows, err := db.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE org_id = $1 AND webhook_id = $2 AND event_seq < $3 AND ($4 = '' OR state = $4)
		ORDER BY event_seq DESC LIMIT $5`, f.OrgID, f.WebhookID, before, f.State, f.Page.Limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("list deliveries: %w", err)
	}
	out, err := scanRows(rows, scanDelivery)
	if err != nil {
		return nil, "", err
	}
	out, next := TrimPage(out, f.Page.Limit, func(d *Delivery) string { return strconv.FormatInt(d.EventSeq, 10) })
	return out, next, nil
}

// FindDelivery returns one delivery of an organization's webhook.
// Errors: ENOTFOUND.
func (db *DB) FindDelivery(ctx context.Context, orgID, webhookID, id string) (*Delivery, error) {
	d, err := scanDelivery(db.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 AND id = $3`,
		orgID, webhookID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("delivery")
	}
	return d, err
}

// Redeliver queues a finished delivery (succeeded or failed) again, due at
// once, with a fresh retry window. A redelivery by hand is sent at once,
// outside its subject's order: the operator asked for it. Errors:
// ENOTFOUND, ECONFLICT (the delivery is still queued, or the webhook is
// inactive).
func (tx *Tx) Redeliver(ctx context.Context, orgID, webhookID, id string, window time.Duration) (*Delivery, error) {
	w, err := tx.FindWebhook(ctx, orgID, webhookID)
	if err != nil {
		return nil, err
	}
	d, err := scanDelivery(tx.QueryRow(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2 AND id = $3`,
		orgID, webhookID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("delivery")
	}
	if err != nil {
		return nil, err
	}
	if !w.Active {
		return nil, sentinel.Errorf(sentinel.ECONFLICT, "webhook %s is inactive; activate it before redelivering", webhookID)
	}
	if d.State == DeliveryPending || d.State == DeliveryWaiting {
		return nil, sentinel.Errorf(sentinel.ECONFLICT, "delivery %s is still queued (%s)", id, d.State)
	}
	now := MS(tx.Now)
	if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET state = $2, next_attempt_at = $3, lease_until = 0, deadline = $4, updated_at = $3
		WHERE id = $1`, id, DeliveryPending, now, now+window.Milliseconds()); err != nil {
		return nil, fmt.Errorf("redeliver: %w", err)
	}
	d.State, d.NextAttemptAt, d.LeaseUntil, d.Deadline, d.UpdatedAt = DeliveryPending, tx.Now, time.Time{}, tx.Now.Add(window), tx.Now
	return d, nil
}

// PurgeDeliveries deletes finished deliveries last changed before before.
func (db *DB) PurgeDeliveries(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM webhook_deliveries WHERE state IN ($1, $2) AND updated_at < $3`,
		DeliverySucceeded, DeliveryFailed, MS(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ReleaseDeliveryLeases makes every delivery leased before now due at
// once. Call it only where no other process can hold a lease: at the start
// of the single process that owns a SQLite store, whose leases all belong
// to its dead predecessor. It returns how many leases it released.
func (db *DB) ReleaseDeliveryLeases(ctx context.Context) (int64, error) {
	now := MS(db.Now())
	res, err := db.Exec(ctx, `UPDATE webhook_deliveries SET next_attempt_at = $2, lease_until = 0, updated_at = $2
		WHERE state = $1 AND lease_until > $2`, DeliveryPending, now)
	if err != nil {
		return 0, fmt.Errorf("release delivery leases: %w", err)
	}
	return res.RowsAffected()
}
