package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// Edge correlation windows (migration 0012): one row per finding that
// adversary traffic matched.

// LockFindings locks the organization's findings with the ids for the rest
// of the transaction on PostgreSQL (in id order, so that two transactions
// locking overlapping sets cannot deadlock); on SQLite the transaction
// already holds the one writer lock. Unknown ids are ignored.
func (tx *Tx) LockFindings(ctx context.Context, orgID string, ids []string) error {
	if tx.Engine() != Postgres || len(ids) == 0 {
		return nil
	}
	ids = append([]string(nil), ids...)
	sort.Strings(ids)
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := []any{orgID}
		ph := make([]string, len(chunk))
		for i, id := range chunk {
			args = append(args, id)
			ph[i] = fmt.Sprintf("$%d", i+2)
		}
		rows, err := tx.Query(ctx, `SELECT id FROM findings WHERE org_id = $1 AND id IN (`+strings.Join(ph, ",")+`) ORDER BY id FOR UPDATE`, args...)
		if err != nil {
			return fmt.Errorf("lock findings: %w", err)
		}
		for rows.Next() {
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("lock findings: %w", err)
		}
	}
	return nil
}

// EdgeWindows returns the stored correlation windows of the organization's
// findings with the ids, keyed by finding id, inside the transaction.
func (tx *Tx) EdgeWindows(ctx context.Context, orgID string, ids []string) (map[string]*sentinel.EdgeWindow, error) {
	out := make(map[string]*sentinel.EdgeWindow, len(ids))
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := []any{orgID}
		ph := make([]string, len(chunk))
		for i, id := range chunk {
			args = append(args, id)
			ph[i] = fmt.Sprintf("$%d", i+2)
		}
		rows, err := tx.Query(ctx, `SELECT finding_id, org_id, window_start, count, reached, last_seen, total, boost FROM edge_windows
			WHERE org_id = $1 AND finding_id IN (`+strings.Join(ph, ",")+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("edge windows: %w", err)
		}
		ws, err := scanRows(rows, func(r interface{ Scan(...any) error }) (*sentinel.EdgeWindow, error) {
			var w sentinel.EdgeWindow
			var start, last int64
			if err := r.Scan(&w.FindingID, &w.OrgID, &start, &w.Count, &w.Reached, &last, &w.Total, &w.Boost); err != nil {
				return nil, err
			}
			w.WindowStart, w.LastSeen = FromMS(start), FromMS(last)
			return &w, nil
		})
		if err != nil {
			return nil, fmt.Errorf("edge windows: %w", err)
		}
		for _, w := range ws {
			out[w.FindingID] = w
		}
	}
	return out, nil
}

// SaveEdgeWindow creates or replaces a finding's correlation window.
func (tx *Tx) SaveEdgeWindow(ctx context.Context, w *sentinel.EdgeWindow) error {
	_, err := tx.Exec(ctx, `INSERT INTO edge_windows (finding_id, org_id, window_start, count, reached, last_seen, total, boost, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (finding_id) DO UPDATE SET window_start = excluded.window_start, count = excluded.count, reached = excluded.reached,
			last_seen = excluded.last_seen, total = excluded.total, boost = excluded.boost, updated_at = excluded.updated_at`,
		w.FindingID, w.OrgID, MS(w.WindowStart), w.Count, w.Reached, MS(w.LastSeen), w.Total, w.Boost, MS(tx.Now()))
	if err != nil {
		return fmt.Errorf("save edge window: %w", err)
	}
	return nil
}

// EdgeWindow returns a finding's correlation window. Errors: ENOTFOUND.
func (db *DB) EdgeWindow(ctx context.Context, orgID, findingID string) (*sentinel.EdgeWindow, error) {
	var w sentinel.EdgeWindow
	var start, last int64
	err := db.QueryRow(ctx, `SELECT finding_id, org_id, window_start, count, reached, last_seen, total, boost FROM edge_windows
		WHERE org_id = $1 AND finding_id = $2`, orgID, findingID).Scan(&w.FindingID, &w.OrgID, &start, &w.Count, &w.Reached, &last, &w.Total, &w.Boost)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("edge window")
	}
	if err != nil {
		return nil, err
	}
	w.WindowStart, w.LastSeen = FromMS(start), FromMS(last)
	return &w, nil
}
