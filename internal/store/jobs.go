package store

import (
	sentinel "github.com/sentinel-sca/sentinel"

	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Enqueue adds a job in the caller's transaction, so the job exists if and
// only if the change that asked for it commits. It reports whether a job
// was inserted (false when UniqueKey matched a pending job).
func (tx *Tx) Enqueue(ctx context.Context, kind string, args []byte, o sentinel.EnqueueOptions) (int64, bool, error) {
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 25
	}
	runAfter := o.RunAfter
	if runAfter.IsZero() {
		runAfter = tx.Now()
	}
	var unique any
	if o.UniqueKey != "" {
		unique = o.UniqueKey
	}
	if args == nil {
		args = []byte("{}")
	}
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO jobs (kind, args, unique_key, state, max_attempts, run_after, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (unique_key) DO NOTHING RETURNING id`,
		kind, args, unique, sentinel.JobAvailable, o.MaxAttempts, MS(runAfter), MS(tx.Now())).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("enqueue %s: %w", kind, translate(err))
	}
	return id, true, nil
}

// Enqueue adds a job in a transaction of its own.
func (db *DB) Enqueue(ctx context.Context, kind string, args []byte, o sentinel.EnqueueOptions) (id int64, inserted bool, err error) {
	err = db.InTx(ctx, func(tx *Tx) error {
		id, inserted, err = tx.Enqueue(ctx, kind, args, o)
		return err
	})
	return id, inserted, err
}

const jobColumns = `id, kind, args, COALESCE(unique_key, ''), state, attempts, max_attempts, run_after, lease_until, last_error`

func scanJob(row interface{ Scan(...any) error }) (*sentinel.Job, error) {
	var j sentinel.Job
	var runAfter, lease int64
	if err := row.Scan(&j.ID, &j.Kind, &j.Args, &j.UniqueKey, &j.State, &j.Attempts, &j.MaxAttempts, &runAfter, &lease, &j.LastError); err != nil {
		return nil, err
	}
	j.RunAfter, j.LeaseUntil = FromMS(runAfter), FromMS(lease)
	return &j, nil
}

// ClaimJobs leases up to n jobs of the given kinds that are due, or whose
// previous lease ran out (the worker holding them died). Each claim counts
// as an attempt. Two replicas never claim the same job at once: PostgreSQL
// skips rows another transaction has locked; SQLite has one writer.
func (db *DB) ClaimJobs(ctx context.Context, kinds []string, n int, lease time.Duration) ([]*sentinel.Job, error) {
	if len(kinds) == 0 || n <= 0 {
		return nil, nil
	}
	var out []*sentinel.Job
	err := db.InTx(ctx, func(tx *Tx) error {
		out = out[:0]
		now := MS(tx.Now())
		args := []any{sentinel.JobAvailable, now, sentinel.JobRunning, n}
		ph := make([]string, len(kinds))
		for i, k := range kinds {
			args = append(args, k)
			ph[i] = fmt.Sprintf("$%d", len(args))
		}
		ids, err := lockDue[int64](ctx, tx, `SELECT id FROM jobs WHERE kind IN (`+strings.Join(ph, ",")+`) AND
			((state = $1 AND run_after <= $2) OR (state = $3 AND lease_until < $2))
			ORDER BY run_after, id LIMIT $4`, args...)
		if err != nil {
			return err
		}
		for _, id := range ids {
			j, err := scanJob(tx.QueryRow(ctx, `UPDATE jobs SET state = $2, attempts = attempts + 1, lease_until = $3, updated_at = $4
				WHERE id = $1 RETURNING `+jobColumns, id, sentinel.JobRunning, now+lease.Milliseconds(), now))
			if err != nil {
				return fmt.Errorf("claim job %d: %w", id, err)
			}
			out = append(out, j)
		}
		return nil
	})
	return out, err
}

// ExtendJobLease keeps a long-running job's lease alive.
func (db *DB) ExtendJobLease(ctx context.Context, id int64, attempt int, lease time.Duration) error {
	_, err := db.Exec(ctx, `UPDATE jobs SET lease_until = $3 WHERE id = $1 AND attempts = $2 AND state = $4`,
		id, attempt, MS(db.Now())+lease.Milliseconds(), sentinel.JobRunning)
	return err
}

// CompleteJob marks a claimed job done and frees its unique key. attempt
// guards against a worker whose lease ran out finishing a job someone else
// has since claimed.
func (db *DB) CompleteJob(ctx context.Context, id int64, attempt int) error {
	_, err := db.Exec(ctx, `UPDATE jobs SET state = $3, unique_key = NULL, lease_until = 0, updated_at = $4
		WHERE id = $1 AND attempts = $2 AND state = $5`, id, attempt, sentinel.JobCompleted, MS(db.Now()), sentinel.JobRunning)
	return err
}

// RetryJob records a failed attempt: the job runs again at retryAt, or is
// marked failed for good when it has used its attempts (or retryAt is zero).
func (db *DB) RetryJob(ctx context.Context, id int64, attempt int, cause string, retryAt time.Time) error {
	if len(cause) > 2000 {
		cause = cause[:2000]
	}
	now := MS(db.Now())
	if retryAt.IsZero() {
		_, err := db.Exec(ctx, `UPDATE jobs SET state = $3, unique_key = NULL, last_error = $4, lease_until = 0, updated_at = $5
			WHERE id = $1 AND attempts = $2 AND state = $6`, id, attempt, sentinel.JobFailed, cause, now, sentinel.JobRunning)
		return err
	}
	_, err := db.Exec(ctx, `UPDATE jobs SET
		state = CASE WHEN attempts >= max_attempts THEN $3 ELSE $4 END,
		unique_key = CASE WHEN attempts >= max_attempts THEN NULL ELSE unique_key END,
		last_error = $5, run_after = $6, lease_until = 0, updated_at = $7
		WHERE id = $1 AND attempts = $2 AND state = $8`, id, attempt, sentinel.JobFailed, sentinel.JobAvailable, cause, MS(retryAt), now, sentinel.JobRunning)
	return err
}

// FindJob returns a job by id. Errors: ENOTFOUND.
func (db *DB) FindJob(ctx context.Context, id int64) (*sentinel.Job, error) {
	j, err := scanJob(db.QueryRow(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("job")
	}
	return j, err
}

// CountJobs counts jobs of a kind in a state ("" for any state).
func (db *DB) CountJobs(ctx context.Context, kind, state string) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = $1 AND ($2 = '' OR state = $2)`, kind, state).Scan(&n)
	return n, err
}

