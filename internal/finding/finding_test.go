package finding_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/store/storetest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// fakeIntel answers from a table; the lifecycle under test is ours, the
// matching itself is tested in internal/intel with real records.
type fakeIntel map[string][]sentinel.AdvisoryMatch

func (f fakeIntel) Match(purl string) ([]sentinel.AdvisoryMatch, error) { return f[purl], nil }

func (f fakeIntel) EOL(string) (*sentinel.EOLStatus, error) { return nil, nil }

func events(t *testing.T, db *store.DB, org *sentinel.Organization, typ string) []*sentinel.Event {
	t.Helper()
	es, err := db.FindEvents(context.Background(), sentinel.EventFilter{OrgID: org.ID, Type: typ, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

const lodash = "pkg:npm/lodash@4.17.15"

func TestLifecycle(t *testing.T) {
	for name, open := range testenv.Stores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := open()
			now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
			db.Clock = func() time.Time { return now }
			org := storetest.MustOrg(t, db, "acme")
			intel := fakeIntel{lodash: {{ID: "GHSA-p6mc-m468-83gw", Aliases: []string{"CVE-2020-8203"}, Severity: "high",
				CVSSScore: 7.4, FixedVersions: []string{"4.17.19"}, NearestFix: "4.17.19"}}}
			e := &finding.Engine{DB: store.Bind[finding.Tx](db), Intel: func() finding.Matcher { return intel }}
			in := finding.Input{Org: org, Asset: "web-1", Components: []sentinel.Component{{Purl: lodash}, {Purl: "pkg:npm/left-pad@1.0.0"}}}

			res, err := e.Reconcile(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if res.Created != 1 || res.Open != 1 {
				t.Fatalf("first reconcile: %+v", res)
			}
			fs, _, _ := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID})
			f := fs[0]
			if f.Category != "vulnerable_component" || f.CWE != "CWE-1395" || f.RiskScore != 74 || f.Band != "high" ||
				!f.SLADueAt.Equal(now.Add(168*time.Hour)) || f.Status != "open" || len(f.Compliance) == 0 || f.AssetName != "web-1" {
				t.Errorf("finding: %+v", f)
			}
			if n := len(events(t, db, org, sentinel.EventFindingCreated)); n != 1 {
				t.Errorf("finding.created events: %d", n)
			}
			if n := len(events(t, db, org, sentinel.EventAssetFirstSeen)); n != 1 {
				t.Errorf("asset.first_seen events: %d", n)
			}

			// The same SBOM again changes nothing that matters.
			now = now.Add(time.Hour)
			res, _ = e.Reconcile(ctx, in)
			if len(res.Changes) != 0 {
				t.Errorf("unchanged reconcile: %+v", res.Changes)
			}

			// The daily watch learns that it is known-exploited: escalation
			// to critical, sbom.intel_match, a tighter SLA.
			now = now.Add(time.Hour)
			intel[lodash][0].KEV = true
			intel[lodash][0].KEVDateAdded = "2026-11-20"
			in.Watch = true
			res, _ = e.Reconcile(ctx, in)
			if len(res.Changes) != 2 || res.Changes[0].Reason != "kev_listed" || res.Changes[1].Reason != "severity_raised" {
				t.Errorf("watch changes: %+v", res.Changes)
			}
			esc := events(t, db, org, sentinel.EventFindingEscalated)
			if len(esc) != 1 {
				t.Fatalf("escalated events: %d", len(esc))
			}
			var d sentinel.FindingEscalatedData
			if err := json.Unmarshal(esc[0].Data, &d); err != nil {
				t.Fatal(err)
			}
			if d.FindingID != f.ID || d.RiskScore != 90 || d.PreviousRiskScore != 74 || d.SLAWindowHours != 72 ||
				d.AssetCriticality != "medium" || d.Category != "vulnerable_component" || d.CWE != "CWE-1395" || len(d.Compliance) == 0 {
				t.Errorf("escalated data: %+v", d)
			}
			if n := len(events(t, db, org, sentinel.EventSBOMIntelMatch)); n != 1 {
				t.Errorf("sbom.intel_match events: %d", n)
			}
			f, _ = db.FindFindingByID(ctx, org.ID, f.ID)
			if !f.SLADueAt.Equal(now.Add(72 * time.Hour)) {
				t.Errorf("SLA after escalation: %v", f.SLADueAt)
			}

			// Upgraded away: resolved. Back again: reopened.
			in.Components = []sentinel.Component{{Purl: "pkg:npm/lodash@4.17.21"}}
			res, _ = e.Reconcile(ctx, in)
			if res.Resolved != 1 {
				t.Errorf("resolve: %+v", res)
			}
			if f, _ = db.FindFindingByID(ctx, org.ID, f.ID); f.Status != "resolved" || f.ResolvedAt == nil {
				t.Errorf("after upgrade: %+v", f)
			}
			in.Components = []sentinel.Component{{Purl: lodash}}
			res, _ = e.Reconcile(ctx, in)
			if len(res.Changes) != 1 || res.Changes[0].Reason != "reopened" {
				t.Errorf("reopen: %+v", res.Changes)
			}
			if n := len(events(t, db, org, sentinel.EventFindingReopened)); n != 1 {
				t.Errorf("reopened events: %d", n)
			}
			// Status changes are in order for this finding's subject.
			var seq []string
			for _, ev := range events(t, db, org, sentinel.EventFindingStatusChanged) {
				var x map[string]any
				_ = json.Unmarshal(ev.Data, &x)
				seq = append([]string{x["status"].(string)}, seq...)
				if ev.Subject != f.ID {
					t.Errorf("status event subject %q", ev.Subject)
				}
			}
			if len(seq) != 2 || seq[0] != "resolved" || seq[1] != "open" {
				t.Errorf("status changes: %v", seq)
			}

			// An SBOM that lists lodash 4.17.15 without a purl (another
			// tool's) cannot match it, but it is still there: the finding
			// stays open. Listed under another version, it is gone.
			in.Components = []sentinel.Component{{Name: "lodash", Version: "4.17.15"}, {Name: "left-pad", Version: "1.0.0"}}
			res, _ = e.Reconcile(ctx, in)
			if res.Resolved != 0 || len(res.Changes) != 0 {
				t.Errorf("listed without a purl: %+v", res)
			}
			if f, _ = db.FindFindingByID(ctx, org.ID, f.ID); f.Status != "open" {
				t.Errorf("listed without a purl: %s", f.Status)
			}
			in.Components = []sentinel.Component{{Name: "lodash", Version: "4.17.21"}}
			if res, _ = e.Reconcile(ctx, in); res.Resolved != 1 {
				t.Errorf("listed without a purl at another version: %+v", res)
			}
			// A withdrawn advisory resolves the finding of a component
			// listed without a purl too.
			in.Components = []sentinel.Component{{Purl: lodash}}
			e.Reconcile(ctx, in) // reopened
			in.Components = []sentinel.Component{{Name: "lodash", Version: "4.17.15"}}
			in.Withdrawn = map[string]bool{"GHSA-p6mc-m468-83gw": true}
			if res, _ = e.Reconcile(ctx, in); res.Resolved != 1 {
				t.Errorf("withdrawn, listed without a purl: %+v", res)
			}
			if f, _ = db.FindFindingByID(ctx, org.ID, f.ID); f.Status != "resolved" || f.StatusReason != "the advisory was withdrawn" {
				t.Errorf("withdrawn, listed without a purl: %s (%s)", f.Status, f.StatusReason)
			}
		})
	}
}

