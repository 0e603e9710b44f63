package webhooks

import (
	sentinel "github.com/sentinel-sca/sentinel"

	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/webhook"
)

// fanOutBatch is how many outbox events one fan-out transaction takes.
const fanOutBatch = 500

// Run fans out events and delivers them until ctx ends, then lets the
// attempts in flight finish or be cut short, records their outcomes and
// returns. Run it on every replica: claims and fan-out are safe to run
// concurrently.
func (s *Service) Run(ctx context.Context) error {
	s.init()
	if n, err := s.DB.ReleaseOrphanedDeliveryLeases(ctx); err != nil {
		s.Logger.Error("webhooks: release leases of a previous run", "err", err)
	} else if n > 0 {
		s.Logger.Info("webhooks: retrying deliveries interrupted by the previous run", "count", n)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.fanOutLoop(ctx) }()
	go func() { defer wg.Done(); s.deliverLoop(ctx) }()
	if s.DB.Notifies() {
		wg.Add(1)
		go func() { defer wg.Done(); s.listen(ctx) }()
	}
	wg.Wait()
	return nil
}

// FanOutOnce runs one fan-out transaction and reports how many events it
// took and how many deliveries it wrote.
func (s *Service) FanOutOnce(ctx context.Context) (events, deliveries int, err error) {
	s.init()
	err = s.DB.Update(ctx, func(tx Tx) (err error) {
		events, deliveries, err = tx.FanOutEvents(ctx, fanOutBatch, s.Window)
		return err
	})
	return events, deliveries, err
}

func (s *Service) fanOutLoop(ctx context.Context) {
	t := time.NewTicker(s.Poll)
	defer t.Stop()
	for ctx.Err() == nil {
		// A read on the reader pool first: an idle poll takes no write lock.
		more := false
		if ok, err := s.DB.HasPendingEvents(ctx); err != nil {
			if ctx.Err() == nil {
				s.Logger.Error("webhooks: look for pending events", "err", err)
			}
		} else if ok {
			n, d, err := s.FanOutOnce(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				s.Logger.Error("webhooks: fan out events", "err", err)
			case d > 0:
				s.metrics.fanned.Add(float64(d))
				signal(s.sendWake)
			}
			more = n == fanOutBatch
		}
		if more {
			continue
		}
		select {
		case <-ctx.Done():
		case <-s.fanWake:
		case <-t.C:
		}
	}
}

// outcome is one attempt's result on its way to the recorder.
type outcome = sentinel.AttemptOutcome

// deliverLoop runs the dispatcher, the senders and the recorder.
func (s *Service) deliverLoop(ctx context.Context) {
	capacity := s.Senders + s.Batch
	work := make(chan *sentinel.ClaimedDelivery, capacity)
	results := make(chan outcome, capacity)
	var inflight atomic.Int64

	var senders sync.WaitGroup
	for range s.Senders {
		senders.Add(1)
		go func() {
			defer senders.Done()
			for c := range work {
				results <- s.attempt(ctx, c)
			}
		}()
	}
	recorded := make(chan struct{})
	go func() {
		defer close(recorded)
		s.recordLoop(results, &inflight)
	}()

	t := time.NewTimer(0)
	defer t.Stop()
	for ctx.Err() == nil {
		free := capacity - int(inflight.Load())
		if free > 0 {
			n := min(free, s.Batch)
			claimed, err := s.DB.ClaimDeliveries(ctx, n, s.Lease)
			if err != nil && ctx.Err() == nil {
				s.Logger.Error("webhooks: claim deliveries", "err", err)
			}
			inflight.Add(int64(len(claimed)))
			for _, c := range claimed {
				work <- c
			}
			if len(claimed) == n {
				continue // more may be due now
			}
		}
		wait := s.Poll
		if free > 0 {
			if due, ok, err := s.DB.NextDeliveryDue(ctx); err == nil && ok {
				wait = min(wait, max(time.Until(due), time.Millisecond))
			}
		}
		t.Reset(wait)
		select {
		case <-ctx.Done():
		case <-s.sendWake:
		case <-t.C:
		}
	}
	close(work)
	senders.Wait()
	close(results)
	<-recorded
}

