// Package storetest is the conformance suite every store engine must pass.
// store_test.go runs it against SQLite and against a real PostgreSQL.
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

// Opener returns a fresh, migrated, empty store for one test.
type Opener func(t *testing.T) *store.DB

// Run runs the whole suite.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(t *testing.T, db *store.DB)
	}{
		{"orgs", testOrgs},
		{"api_keys", testAPIKeys},
		{"audit_window", testAudit},
		{"events_outbox", testEvents},
		{"jobs_unique_claim_retry", testJobs},
		{"jobs_claimed_once_concurrently", testJobsConcurrent},
		{"jobs_lease_expiry", testJobLeaseExpiry},
		{"leases", testLeases},
		{"meters", testMeters},
		{"tx_rollback", testRollback},
		{"tx_buffered_inserts", testBufferedInserts},
		{"reconcile_reads", testReconcileReads},
		{"keyset_pages", testPages},
		{"scans_and_sites", testScans},
		{"iocs_and_live_sources", testIOCsAndLive},
		{"agent_inventory", testAgent},
		{"inventory_edges", testEdges},
		{"secrets_and_edge_windows", testSecretsAndEdge},
		{"bundles", testBundles}, {"signing_ca", testSigningCA}, {"evidence_sources", testEvidenceSources},
		{"users_sessions", testUsers}, {"signin_throttle", testSignInThrottle}, {"finding_views", testFindingViews},
		{"submissions_by_host", testSubmissionsByHost},
		{"webhooks_crud", testWebhooksCRUD}, {"webhook_fanout_order", testWebhookFanOutAndOrder}, {"webhook_deliveries_claimed_once", testDeliveriesClaimedOnce}, {"webhook_fanout_concurrent", testFanOutConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// MustOrg creates an organization or fails the test.
func MustOrg(tb testing.TB, db *store.DB, slug string) *sentinel.Organization {
	tb.Helper()
	var o *sentinel.Organization
	err := db.InTx(context.Background(), func(tx *store.Tx) (err error) {
		o, err = tx.CreateOrg(context.Background(), slug, "")
		return err
	})
	if err != nil {
		tb.Fatalf("CreateOrg(%q): %v", slug, err)
	}
	return o
}

func testOrgs(t *testing.T, db *store.DB) {
	ctx := context.Background()
	o := MustOrg(t, db, "acme")
	got, err := db.FindOrgBySlug(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(o, got); diff != "" {
		t.Errorf("FindOrgBySlug mismatch (-want +got):\n%s", diff)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.CreateOrg(ctx, "acme", ""); return err })
	if code := sentinel.ErrorCode(err); code != sentinel.ECONFLICT {
		t.Errorf("duplicate slug: code %q, want conflict", code)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.CreateOrg(ctx, "Bad Slug", ""); return err })
	if code := sentinel.ErrorCode(err); code != sentinel.EINVALID {
		t.Errorf("bad slug: code %q, want invalid", code)
	}
	if _, err := db.FindOrgBySlug(ctx, "nope"); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("missing org: %v, want not_found", err)
	}
	d := 3 * 24 * time.Hour
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.UpdateOrg(ctx, o.ID, sentinel.OrgUpdate{SharePeriod: &d}) }); err != nil {
		t.Fatal(err)
	}
	got, _ = db.FindOrgByID(ctx, o.ID)
	if got.SharePeriod != d {
		t.Errorf("SharePeriod = %v, want %v", got.SharePeriod, d)
	}
}

