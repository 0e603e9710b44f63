package watch

import (
	"testing"
	"time"
)

// TestBatcher: transactions follow the time the last one took, towards
// txTarget, growing at most twofold, within minBatch and maxBatch.
func TestBatcher(t *testing.T) {
	b := newBatcher()
	if got := b.next(1_000_000); got != firstBatch {
		t.Fatalf("first batch %d, want %d", got, firstBatch)
	}
	if got := b.next(7); got != 7 {
		t.Fatalf("with 7 left: %d", got)
	}
	b.took(100, time.Millisecond) // fast: may double, no more
	if b.size != 200 {
		t.Fatalf("after a fast batch: %d, want 200", b.size)
	}
	b.took(200, txTarget) // on target: stays
	if b.size != 200 {
		t.Fatalf("on target: %d", b.size)
	}
	b.took(200, 4*txTarget) // slow: shrinks at once
	if b.size != 50 {
		t.Fatalf("after a slow batch: %d, want 50", b.size)
	}
	b.took(50, time.Minute)
	if b.size != minBatch {
		t.Fatalf("very slow: %d, want %d", b.size, minBatch)
	}
	for range 20 {
		b.took(b.size, 0)
	}
	if b.size != maxBatch {
		t.Fatalf("always instant: %d, want %d", b.size, maxBatch)
	}
}
