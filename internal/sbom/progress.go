package sbom

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progress prints throttled progress lines.
type progress struct {
	w        io.Writer
	interval time.Duration
	mu       sync.Mutex
	last     time.Time
	walkedN  int
	files    int
	comps    int
}

func newProgress(w io.Writer, interval time.Duration) *progress {
	if interval <= 0 {
		interval = time.Second
	}
	return &progress{w: w, interval: interval, last: time.Now()}
}

func (p *progress) walked() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.walkedN++
	p.maybePrintLocked()
}

func (p *progress) fileDone(comps int) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.files++
	p.comps += comps
	p.maybePrintLocked()
}

func (p *progress) maybePrintLocked() {
	if now := time.Now(); now.Sub(p.last) >= p.interval {
		p.last = now
		fmt.Fprintf(p.w, "sbom: %d files walked, %d files read, %d packages\n", p.walkedN, p.files, p.comps)
	}
}

func (p *progress) finish(r *Result) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	dev := 0
	for i := range r.Components {
		if r.Components[i].Development {
			dev++
		}
	}
	comps := fmt.Sprintf("%d components", len(r.Components))
	if dev > 0 {
		comps += fmt.Sprintf(" (%d for development only)", dev)
	}
	switch n := len(r.Projects); {
	case n == 1:
		comps += ", 1 project"
	case n > 1:
		comps += fmt.Sprintf(", %d projects", n)
	}
	fmt.Fprintf(p.w, "sbom: done: %d files walked, %d files read, %s, %d files skipped with errors\n",
		r.Walked, len(r.Files), comps, len(r.Errors))
}
