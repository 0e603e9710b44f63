package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/seal"
	"github.com/sentinel-sca/sentinel/internal/testing/redistest"
)

func exercise(t *testing.T, newLimiter func() ratelimit.Limiter) {
	ctx := context.Background()
	key := "write:" + seal.Token(8)
	a, b := newLimiter(), newLimiter() // two replicas
	for i := 1; i <= 60; i++ {
		l := a
		if i%2 == 0 {
			l = b
		}
		r, err := l.Allow(ctx, key, 60, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Allowed || r.Remaining != 60-i || r.Limit != 60 || r.Reset <= 0 || r.Reset > time.Minute {
			t.Fatalf("request %d: %+v", i, r)
		}
	}
	r, _ := a.Allow(ctx, key, 60, time.Minute)
	if r.Allowed || r.Remaining != 0 {
		t.Errorf("61st request: %+v, want refused", r)
	}
	if r, _ := b.Allow(ctx, "write:"+seal.Token(8), 60, time.Minute); !r.Allowed {
		t.Errorf("another key refused: %+v", r)
	}
}

func TestMemory(t *testing.T) {
	m := ratelimit.NewMemory()
	exercise(t, func() ratelimit.Limiter { return m }) // one process: both "replicas" share it
	now := time.Now()
	m.Now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		_, _ = m.Allow(context.Background(), "k", 2, time.Minute)
	}
	now = now.Add(61 * time.Second)
	if r, _ := m.Allow(context.Background(), "k", 2, time.Minute); !r.Allowed || r.Remaining != 1 {
		t.Errorf("after the window: %+v", r)
	}
}

func TestRedisShared(t *testing.T) {
	url := redistest.URL(t)
	exercise(t, func() ratelimit.Limiter {
		r, err := ratelimit.NewRedis(url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		return r
	})
}