// recordLoop writes outcomes back in batches: one transaction for as many
// as have arrived, which keeps SQLite's single writer from becoming the
// bottleneck at thousands of deliveries per second.
func (s *Service) recordLoop(results <-chan outcome, inflight *atomic.Int64) {
	batch := make([]outcome, 0, 512)
	for o := range results {
		batch = append(batch[:0], o)
	drain:
		for len(batch) < cap(batch) {
			select {
			case o, ok := <-results:
				if !ok {
					break drain
				}
				batch = append(batch, o)
			default:
				break drain
			}
		}
		// Outcomes must be recorded even while shutting down.
		for try := 0; ; try++ {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, err := s.DB.RecordAttempts(ctx, batch)
			cancel()
			if err == nil {
				break
			}
			if try == 4 {
				// The leases run out and the deliveries are retried:
				// at least once still holds.
				s.Logger.Error("webhooks: record delivery outcomes; they will be retried when their leases end", "err", err, "count", len(batch))
				break
			}
			time.Sleep(time.Duration(50*(try+1)) * time.Millisecond)
		}
		inflight.Add(-int64(len(batch)))
		signal(s.sendWake)
	}
}

// attempt signs and sends one claimed delivery and says what came of it.
func (s *Service) attempt(ctx context.Context, c *sentinel.ClaimedDelivery) outcome {
	o := outcome{ID: c.ID, Attempt: c.Attempt, AttemptID: uuid.NewString()}
	start := time.Now()
	status, err := s.send(ctx, c, o.AttemptID)
	o.At, o.Status = s.Now(), status
	took := time.Since(start)
	switch {
	case err == nil && status >= 200 && status <= 299:
		o.State = sentinel.DeliverySucceeded
		s.metrics.attempt("succeeded", took)
		return o
	case ctx.Err() != nil:
		// Interrupted by shutdown: the next process retries it at once.
		o.State, o.RetryAt, o.Error = sentinel.DeliveryPending, o.At, "interrupted: the sender shut down"
		s.metrics.attempt("interrupted", took)
		return o
	case err != nil:
		o.Error = netguard.Describe(err)
	default:
		o.Error = fmt.Sprintf("the receiver answered %d %s; only 2xx counts as delivered", status, http.StatusText(status))
	}
	o.RetryAt = o.At.Add(s.backoff(c.Attempt))
	o.State = sentinel.DeliveryPending
	if o.RetryAt.After(c.Deadline) {
		o.State = sentinel.DeliveryFailed
		o.Error += "; gave up: the retry window ended"
		s.metrics.attempt("failed", took)
	} else {
		s.metrics.attempt("retry", took)
	}
	return o
}

// send makes one HTTP attempt and returns the status received.
func (s *Service) send(ctx context.Context, c *sentinel.ClaimedDelivery, attemptID string) (int, error) {
	secrets, err := s.secrets(c)
	if err != nil {
		return 0, err
	}
	body := c.Envelope
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.UserAgent)
	req.Header.Set(webhook.HeaderSignature, webhook.SignatureHeader(s.Now(), body, secrets...))
	req.Header.Set(webhook.HeaderEvent, c.EventType)
	req.Header.Set(webhook.HeaderDelivery, attemptID)
	resp, err := s.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	// Read a little of the answer so the connection can be reused; its
	// content does not matter.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, nil
}

// secrets opens the webhook's current secret and, during a rotation's
// overlap, the previous one: the delivery is signed with both.
func (s *Service) secrets(c *sentinel.ClaimedDelivery) ([]string, error) {
	cur, err := s.Box.Open(c.Secret, []byte(c.WebhookID))
	if err != nil {
		return nil, fmt.Errorf("open the webhook secret: %w", err)
	}
	out := []string{string(cur)}
	if c.PrevSecret != nil && s.Now().Before(c.PrevSecretUntil) {
		prev, err := s.Box.Open(c.PrevSecret, []byte(c.WebhookID))
		if err != nil {
			return nil, fmt.Errorf("open the previous webhook secret: %w", err)
		}
		out = append(out, string(prev))
	}
	return out, nil
}

// backoff is the delay after the attempt-th failed attempt: RetryBase
// doubled per attempt up to RetryMax, with "equal jitter" (half fixed,
// half random) so that deliveries failing together do not retry together.
func (s *Service) backoff(attempt int) time.Duration {
	d := s.RetryMax
	if attempt >= 1 && attempt < 40 {
		if v := s.RetryBase << (attempt - 1); v > 0 && v < d {
			d = v
		}
	}
	half := d / 2
	return half + rand.N(half+1)
}
