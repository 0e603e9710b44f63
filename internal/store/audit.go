package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// Audit records a state-changing action in the same transaction as the
// change itself: if the change commits, so does its audit entry.
func (tx *Tx) Audit(ctx context.Context, orgID string, actor sentinel.Actor, action, target string, details map[string]any) error {
	d := []byte("{}")
	if len(details) > 0 {
		var err error
		if d, err = json.Marshal(details); err != nil {
			return fmt.Errorf("audit details: %w", err)
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO audit_log (org_id, actor, action, target, addr, details, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		orgID, actor.KeyID, action, target, actor.Addr, string(d), MS(tx.Now()))
	if err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	return nil
}

// FindAuditEntries returns audit entries oldest first.
func (db *DB) FindAuditEntries(ctx context.Context, f sentinel.AuditFilter) ([]*sentinel.AuditEntry, string, error) {
	c, _, err := parseCursor(f.Page.Cursor)
	if err != nil {
		return nil, "", err
	}
	until := f.Until
	if until.IsZero() {
		until = time.Unix(1<<40, 0)
	}
	limit := pageLimit(f.Page, 1<<30)
	q := `SELECT id, actor, action, target, addr, details, created_at FROM audit_log
		WHERE org_id = $1 AND created_at >= $2 AND created_at < $3 AND id > $4 AND ($5 = '' OR action = $5)`
	args := []any{f.OrgID, MS(f.Since), MS(until), c.n, f.Action, limit + 1}
	if f.Target != "" {
		// A condition of its own rather than ($n = '' OR ...), so that the
		// planner can use the (org_id, target, id) index.
		q += ` AND target = $7`
		args = append(args, f.Target)
	}
	rows, err := db.Query(ctx, q+` ORDER BY id LIMIT $6`, args...)
	if err != nil {
		return nil, "", fmt.Errorf("find audit entries: %w", err)
	}
	defer rows.Close()
	var out []*sentinel.AuditEntry
	for rows.Next() {
		var e sentinel.AuditEntry
		var details string
		var created int64
		if err := rows.Scan(&e.ID, &e.Actor, &e.Action, &e.Target, &e.Addr, &details, &created); err != nil {
			return nil, "", err
		}
		e.OrgID = f.OrgID
		e.CreatedAt = FromMS(created)
		if details != "{}" {
			_ = json.Unmarshal([]byte(details), &e.Details)
		}
		out = append(out, &e)
	}
	if err := rows.Err(); err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(e *sentinel.AuditEntry) cursor { return cursor{n: e.ID} })
	return out, next, nil
}
