package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// ClaimDeliveries leases up to n due deliveries for lease. Each claim
// counts as an attempt. Two replicas never claim the same delivery at once:
// PostgreSQL skips rows another transaction has locked; SQLite has one
// writer. A delivery whose sender died is due again when its lease ends.
func (db *DB) ClaimDeliveries(ctx context.Context, n int, lease time.Duration) ([]*sentinel.ClaimedDelivery, error) {
	if n <= 0 {
		return nil, nil
	}
	var out []*sentinel.ClaimedDelivery
	err := db.InTx(ctx, func(tx *Tx) error {
		out = out[:0]
		now := MS(tx.Now())
		until := now + lease.Milliseconds()
		claimed, err := lockDue[string](ctx, tx, `SELECT id FROM webhook_deliveries WHERE state = $1 AND next_attempt_at <= $2
			ORDER BY next_attempt_at, event_seq LIMIT $3`, sentinel.DeliveryPending, now, n)
		if err != nil || len(claimed) == 0 {
			return err
		}
		ids := make([]any, len(claimed))
		ph := make([]string, len(claimed))
		for i, id := range claimed {
			ids[i], ph[i] = id, "$"+strconv.Itoa(i+3)
		}
		if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET attempts = attempts + 1, lease_until = $2, next_attempt_at = $2, updated_at = $1
			WHERE id IN (`+strings.Join(ph, ",")+`)`, append([]any{now, until}, ids...)...); err != nil {
			return fmt.Errorf("claim deliveries: %w", err)
		}
		for i := range ids {
			ph[i] = "$" + strconv.Itoa(i+1)
		}
		rows, err := tx.Query(ctx, `SELECT d.id, d.webhook_id, d.event_id, d.event_type, d.subject, d.attempts, d.deadline,
			e.envelope, w.url, w.secret, w.prev_secret, w.prev_secret_until
			FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq JOIN webhooks w ON w.id = d.webhook_id
			WHERE d.id IN (`+strings.Join(ph, ",")+`)`, ids...)
		if err != nil {
			return fmt.Errorf("read claimed deliveries: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var c sentinel.ClaimedDelivery
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
	err := db.QueryRow(ctx, `SELECT MIN(next_attempt_at) FROM webhook_deliveries WHERE state = $1`, sentinel.DeliveryPending).Scan(&ms)
	if err != nil || !ms.Valid {
		return time.Time{}, false, err
	}
	return FromMS(ms.Int64), true, nil
}

// RecordAttempts records the outcomes of attempts, in one transaction. An
// outcome whose attempt is no longer the delivery's current one (its lease
// ran out and another sender took over, or the delivery was deactivated,
// redelivered or deleted meanwhile) is ignored. When a delivery finishes,
// the next waiting delivery about the same subject to the same webhook
// becomes due, unless another one of them is still pending. It returns how
// many outcomes were recorded.
func (db *DB) RecordAttempts(ctx context.Context, outs []sentinel.AttemptOutcome) (int, error) {
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
				if o.State == sentinel.DeliveryPending {
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
		now := MS(tx.Now())
		for _, o := range outs {
			errText := o.Error
			if len(errText) > 1000 {
				errText = errText[:1000]
			}
			var delivered any
			next := MS(o.RetryAt)
			switch o.State {
			case sentinel.DeliverySucceeded:
				delivered, next = MS(o.At), 0
			case sentinel.DeliveryFailed:
				next = 0
			case sentinel.DeliveryPending:
			default:
				return fmt.Errorf("record attempt: bad state %q", o.State)
			}
			var w, s string
			err := tx.QueryRow(ctx, `UPDATE webhook_deliveries SET state = $3, next_attempt_at = $4, lease_until = 0,
				last_status = $5, last_error = $6, last_attempt_id = $7, last_attempt_at = $8,
				delivered_at = COALESCE($9, delivered_at), updated_at = $10
				WHERE id = $1 AND attempts = $2 AND state = $11 RETURNING webhook_id, subject`,
				o.ID, o.Attempt, o.State, next, o.Status, errText, o.AttemptID, MS(o.At), delivered, now, sentinel.DeliveryPending).Scan(&w, &s)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return fmt.Errorf("record attempt of %s: %w", o.ID, translate(err))
			}
			recorded++
			if o.State != sentinel.DeliveryPending && s != "" {
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
		webhookID, subject, sentinel.DeliveryPending, MS(tx.Now()), sentinel.DeliveryWaiting)
	if err != nil {
		return fmt.Errorf("start next delivery: %w", err)
	}
	return nil
}

const deliveryColumns = `id, org_id, webhook_id, event_seq, event_id, event_type, subject, state, attempts, next_attempt_at, lease_until,
	deadline, last_status, last_error, last_attempt_id, last_attempt_at, delivered_at, created_at, updated_at`

func scanDelivery(row interface{ Scan(...any) error }) (*sentinel.Delivery, error) {
	var d sentinel.Delivery
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

// ListDeliveries returns a webhook's deliveries, newest event first. Errors: ENOTFOUND (webhook),
// EINVALID (cursor).
func (db *DB) ListDeliveries(ctx context.Context, f sentinel.DeliveryFilter) ([]*sentinel.Delivery, string, error) {
	if _, err := db.FindWebhook(ctx, f.OrgID, f.WebhookID); err != nil {
		return nil, "", err
	}
	c, ok, err := parseCursor(f.Page.Cursor)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		c.n = 1<<62 - 1
	}
	limit := pageLimit(f.Page, 50)
	rows, err := db.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries
		WHERE org_id = $1 AND webhook_id = $2 AND event_seq < $3 AND ($4 = '' OR state = $4)
		ORDER BY event_seq DESC LIMIT $5`, f.OrgID, f.WebhookID, c.n, f.State, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("list deliveries: %w", err)
	}
	out, err := scanRows(rows, scanDelivery)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(d *sentinel.Delivery) cursor { return cursor{n: d.EventSeq} })
	return out, next, nil
}

