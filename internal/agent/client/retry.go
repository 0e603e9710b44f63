package client

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// The specification's client retry policy (Limits, rule 5): start with the
// Retry-After delay (default 30 s), sleep it plus up to 50% jitter, double
// it each time, give up after 5 attempts.
const (
	Attempts          = 5
	DefaultRetryAfter = 30 * time.Second
)

// retry calls call until it succeeds, fails with something other than a
// rate limit (an *Error whose RateLimited is true), or has been called
// Attempts times; it returns call's last error. Before each retry it tells
// onRetry (may be nil) and waits with sleep (nil: a timer that honours
// ctx), returning ctx's error if ctx ends first.
func retry(ctx context.Context, sleep func(context.Context, time.Duration) error, onRetry func(wait time.Duration, attempt, attempts int), call func() error) error {
	if sleep == nil {
		sleep = sleepCtx
	}
	var delay time.Duration
	for attempt := 1; ; attempt++ {
		err := call()
		var e *Error
		if err == nil || !errors.As(err, &e) || !e.RateLimited() || attempt >= Attempts {
			return err
		}
		if delay == 0 {
			delay = e.RetryAfter
			if delay <= 0 {
				delay = DefaultRetryAfter
			}
		} else {
			delay *= 2
		}
		wait := delay + time.Duration(rand.Int64N(int64(delay)/2+1))
		if onRetry != nil {
			onRetry(wait, attempt+1, Attempts)
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