func testAPIKeys(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	k := &sentinel.APIKey{ID: sentinel.NewID(sentinel.PrefixKey), OrgID: a.ID, Name: "ci", Prefix: "sntl_x",
		Scopes: []string{sentinel.ScopeSCARead}, Hash: store.HashKey("secret-a"), CreatedBy: "admin-cli"}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateAPIKey(ctx, k) }); err != nil {
		t.Fatal(err)
	}
	got, slug, err := db.FindAPIKeyByHash(ctx, store.HashKey("secret-a"))
	if err != nil {
		t.Fatal(err)
	}
	if slug != "a" || got.ID != k.ID || !cmp.Equal(got.Scopes, k.Scopes) {
		t.Errorf("FindAPIKeyByHash = %+v %q", got, slug)
	}
	if _, _, err := db.FindAPIKeyByHash(ctx, store.HashKey("other")); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("unknown key: %v", err)
	}
	// Another organization can neither revoke nor list it.
	err = db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.RevokeAPIKey(ctx, b.ID, k.ID); return err })
	if sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("revoke from other org: %v, want not_found", err)
	}
	if ks, _, _ := db.ListAPIKeys(ctx, b.ID, sentinel.Page{Limit: 10}); len(ks) != 0 {
		t.Errorf("other org lists %d keys", len(ks))
	}
	if err := db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.RevokeAPIKey(ctx, a.ID, k.ID); return err }); err != nil {
		t.Fatal(err)
	}
	got, _, _ = db.FindAPIKeyByHash(ctx, store.HashKey("secret-a"))
	if got.RevokedAt == nil {
		t.Error("key not revoked")
	}
	// Pagination.
	for i := 0; i < 4; i++ {
		k := &sentinel.APIKey{ID: sentinel.NewID(sentinel.PrefixKey), OrgID: a.ID, Name: "k", Prefix: "p",
			Scopes: []string{sentinel.ScopeSCARead}, Hash: store.HashKey(sentinel.NewID("")), CreatedBy: "t"}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateAPIKey(ctx, k) }); err != nil {
			t.Fatal(err)
		}
	}
	p1, next, err := db.ListAPIKeys(ctx, a.ID, sentinel.Page{Limit: 3})
	if err != nil || len(p1) != 3 || next == "" {
		t.Fatalf("page 1: %d keys, next %q, %v", len(p1), next, err)
	}
	p2, next2, _ := db.ListAPIKeys(ctx, a.ID, sentinel.Page{Limit: 3, Cursor: next})
	if len(p2) != 2 || next2 != "" {
		t.Errorf("page 2: %d keys, next %q", len(p2), next2)
	}
}

