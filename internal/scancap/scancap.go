// Package scancap enforces the scan concurrency cap: at most Max scans at
// once per organization (not per key), across every replica.
//
// A slot is a named lease in the store ("scan:<org>:<n>"), so the cap holds
// on SQLite and on PostgreSQL shared by several replicas, and a slot held by
// a process that died frees itself when its lease runs out. A caller at the
// cap waits up to Wait for a slot, polling, and is woken at once when a slot
// is released in this process.
package scancap

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// Leases are named, expiring locks; the store implements them.
type Leases interface {
	// AcquireLease takes or renews the lease name for holder, for ttl;
	// false when another holder has it.
	AcquireLease(ctx context.Context, name, holder string, ttl time.Duration) (bool, error)
	ReleaseLease(ctx context.Context, name, holder string) error
	// CountLeases counts live leases whose names start with prefix.
	CountLeases(ctx context.Context, prefix string) (int, error)
}

// Cap is the per-organization concurrency cap.
type Cap struct {
	DB Leases
	// Max is the number of slots per organization (specification: 12).
	Max int
	// Wait is how long Acquire waits for a slot (specification: 60 s).
	Wait time.Duration
	// Lease is how long a slot stays held without Renew (default 2 min).
	Lease time.Duration
	// Poll is how often a waiting caller looks again (default 250 ms).
	Poll time.Duration

	mu      sync.Mutex
	release chan struct{}
}

// New returns the specification's cap: 12 slots, 60 s wait.
func New(db Leases) *Cap { return &Cap{DB: db, Max: 12, Wait: 60 * time.Second} }

// Slot is a held slot.
type Slot struct {
	c      *Cap
	name   string
	holder string
	lease  time.Duration
}

// Name is the slot's lease name.
func (s *Slot) Name() string { return s.name }

// Holder is the slot's holder token, to renew or release it from another
// process that inherits the scan.
func (s *Slot) Holder() string { return s.holder }

func (c *Cap) signal() chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.release == nil {
		c.release = make(chan struct{})
	}
	return c.release
}

// Acquire takes a free slot for the organization, waiting up to Wait. At
// the cap with no slot opening in time it fails with ECAPACITY; the caller
// answers 429 with Retry-After.
func (c *Cap) Acquire(ctx context.Context, orgID string) (*Slot, error) {
	return c.AcquireFor(ctx, orgID, seal.Token(12), c.Lease, c.Wait)
}

// AcquireFor is Acquire with the caller's holder token, lease and wait (0:
// no wait). An external scan takes its slot when it is queued, with its id
// as the holder, and keeps it until it ends, renewing it (Held) from
// whichever replica runs it.
func (c *Cap) AcquireFor(ctx context.Context, orgID, holder string, lease, wait time.Duration) (*Slot, error) {
	poll := c.Poll
	if lease <= 0 {
		lease = 2 * time.Minute
	}
	if poll <= 0 {
		poll = 250 * time.Millisecond
	}
	deadline := time.Now().Add(wait)
	for {
		wake := c.signal()
		for i := 0; i < c.Max; i++ {
			name := fmt.Sprintf("scan:%s:%d", orgID, i)
			ok, err := c.DB.AcquireLease(ctx, name, holder, lease)
			if err != nil {
				return nil, fmt.Errorf("acquire scan slot: %w", err)
			}
			if ok {
				return &Slot{c: c, name: name, holder: holder, lease: lease}, nil
			}
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, sentinel.Errorf(sentinel.ECAPACITY, "the organization already runs %d scans, the most it may run at once, and none finished within %v; retry later", c.Max, wait)
		}
		t := time.NewTimer(min(poll, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// Held returns the slot named name that holder took with AcquireFor, to
// renew or release it (possibly from another replica than the one that
// acquired it).
func (c *Cap) Held(name, holder string, lease time.Duration) *Slot {
	if lease <= 0 {
		lease = 2 * time.Minute
	}
	return &Slot{c: c, name: name, holder: holder, lease: lease}
}

// Renew extends the slot's lease; a long scan calls it periodically.
func (s *Slot) Renew(ctx context.Context) error {
	ok, err := s.c.DB.AcquireLease(ctx, s.name, s.holder, s.lease)
	if err == nil && !ok {
		err = fmt.Errorf("scan slot %s was lost", s.name)
	}
	return err
}

// Release frees the slot and wakes local waiters.
func (s *Slot) Release(ctx context.Context) error {
	err := s.c.DB.ReleaseLease(ctx, s.name, s.holder)
	s.c.mu.Lock()
	if s.c.release != nil {
		close(s.c.release)
		s.c.release = nil
	}
	s.c.mu.Unlock()
	return err
}

// InUse counts the organization's held slots.
func (c *Cap) InUse(ctx context.Context, orgID string) (int, error) {
	return c.DB.CountLeases(ctx, "scan:"+orgID+":")
}
