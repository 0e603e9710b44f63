package agent

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// The specification's client retry policy (Limits, rule 5): start with the
// Retry-After delay (default 30 s), sleep it plus up to 50% jitter, double
// it each time, give up after 5 attempts.
const (
	retryAttempts     = 5
	retryDefaultDelay = 30 * time.Second
)

// withRetry calls call until it succeeds, fails with something other than
// a rate limit, or has used retryAttempts. call reports whether its error
// was a rate limit and the Retry-After the service sent (0 if none).
func withRetry[T any](ctx context.Context, c *Command, call func() (T, bool, time.Duration, error)) (T, error) {
	var delay time.Duration
	for attempt := 1; ; attempt++ {
		v, limited, retryAfter, err := call()
		if err == nil || !limited || attempt >= retryAttempts {
			return v, err
		}
		if delay == 0 {
			delay = retryAfter
			if delay <= 0 {
				delay = retryDefaultDelay
			}
		} else {
			delay *= 2
		}
		wait := delay + time.Duration(rand.Int64N(int64(delay)/2+1))
		fmt.Fprintf(c.stderr(), "sentinel: rate limited; retrying in %s (attempt %d of %d)\n", wait.Round(time.Second), attempt+1, retryAttempts)
		if err := c.sleep(ctx, wait); err != nil {
			var zero T
			return zero, err
		}
	}
}
