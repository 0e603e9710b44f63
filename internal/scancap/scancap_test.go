package scancap_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/scancap"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
)

func TestCap(t *testing.T) {
	for name, dsn := range map[string]func() string{
		"sqlite":   func() string { return filepath.Join(t.TempDir(), "s.db") },
		"postgres": func() string { return pgtest.DSN(t) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			// Two replicas: two stores and two caps over one database.
			d := dsn()
			db1, err := store.Open(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			defer db1.Close()
			db2, err := store.Open(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			defer db2.Close()
			c1 := &scancap.Cap{DB: db1, Max: 12, Wait: 300 * time.Millisecond, Poll: 20 * time.Millisecond}
			c2 := &scancap.Cap{DB: db2, Max: 12, Wait: 2 * time.Second, Poll: 20 * time.Millisecond}
			var slots []*scancap.Slot
			for i := 0; i < 12; i++ {
				c := c1
				if i%2 == 1 {
					c = c2
				}
				s, err := c.Acquire(ctx, "org_a")
				if err != nil {
					t.Fatalf("slot %d: %v", i+1, err)
				}
				slots = append(slots, s)
			}
			// The cap is per organization: another one is unaffected.
			other, err := c1.Acquire(ctx, "org_b")
			if err != nil {
				t.Fatalf("other org: %v", err)
			}
			defer other.Release(ctx)
			// At the cap with nothing released: scan_capacity after the wait.
			start := time.Now()
			_, err = c1.Acquire(ctx, "org_a")
			if sentinel.ErrorCode(err) != sentinel.ECAPACITY {
				t.Fatalf("13th: %v, want scan_capacity", err)
			}
			if time.Since(start) < 300*time.Millisecond {
				t.Errorf("gave up after %v, before the wait", time.Since(start))
			}
			// A slot released on the other replica while waiting is taken.
			go func() {
				time.Sleep(200 * time.Millisecond)
				_ = slots[0].Release(ctx)
			}()
			s, err := c2.Acquire(ctx, "org_a")
			if err != nil {
				t.Fatalf("waiting acquire: %v", err)
			}
			if n, _ := c1.InUse(ctx, "org_a"); n != 12 {
				t.Errorf("in use = %d, want 12", n)
			}
			if err := s.Renew(ctx); err != nil {
				t.Error(err)
			}
		})
	}
}