// PurgeJobs deletes completed jobs older than before.
func (db *DB) PurgeJobs(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM jobs WHERE state = $1 AND updated_at < $2`, sentinel.JobCompleted, MS(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// SchedulePeriodic enqueues a periodic job when its next run is due and
// moves the next run forward, atomically: however many replicas call it at
// once, each period enqueues one job. first is the first run's time when
// the schedule is new.
func (db *DB) SchedulePeriodic(ctx context.Context, name, kind string, args []byte, interval time.Duration, first time.Time) (bool, error) {
	var enqueued bool
	err := db.InTx(ctx, func(tx *Tx) error {
		enqueued = false
		now := MS(tx.Now())
		if _, err := tx.Exec(ctx, `INSERT INTO periodic_jobs (name, next_run) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, MS(first)); err != nil {
			return err
		}
		var next int64
		if err := tx.QueryRow(ctx, `SELECT next_run FROM periodic_jobs WHERE name = $1`, name).Scan(&next); err != nil {
			return err
		}
		if next > now {
			return nil
		}
		// Skip missed periods instead of running them all after downtime.
		step := interval.Milliseconds()
		newNext := next + ((now-next)/step+1)*step
		res, err := tx.Exec(ctx, `UPDATE periodic_jobs SET next_run = $3 WHERE name = $1 AND next_run = $2`, name, next, newNext)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		_, enqueued, err = tx.Enqueue(ctx, kind, args, sentinel.EnqueueOptions{UniqueKey: "periodic:" + name})
		return err
	})
	return enqueued, err
}
