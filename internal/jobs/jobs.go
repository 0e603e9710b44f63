// Package jobs runs durable background work stored in the store's jobs
// table: webhook deliveries, scans, the daily watch, intel syncs.
//
// Why not River (which has drivers for both our engines)? Our jobs must be
// enqueued in the same transaction as the domain change on either engine,
// through our own store.Tx; webhook deliveries need per-subject ordering and
// their own visible records; and the whole queue is four statements in
// store/jobs.go that the conformance suite runs against both engines. A
// second schema, migration tool and leader election for that was not worth
// its weight. The semantics are River's: leased claims that survive a crash
// (a dead worker's lease runs out and another claims the job), retries with
// exponential backoff and jitter, unique jobs, and periodic jobs scheduled
// exactly once per period however many replicas run.
package jobs

import (
	sentinel "github.com/sentinel-sca/sentinel"

	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"sync"
	"time"
)

// Handler does one job. Returning nil completes it; an error retries it
// with backoff, unless wrapped by Permanent or RetryAt.
type Handler func(ctx context.Context, j *sentinel.Job) error

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks an error that retrying cannot fix: the job fails at once.
func Permanent(err error) error { return &permanentError{err} }

type retryAtError struct {
	err error
	at  time.Time
}

func (e *retryAtError) Error() string { return e.err.Error() }
func (e *retryAtError) Unwrap() error { return e.err }

// RetryAt asks for the next attempt at a given time instead of the default
// backoff.
func RetryAt(at time.Time, err error) error { return &retryAtError{err, at} }

// Backoff is the default delay before attempt n+1 after n failed attempts:
// 2^(n-1) seconds, at most an hour, with up to 20% jitter.
func Backoff(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	d := time.Hour
	if n < 13 {
		d = min(time.Duration(1<<(n-1))*time.Second, time.Hour)
	}
	return d + time.Duration(rand.Int64N(int64(d)/5+1))
}

// Periodic is a job enqueued every Interval by whichever replica gets there
// first.
type Periodic struct {
	Name     string
	Kind     string
	Args     []byte
	Interval time.Duration
	// Delay postpones the first run after the schedule is created.
	Delay time.Duration
}

// Store is the durable queue a Runner works on; the store implements it.
type Store interface {
	sentinel.Clock
	// ClaimJobs leases up to n due jobs of the kinds for lease; each claim
	// counts as an attempt.
	ClaimJobs(ctx context.Context, kinds []string, n int, lease time.Duration) ([]*sentinel.Job, error)
	// ExtendJobLease renews a running attempt's lease.
	ExtendJobLease(ctx context.Context, id int64, attempt int, lease time.Duration) error
	// CompleteJob and RetryJob finish an attempt; an attempt that is no
	// longer the job's current one is ignored.
	CompleteJob(ctx context.Context, id int64, attempt int) error
	RetryJob(ctx context.Context, id int64, attempt int, cause string, retryAt time.Time) error
	// SchedulePeriodic creates a periodic schedule unless it exists.
	SchedulePeriodic(ctx context.Context, name, kind string, args []byte, interval time.Duration, first time.Time) (bool, error)
}

// Runner claims and runs jobs.
type Runner struct {
	DB     Store
	Logger *slog.Logger
	// Workers is how many jobs run at once (default 4).
	Workers int
	// Poll is how often idle workers look for due jobs (default 500ms).
	Poll time.Duration
	// Lease is how long a claim lasts before another replica may take the
	// job over; running jobs renew it (default 1 minute).
	Lease time.Duration
	// Timeout bounds one attempt (default 5 minutes).
	Timeout time.Duration

	mu       sync.Mutex
	handlers map[string]Handler
	timeouts map[string]time.Duration
	periodic []Periodic
	wake     chan struct{}
}

// Register sets the handler for a kind. Call before Run.
func (r *Runner) Register(kind string, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.handlers == nil {
		r.handlers = map[string]Handler{}
	}
	r.handlers[kind] = h
}

// TimeoutFor bounds one attempt of kind by d instead of Timeout, for jobs
// that take longer (a full intel download). Call before Run.
func (r *Runner) TimeoutFor(kind string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timeouts == nil {
		r.timeouts = map[string]time.Duration{}
	}
	r.timeouts[kind] = d
}

// Every schedules a periodic job. Call before Run.
func (r *Runner) Every(p Periodic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.periodic = append(r.periodic, p)
}

