// Package redistest gives tests a real Redis server address.
//
// SENTINEL_TEST_REDIS_URL names it (default redis://127.0.0.1:6379/0). When
// it cannot be reached the test is skipped, unless CI=true or
// SENTINEL_TEST_REDIS=required: then it fails.
package redistest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// URL returns a reachable Redis URL or skips/fails the test.
func URL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv("SENTINEL_TEST_REDIS_URL")
	if u == "" {
		u = "redis://127.0.0.1:6379/0"
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		tb.Fatalf("parse %s: %v", u, err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		if os.Getenv("CI") == "true" || os.Getenv("SENTINEL_TEST_REDIS") == "required" {
			tb.Fatalf("Redis at %s is required but unreachable: %v", u, err)
		}
		tb.Skipf("Redis unreachable at %s (%v)", u, err)
	}
	return u
}
