package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// MustUser creates an active user of org with role, or fails the test.
func MustUser(tb testing.TB, db *store.DB, org *sentinel.Organization, email, role string) *sentinel.User {
	tb.Helper()
	u := &sentinel.User{ID: sentinel.NewID(sentinel.PrefixUser), OrgID: org.ID, Email: email, Role: role, CreatedBy: "t"}
	if err := db.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateUser(context.Background(), u) }); err != nil {
		tb.Fatalf("CreateUser(%q): %v", email, err)
	}
	return u
}

func testUsers(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	u := MustUser(t, db, a, "ana@example.com", sentinel.RoleAdmin)
	// The same email in another organization is another account.
	MustUser(t, db, b, "ana@example.com", sentinel.RoleViewer)
	err := db.InTx(ctx, func(tx *store.Tx) error {
		return tx.CreateUser(ctx, &sentinel.User{ID: sentinel.NewID(sentinel.PrefixUser), OrgID: a.ID, Email: "ana@example.com", Role: "viewer", CreatedBy: "t"})
	})
	if e := sentinel.AsError(err); e == nil || e.Field != "email" {
		t.Errorf("duplicate email: %v, want invalid naming email", err)
	}
	if _, err := db.FindUser(ctx, b.ID, u.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("another organization's user: %v, want not_found", err)
	}
	got, err := db.FindUserByEmail(ctx, a.ID, "ana@example.com")
	if err != nil || got.ID != u.ID || got.Status != sentinel.UserActive || got.Role != sentinel.RoleAdmin {
		t.Fatalf("FindUserByEmail = %+v, %v", got, err)
	}

	// A set-up link works once and only before it expires.
	now := db.Now()
	exp := now.Add(time.Hour)
	hash := []byte("setup-hash-0123456789")
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.SetUserSetup(ctx, a.ID, u.ID, hash, &exp) }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.FindUserBySetupHash(ctx, hash, now.Add(2*time.Hour)); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("expired link found: %v", err)
	}
	if x, err := db.FindUserBySetupHash(ctx, hash, now); err != nil || x.ID != u.ID {
		t.Fatalf("FindUserBySetupHash = %v, %v", x, err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error {
		x, err := tx.UseUserSetup(ctx, hash, "$argon2id$x")
		if err == nil && (x.PasswordHash != "$argon2id$x" || x.PasswordSetAt == nil || x.SetupHash != nil) {
			t.Errorf("after UseUserSetup: %+v", x)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error { _, err := tx.UseUserSetup(ctx, hash, "again"); return err })
	if sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("second use of a set-up link: %v, want not_found", err)
	}

	// Sessions: found while live; idle and absolute expiry; a disabled
	// user's sessions are gone.
	sess := &sentinel.PortalSession{UserID: u.ID, OrgID: a.ID, CSRF: "c", ExpiresAt: now.Add(12 * time.Hour)}
	sh := []byte("session-hash")
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreatePortalSession(ctx, sh, sess) }); err != nil {
		t.Fatal(err)
	}
	if s, x, err := db.FindPortalSession(ctx, sh, now.Add(time.Minute), 30*time.Minute); err != nil || x.ID != u.ID || s.CSRF != "c" {
		t.Fatalf("FindPortalSession = %+v %+v %v", s, x, err)
	}
	if _, _, err := db.FindPortalSession(ctx, sh, now.Add(31*time.Minute), 30*time.Minute); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("idle session found: %v", err)
	}
	if _, _, err := db.FindPortalSession(ctx, sh, now.Add(13*time.Hour), 24*time.Hour); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("session past its absolute expiry found: %v", err)
	}
	disabled := sentinel.UserDisabled
	err = db.InTx(ctx, func(tx *store.Tx) error {
		if n, err := tx.CountActiveAdmins(ctx, a.ID); err != nil || n != 1 {
			t.Errorf("CountActiveAdmins = %d, %v", n, err)
		}
		if _, err := tx.UpdateUser(ctx, b.ID, u.ID, sentinel.UserUpdate{Status: &disabled}); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
			t.Errorf("update another organization's user: %v", err)
		}
		x, err := tx.UpdateUser(ctx, a.ID, u.ID, sentinel.UserUpdate{Status: &disabled})
		if err != nil || x.Status != disabled || x.Role != sentinel.RoleAdmin {
			t.Errorf("UpdateUser = %+v, %v", x, err)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.FindPortalSession(ctx, sh, now.Add(time.Minute), 30*time.Minute); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("a disabled user's session found: %v", err)
	}
	if us, _, err := db.ListUsers(ctx, a.ID, sentinel.Page{Limit: 10}); err != nil || len(us) != 1 {
		t.Errorf("ListUsers = %d, %v", len(us), err)
	}
	n, err := db.PurgePortal(ctx, now.Add(24*time.Hour), 30*time.Minute, 15*time.Minute)
	if err != nil || n != 1 {
		t.Errorf("PurgePortal = %d, %v", n, err)
	}
}

