package webhooks_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
)

// TestUnreliableReceiver sends 10,000 events about 200 findings to a
// receiver that fails half the requests and stalls a few past the 10 s
// timeout. Every event must arrive; each finding's events must arrive in
// order (the next one only after the previous one was acknowledged); and
// an acknowledged event must never arrive again (duplicates only as
// retries of failed attempts, with the same event id). Retries are scaled
// down (RetryBase 5ms) so the test takes seconds, not hours; the timeout
// is the real 10 s.
func TestUnreliableReceiver(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 10,000 events; skipped with -short")
	}
	if raceEnabled {
		// 10,000 events take 90 s under the race detector: check the
		// same properties on 2,000.
		runUnreliable(t, []*store.DB{mustStore(t)}, 100, 20, 4, 20*time.Millisecond)
		return
	}
	runUnreliable(t, []*store.DB{mustStore(t)}, 200, 50, 8, 20*time.Millisecond)
}

// TestUnreliableReceiverPostgresReplicas runs the same checks with two
// replicas (two services, two connection pools) sharing one PostgreSQL
// database: claims with SKIP LOCKED, subject locks, and the fan-out woken by
// LISTEN/NOTIFY rather than by the emitter (the poll is slowed to 1 s).
func TestUnreliableReceiverPostgresReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short")
	}
	dsn := pgtest.DSN(t)
	var dbs []*store.DB
	for range 2 {
		db, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs = append(dbs, db)
	}
	runUnreliable(t, dbs, 50, 40, 0, time.Second)
}

// runUnreliable emits subjects*perSubject events round robin over the
// subjects and runs one service per store against an unreliable receiver.
func runUnreliable(t *testing.T, dbs []*store.DB, subjects, perSubject, stalls int, poll time.Duration) {
	db := dbs[0]
	box := mustBox(t)
	org := mustOrg(t, db, "acme")

	// emitAll puts the finding id and the event's position in data: the
	// receiver knows each event's subject and place from the body alone.
	var mu sync.Mutex
	next := map[string]int{}     // subject -> index of the next event it may receive
	attempts := map[string]int{} // event id -> requests received
	seenDelivery := map[string]bool{}
	var violations []string
	var stalled int
	var secret string
	var acked ledger

	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc, err := readDelivery(r)
		mu.Lock()
		if err != nil {
			violations = append(violations, "unreadable body: "+err.Error())
		}
		if bad := checkHeaders(rc, r.Header.Get("Service-Event"), secret); bad != "" {
			violations = append(violations, rc.EventID+": "+bad)
		}
		if seenDelivery[rc.Delivery] {
			violations = append(violations, "Service-Delivery reused: "+rc.Delivery)
		}
		seenDelivery[rc.Delivery] = true
		subj := rc.Subject
		attempts[rc.EventID]++
		switch i := rc.N / subjects; {
		case i < next[subj]:
			violations = append(violations, fmt.Sprintf("%s: event %d received again after it was acknowledged", subj, i))
		case i > next[subj]:
			violations = append(violations, fmt.Sprintf("%s: event %d received before event %d was acknowledged", subj, i, next[subj]))
		}
		stall := stalled < stalls && rand.IntN(100) == 0
		fail := !stall && rand.IntN(2) == 0
		if stall {
			stalled++
		}
		if !stall && !fail {
			next[subj]++
		}
		mu.Unlock()
		switch {
		case stall:
			// Past the sender's 10 s timeout; the sender gives up first.
			select {
			case <-r.Context().Done():
			case <-time.After(11 * time.Second):
			}
			w.WriteHeader(200) // too late: must not count
		case fail:
			w.WriteHeader(500 + rand.IntN(4))
		default:
			acked.ack(rc.EventID)
			w.WriteHeader(204)
		}
	}))
	defer recv.Close()

	wh, plain := mustWebhook(t, db, box, org, recv.URL+"/hook", "finding.*")
	secret = plain
	var svcs []*webhooks.Service
	for _, db := range dbs {
		svc := &webhooks.Service{DB: store.Bind[webhooks.Tx](db), Box: box, Policy: local, Senders: 48 / len(dbs), RetryBase: 5 * time.Millisecond, RetryMax: 50 * time.Millisecond, Poll: poll}
		startService(t, svc)
		svcs = append(svcs, svc)
	}
	notify := svcs[0].Notify
	if len(dbs) > 1 {
		notify = nil // LISTEN/NOTIFY must wake the fan-out
	}

	// Emit round robin over the findings, in transactions of 250 events,
	// while deliveries run.
	all := make([]string, 0, subjects*perSubject)
	for i := 0; i < subjects*perSubject; i++ {
		all = append(all, fmt.Sprintf("fnd_%03d", i%subjects))
	}
	start := time.Now()
	ids := emitAll(t, db, org, sentinel.EventFindingEscalated, all, 250, notify)

	testenv.WaitFor(t, 90*time.Second, "every event acknowledged", func() bool { return acked.count(ids) == len(ids) })
	elapsed := time.Since(start)
	// The receiver may see its 2xx before the sender has recorded it (outcomes
	// are written in batches), so give the last outcomes a moment.
	testenv.WaitFor(t, 10*time.Second, "the last outcomes recorded", func() bool {
		for _, st := range []string{sentinel.DeliveryWaiting, sentinel.DeliveryPending} {
			ds, _, err := db.ListDeliveries(context.Background(), sentinel.DeliveryFilter{OrgID: org.ID, WebhookID: wh.ID, State: st, Page: sentinel.Page{Limit: 1}})
			if err != nil || len(ds) != 0 {
				return false
			}
		}
		return true
	})

	mu.Lock()
	defer mu.Unlock()
	for _, v := range violations[:min(len(violations), 20)] {
		t.Error(v)
	}
	if len(violations) > 20 {
		t.Errorf("... and %d more violations", len(violations)-20)
	}
	total := 0
	for _, n := range attempts {
		total += n
	}
	for _, id := range ids {
		delete(attempts, id)
	}
	if len(attempts) != 0 {
		t.Errorf("%d event ids received that were never emitted", len(attempts))
	}
	t.Logf("%d events, %d requests (%d stalled past the timeout) in %s", len(ids), total, stalled, elapsed.Round(time.Millisecond))
	if total < len(ids)*3/2 {
		t.Errorf("only %d requests for %d events at a 50%% failure rate: retries missing?", total, len(ids))
	}

	// The store agrees: every delivery succeeded, none is left over.
	for _, st := range []string{sentinel.DeliveryWaiting, sentinel.DeliveryPending, sentinel.DeliveryFailed} {
		ds, _, err := db.ListDeliveries(context.Background(), sentinel.DeliveryFilter{OrgID: org.ID, WebhookID: wh.ID, State: st, Page: sentinel.Page{Limit: 5}})
		if err != nil || len(ds) != 0 {
			t.Errorf("deliveries %s: %d (%v), want none", st, len(ds), err)
		}
	}
}