func testAudit(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 5; i++ {
		db.Clock = func() time.Time { return base.Add(time.Duration(i) * 24 * time.Hour) }
		err := db.InTx(ctx, func(tx *store.Tx) error {
			return tx.Audit(ctx, a.ID, sentinel.Actor{KeyID: "key_1", Addr: "192.0.2.1"}, "thing.update", "thing_1", map[string]any{"i": i})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	_ = db.InTx(ctx, func(tx *store.Tx) error { return tx.Audit(ctx, b.ID, sentinel.Actor{KeyID: "key_2"}, "x", "y", nil) })
	got, _, err := db.FindAuditEntries(ctx, sentinel.AuditFilter{OrgID: a.ID, Since: base.Add(24 * time.Hour), Until: base.Add(3 * 24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].CreatedAt != base.Add(24*time.Hour) || got[0].Addr != "192.0.2.1" || got[0].Details["i"] != float64(1) {
		t.Errorf("window: %+v", got)
	}
	page, next, _ := db.FindAuditEntries(ctx, sentinel.AuditFilter{OrgID: a.ID, Page: sentinel.Page{Limit: 2}})
	rest, _, _ := db.FindAuditEntries(ctx, sentinel.AuditFilter{OrgID: a.ID, Page: sentinel.Page{Limit: 10, Cursor: next}})
	if len(page) != 2 || len(rest) != 3 {
		t.Errorf("pages: %d + %d", len(page), len(rest))
	}
}

func testEvents(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a := MustOrg(t, db, "a")
	err := db.InTx(ctx, func(tx *store.Tx) error {
		for i := 0; i < 3; i++ {
			if _, err := tx.EmitEvent(ctx, a, sentinel.EventFindingCreated, "fnd_1", map[string]int{"i": i}); err != nil {
				return err
			}
		}
		_, err := tx.EmitEvent(ctx, a, "no.such", "", nil)
		if err == nil {
			t.Error("unknown type accepted")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A rolled-back change emits nothing.
	_ = db.InTx(ctx, func(tx *store.Tx) error {
		_, _ = tx.EmitEvent(ctx, a, sentinel.EventFindingCreated, "fnd_2", nil)
		return sentinel.Errorf(sentinel.EINVALID, "nope")
	})
	var pending []*sentinel.Event
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		pending, err = tx.PendingEvents(ctx, 10)
		if err != nil {
			return err
		}
		return tx.MarkFannedOut(ctx, []int64{pending[0].Seq})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 3 || string(pending[2].Data) != `{"i":2}` || pending[0].Organization != "a" || pending[0].Subject != "fnd_1" {
		t.Fatalf("pending: %+v", pending)
	}
	_ = db.InTx(ctx, func(tx *store.Tx) (err error) { pending, err = tx.PendingEvents(ctx, 10); return err })
	if len(pending) != 2 {
		t.Errorf("after mark: %d pending, want 2", len(pending))
	}
	env, _ := pending[0].MarshalEnvelope()
	if !sentinel.HasPrefix(pending[0].ID, sentinel.PrefixEvent) || len(env) == 0 {
		t.Errorf("envelope %s", env)
	}
}

func testJobs(t *testing.T, db *store.DB) {
	ctx := context.Background()
	id, ok, err := db.Enqueue(ctx, "k", []byte(`{"a":1}`), sentinel.EnqueueOptions{UniqueKey: "u1", MaxAttempts: 2})
	if err != nil || !ok {
		t.Fatalf("Enqueue: %v %v", ok, err)
	}
	if _, ok, _ := db.Enqueue(ctx, "k", nil, sentinel.EnqueueOptions{UniqueKey: "u1"}); ok {
		t.Error("unique job enqueued twice")
	}
	jobs, err := db.ClaimJobs(ctx, []string{"k"}, 10, time.Minute)
	if err != nil || len(jobs) != 1 || jobs[0].ID != id || jobs[0].Attempts != 1 || string(jobs[0].Args) != `{"a":1}` {
		t.Fatalf("ClaimJobs: %+v %v", jobs, err)
	}
	if again, _ := db.ClaimJobs(ctx, []string{"k"}, 10, time.Minute); len(again) != 0 {
		t.Errorf("leased job claimed again")
	}
	if err := db.RetryJob(ctx, id, 1, "boom", db.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	jobs, _ = db.ClaimJobs(ctx, []string{"k"}, 10, time.Minute)
	if len(jobs) != 1 || jobs[0].Attempts != 2 {
		t.Fatalf("retry claim: %+v", jobs)
	}
	// The second failure uses the last attempt: the job fails for good and
	// frees its unique key.
	if err := db.RetryJob(ctx, id, 2, "boom again", db.Now()); err != nil {
		t.Fatal(err)
	}
	j, _ := db.FindJob(ctx, id)
	if j.State != sentinel.JobFailed || j.LastError != "boom again" {
		t.Errorf("after max attempts: %+v", j)
	}
	if _, ok, _ := db.Enqueue(ctx, "k", nil, sentinel.EnqueueOptions{UniqueKey: "u1"}); !ok {
		t.Error("unique key not freed after failure")
	}
	jobs, _ = db.ClaimJobs(ctx, []string{"k"}, 10, time.Minute)
	if err := db.CompleteJob(ctx, jobs[0].ID, jobs[0].Attempts); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.CountJobs(ctx, "k", sentinel.JobCompleted); n != 1 {
		t.Errorf("completed = %d", n)
	}
	// Delayed jobs wait.
	_, _, _ = db.Enqueue(ctx, "later", nil, sentinel.EnqueueOptions{RunAfter: db.Now().Add(time.Hour)})
	if js, _ := db.ClaimJobs(ctx, []string{"later"}, 1, time.Minute); len(js) != 0 {
		t.Error("delayed job claimed early")
	}
}

func testJobsConcurrent(t *testing.T, db *store.DB) {
	ctx := context.Background()
	const n = 60
	for i := 0; i < n; i++ {
		if _, _, err := db.Enqueue(ctx, "c", nil, sentinel.EnqueueOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	seen := map[int64]int{}
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				js, err := db.ClaimJobs(ctx, []string{"c"}, 3, time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				if len(js) == 0 {
					return
				}
				mu.Lock()
				for _, j := range js {
					seen[j.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != n {
		t.Errorf("claimed %d distinct jobs, want %d", len(seen), n)
	}
	for id, c := range seen {
		if c != 1 {
			t.Errorf("job %d claimed %d times", id, c)
		}
	}
}

func testJobLeaseExpiry(t *testing.T, db *store.DB) {
	ctx := context.Background()
	now := time.Now()
	db.Clock = func() time.Time { return now }
	id, _, _ := db.Enqueue(ctx, "l", nil, sentinel.EnqueueOptions{})
	if js, _ := db.ClaimJobs(ctx, []string{"l"}, 1, time.Minute); len(js) != 1 {
		t.Fatal("not claimed")
	}
	// The worker dies; after the lease runs out another claims it.
	now = now.Add(2 * time.Minute)
	js, _ := db.ClaimJobs(ctx, []string{"l"}, 1, time.Minute)
	if len(js) != 1 || js[0].ID != id || js[0].Attempts != 2 {
		t.Fatalf("reclaim after lease expiry: %+v", js)
	}
	// The dead worker's late completion does not touch the new attempt.
	_ = db.CompleteJob(ctx, id, 1)
	if j, _ := db.FindJob(ctx, id); j.State != sentinel.JobRunning {
		t.Errorf("stale completion changed state to %s", j.State)
	}
}

func testLeases(t *testing.T, db *store.DB) {
	ctx := context.Background()
	now := time.Now()
	db.Clock = func() time.Time { return now }
	if ok, err := db.AcquireLease(ctx, "leader", "a", 10*time.Second); !ok || err != nil {
		t.Fatalf("a acquire: %v %v", ok, err)
	}
	if ok, _ := db.AcquireLease(ctx, "leader", "b", 10*time.Second); ok {
		t.Error("b took a held lease")
	}
	if ok, _ := db.AcquireLease(ctx, "leader", "a", 10*time.Second); !ok {
		t.Error("a could not renew")
	}
	now = now.Add(11 * time.Second)
	if ok, _ := db.AcquireLease(ctx, "leader", "b", 10*time.Second); !ok {
		t.Error("b could not take an expired lease")
	}
	if n, _ := db.CountLeases(ctx, "lead"); n != 1 {
		t.Errorf("CountLeases = %d", n)
	}
	_ = db.ReleaseLease(ctx, "leader", "a") // not a's any more: no effect
	if ok, _ := db.AcquireLease(ctx, "leader", "c", time.Second); ok {
		t.Error("release by a non-holder freed the lease")
	}
}

func testMeters(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a := MustOrg(t, db, "a")
	consume := func() error {
		return db.InTx(ctx, func(tx *store.Tx) error { return tx.ConsumeMeter(ctx, a.ID, sentinel.MeterScans, 1) })
	}
	if err := consume(); err != nil {
		t.Fatalf("unmetered: %v", err)
	}
	two := 2
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.SetMeterLimit(ctx, a.ID, sentinel.MeterScans, &two) }); err != nil {
		t.Fatal(err)
	}
	if err := consume(); err != nil {
		t.Fatalf("second use: %v", err)
	}
	if err := consume(); sentinel.ErrorCode(err) != sentinel.EMETERED {
		t.Fatalf("third use: %v, want metered", err)
	}
	st, _ := db.MeterStatuses(ctx, a.ID)
	if st[0].Meter != sentinel.MeterScans || st[0].Used != 2 || *st[0].Limit != 2 {
		t.Errorf("status %+v", st[0])
	}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.SetMeterLimit(ctx, a.ID, "bogus", &two) }); sentinel.ErrorCode(err) != sentinel.EINVALID {
		t.Errorf("bogus meter: %v", err)
	}
}

func testRollback(t *testing.T, db *store.DB) {
	ctx := context.Background()
	_ = db.InTx(ctx, func(tx *store.Tx) error {
		_, _ = tx.CreateOrg(ctx, "ghost", "")
		return sentinel.Errorf(sentinel.EINVALID, "abort")
	})
	if _, err := db.FindOrgBySlug(ctx, "ghost"); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("rolled back org exists: %v", err)
	}
}
