// Package store keeps Sentinel's state in SQLite (embedded, the default) or
// PostgreSQL (production, several replicas).
//
// One implementation serves both engines, rather than a package per engine:
// both accept the same SQL text with $n placeholders (modernc.org/sqlite
// understands them), times are stored as unix milliseconds in both, and the
// few places that must differ (claiming with FOR UPDATE SKIP LOCKED,
// LISTEN/NOTIFY, identity columns, BLOB vs BYTEA) are switched on DB.Engine
// here and nowhere else. Two copies of every query would drift; one copy,
// run against both engines by the conformance suite in storetest, cannot.
// Each engine keeps its own forward-only migrations.
//
// Feature packages never see *DB: each declares the Store and Tx interfaces
// it needs, and Bind (bind.go) serves them.
//
// SQLite runs in WAL mode with foreign keys on, a busy timeout, one writer
// connection (transactions begin IMMEDIATE) and a separate pool of readers.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/sentinel-sca/sentinel"
)

// Engine names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// DB is an open store.
type DB struct {
	// Engine is SQLite or Postgres.
	Engine string
	w      *sql.DB // writes and transactions
	r      *sql.DB // reads; the same pool as w on PostgreSQL

	// Clock returns the current time; tests replace it.
	Clock func() time.Time

	stopCheckpoints func() // SQLite: stops the background checkpointer
}

// Open opens the store named by dsn and applies pending migrations.
// A dsn starting with postgres:// or postgresql:// is PostgreSQL; anything
// else is a SQLite file path (optionally prefixed "sqlite:" or "file:").
func Open(ctx context.Context, dsn string) (*DB, error) {
	db, err := open(dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func open(dsn string) (*DB, error) {
	db := &DB{Clock: time.Now}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		pool, err := sql.Open("pgx", dsn)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		pool.SetMaxOpenConns(32)
		pool.SetMaxIdleConns(32)
		pool.SetConnMaxIdleTime(5 * time.Minute)
		db.Engine, db.w, db.r = Postgres, pool, pool
		return db, nil
	}
	path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "file:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if path == "" {
		return nil, errors.New("open sqlite: empty path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(1)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	wq := url.Values{"_txlock": {"immediate"}}
	for k, v := range q {
		wq[k] = slices.Clone(v)
	}
	// The one writer keeps 64 MiB of pages (SQLite's default is 2 MiB):
	// a transaction that writes thousands of findings touches every
	// index of the table, and reading those pages again from the file
	// cost more than writing them (BenchmarkWatchDelta).
	wq.Add("_pragma", "cache_size(-65536)")
	// The writer does not copy the write-ahead log back into the database
	// at its commits (SQLite's default, every 4 MiB of log): a goroutine
	// does it every second on a reader connection (checkpointEvery), on
	// the other core, so a large transaction's commit does not also wait
	// for that copy and its fsync. The log file is cut back to 64 MiB when
	// it restarts.
	wq.Add("_pragma", "wal_autocheckpoint(0)")
	wq.Add("_pragma", "journal_size_limit(67108864)")
	w, err := sql.Open("sqlite", "file:"+path+"?"+wq.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	r, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	r.SetConnMaxIdleTime(0)
	db.Engine, db.w, db.r = SQLite, w, r
	db.stopCheckpoints = db.checkpointEvery(time.Second)
	return db, nil
}

// checkpointEvery copies the write-ahead log into the database every d, in
// PASSIVE mode: it waits for neither the writer nor the readers, and copies
// what they leave it. The returned function stops it.
func (db *DB) checkpointEvery(d time.Duration) func() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				// An error (the database busy or closing) leaves the log
				// for the next tick.
				_, _ = db.r.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
			}
		}
	}()
	return func() { cancel(); <-done }
}

// Now returns the store's current time (Clock).
func (db *DB) Now() time.Time { return db.Clock() }

// Close closes the pools.
func (db *DB) Close() error {
	if db.stopCheckpoints != nil {
		db.stopCheckpoints()
	}
	err := db.w.Close()
	if db.r != db.w {
		err = errors.Join(err, db.r.Close())
	}
	return err
}

// Ping checks that the store answers (for /readyz).
func (db *DB) Ping(ctx context.Context) error {
	return db.r.PingContext(ctx)
}

// SQL returns the write pool, for tests and tools that need raw access.
func (db *DB) SQL() *sql.DB { return db.w }

// Tx is a write transaction. Now is fixed at the start of the transaction
// so that every row it writes carries the same time.
type Tx struct {
	tx  *sql.Tx
	db  *DB
	now time.Time
	buf *insertBuffer // see BufferInserts
}

// Now is the transaction's time, fixed when it began.
func (tx *Tx) Now() time.Time { return tx.now }

// Engine returns the store's engine name.
func (tx *Tx) Engine() string { return tx.db.Engine }

// InTx runs fn in a write transaction and commits it if fn returns nil.
// On PostgreSQL a serialization failure or deadlock retries fn (up to five
// times), so fn must be safe to run again.
func (db *DB) InTx(ctx context.Context, fn func(*Tx) error) error {
	for attempt := 0; ; attempt++ {
		err := db.inTx(ctx, fn)
		if err == nil || attempt >= 4 || !retryable(err) {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
	}
}

func (db *DB) inTx(ctx context.Context, fn func(*Tx) error) (err error) {
	stx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", translate(err))
	}
	tx := &Tx{tx: stx, db: db, now: db.Now().UTC().Truncate(time.Millisecond)}
	defer func() {
		if err != nil {
			_ = stx.Rollback()
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	if err = tx.flush(ctx); err != nil {
		return err
	}
	if err = stx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", translate(err))
	}
	return nil
}

func retryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	return false
}

