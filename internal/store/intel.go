package store

import (
	sentinel "github.com/sentinel-sca/sentinel"

	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// upsertBatch writes rows with multi-row INSERT ... ON CONFLICT statements
// of up to batch rows: one round trip per batch on PostgreSQL, far fewer
// statements on SQLite.
func (tx *Tx) upsertBatch(ctx context.Context, table string, cols []string, conflict string, rows [][]any) error {
	const batch = 400
	update := make([]string, 0, len(cols))
	for _, c := range cols {
		if c != conflict {
			update = append(update, c+" = excluded."+c)
		}
	}
	for start := 0; start < len(rows); start += batch {
		chunk := rows[start:min(start+batch, len(rows))]
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", table, strings.Join(cols, ", "))
		args := make([]any, 0, len(chunk)*len(cols))
		for i, r := range chunk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for j, v := range r {
				if j > 0 {
					b.WriteString(", ")
				}
				args = append(args, v)
				fmt.Fprintf(&b, "$%d", len(args))
			}
			b.WriteByte(')')
		}
		fmt.Fprintf(&b, " ON CONFLICT (%s) DO UPDATE SET %s", conflict, strings.Join(update, ", "))
		if _, err := tx.Exec(ctx, b.String(), args...); err != nil {
			return fmt.Errorf("upsert %s: %w", table, err)
		}
	}
	return nil
}

// UpsertAdvisories inserts or replaces OSV records by id.
func (tx *Tx) UpsertAdvisories(ctx context.Context, advs []sentinel.IntelAdvisory) error {
	rows := make([][]any, len(advs))
	for i, a := range advs {
		rows[i] = []any{a.ID, MS(a.Modified), a.Withdrawn, strings.Join(a.Ecosystems, ","), a.Raw}
	}
	return tx.upsertBatch(ctx, "intel_advisories", []string{"id", "modified", "withdrawn", "ecosystems", "raw"}, "id", rows)
}

// ReplaceKEV replaces the whole known-exploited catalog.
func (tx *Tx) ReplaceKEV(ctx context.Context, entries []sentinel.KEVEntry) error {
	if _, err := tx.Exec(ctx, `DELETE FROM intel_kev`); err != nil {
		return err
	}
	rows := make([][]any, len(entries))
	for i, e := range entries {
		rows[i] = []any{e.CVE, e.DateAdded, e.Ransomware, e.Raw}
	}
	return tx.upsertBatch(ctx, "intel_kev", []string{"cve", "date_added", "ransomware", "raw"}, "cve", rows)
}

// UpsertEOL inserts or replaces end-of-life product files.
func (tx *Tx) UpsertEOL(ctx context.Context, products map[string][]byte) error {
	rows := make([][]any, 0, len(products))
	for p, raw := range products {
		rows = append(rows, []any{p, raw})
	}
	return tx.upsertBatch(ctx, "intel_eol", []string{"product", "raw"}, "product", rows)
}