func testSignInThrottle(t *testing.T, db *store.DB) {
	ctx := context.Background()
	base := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	at := base
	db.Clock = func() time.Time { return at }
	fail := func(key string) *sentinel.SignInThrottle {
		var st *sentinel.SignInThrottle
		err := db.InTx(ctx, func(tx *store.Tx) (err error) {
			st, err = tx.FailSignIn(ctx, key, 3, 15*time.Minute, 10*time.Minute)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	keys := []string{"account:a:ana@example.com", "addr:192.0.2.1"}
	fail(keys[0])
	fail(keys[0])
	if l, err := db.SignInLockedUntil(ctx, keys, at); err != nil || l != nil {
		t.Fatalf("locked after 2 of 3: %v %v", l, err)
	}
	st := fail(keys[0])
	if st.LockedUntil == nil || !st.LockedUntil.Equal(at.Add(10*time.Minute)) {
		t.Fatalf("third failure: %+v, want locked for 10 minutes", st)
	}
	if l, _ := db.SignInLockedUntil(ctx, keys, at.Add(9*time.Minute)); l == nil {
		t.Error("not locked 9 minutes later")
	}
	if l, _ := db.SignInLockedUntil(ctx, keys, at.Add(11*time.Minute)); l != nil {
		t.Errorf("still locked 11 minutes later: %v", l)
	}
	// Failures further apart than the window do not add up.
	at = base.Add(time.Hour)
	fail(keys[1])
	at = at.Add(20 * time.Minute)
	if st := fail(keys[1]); st.Failures != 1 {
		t.Errorf("failure after the window: %d, want 1", st.Failures)
	}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ClearSignIn(ctx, keys[1]) }); err != nil {
		t.Fatal(err)
	}
	if st := fail(keys[1]); st.Failures != 1 {
		t.Errorf("failure after a clear: %d, want 1", st.Failures)
	}
}

// testFindingViews covers what the portal reads of findings: the owner
// filter, the risk order and its cursor, the summary with its trend, and a
// finding's history.
func testFindingViews(t *testing.T, db *store.DB) {
	ctx := context.Background()
	org, other := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	type spec struct {
		risk   int
		status string
		kev    bool
		owner  string
		first  time.Time
	}
	specs := []spec{
		{95, sentinel.StatusOpen, true, "ana", now.Add(-50 * day)},
		{92, sentinel.StatusOpen, false, "", now.Add(-2 * day)},
		{75, sentinel.StatusOpen, false, "ana", now.Add(-1 * day)},
		{50, sentinel.StatusAccepted, false, "", now.Add(-3 * day)},
		{45, sentinel.StatusResolved, false, "", now.Add(-4 * day)},
		{30, sentinel.StatusFalsePositive, false, "", now.Add(-1 * day)},
		{10, sentinel.StatusOpen, false, "", now},
	}
	var ids []string
	err := db.InTx(ctx, func(tx *store.Tx) error {
		for _, o := range []*sentinel.Organization{org, other} {
			asset, _, err := tx.UpsertAsset(ctx, o.ID, "h", "host")
			if err != nil {
				return err
			}
			for _, s := range specs {
				f := &sentinel.Finding{OrgID: o.ID, AssetID: asset.ID, Purl: "pkg:npm/x@1", AdvisoryID: sentinel.NewID("GHSA-"),
					Category: sentinel.CategoryVulnerableComponent, Severity: "high", RiskScore: s.risk, Band: sentinel.Band(s.risk),
					Status: s.status, KEV: s.kev, Owner: s.owner, FirstSeen: s.first, LastSeen: now,
					SLADueAt: s.first.Add(sentinel.SLAWindow(sentinel.Band(s.risk))), Development: s.risk == 10}
				if s.status == sentinel.StatusResolved {
					r := now.Add(-1 * day)
					f.ResolvedAt = &r
				}
				if err := tx.SaveFinding(ctx, f); err != nil {
					return err
				}
				if o == org {
					ids = append(ids, f.ID)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	owned, _, err := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID, Owner: "ana"})
	if err != nil || len(owned) != 2 {
		t.Errorf("owner filter: %d findings, %v; want 2", len(owned), err)
	}
	// The development mark is kept and filtered on (one finding of the
	// organization's is of a development-only component).
	dev, _, err := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID, Development: new(true)})
	if err != nil || len(dev) != 1 || !dev[0].Development || dev[0].RiskScore != 10 {
		t.Errorf("development filter: %+v, %v; want the finding of risk 10", dev, err)
	}
	if deployed, _, err := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID, Development: new(false)}); err != nil || len(deployed) != len(specs)-1 {
		t.Errorf("development=false: %d findings, %v; want %d", len(deployed), err, len(specs)-1)
	}
	// By risk, two at a time.
	var risks []int
	for page := (sentinel.Page{Limit: 2}); ; {
		fs, next, err := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID, Sort: sentinel.FindingSortRisk, Page: page})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			risks = append(risks, f.RiskScore)
		}
		if next == "" {
			break
		}
		page.Cursor = next
	}
	if want := []int{95, 92, 75, 50, 45, 30, 10}; !slices.Equal(risks, want) {
		t.Errorf("by risk: %v, want %v", risks, want)
	}

	s, err := db.FindingSummary(ctx, org.ID, now, 7)
	if err != nil {
		t.Fatal(err)
	}
	if s.Open != 4 || s.KEVOpen != 1 || s.Accepted != 1 || s.Resolved != 1 || s.FalsePositive != 1 ||
		s.OpenByBand[sentinel.BandCritical] != 2 || s.OpenByBand[sentinel.BandHigh] != 1 || s.OpenByBand[sentinel.BandLow] != 1 {
		t.Errorf("summary counts: %+v", s)
	}
	// The critical finding first seen 50 days ago is past its 72-hour SLA.
	if s.Overdue != 1 || len(s.TopOverdue) != 1 || s.TopOverdue[0].ID != ids[0] {
		t.Errorf("overdue: %d %v", s.Overdue, s.TopOverdue)
	}
	if len(s.TopKEV) != 1 || s.TopKEV[0].ID != ids[0] {
		t.Errorf("top KEV: %v", s.TopKEV)
	}
	var unresolved, arrived, resolved []int
	for _, p := range s.Trend {
		unresolved, arrived, resolved = append(unresolved, p.Unresolved), append(arrived, p.New), append(resolved, p.Resolved)
	}
	// Days 11-15 .. 11-21: unresolved now 5 (4 open, 1 accepted); one
	// arrived each on 11-17 (resolved on 11-20), 11-18 (accepted), 11-19,
	// 11-20 and 11-21; the 50-day-old one was there all along; the false
	// positive counts nowhere.
	if want := []int{0, 0, 1, 1, 1, 1, 1}; !slices.Equal(arrived, want) {
		t.Errorf("trend new %v, want %v (%v)", arrived, want, s.Trend)
	}
	if want := []int{0, 0, 0, 0, 0, 1, 0}; !slices.Equal(resolved, want) {
		t.Errorf("trend resolved %v, want %v", resolved, want)
	}
	if want := []int{1, 1, 2, 3, 4, 4, 5}; !slices.Equal(unresolved, want) {
		t.Errorf("trend unresolved %v, want %v", unresolved, want)
	}
	if s.Trend[0].Day != "2026-11-15" || s.Trend[6].Day != "2026-11-21" {
		t.Errorf("trend days %s .. %s", s.Trend[0].Day, s.Trend[6].Day)
	}

	// History: the finding's events and audit entries, oldest first.
	err = db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingCreated, ids[0], map[string]string{"finding_id": ids[0]}); err != nil {
			return err
		}
		if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingCreated, ids[1], map[string]string{"finding_id": ids[1]}); err != nil {
			return err
		}
		return tx.Audit(ctx, org.ID, sentinel.Actor{KeyID: "usr_x"}, "finding.assign", ids[0], map[string]any{"to": "ana"})
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := db.FindingHistory(ctx, org.ID, ids[0], 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].Type != sentinel.EventFindingCreated || h[1].Type != "finding.assign" || h[1].Actor != "usr_x" {
		t.Errorf("history: %+v", h)
	}
	if h, _ := db.FindingHistory(ctx, other.ID, ids[0], 100); len(h) != 0 {
		t.Errorf("another organization reads the history: %+v", h)
	}
}

