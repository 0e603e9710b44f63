package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sentinel-sca/sentinel"
)

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
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || $1, 7460003))`, k); err != nil {
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
	state := sentinel.DeliveryPending
	if e.Subject != "" {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = $1 AND subject = $2 AND state IN ($3, $4)`,
			webhookID, e.Subject, sentinel.DeliveryPending, sentinel.DeliveryWaiting).Scan(&n); err != nil {
			return "", fmt.Errorf("check delivery order: %w", err)
		}
		if n > 0 {
			state = sentinel.DeliveryWaiting
		}
	}
	id := sentinel.NewID(sentinel.PrefixDelivery)
	now := MS(tx.Now())
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
// advisory lock keyed by the schema, so deployments sharing a database do
// not wait on each other, tried without waiting: a replica that does not get it
// returns 0, 0 and the holder carries on). Disjoint batches taken in
// parallel (PendingEvents' SKIP LOCKED alone) could commit out of order,
// and a later event about a finding would then be queued ahead of an
// earlier one. Fan-out is one cheap transaction per 500 events, so
// serialising it costs little.
func (tx *Tx) FanOutEvents(ctx context.Context, limit int, window time.Duration) (events, deliveries int, err error) {
	if tx.Engine() == Postgres {
		var got bool
		if err := tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(7460004, hashtext(current_schema()))`).Scan(&got); err != nil {
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
	orgs := map[string][]*sentinel.Webhook{}
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

func (tx *Tx) activeWebhooks(ctx context.Context, orgID string) ([]*sentinel.Webhook, error) {
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
