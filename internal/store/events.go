package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/sentinel-sca/sentinel"
)

// EmitEvent writes an event to the outbox in the same transaction as the
// change it describes, so a committed change never loses its event and a
// rolled-back one never sends one. data is marshalled as the envelope's
// data object; subject orders deliveries (a finding id, or "").
func (tx *Tx) EmitEvent(ctx context.Context, org *sentinel.Organization, typ, subject string, data any) (*sentinel.Event, error) {
	if !sentinel.KnownEventType(typ) {
		return nil, fmt.Errorf("emit event: unknown type %q", typ)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("emit %s: %w", typ, err)
	}
	e := &sentinel.Event{
		ID: sentinel.NewID(sentinel.PrefixEvent), Type: typ, CreatedAt: tx.Now(),
		Organization: org.Slug, Data: raw, OrgID: org.ID, Subject: subject,
	}
	env, err := e.MarshalEnvelope()
	if err != nil {
		return nil, err
	}
	if tx.buf != nil {
		tx.buf.events = append(tx.buf.events, []any{e.ID, e.OrgID, e.Type, e.Subject, env, MS(e.CreatedAt)})
		return e, nil
	}
	_, err = tx.Exec(ctx, `INSERT INTO events (id, org_id, type, subject, envelope, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		e.ID, e.OrgID, e.Type, e.Subject, env, MS(e.CreatedAt))
	if err != nil {
		return nil, fmt.Errorf("emit %s: %w", typ, err)
	}
	return e, nil
}

// PendingEvents returns up to limit events not yet fanned out, in outbox
// order, locking them on PostgreSQL so that two replicas fan out disjoint
// sets.
func (tx *Tx) PendingEvents(ctx context.Context, limit int) ([]*sentinel.Event, error) {
	q := `SELECT ` + eventColumns + ` FROM events WHERE fanned_out = $1 ORDER BY seq LIMIT $2`
	if tx.Engine() == Postgres {
		q += ` FOR UPDATE SKIP LOCKED`
	}
	rows, err := tx.Query(ctx, q, false, limit)
	if err != nil {
		return nil, fmt.Errorf("pending events: %w", err)
	}
	return scanEvents(rows)
}

// MarkFannedOut marks events as handed to every subscriber.
func (tx *Tx) MarkFannedOut(ctx context.Context, seqs []int64) error {
	for _, s := range seqs {
		if _, err := tx.Exec(ctx, `UPDATE events SET fanned_out = $2 WHERE seq = $1`, s, true); err != nil {
			return err
		}
	}
	return nil
}

// FindEvents returns an organization's newest events first.
func (db *DB) FindEvents(ctx context.Context, f sentinel.EventFilter) ([]*sentinel.Event, error) {
	if f.Limit <= 0 {
		f.Limit = 50
	}
	rows, err := db.Query(ctx, `SELECT `+eventColumns+` FROM events
		WHERE org_id = $1 AND ($2 = '' OR type = $2) ORDER BY seq DESC LIMIT $3`, f.OrgID, f.Type, f.Limit)
	if err != nil {
		return nil, err
	}
	return scanEvents(rows)
}

const eventColumns = `seq, id, org_id, type, subject, envelope, created_at`

// scanEvents reads rows of eventColumns and closes them.
func scanEvents(rows *sql.Rows) ([]*sentinel.Event, error) {
	defer rows.Close()
	var out []*sentinel.Event
	for rows.Next() {
		var e sentinel.Event
		var env []byte
		var created int64
		if err := rows.Scan(&e.Seq, &e.ID, &e.OrgID, &e.Type, &e.Subject, &env, &created); err != nil {
			return nil, err
		}
		var envelope struct {
			Organization string          `json:"organization"`
			Data         json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(env, &envelope); err != nil {
			return nil, fmt.Errorf("event %s: %w", e.ID, err)
		}
		e.Organization, e.Data, e.CreatedAt = envelope.Organization, envelope.Data, FromMS(created)
		out = append(out, &e)
	}
	return out, rows.Err()
}