const day = 24 * time.Hour

func testSubmissionsByHost(t *testing.T, db *store.DB) {
	ctx := context.Background()
	org := MustOrg(t, db, "a")
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5 {
		db.Clock = func() time.Time { return base.Add(time.Duration(i) * time.Hour) }
		host := "web-1"
		if i%2 == 1 {
			host = "web-2"
		}
		sub := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: org.ID, Host: host, SpecVersion: "1.5"}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateSubmission(ctx, sub, []byte("{}"), nil) }); err != nil {
			t.Fatal(err)
		}
	}
	var got []time.Time
	for page := (sentinel.Page{Limit: 2}); ; {
		subs, next, err := db.FindSubmissions(ctx, sentinel.SubmissionFilter{OrgID: org.ID, Host: "web-1", Newest: true, Page: page})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range subs {
			if s.Host != "web-1" {
				t.Errorf("host %s", s.Host)
			}
			got = append(got, s.CreatedAt)
		}
		if next == "" {
			break
		}
		page.Cursor = next
	}
	if len(got) != 3 || !got[0].Equal(base.Add(4*time.Hour)) || !got[2].Equal(base) {
		t.Errorf("web-1 newest first: %v", got)
	}
	all, _, err := db.FindSubmissions(ctx, sentinel.SubmissionFilter{OrgID: org.ID})
	if err != nil || len(all) != 5 || !all[0].CreatedAt.Equal(base) {
		t.Errorf("every submission oldest first: %d, %v", len(all), err)
	}
}
