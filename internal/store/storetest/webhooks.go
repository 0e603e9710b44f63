package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// MustWebhook registers a webhook (with a placeholder sealed secret) or
// fails the test.
func MustWebhook(tb testing.TB, db *store.DB, orgID string, events ...string) *sentinel.Webhook {
	tb.Helper()
	w := &sentinel.Webhook{ID: sentinel.NewID(sentinel.PrefixWebhook), OrgID: orgID, URL: "https://example.com/h",
		Events: events, Active: true, Secret: []byte("sealed")}
	if err := db.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateWebhook(context.Background(), w) }); err != nil {
		tb.Fatalf("CreateWebhook: %v", err)
	}
	return w
}

func testWebhooksCRUD(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	w := MustWebhook(t, db, a.ID, "finding.*", "scan.completed")
	got, err := db.FindWebhook(ctx, a.ID, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, got); diff != "" {
		t.Errorf("FindWebhook mismatch (-want +got):\n%s", diff)
	}
	if _, err := db.FindWebhook(ctx, b.ID, w.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("FindWebhook from another organization: %v, want not_found", err)
	}
	// Another organization can neither change nor delete it.
	off := false
	err = db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.UpdateWebhook(ctx, b.ID, w.ID, sentinel.WebhookUpdate{Active: &off})
		return err
	})
	if sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("UpdateWebhook from another organization: %v, want not_found", err)
	}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.DeleteWebhook(ctx, b.ID, w.ID) }); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("DeleteWebhook from another organization: %v, want not_found", err)
	}

	url, events := "https://example.org/new", []string{"*"}
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		got, err = tx.UpdateWebhook(ctx, a.ID, w.ID, sentinel.WebhookUpdate{URL: &url, Events: &events})
		return err
	})
	if err != nil || got.URL != url || !cmp.Equal(got.Events, events) || got.Description != "" || !got.Active {
		t.Fatalf("UpdateWebhook = %+v, %v", got, err)
	}

	until := db.Now().Add(24 * time.Hour).UTC().Truncate(time.Millisecond)
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		got, err = tx.RotateWebhookSecret(ctx, a.ID, w.ID, []byte("sealed-2"), until)
		return err
	})
	if err != nil || string(got.Secret) != "sealed-2" || string(got.PrevSecret) != "sealed" || got.PrevSecretUntil == nil || !got.PrevSecretUntil.Equal(until) {
		t.Fatalf("RotateWebhookSecret = %+v, %v", got, err)
	}

	for i := 0; i < 4; i++ {
		MustWebhook(t, db, a.ID, "*")
	}
	MustWebhook(t, db, b.ID, "*")
	p1, next, err := db.ListWebhooks(ctx, a.ID, sentinel.Page{Limit: 3})
	if err != nil || len(p1) != 3 || next == "" {
		t.Fatalf("ListWebhooks page 1: %d, %q, %v", len(p1), next, err)
	}
	p2, next2, _ := db.ListWebhooks(ctx, a.ID, sentinel.Page{Limit: 3, Cursor: next})
	if len(p2) != 2 || next2 != "" {
		t.Errorf("ListWebhooks page 2: %d, %q", len(p2), next2)
	}

	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.DeleteWebhook(ctx, a.ID, w.ID) }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FindWebhook(ctx, a.ID, w.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("deleted webhook: %v", err)
	}
}

