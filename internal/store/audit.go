package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
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
		orgID, actor.KeyID, action, target, actor.Addr, string(d), MS(tx.Now))
	if err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	return nil
}

// AuditFilter selects audit entries of one organization inside [Since, Until).
type AuditFilter struct {
	OrgID  string
	Since  time.Time
	Until  time.Time
	Action string // optional exact action
	Page   Page
}

// FindAuditEntries returns audit entries oldest first. The cursor is the
// last entry's id.
func (db *DB) FindAuditEntries(ctx context.Context, f AuditFilter) ([]*sentinel.AuditEntry, string, error) {
	after := int64(0)
	if f.Page.Cursor != "" {
		v, err := strconv.ParseInt(f.Page.Cursor, 10, 64)
		if err != nil {
			return nil, "", sentinel.InvalidField("cursor", "cursor is not valid")
		}
		after = v
	}
	until := f.Until
	if until.IsZero() {
		until = time.Unix(1<<40, 0)
	}
	limit := f.Page.Limit
	if limit <= 0 {
		limit = 1 << 30
	}
	rows, err := db.Query(ctx, `SELECT id, actor, action, target, addr, details, created_at FROM audit_log
		WHERE org_id = $1 AND created_at >= $2 AND created_at < $3 AND id > $4 AND ($5 = '' OR action = $5)
		ORDER BY id LIMIT $6`, f.OrgID, MS(f.Since), MS(until), after, f.Action, limit+1)
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
	out, next := TrimPage(out, limit, func(e *sentinel.AuditEntry) string { return strconv.FormatInt(e.ID, 10) })
	return out, next, nil
}
