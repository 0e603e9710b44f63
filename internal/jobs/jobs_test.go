package jobs_test

import (
	sentinel "github.com/sentinel-sca/sentinel"

	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// TestRunnerRetriesAndCompletes runs jobs on two runners sharing one store
// (two replicas): each job runs to completion exactly once, failures retry.
func TestRunnerRetriesAndCompletes(t *testing.T) {
	for name, open := range testenv.Stores(t) {
		t.Run(name, func(t *testing.T) {
			db := open()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			done := map[string]int{}
			var failures atomic.Int32
			h := func(ctx context.Context, j *sentinel.Job) error {
				if string(j.Args) == `"flaky"` && j.Attempts < 3 {
					failures.Add(1)
					return jobs.RetryAt(time.Now(), errors.New("transient"))
				}
				if string(j.Args) == `"bad"` {
					return jobs.Permanent(errors.New("cannot work"))
				}
				mu.Lock()
				done[string(j.Args)]++
				mu.Unlock()
				return nil
			}
			var wg sync.WaitGroup
			for i := 0; i < 2; i++ {
				r := &jobs.Runner{DB: db, Poll: 20 * time.Millisecond}
				r.Register("t", h)
				wg.Add(1)
				go func() { defer wg.Done(); _ = r.Run(ctx) }()
			}
			for _, a := range []string{`"a"`, `"b"`, `"flaky"`, `"bad"`} {
				if _, _, err := db.Enqueue(ctx, "t", []byte(a), sentinel.EnqueueOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			testenv.WaitFor(t, 20*time.Second, "jobs", func() bool {
				n, _ := db.CountJobs(ctx, "t", sentinel.JobCompleted)
				f, _ := db.CountJobs(ctx, "t", sentinel.JobFailed)
				return n == 3 && f == 1
			})
			cancel()
			wg.Wait()
			mu.Lock()
			defer mu.Unlock()
			for _, a := range []string{`"a"`, `"b"`, `"flaky"`} {
				if done[a] != 1 {
					t.Errorf("job %s completed %d times", a, done[a])
				}
			}
			if failures.Load() != 2 {
				t.Errorf("flaky failed %d times, want 2", failures.Load())
			}
		})
	}
}

// TestPeriodicOncePerPeriod starts three schedulers (replicas) and checks
// that one period enqueues one job.
func TestPeriodicOncePerPeriod(t *testing.T) {
	for name, open := range testenv.Stores(t) {
		t.Run(name, func(t *testing.T) {
			db := open()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var runs atomic.Int32
			var wg sync.WaitGroup
			var counted [3]*countingStore
			for i := range counted {
				counted[i] = &countingStore{Store: db}
				r := &jobs.Runner{DB: counted[i], Poll: 20 * time.Millisecond}
				r.Register("tick", func(context.Context, *sentinel.Job) error { runs.Add(1); return nil })
				r.Every(jobs.Periodic{Name: "tick", Kind: "tick", Interval: time.Hour})
				wg.Add(1)
				go func() { defer wg.Done(); _ = r.Run(ctx) }()
			}
			testenv.WaitFor(t, 20*time.Second, "first run", func() bool { return runs.Load() >= 1 })
			for _, c := range counted {
				ticks := c.schedules.Load()
				testenv.WaitFor(t, 20*time.Second, "every scheduler to tick again", func() bool { return c.schedules.Load() > ticks })
			}
			cancel()
			wg.Wait()
			if n := runs.Load(); n != 1 {
				t.Errorf("periodic job ran %d times in one period, want 1", n)
			}
		})
	}
}

// countingStore counts the schedulers' ticks: each tick asks the store to
// schedule the periodic job.
type countingStore struct {
	jobs.Store
	schedules atomic.Int32
}

func (c *countingStore) SchedulePeriodic(ctx context.Context, name, kind string, args []byte, interval time.Duration, first time.Time) (bool, error) {
	ok, err := c.Store.SchedulePeriodic(ctx, name, kind, args, interval, first)
	c.schedules.Add(1)
	return ok, err
}

// TestPanicIsAFailure checks that a panicking handler does not take the
// runner down and its job is retried.
func TestPanicIsAFailure(t *testing.T) {
	db := testenv.Stores(t)["sqlite"]()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int32
	r := &jobs.Runner{DB: db, Poll: 20 * time.Millisecond}
	r.Register("p", func(ctx context.Context, j *sentinel.Job) error {
		if calls.Add(1) == 1 {
			panic("boom")
		}
		return nil
	})
	id, _, _ := db.Enqueue(ctx, "p", nil, sentinel.EnqueueOptions{})
	go func() { _ = r.Run(ctx) }()
	// The default backoff after one failure is 1-1.2 s.
	testenv.WaitFor(t, 20*time.Second, "retry after panic", func() bool {
		j, _ := db.FindJob(ctx, id)
		return j.State == sentinel.JobCompleted
	})
	j, _ := db.FindJob(ctx, id)
	if j.Attempts != 2 {
		t.Errorf("attempts = %d, want 2", j.Attempts)
	}
}

func TestBackoff(t *testing.T) {
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 5: 16 * time.Second, 20: time.Hour} {
		got := jobs.Backoff(n)
		if got < want || got > want+want/5 {
			t.Errorf("Backoff(%d) = %v, want %v plus at most 20%%", n, got, want)
		}
	}
}

// awayStore fails the first writes of job outcomes as a database
// restarting would.
type awayStore struct {
	jobs.Store
	fails atomic.Int32
}

func (s *awayStore) CompleteJob(ctx context.Context, id int64, attempt int) error {
	if s.fails.Add(-1) >= 0 {
		return fmt.Errorf("complete: %w", sentinel.Errorf(sentinel.EUNAVAILABLE, "the database is away"))
	}
	return s.Store.CompleteJob(ctx, id, attempt)
}

// TestUnavailableStoreIsRetried checks that a job whose handler met an
// unavailable store is retried even when the handler called it
// permanent, and that an outcome the store could not take at once is
// written when it is back, not left to the lease.
func TestUnavailableStoreIsRetried(t *testing.T) {
	db := testenv.Open(t, filepath.Join(t.TempDir(), "s.db"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st := &awayStore{Store: db}
	st.fails.Store(2)
	var attempts atomic.Int32
	r := &jobs.Runner{DB: st, Poll: 20 * time.Millisecond}
	r.Register("t", func(ctx context.Context, j *sentinel.Job) error {
		if attempts.Add(1) == 1 {
			return jobs.Permanent(fmt.Errorf("find the organization: %w", sentinel.Errorf(sentinel.EUNAVAILABLE, "the database is away")))
		}
		return nil
	})
	done := make(chan struct{})
	go func() { defer close(done); _ = r.Run(ctx) }()
	id, _, err := db.Enqueue(ctx, "t", nil, sentinel.EnqueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, 15*time.Second, "the job to complete", func() bool {
		j, err := db.FindJob(ctx, id)
		return err == nil && j.State != sentinel.JobRunning && j.State != sentinel.JobAvailable
	})
	cancel()
	<-done
	j, _ := db.FindJob(context.Background(), id)
	if j.State != sentinel.JobCompleted || j.Attempts != 2 {
		t.Errorf("job %s after %d attempts (%q), want completed after 2", j.State, j.Attempts, j.LastError)
	}
}