func TestApplyAndSweep(t *testing.T) {
	ctx := context.Background()
	db := testenv.Stores(t)["sqlite"]()
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	db.Clock = func() time.Time { return now }
	org := storetest.MustOrg(t, db, "acme")
	intel := fakeIntel{lodash: {{ID: "GHSA-1", Severity: "critical", CVSSScore: 9.8}}}
	e := &finding.Engine{DB: store.Bind[finding.Tx](db), Intel: func() finding.Matcher { return intel }}
	if _, err := e.Reconcile(ctx, finding.Input{Org: org, Asset: "h", Components: []sentinel.Component{{Purl: lodash}}}); err != nil {
		t.Fatal(err)
	}
	fs, _, _ := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID})
	id := fs[0].ID
	actor := sentinel.Actor{KeyID: "key_x"}
	str := func(s string) *string { return &s }

	bad := []finding.Update{
		{Status: str("accepted")},                       // no reason
		{Status: str("accepted"), Reason: str("later")}, // no expiry
		{Status: str("resolved"), Reason: str("x")},     // system-only
		{Status: str("bogus")},
		{},
	}
	for i, u := range bad {
		if _, err := e.Apply(ctx, org, id, u, actor); sentinel.ErrorCode(err) != sentinel.EINVALID {
			t.Errorf("bad update %d: %v", i, err)
		}
	}
	until := now.Add(24 * time.Hour)
	f, err := e.Apply(ctx, org, id, finding.Update{Status: str("accepted"), Reason: str("compensating control"), AcceptedUntil: &until, Owner: str("alice@example.com")}, actor)
	if err != nil {
		t.Fatal(err)
	}
	if f.Status != "accepted" || f.Owner != "alice@example.com" {
		t.Errorf("after apply: %+v", f)
	}
	if n := len(events(t, db, org, sentinel.EventFindingAssigned)); n != 1 {
		t.Errorf("assigned events: %d", n)
	}
	if _, err := e.Apply(ctx, org, "fnd_nope", finding.Update{Owner: str("x")}, actor); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("unknown id: %v", err)
	}
	// Two days on: the acceptance expired and the 72-hour SLA is not yet
	// breached; four days on it is, and the breach is reported once.
	now = now.Add(48 * time.Hour)
	if n, err := e.Sweep(ctx); err != nil || n != 0 {
		t.Errorf("sweep at 48h: %d %v", n, err)
	}
	if f, _ := db.FindFindingByID(ctx, org.ID, id); f.Status != "open" || f.StatusReason != "risk acceptance expired" {
		t.Errorf("acceptance not expired: %+v", f)
	}
	now = now.Add(48 * time.Hour)
	for i := 0; i < 2; i++ {
		if _, err := e.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(events(t, db, org, sentinel.EventFindingSLABreached)); n != 1 {
		t.Errorf("sla_breached events: %d, want 1", n)
	}
	entries, _, _ := db.FindAuditEntries(ctx, sentinel.AuditFilter{OrgID: org.ID})
	if len(entries) < 2 {
		t.Errorf("audit entries: %d", len(entries))
	}
}

func TestRiskScore(t *testing.T) {
	tests := []struct {
		name string
		m    sentinel.AdvisoryMatch
		crit string
		want int
	}{
		{"cvss", sentinel.AdvisoryMatch{CVSSScore: 5.3}, "medium", 53},
		{"label_high", sentinel.AdvisoryMatch{Severity: "high"}, "medium", 75},
		{"unknown", sentinel.AdvisoryMatch{Severity: "unknown"}, "medium", 45},
		{"kev_floor", sentinel.AdvisoryMatch{CVSSScore: 5.0, KEV: true}, "medium", 90},
		{"kev_high", sentinel.AdvisoryMatch{CVSSScore: 8.8, KEV: true}, "medium", 100},
		{"critical_asset", sentinel.AdvisoryMatch{CVSSScore: 6.0}, "critical", 70},
		{"low_asset", sentinel.AdvisoryMatch{CVSSScore: 2.0}, "low", 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := finding.RiskScore(tc.m, tc.crit); got != tc.want {
				t.Errorf("RiskScore = %d, want %d", got, tc.want)
			}
		})
	}
}