// TestPostgresNotifyWakesFanOut checks that on PostgreSQL an event
// committed by anyone (here: without calling Notify) reaches the receiver
// long before the next poll: the events trigger's NOTIFY wakes the fan-out.
func TestPostgresNotifyWakesFanOut(t *testing.T) {
	db, err := store.Open(context.Background(), pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	box := mustBox(t)
	org := mustOrg(t, db, "acme")
	rcv := &capture{}
	hook := httptest.NewServer(rcv)
	defer hook.Close()
	mustWebhook(t, db, box, org, hook.URL, "*")
	listening := make(chan struct{})
	startService(t, &webhooks.Service{DB: &listenSignal{Store: store.Bind[webhooks.Tx](db), listening: listening}, Box: box, Policy: local, Poll: time.Minute})
	select {
	case <-listening:
	case <-time.After(20 * time.Second):
		t.Fatal("the service never started listening")
	}
	for i := 0; i < 3; i++ {
		start := time.Now()
		emitAll(t, db, org, sentinel.EventScanCompleted, []string{""}, 1, nil)
		rcv.wait(t, i+1)
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("event %d took %s with a one-minute poll: NOTIFY did not wake the fan-out", i, d)
		}
	}
}

// listenSignal closes listening when the store's LISTEN is in place (its
// first wake).
type listenSignal struct {
	webhooks.Store
	listening chan struct{}
	once      sync.Once
}

func (l *listenSignal) ListenEvents(ctx context.Context, wake func()) error {
	return l.Store.ListenEvents(ctx, func() {
		l.once.Do(func() { close(l.listening) })
		wake()
	})
}

// TestDeliveryRefusesInternalTargets covers the second check: a URL that
// passed registration but leads to a refused address at delivery (DNS
// rebinding, or a row written before the policy changed) is refused on the
// dialled connection, never reaches the target, and fails visibly once its
// retry window ends.
func TestDeliveryRefusesInternalTargets(t *testing.T) {
	db := mustStore(t)
	box := mustBox(t)
	org := mustOrg(t, db, "acme")
	var hits atomic.Int64
	recv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer recv.Close()
	wh, _ := mustWebhook(t, db, box, org, recv.URL, "*") // https://127.0.0.1:port, stored without CheckURL
	startService(t, &webhooks.Service{DB: store.Bind[webhooks.Tx](db), Box: box, Window: 300 * time.Millisecond, RetryBase: 50 * time.Millisecond})
	emitAll(t, db, org, sentinel.EventScanCompleted, []string{""}, 1, nil)
	var ds []*sentinel.Delivery
	testenv.WaitFor(t, 10*time.Second, "the delivery to fail", func() bool {
		ds, _, _ = db.ListDeliveries(context.Background(), sentinel.DeliveryFilter{OrgID: org.ID, WebhookID: wh.ID, State: sentinel.DeliveryFailed})
		return len(ds) == 1
	})
	if hits.Load() != 0 {
		t.Errorf("the refused target received %d requests", hits.Load())
	}
	if d := ds[0]; d.LastStatus != 0 || !strings.Contains(d.LastError, "not allowed") || strings.Contains(d.LastError, "127.0.0.1") {
		t.Errorf("failed delivery: status %d, error %q (it must not name the address)", d.LastStatus, d.LastError)
	}
}