// translate turns driver errors into domain errors where they mean
// something to the caller; it matches codes, never strings.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if Unavailable(err) {
		return unavailable(err)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return &sentinel.Error{Code: sentinel.ECONFLICT, Message: "it already exists"}
		case "23503":
			return &sentinel.Error{Code: sentinel.ENOTFOUND, Message: "a referenced resource does not exist"}
		}
		return err
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return &sentinel.Error{Code: sentinel.ECONFLICT, Message: "it already exists"}
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return &sentinel.Error{Code: sentinel.ENOTFOUND, Message: "a referenced resource does not exist"}
		}
	}
	return err
}

// errUnavailable is what a caller is told while the database cannot be
// reached: the HTTP API answers it with 503 and Retry-After.
var errUnavailable = &sentinel.Error{Code: sentinel.EUNAVAILABLE,
	Message: "the service cannot reach its database right now; try again in a few seconds"}

// unavailable wraps err, a driver error meaning the database cannot be
// reached, as EUNAVAILABLE; err stays in the chain (and the text) for
// the logs.
func unavailable(err error) error {
	if sentinel.ErrorCode(err) == sentinel.EUNAVAILABLE {
		return err
	}
	return fmt.Errorf("%w: %w", errUnavailable, err)
}

// Unavailable reports whether err means that the database cannot be
// reached right now (refused or broken connections, a server shutting
// down, starting up or out of connections), as opposed to an error in
// the query or the data: the same request may succeed once the database
// is back. A canceled or timed-out context is not unavailability.
func Unavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if sentinel.ErrorCode(err) == sentinel.EUNAVAILABLE {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"): // connection exception
			return true
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03": // admin or crash shutdown, cannot connect now
			return true
		case pe.Code == "53300": // too many connections
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || pgconn.SafeToRetry(err)
}

// IsConflict reports whether err is a uniqueness conflict.
func IsConflict(err error) bool { return sentinel.ErrorCode(err) == sentinel.ECONFLICT }

// Exec runs a statement inside the transaction.
func (tx *Tx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if err := tx.flush(ctx); err != nil {
		return nil, err
	}
	if stmt := tx.reused(ctx, q); stmt != nil {
		res, err := stmt.ExecContext(ctx, args...)
		return res, translate(err)
	}
	res, err := tx.tx.ExecContext(ctx, q, args...)
	return res, translate(err)
}

// Query runs a query inside the transaction.
func (tx *Tx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if err := tx.flush(ctx); err != nil {
		return nil, err
	}
	if stmt := tx.reused(ctx, q); stmt != nil {
		rows, err := stmt.QueryContext(ctx, args...)
		return rows, translate(err)
	}
	rows, err := tx.tx.QueryContext(ctx, q, args...)
	return rows, translate(err)
}

// QueryRow runs a single-row query inside the transaction.
func (tx *Tx) QueryRow(ctx context.Context, q string, args ...any) *Row {
	if err := tx.flush(ctx); err != nil {
		return &Row{err: err}
	}
	if stmt := tx.reused(ctx, q); stmt != nil {
		return &Row{row: stmt.QueryRowContext(ctx, args...)}
	}
	return &Row{row: tx.tx.QueryRowContext(ctx, q, args...)}
}

// Query runs a read query on the reader pool.
func (db *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	rows, err := db.r.QueryContext(ctx, q, args...)
	return rows, translate(err)
}

// QueryRow runs a single-row read query on the reader pool.
func (db *DB) QueryRow(ctx context.Context, q string, args ...any) *Row {
	return &Row{row: db.r.QueryRowContext(ctx, q, args...)}
}

// Row is the result of QueryRow. Its Scan reports a database that cannot
// be reached as EUNAVAILABLE, like every other method of the store; other
// errors (sql.ErrNoRows, constraint violations) are returned as the
// driver gave them, for the caller to interpret.
type Row struct {
	row *sql.Row
	err error // the buffered inserts before it failed
}

// Scan copies the row's columns into dest.
func (r *Row) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	err := r.row.Scan(dest...)
	if err != nil && Unavailable(err) {
		return unavailable(err)
	}
	return err
}

// Exec runs one statement on the writer outside an explicit transaction.
func (db *DB) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	res, err := db.w.ExecContext(ctx, q, args...)
	return res, translate(err)
}

// MS converts a time to stored unix milliseconds.
func MS(t time.Time) int64 { return t.UnixMilli() }

// FromMS converts stored unix milliseconds to a UTC time.
func FromMS(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// nullMS converts an optional stored time.
func nullMS(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := FromMS(v.Int64)
	return &t
}

// notFound is the error for a missing row: it never says whether the id
// exists in another organization.
func notFound(what string) error {
	return sentinel.Errorf(sentinel.ENOTFOUND, "%s not found", what)
}

// scanRows reads every row with scan and closes rows.
func scanRows[T any](rows *sql.Rows, scan func(interface{ Scan(...any) error }) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// lockDue returns the values of the one column a SELECT finds, with their
// rows locked for the rest of the transaction: the first step of claiming
// work (jobs, webhook deliveries). On PostgreSQL, rows that another
// transaction has locked are skipped (FOR UPDATE SKIP LOCKED), so replicas
// claiming at once take disjoint rows; on SQLite the transaction holds the
// one writer lock.
func lockDue[T any](ctx context.Context, tx *Tx, query string, args ...any) ([]T, error) {
	if tx.Engine() == Postgres {
		query += ` FOR UPDATE SKIP LOCKED`
	}
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return scanRows(rows, func(r interface{ Scan(...any) error }) (T, error) {
		var v T
		err := r.Scan(&v)
		return v, err
	})
}