// FindDelivery returns one delivery of an organization's webhook.
// Errors: ENOTFOUND.
func (db *DB) FindDelivery(ctx context.Context, orgID, webhookID, id string) (*sentinel.Delivery, error) {
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
func (tx *Tx) Redeliver(ctx context.Context, orgID, webhookID, id string, window time.Duration) (*sentinel.Delivery, error) {
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
	if d.State == sentinel.DeliveryPending || d.State == sentinel.DeliveryWaiting {
		return nil, sentinel.Errorf(sentinel.ECONFLICT, "delivery %s is still queued (%s)", id, d.State)
	}
	now := MS(tx.Now())
	if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET state = $2, next_attempt_at = $3, lease_until = 0, deadline = $4, updated_at = $3
		WHERE id = $1`, id, sentinel.DeliveryPending, now, now+window.Milliseconds()); err != nil {
		return nil, fmt.Errorf("redeliver: %w", err)
	}
	d.State, d.NextAttemptAt, d.LeaseUntil, d.Deadline, d.UpdatedAt = sentinel.DeliveryPending, tx.Now(), time.Time{}, tx.Now().Add(window), tx.Now()
	return d, nil
}

// PurgeDeliveries deletes finished deliveries last changed before before.
func (db *DB) PurgeDeliveries(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM webhook_deliveries WHERE state IN ($1, $2) AND updated_at < $3`,
		sentinel.DeliverySucceeded, sentinel.DeliveryFailed, MS(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ReleaseOrphanedDeliveryLeases makes every delivery leased before now due
// at once where no other process can hold a lease: a SQLite store has one
// sentineld, so leases found at its start belong to its dead predecessor
// and need not be waited out. On PostgreSQL, with replicas, it does
// nothing: leases run out by themselves. It returns how many it released.
func (db *DB) ReleaseOrphanedDeliveryLeases(ctx context.Context) (int64, error) {
	if db.Engine != SQLite {
		return 0, nil
	}
	now := MS(db.Now())
	res, err := db.Exec(ctx, `UPDATE webhook_deliveries SET next_attempt_at = $2, lease_until = 0, updated_at = $2
		WHERE state = $1 AND lease_until > $2`, sentinel.DeliveryPending, now)
	if err != nil {
		return 0, fmt.Errorf("release delivery leases: %w", err)
	}
	return res.RowsAffected()
}