// StreamAdvisories calls fn with every stored record's raw JSON.
func (db *DB) StreamAdvisories(ctx context.Context, fn func(id string, raw []byte) error) error {
	rows, err := db.Query(ctx, `SELECT id, raw FROM intel_advisories ORDER BY id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return err
		}
		if err := fn(id, raw); err != nil {
			return err
		}
	}
	return rows.Err()
}

// AdvisoryRaw returns one stored record. Errors: ENOTFOUND.
func (db *DB) AdvisoryRaw(ctx context.Context, id string) ([]byte, error) {
	var raw []byte
	err := db.QueryRow(ctx, `SELECT raw FROM intel_advisories WHERE id = $1`, id).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("advisory")
	}
	return raw, err
}

// KEVEntries returns the stored catalog entries.
func (db *DB) KEVEntries(ctx context.Context) ([]sentinel.KEVEntry, error) {
	rows, err := db.Query(ctx, `SELECT cve, date_added, ransomware, raw FROM intel_kev ORDER BY cve`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sentinel.KEVEntry
	for rows.Next() {
		var r sentinel.KEVEntry
		if err := rows.Scan(&r.CVE, &r.DateAdded, &r.Ransomware, &r.Raw); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// EOLRaws returns the stored end-of-life product files by product.
func (db *DB) EOLRaws(ctx context.Context) (map[string][]byte, error) {
	rows, err := db.Query(ctx, `SELECT product, raw FROM intel_eol`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]byte{}
	for rows.Next() {
		var p string
		var raw []byte
		if err := rows.Scan(&p, &raw); err != nil {
			return nil, err
		}
		out[p] = raw
	}
	return out, rows.Err()
}

// RecordSync stores a sync's outcome and returns its id.
func (tx *Tx) RecordSync(ctx context.Context, s sentinel.IntelSync) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO intel_syncs (started_at, finished_at, status, sources, stats, delta, error)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
		MS(s.StartedAt), MS(s.FinishedAt), s.Status, s.Sources, s.Stats, s.Delta, s.Error).Scan(&id)
	return id, translate(err)
}

// RecordFailedSync stores a failed sync in a transaction of its own.
func (db *DB) RecordFailedSync(ctx context.Context, s sentinel.IntelSync) error {
	return db.InTx(ctx, func(tx *Tx) error { _, err := tx.RecordSync(ctx, s); return err })
}

// LastSyncs returns the newest syncs first.
func (db *DB) LastSyncs(ctx context.Context, limit int) ([]sentinel.IntelSync, error) {
	rows, err := db.Query(ctx, `SELECT id, started_at, finished_at, status, sources, stats, delta, error FROM intel_syncs ORDER BY id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sentinel.IntelSync
	for rows.Next() {
		var s sentinel.IntelSync
		var st, fin int64
		if err := rows.Scan(&s.ID, &st, &fin, &s.Status, &s.Sources, &s.Stats, &s.Delta, &s.Error); err != nil {
			return nil, err
		}
		s.StartedAt, s.FinishedAt = FromMS(st), FromMS(fin)
		out = append(out, s)
	}
	return out, rows.Err()
}

// FindSync returns one recorded sync. Errors: ENOTFOUND.
func (db *DB) FindSync(ctx context.Context, id int64) (*sentinel.IntelSync, error) {
	var s sentinel.IntelSync
	var st, fin int64
	err := db.QueryRow(ctx, `SELECT id, started_at, finished_at, status, sources, stats, delta, error FROM intel_syncs WHERE id = $1`, id).
		Scan(&s.ID, &st, &fin, &s.Status, &s.Sources, &s.Stats, &s.Delta, &s.Error)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("sync")
	}
	if err != nil {
		return nil, err
	}
	s.StartedAt, s.FinishedAt = FromMS(st), FromMS(fin)
	return &s, nil
}

// LatestSyncID is the id of the newest successful sync (0 if none): a
// replica reloads its index when this moves.
func (db *DB) LatestSyncID(ctx context.Context) (int64, error) {
	var id sql.NullInt64
	err := db.QueryRow(ctx, `SELECT MAX(id) FROM intel_syncs WHERE status = 'ok'`).Scan(&id)
	return id.Int64, err
}

// IntelCounts counts stored advisories (live and withdrawn), KEV entries
// and EOL products.
func (db *DB) IntelCounts(ctx context.Context) (advisories, withdrawn, kev, eol int, err error) {
	err = db.QueryRow(ctx, `SELECT
		(SELECT COUNT(*) FROM intel_advisories),
		(SELECT COUNT(*) FROM intel_advisories WHERE withdrawn = $1),
		(SELECT COUNT(*) FROM intel_kev),
		(SELECT COUNT(*) FROM intel_eol)`, true).Scan(&advisories, &withdrawn, &kev, &eol)
	return
}

// KEVByCVE returns the catalog entry of a CVE. Errors: ENOTFOUND.
func (db *DB) KEVByCVE(ctx context.Context, cve string) (*sentinel.KEVEntry, error) {
	var r sentinel.KEVEntry
	err := db.QueryRow(ctx, `SELECT cve, date_added, ransomware, raw FROM intel_kev WHERE cve = $1`, cve).Scan(&r.CVE, &r.DateAdded, &r.Ransomware, &r.Raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("kev entry")
	}
	return &r, err
}
