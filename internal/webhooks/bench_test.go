package webhooks_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
)

// BenchmarkDeliveries measures end-to-end throughput: b.N events
// already committed to the outbox are fanned out, signed, POSTed to a local
// receiver that answers 204, and recorded. Reports deliveries/s.
func BenchmarkDeliveries(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchDeliveries(b, mustStore(b)) })
	b.Run("postgres", func(b *testing.B) {
		db, err := store.Open(context.Background(), pgtest.DSN(b))
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		benchDeliveries(b, db)
	})
}

func benchDeliveries(b *testing.B, db *store.DB) {
	box := mustBox(b)
	org := mustOrg(b, db, "acme")
	var got atomic.Int64
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		w.WriteHeader(204)
	}))
	defer recv.Close()
	mustWebhook(b, db, box, org, recv.URL, "*")
	subjects := make([]string, b.N) // no subject: no ordering constraint
	emitAll(b, db, org, sentinel.EventScanCompleted, subjects, 500, nil)

	b.ResetTimer()
	start := time.Now()
	svc := &webhooks.Service{DB: store.Bind[webhooks.Tx](db), Box: box, Policy: local}
	startService(b, svc)
	for got.Load() < int64(b.N) {
		time.Sleep(time.Millisecond)
	}
	// Wait for the outcomes to be recorded too.
	testenv.WaitFor(b, time.Minute, "outcomes recorded", func() bool {
		_, ok, _ := db.NextDeliveryDue(b.Context())
		return !ok
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "deliveries/s")
}

// BenchmarkCommitToFirstAttempt measures the time from an event's commit to
// the first attempt's arrival at a local receiver, one event at a time.
// "notify": the emitter calls Service.Notify after commit (as the test
// operation does; on PostgreSQL the events trigger's NOTIFY does this for
// every emitter and replica). "poll": nobody notifies; the fan-out finds
// the event on its next poll (50 ms by default).
func BenchmarkCommitToFirstAttempt(b *testing.B) {
	for _, mode := range []string{"notify", "poll"} {
		b.Run(mode, func(b *testing.B) {
			db := mustStore(b)
			box := mustBox(b)
			org := mustOrg(b, db, "acme")
			arrived := make(chan time.Time, 1)
			recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				arrived <- time.Now()
				w.WriteHeader(204)
			}))
			defer recv.Close()
			mustWebhook(b, db, box, org, recv.URL, "*")
			svc := &webhooks.Service{DB: store.Bind[webhooks.Tx](db), Box: box, Policy: local}
			startService(b, svc)
			after := func() {}
			if mode == "notify" {
				after = svc.Notify
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				emitAll(b, db, org, sentinel.EventScanCompleted, []string{""}, 1, nil)
				committed := time.Now()
				after()
				lat = append(lat, (<-arrived).Sub(committed))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
