package finding_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/store/storetest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// submit stores a submission of host with the given purls; it becomes the
// host's live one.
func submit(t *testing.T, db *store.DB, org *sentinel.Organization, host string, purls ...string) string {
	t.Helper()
	sub := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: org.ID, Host: host, SpecVersion: "1.5", SHA256: "x"}
	var items []sentinel.InventoryItem
	for _, p := range purls {
		items = append(items, sentinel.InventoryItem{Purl: p, Ecosystem: "npm", Name: p, Version: "1"})
	}
	if err := db.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateSubmission(context.Background(), sub, []byte("{}"), items) }); err != nil {
		t.Fatal(err)
	}
	return sub.ID
}

func input(org *sentinel.Organization, subID string, purls ...string) finding.Input {
	in := finding.Input{Org: org, Asset: "web-1", SubmissionID: subID}
	for _, p := range purls {
		in.Components = append(in.Components, sentinel.Component{Purl: p})
	}
	return in
}

// TestOnlyLiveSubmissionDecides checks that a submission reconciled after
// a newer one of its host arrived writes nothing: its components are no
// longer the host's.
func TestOnlyLiveSubmissionDecides(t *testing.T) {
	for name, open := range testenv.Stores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := open()
			org := storetest.MustOrg(t, db, "acme")
			intel := fakeIntel{lodash: {{ID: "GHSA-p6mc-m468-83gw", Severity: "high"}}}
			e := &finding.Engine{DB: store.Bind[finding.Tx](db), Intel: func() finding.Matcher { return intel }}
			older := submit(t, db, org, "web-1", lodash)
			newer := submit(t, db, org, "web-1", "pkg:npm/left-pad@1.0.0")
			res, err := e.Reconcile(ctx, input(org, older, lodash))
			if err != nil || !res.Superseded {
				t.Fatalf("older submission: %+v, %v; want superseded", res, err)
			}
			if res, err := e.Reconcile(ctx, input(org, newer, "pkg:npm/left-pad@1.0.0")); err != nil || res.Superseded {
				t.Fatalf("newer submission: %+v, %v", res, err)
			}
			fs, _, _ := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID})
			if len(fs) != 0 {
				t.Errorf("the superseded submission left %d findings", len(fs))
			}
		})
	}
}

// TestConcurrentReconcilesKeepTheLiveOne reconciles each new submission of
// a host at the same time as the one before it (two replicas' jobs), and
// checks that the findings always end as the live submission says.
func TestConcurrentReconcilesKeepTheLiveOne(t *testing.T) {
	for name, open := range testenv.Stores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := open()
			org := storetest.MustOrg(t, db, "acme")
			intel := fakeIntel{lodash: {{ID: "GHSA-p6mc-m468-83gw", Severity: "high"}}}
			e := &finding.Engine{DB: store.Bind[finding.Tx](db), Intel: func() finding.Matcher { return intel }}
			comps := func(i int) []string {
				if i%2 == 0 {
					return []string{lodash}
				}
				return []string{fmt.Sprintf("pkg:npm/left-pad@1.0.%d", i)}
			}
			prev := submit(t, db, org, "web-1", comps(0)...)
			if _, err := e.Reconcile(ctx, input(org, prev, comps(0)...)); err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 12; i++ {
				cur := submit(t, db, org, "web-1", comps(i)...)
				var wg sync.WaitGroup
				for _, r := range []struct {
					id string
					n  int
				}{{prev, i - 1}, {cur, i}} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for {
							_, err := e.Reconcile(ctx, input(org, r.id, comps(r.n)...))
							if !store.IsConflict(err) { // a concurrent first insert: the job retries
								if err != nil {
									t.Error(err)
								}
								return
							}
						}
					}()
				}
				wg.Wait()
				open, _, _ := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID, Status: []string{sentinel.StatusOpen}})
				if want := 1 - i%2; len(open) != want {
					t.Fatalf("after submission %d: %d open findings, want %d (the live submission's)", i, len(open), want)
				}
				prev = cur
			}
		})
	}
}