// Notify wakes idle workers: call it after enqueuing a job that should run
// now, to skip the poll delay.
func (r *Runner) Notify() {
	r.init()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *Runner) init() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.wake == nil {
		r.wake = make(chan struct{}, 1)
	}
	if r.Workers <= 0 {
		r.Workers = 4
	}
	if r.Poll <= 0 {
		r.Poll = 500 * time.Millisecond
	}
	if r.Lease <= 0 {
		r.Lease = time.Minute
	}
	if r.Timeout <= 0 {
		r.Timeout = 5 * time.Minute
	}
	if r.Logger == nil {
		r.Logger = slog.New(slog.DiscardHandler)
	}
}

// Run works until ctx is canceled, then waits for running jobs to finish
// (their context is canceled too; an interrupted job is retried later).
func (r *Runner) Run(ctx context.Context) error {
	r.init()
	r.mu.Lock()
	kinds := make([]string, 0, len(r.handlers))
	for k := range r.handlers {
		kinds = append(kinds, k)
	}
	periodic := append([]Periodic(nil), r.periodic...)
	r.mu.Unlock()

	var wg sync.WaitGroup
	if len(periodic) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.schedule(ctx, periodic)
		}()
	}
	sem := make(chan struct{}, r.Workers)
	for ctx.Err() == nil {
		free := cap(sem) - len(sem)
		var claimed []*sentinel.Job
		if free > 0 && len(kinds) > 0 {
			var err error
			claimed, err = r.DB.ClaimJobs(ctx, kinds, free, r.Lease)
			if err != nil && ctx.Err() == nil {
				r.Logger.Error("claim jobs", "err", err)
			}
		}
		for _, j := range claimed {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				r.run(ctx, j)
				r.Notify() // a slot is free: look again at once
			}()
		}
		if len(claimed) > 0 && len(claimed) == free {
			continue // there may be more due right now
		}
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-time.After(r.Poll):
		}
	}
	wg.Wait()
	return nil
}

func (r *Runner) schedule(ctx context.Context, ps []Periodic) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		for _, p := range ps {
			ok, err := r.DB.SchedulePeriodic(ctx, p.Name, p.Kind, p.Args, p.Interval, r.DB.Now().Add(p.Delay))
			if err != nil && ctx.Err() == nil {
				r.Logger.Error("schedule periodic job", "name", p.Name, "err", err)
			}
			if ok {
				r.Notify()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (r *Runner) run(ctx context.Context, j *sentinel.Job) {
	r.mu.Lock()
	h := r.handlers[j.Kind]
	timeout := r.Timeout
	if d, ok := r.timeouts[j.Kind]; ok {
		timeout = d
	}
	r.mu.Unlock()
	jctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// Renew the lease while the job runs.
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(r.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = r.DB.ExtendJobLease(context.WithoutCancel(ctx), j.ID, j.Attempts, r.Lease)
			}
		}
	}()
	err := safeRun(jctx, h, j)
	close(done)

	// Record the outcome even when shutting down.
	octx, ocancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer ocancel()
	log := r.Logger.With("job", j.ID, "kind", j.Kind, "attempt", j.Attempts)
	if err == nil {
		if err := record(octx, func() error { return r.DB.CompleteJob(octx, j.ID, j.Attempts) }); err != nil {
			log.Error("complete job", "err", err)
		}
		return
	}
	// The store (or another dependency) being away is never permanent,
	// whatever the handler made of it: "not found" while the database
	// restarts is not "not found".
	var pe *permanentError
	var ra *retryAtError
	permanent := errors.As(err, &pe) && sentinel.ErrorCode(err) != sentinel.EUNAVAILABLE
	var at time.Time
	switch {
	case permanent:
	case errors.As(err, &ra):
		at = ra.at
	default:
		at = r.DB.Now().Add(Backoff(j.Attempts))
	}
	if ctx.Err() != nil && !permanent {
		at = r.DB.Now() // interrupted by shutdown: let the next process retry promptly
	}
	log.Warn("job attempt failed", "err", err, "retry_at", at)
	if err := record(octx, func() error { return r.DB.RetryJob(octx, j.ID, j.Attempts, err.Error(), at) }); err != nil {
		log.Error("record job failure", "err", err)
	}
}

// record writes an attempt's outcome, trying again while the store is
// unavailable (a database restart takes seconds) until ctx ends: an
// outcome not written leaves the job to wait for its lease to run out.
func record(ctx context.Context, write func() error) error {
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		err := write()
		if sentinel.ErrorCode(err) != sentinel.EUNAVAILABLE {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

func safeRun(ctx context.Context, h Handler, j *sentinel.Job) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("job panicked: %v\n%s", v, debug.Stack())
		}
	}()
	if h == nil {
		return Permanent(fmt.Errorf("no handler for job kind %q", j.Kind))
	}
	return h(ctx, j)
}