// emit writes events about subjects, in order, in one transaction.
func emit(tb testing.TB, db *store.DB, org *sentinel.Organization, typ string, subjects ...string) []*sentinel.Event {
	tb.Helper()
	var out []*sentinel.Event
	err := db.InTx(context.Background(), func(tx *store.Tx) error {
		out = out[:0]
		for i, s := range subjects {
			e, err := tx.EmitEvent(context.Background(), org, typ, s, map[string]int{"i": i})
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func fanOut(tb testing.TB, db *store.DB) (int, int) {
	tb.Helper()
	var n, d int
	err := db.InTx(context.Background(), func(tx *store.Tx) (err error) {
		n, d, err = tx.FanOutEvents(context.Background(), 500, 24*time.Hour)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n, d
}

func claimIDs(cs []*sentinel.ClaimedDelivery) map[string]*sentinel.ClaimedDelivery {
	m := map[string]*sentinel.ClaimedDelivery{}
	for _, c := range cs {
		m[c.EventID] = c
	}
	return m
}

func testWebhookFanOutAndOrder(t *testing.T, db *store.DB) {
	ctx := context.Background()
	now := time.Now().UTC()
	db.Clock = func() time.Time { return now }
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	findings := MustWebhook(t, db, a.ID, "finding.*")
	scans := MustWebhook(t, db, a.ID, "scan.completed")
	other := MustWebhook(t, db, b.ID, "*")
	off := MustWebhook(t, db, a.ID, "*")
	no := false
	if err := db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.UpdateWebhook(ctx, a.ID, off.ID, sentinel.WebhookUpdate{Active: &no})
		return err
	}); err != nil {
		t.Fatal(err)
	}

	f := emit(t, db, a, sentinel.EventFindingCreated, "fnd_1", "fnd_1", "fnd_2", "fnd_1")
	sc := emit(t, db, a, sentinel.EventScanCompleted, "")
	if n, d := fanOut(t, db); n != 5 || d != 5 {
		t.Fatalf("FanOutEvents = %d events, %d deliveries; want 5, 5", n, d)
	}
	if n, d := fanOut(t, db); n != 0 || d != 0 {
		t.Errorf("second FanOutEvents = %d, %d; want nothing left", n, d)
	}
	for _, w := range []*sentinel.Webhook{other, off} {
		if ds, _, _ := db.ListDeliveries(ctx, sentinel.DeliveryFilter{OrgID: w.OrgID, WebhookID: w.ID}); len(ds) != 0 {
			t.Errorf("webhook %s got %d deliveries, want none", w.ID, len(ds))
		}
	}
	ds, _, err := db.ListDeliveries(ctx, sentinel.DeliveryFilter{OrgID: a.ID, WebhookID: findings.ID})
	if err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, d := range ds {
		states = append(states, d.EventID+":"+d.State)
	}
	want := []string{f[3].ID + ":waiting", f[2].ID + ":pending", f[1].ID + ":waiting", f[0].ID + ":pending"}
	if diff := cmp.Diff(want, states); diff != "" {
		t.Errorf("deliveries newest first (-want +got):\n%s", diff)
	}
	if _, _, err := db.ListDeliveries(ctx, sentinel.DeliveryFilter{OrgID: b.ID, WebhookID: findings.ID}); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("ListDeliveries from another organization: %v", err)
	}

	// Only the heads of each subject, and the unordered scan event, are due.
	cs, err := db.ClaimDeliveries(ctx, 10, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := claimIDs(cs)
	if len(got) != 3 || got[f[0].ID] == nil || got[f[2].ID] == nil || got[sc[0].ID] == nil {
		t.Fatalf("claimed %v, want the first fnd_1 event, fnd_2 and the scan", got)
	}
	c0 := got[f[0].ID]
	if c0.Attempt != 1 || c0.URL != findings.URL || string(c0.Secret) != "sealed" || c0.EventType != sentinel.EventFindingCreated {
		t.Errorf("claimed delivery %+v", c0)
	}
	wantEnv, _ := f[0].MarshalEnvelope()
	if string(c0.Envelope) != string(wantEnv) {
		t.Errorf("envelope %s, want the bytes stored at emit time %s", c0.Envelope, wantEnv)
	}
	if again, _ := db.ClaimDeliveries(ctx, 10, time.Minute); len(again) != 0 {
		t.Errorf("leased deliveries claimed again: %d", len(again))
	}

	// A retry keeps fnd_1's next event waiting.
	record := func(c *sentinel.ClaimedDelivery, state string) int {
		n, err := db.RecordAttempts(ctx, []sentinel.AttemptOutcome{{ID: c.ID, Attempt: c.Attempt, AttemptID: "u", At: now,
			Status: 500, Error: "boom", State: state, RetryAt: now}})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := record(c0, sentinel.DeliveryPending); n != 1 {
		t.Fatalf("RecordAttempts = %d", n)
	}
	cs, _ = db.ClaimDeliveries(ctx, 10, time.Minute)
	if len(cs) != 1 || cs[0].EventID != f[0].ID || cs[0].Attempt != 2 {
		t.Fatalf("after a retry claimed %+v, want the same delivery, attempt 2", cs)
	}
	// The first attempt's late outcome is ignored.
	if n := record(c0, sentinel.DeliverySucceeded); n != 0 {
		t.Errorf("stale outcome recorded")
	}
	// Success starts the next delivery about fnd_1.
	if n := record(cs[0], sentinel.DeliverySucceeded); n != 1 {
		t.Fatal("success not recorded")
	}
	cs, _ = db.ClaimDeliveries(ctx, 10, time.Minute)
	if len(cs) != 1 || cs[0].EventID != f[1].ID {
		t.Fatalf("after success claimed %+v, want the second fnd_1 event", cs)
	}
	// Giving up starts the next one too.
	record(cs[0], sentinel.DeliveryFailed)
	cs, _ = db.ClaimDeliveries(ctx, 10, time.Minute)
	if len(cs) != 1 || cs[0].EventID != f[3].ID {
		t.Fatalf("after failure claimed %+v, want the third fnd_1 event", cs)
	}
	// A sender that dies: its lease runs out and the delivery is due again.
	now = now.Add(2 * time.Minute)
	re, _ := db.ClaimDeliveries(ctx, 10, time.Minute)
	if m := claimIDs(re); m[f[3].ID] == nil || m[f[3].ID].Attempt != 2 {
		t.Errorf("after lease expiry claimed %v, want the third fnd_1 event again", m)
	}

	// The failed one is redeliverable by hand; a queued one is not.
	d, err := db.FindDelivery(ctx, a.ID, findings.ID, ds[2].ID)
	if err != nil || d.State != sentinel.DeliveryFailed || d.LastStatus != 500 || d.LastError != "boom" || d.LastAttemptID != "u" {
		t.Fatalf("FindDelivery = %+v, %v", d, err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.Redeliver(ctx, a.ID, findings.ID, d.ID, time.Hour); return err })
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.Redeliver(ctx, a.ID, findings.ID, d.ID, time.Hour); return err })
	if sentinel.ErrorCode(err) != sentinel.ECONFLICT {
		t.Errorf("redeliver a queued delivery: %v, want conflict", err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.Redeliver(ctx, b.ID, findings.ID, d.ID, time.Hour); return err })
	if sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("redeliver from another organization: %v, want not_found", err)
	}
	cs, _ = db.ClaimDeliveries(ctx, 10, time.Minute)
	if m := claimIDs(cs); m[f[1].ID] == nil {
		t.Errorf("redelivered delivery not claimed: %v", m)
	}

	// A test event goes to its webhook only, even with "*" subscribers.
	star := MustWebhook(t, db, a.ID, "*")
	var did string
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		_, did, err = tx.EmitTestEvent(ctx, a, scans.ID, map[string]string{}, time.Hour)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := fanOut(t, db); n != 0 {
		t.Errorf("test event left in the outbox")
	}
	if ds, _, _ := db.ListDeliveries(ctx, sentinel.DeliveryFilter{OrgID: a.ID, WebhookID: star.ID}); len(ds) != 0 {
		t.Errorf("a * webhook received the test event of another")
	}
	if d, err := db.FindDelivery(ctx, a.ID, scans.ID, did); err != nil || d.EventType != sentinel.EventWebhookTest || d.State != sentinel.DeliveryPending {
		t.Errorf("test delivery = %+v, %v", d, err)
	}

	// Deactivating fails what is queued.
	err = db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.UpdateWebhook(ctx, a.ID, scans.ID, sentinel.WebhookUpdate{Active: &no})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := db.FindDelivery(ctx, a.ID, scans.ID, did); d.State != sentinel.DeliveryFailed || d.LastError == "" {
		t.Errorf("queued delivery of a deactivated webhook = %+v", d)
	}
}

func testDeliveriesClaimedOnce(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a := MustOrg(t, db, "a")
	MustWebhook(t, db, a.ID, "*")
	subjects := make([]string, 60)
	emit(t, db, a, sentinel.EventScanCompleted, subjects...)
	fanOut(t, db)
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				cs, err := db.ClaimDeliveries(ctx, 4, time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				if len(cs) == 0 {
					return
				}
				mu.Lock()
				for _, c := range cs {
					seen[c.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != len(subjects) {
		t.Errorf("claimed %d distinct deliveries, want %d", len(seen), len(subjects))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("delivery %s claimed %d times", id, n)
		}
	}
}

// testFanOutConcurrent fans out from several goroutines at once (replicas,
// on PostgreSQL): every event is fanned out exactly once, and for each
// subject only its oldest delivery is pending, the rest wait.
func testFanOutConcurrent(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a := MustOrg(t, db, "a")
	w := MustWebhook(t, db, a.ID, "*")
	subjects := make([]string, 300)
	for i := range subjects {
		subjects[i] = []string{"fnd_1", "fnd_2", "fnd_3"}[i%3]
	}
	for i := 0; i < len(subjects); i += 30 {
		emit(t, db, a, sentinel.EventFindingCreated, subjects[i:i+30]...)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				var n int
				err := db.InTx(ctx, func(tx *store.Tx) (err error) {
					n, _, err = tx.FanOutEvents(ctx, 25, time.Hour)
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				if n == 0 {
					if ok, _ := db.HasPendingEvents(ctx); !ok {
						return
					}
					time.Sleep(time.Millisecond)
				}
			}
		}()
	}
	wg.Wait()
	ds, _, err := db.ListDeliveries(ctx, sentinel.DeliveryFilter{OrgID: a.ID, WebhookID: w.ID, Page: sentinel.Page{Limit: 500}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != len(subjects) {
		t.Fatalf("%d deliveries for %d events", len(ds), len(subjects))
	}
	oldest := map[string]int64{}
	for _, d := range ds { // newest first
		oldest[d.Subject] = d.EventSeq
	}
	for _, d := range ds {
		if want := map[bool]string{true: sentinel.DeliveryPending, false: sentinel.DeliveryWaiting}[d.EventSeq == oldest[d.Subject]]; d.State != want {
			t.Errorf("delivery of event %d about %s is %s, want %s", d.EventSeq, d.Subject, d.State, want)
		}
	}
}
