package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// A transaction that writes many findings and events at once (the watch
// reconciling thousands of hosts after an intel sync) spends most of its
// time on round trips and statement preparation, one INSERT per row.
// BufferInserts lets it hold those rows and write them as multi-row
// INSERTs instead. The order of statements is kept: the buffer is written
// before any other statement of the transaction runs and before it
// commits, so a read in the transaction sees every row written before it,
// and events keep their outbox order (seq follows the order of the VALUES
// list). An error in a buffered row is reported by the statement that
// writes the buffer, and the transaction rolls back as it would have.

// On SQLite the same transaction also keeps its statements prepared
// (reused): the bulk transaction runs the same few reads for each of
// hundreds of assets, and parsing them again each time was a tenth of its
// time.

// insertBuffer holds rows not yet written, in order, per table.
type insertBuffer struct {
	findings [][]any
	events   [][]any
	// stmts holds SQLite's prepared statements by text, for the rest of
	// the transaction (see reused); the buffered rows are written there
	// by a prepared one-row INSERT: a statement costs no round trip, and
	// parsing the long multi-row text would cost more than stepping a
	// prepared one per row.
	stmts map[string]*sql.Stmt
}

// bufferedTable is one table a transaction can buffer inserts into: its
// INSERT up to VALUES and how many rows one statement writes (each
// engine's limit on bound parameters is 32,766 or more).
type bufferedTable struct {
	head    string
	columns int
	perStmt int
}

var (
	findingsTable = bufferedTable{head: `INSERT INTO findings (org_id, asset_id, purl, advisory_id, category, cwe, summary, aliases,
		severity, cvss_score, kev, kev_date_added, fixed_versions, nearest_fix, risk_score, band,
		sla_due_at, sla_breached_at, status, status_reason, accepted_until, owner, compliance, source,
		first_seen, last_seen, resolved_at, updated_at, evidence, malicious, development, id) VALUES `, columns: 32, perStmt: 500}
	eventsTable = bufferedTable{head: `INSERT INTO events (id, org_id, type, subject, envelope, created_at) VALUES `,
		columns: 6, perStmt: 2000}
)

// BufferInserts makes the rest of the transaction buffer its new findings
// (SaveFinding of a finding without an id) and events (EmitEvent).
func (tx *Tx) BufferInserts() {
	if tx.buf == nil {
		tx.buf = &insertBuffer{}
	}
}

// flush writes the buffered rows.
func (tx *Tx) flush(ctx context.Context) error {
	b := tx.buf
	if b == nil || len(b.findings)+len(b.events) == 0 {
		return nil
	}
	// Findings first: no event refers to a row of another table by key,
	// and the outbox order is kept within the events.
	findings, events := b.findings, b.events
	b.findings, b.events = b.findings[:0], b.events[:0]
	if err := tx.insertRows(ctx, findingsTable, findings); err != nil {
		return fmt.Errorf("insert findings: %w", err)
	}
	if err := tx.insertRows(ctx, eventsTable, events); err != nil {
		return fmt.Errorf("emit events: %w", err)
	}
	return nil
}

func (tx *Tx) insertRows(ctx context.Context, t bufferedTable, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	if tx.Engine() == SQLite {
		stmt, err := tx.prepared(ctx, t)
		if err != nil {
			return err
		}
		for _, row := range rows {
			if _, err := stmt.ExecContext(ctx, row...); err != nil {
				return translate(err)
			}
		}
		return nil
	}
	for len(rows) > 0 {
		n := min(len(rows), t.perStmt)
		var q strings.Builder
		q.Grow(len(t.head) + n*(t.columns*5+3))
		q.WriteString(t.head)
		args := make([]any, 0, n*t.columns)
		for i, row := range rows[:n] {
			if i > 0 {
				q.WriteByte(',')
			}
			writePlaceholders(&q, len(args), len(row))
			args = append(args, row...)
		}
		if _, err := tx.tx.ExecContext(ctx, q.String(), args...); err != nil {
			return translate(err)
		}
		rows = rows[n:]
	}
	return nil
}

// writePlaceholders writes one row's "($from+1,...,$from+n)".
func writePlaceholders(q *strings.Builder, from, n int) {
	q.WriteByte('(')
	for j := range n {
		if j > 0 {
			q.WriteByte(',')
		}
		q.WriteByte('$')
		q.WriteString(strconv.Itoa(from + j + 1))
	}
	q.WriteByte(')')
}

// prepared returns the transaction's one-row INSERT into t.
func (tx *Tx) prepared(ctx context.Context, t bufferedTable) (*sql.Stmt, error) {
	var q strings.Builder
	q.WriteString(t.head)
	writePlaceholders(&q, 0, t.columns)
	if stmt := tx.reused(ctx, q.String()); stmt != nil {
		return stmt, nil
	}
	stmt, err := tx.tx.PrepareContext(ctx, q.String())
	return stmt, translate(err)
}

// maxReused bounds the statements one transaction keeps prepared.
const maxReused = 64

// reused returns q prepared for the rest of a SQLite transaction that
// buffers its inserts, or nil: then the caller runs q directly (and any
// error shows there).
func (tx *Tx) reused(ctx context.Context, q string) *sql.Stmt {
	if tx.buf == nil || tx.Engine() != SQLite {
		return nil
	}
	if stmt := tx.buf.stmts[q]; stmt != nil {
		return stmt
	}
	if len(tx.buf.stmts) >= maxReused {
		return nil
	}
	stmt, err := tx.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	if tx.buf.stmts == nil {
		tx.buf.stmts = map[string]*sql.Stmt{}
	}
	tx.buf.stmts[q] = stmt
	return stmt
}
