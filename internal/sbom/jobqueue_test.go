package sbom

import (
	"container/heap"
	"io/fs"
	"testing"
	"time"
)

type sizeInfo struct {
	fs.FileInfo
	size int64
}

func (s sizeInfo) Size() int64 { return s.size }

// TestJobQueue: workers get the largest waiting file first, wait while
// the walk may still add files, and stop once it is closed and empty.
func TestJobQueue(t *testing.T) {
	q := newJobQueue()
	got := make(chan int64)
	go func() {
		for {
			j, ok := q.take()
			if !ok {
				close(got)
				return
			}
			got <- j.info.Size()
		}
	}()
	q.put(job{info: sizeInfo{size: 5}})
	if s := <-got; s != 5 {
		t.Fatalf("first take = %d, want 5", s)
	}
	select {
	case s := <-got:
		t.Fatalf("take returned %d from an empty queue that is not closed", s)
	case <-time.After(20 * time.Millisecond):
	}
	// Hold the worker while several jobs wait, then check their order.
	q.mu.Lock()
	for _, s := range []int64{3, 90, 1, 40, 40, 7} {
		heap.Push(&q.jobs, job{info: sizeInfo{size: s}})
	}
	q.mu.Unlock()
	q.put(job{info: sizeInfo{size: 2}})
	q.close()
	var order []int64
	for s := range got {
		order = append(order, s)
	}
	want := []int64{90, 40, 40, 7, 3, 2, 1}
	if len(order) != len(want) {
		t.Fatalf("took %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("took %v, want %v", order, want)
		}
	}
}
