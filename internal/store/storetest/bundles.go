package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// MustBundle stores a bundle of org issued at the store's clock and
// returns it. tokenHash must be unique.
func MustBundle(tb testing.TB, db *store.DB, org *sentinel.Organization, tokenHash []byte) *sentinel.Bundle {
	tb.Helper()
	now := db.Now().UTC().Truncate(time.Second)
	b := &sentinel.Bundle{
		ID: sentinel.NewID(sentinel.PrefixBundle), OrgID: org.ID, Description: "q4", Scope: []string{"sbom", "audit"},
		WindowDays: 30, WindowStart: now.AddDate(0, 0, -30), WindowEnd: now, TokenHash: tokenHash,
		PasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", CreatedBy: "key_1", CreatedAt: now,
		ExpiresAt: now.Add(7 * 24 * time.Hour),
	}
	if err := db.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateBundle(context.Background(), b) }); err != nil {
		tb.Fatalf("CreateBundle: %v", err)
	}
	return b
}

func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func testBundles(t *testing.T, db *store.DB) {
	ctx := context.Background()
	now := time.Date(2026, 11, 21, 22, 19, 5, 0, time.UTC)
	db.Clock = func() time.Time { return now }
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	x := MustBundle(t, db, a, hashOf("token-x"))

	got, err := db.FindBundle(ctx, a.ID, x.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := *x
	want.BuildState, want.Artifacts = sentinel.BundleBuilding, []sentinel.BundleArtifact{}
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("FindBundle mismatch (-want +got):\n%s", diff)
	}
	if _, err := db.FindBundle(ctx, b.ID, x.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("another organization's bundle: %v, want not_found", err)
	}
	if got, err := db.FindBundleByTokenHash(ctx, hashOf("token-x")); err != nil || got.ID != x.ID {
		t.Errorf("FindBundleByTokenHash = %v, %v", got, err)
	}
	if _, err := db.FindBundleByTokenHash(ctx, hashOf("nope")); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("unknown token: %v", err)
	}
	if got.Status(now) != sentinel.BundleActive || got.Status(x.ExpiresAt) != sentinel.BundleExpired {
		t.Errorf("Status: %s now, %s at expiry", got.Status(now), got.Status(x.ExpiresAt))
	}

	// Listing: newest first, keyset pages, per organization.
	var ids []string
	for i := 0; i < 3; i++ {
		now = now.Add(time.Second)
		ids = append(ids, MustBundle(t, db, a, hashOf("token-list-"+string(rune('a'+i)))).ID)
	}
	p1, next, err := db.ListBundles(ctx, a.ID, sentinel.Page{Limit: 2})
	if err != nil || len(p1) != 2 || next == "" || p1[0].ID != ids[2] || p1[1].ID != ids[1] {
		t.Fatalf("ListBundles page 1: %d, %q, %v", len(p1), next, err)
	}
	p2, next2, _ := db.ListBundles(ctx, a.ID, sentinel.Page{Limit: 2, Cursor: next})
	if len(p2) != 2 || next2 != "" || p2[0].ID != ids[0] || p2[1].ID != x.ID {
		t.Errorf("ListBundles page 2: %d, %q", len(p2), next2)
	}
	if bs, _, _ := db.ListBundles(ctx, b.ID, sentinel.Page{}); len(bs) != 0 {
		t.Errorf("another organization lists %d bundles", len(bs))
	}
	if _, _, err := db.ListBundles(ctx, a.ID, sentinel.Page{Cursor: "junk"}); sentinel.ErrorCode(err) != sentinel.EINVALID {
		t.Errorf("bad cursor: %v", err)
	}

	// Wrong passwords lock the share at the limit, not before: each
	// attempt is reserved (counted) before it is judged.
	for i := 1; i <= 10; i++ {
		var n int
		var locked, ok bool
		err := db.InTx(ctx, func(tx *store.Tx) (err error) {
			if ok, err = tx.ReserveBundlePassword(ctx, x.ID, 10); err != nil || !ok {
				return err
			}
			n, locked, err = tx.FailBundlePassword(ctx, x.ID, 10)
			return err
		})
		if err != nil || !ok || n != i || locked != (i == 10) {
			t.Fatalf("attempt %d: reserved=%v n=%d locked=%v err=%v", i, ok, n, locked, err)
		}
	}
	// A locked share reserves nothing more; a right password gives its
	// reservation back.
	err = db.InTx(ctx, func(tx *store.Tx) error {
		if ok, err := tx.ReserveBundlePassword(ctx, x.ID, 10); err != nil || ok {
			return fmt.Errorf("reserve on a locked share: %v, %v", ok, err)
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	released := MustBundle(t, db, a, hashOf("token-release"))
	err = db.InTx(ctx, func(tx *store.Tx) error {
		if ok, err := tx.ReserveBundlePassword(ctx, released.ID, 10); err != nil || !ok {
			return fmt.Errorf("reserve: %v, %v", ok, err)
		}
		return tx.ReleaseBundlePassword(ctx, released.ID)
	})
	if got, _ := db.FindBundle(ctx, a.ID, released.ID); err != nil || got.FailedAttempts != 0 {
		t.Errorf("a released reservation: %v, %d attempts counted", err, got.FailedAttempts)
	}
	got, _ = db.FindBundle(ctx, a.ID, x.ID)
	if got.Status(now) != sentinel.BundleLocked || got.FailedAttempts != 10 {
		t.Errorf("after 10 wrong passwords: %s, %d", got.Status(now), got.FailedAttempts)
	}

	// The access log, and what counts as an access.
	err = db.InTx(ctx, func(tx *store.Tx) error {
		for _, o := range []string{sentinel.AccessOpened, sentinel.AccessPasswordWrong, sentinel.AccessPasswordOK, sentinel.AccessDownload} {
			ok := o == sentinel.AccessPasswordOK || o == sentinel.AccessDownload
			if err := tx.RecordBundleAccess(ctx, x.ID, sentinel.BundleAccess{Addr: "192.0.2.7", UserAgent: "curl/8", Outcome: o}, ok); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	log, next, err := db.BundleAccessLog(ctx, x.ID, sentinel.Page{Limit: 3})
	if err != nil || len(log) != 3 || next == "" || log[0].Outcome != sentinel.AccessOpened || log[0].Addr != "192.0.2.7" || log[0].UserAgent != "curl/8" || !log[0].At.Equal(now) {
		t.Fatalf("BundleAccessLog: %+v %q %v", log, next, err)
	}
	rest, _, _ := db.BundleAccessLog(ctx, x.ID, sentinel.Page{Limit: 3, Cursor: next})
	if len(rest) != 1 || rest[0].Outcome != sentinel.AccessDownload {
		t.Errorf("BundleAccessLog page 2: %+v", rest)
	}
	got, _ = db.FindBundle(ctx, a.ID, x.ID)
	if got.AccessCount != 2 || got.LastAccessAt == nil || !got.LastAccessAt.Equal(now) {
		t.Errorf("access count %d, last %v", got.AccessCount, got.LastAccessAt)
	}

	// Sessions live until they expire, and revoking drops them.
	y := MustBundle(t, db, a, hashOf("token-y"))
	if err := db.InTx(ctx, func(tx *store.Tx) error {
		return tx.CreateBundleSession(ctx, hashOf("session-y"), y.ID, now.Add(15*time.Minute))
	}); err != nil {
		t.Fatal(err)
	}
	if id, err := db.BundleSession(ctx, hashOf("session-y"), now); err != nil || id != y.ID {
		t.Errorf("BundleSession = %q, %v", id, err)
	}
	if _, err := db.BundleSession(ctx, hashOf("session-y"), now.Add(16*time.Minute)); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("expired session: %v", err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error { _, _, err := tx.RevokeBundle(ctx, b.ID, y.ID); return err })
	if sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("revoke from another organization: %v, want not_found", err)
	}
	var changed bool
	err = db.InTx(ctx, func(tx *store.Tx) (err error) { _, changed, err = tx.RevokeBundle(ctx, a.ID, y.ID); return err })
	if err != nil || !changed {
		t.Fatalf("RevokeBundle: %v, %v", changed, err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) (err error) { _, changed, err = tx.RevokeBundle(ctx, a.ID, y.ID); return err })
	if err != nil || changed {
		t.Errorf("second RevokeBundle: changed=%v, %v", changed, err)
	}
	if _, err := db.BundleSession(ctx, hashOf("session-y"), now); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("session survived revocation: %v", err)
	}
	if got, _ := db.FindBundle(ctx, a.ID, y.ID); got.Status(now) != sentinel.BundleRevoked {
		t.Errorf("after revoke: %s", got.Status(now))
	}

	// The zip in chunks, then the finished build.
	zipBytes := bytes.Repeat([]byte("0123456789"), 300)
	for i := 0; i*1000 < len(zipBytes); i++ {
		if err := db.PutBundleChunk(ctx, x.ID, i, zipBytes[i*1000:min((i+1)*1000, len(zipBytes))]); err != nil {
			t.Fatal(err)
		}
	}
	var back []byte
	for seq := 0; ; seq++ {
		c, err := db.BundleChunk(ctx, x.ID, seq)
		if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		back = append(back, c...)
	}
	if !bytes.Equal(back, zipBytes) {
		t.Errorf("chunks read back %d bytes, want %d", len(back), len(zipBytes))
	}
	x.SHA256, x.Size, x.Identity, x.Issuer = "ab", int64(len(zipBytes)), "https://s.example/orgs/a/evidence", "https://s.example"
	x.Artifacts = []sentinel.BundleArtifact{{Name: "audit.csv", SHA256: "cd", Size: 3}}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.FinishBundleBuild(ctx, x) }); err != nil {
		t.Fatal(err)
	}
	got, _ = db.FindBundle(ctx, a.ID, x.ID)
	if got.BuildState != sentinel.BundleReady || !cmp.Equal(got.Artifacts, x.Artifacts) || got.Issuer != x.Issuer {
		t.Errorf("after FinishBundleBuild: %+v", got)
	}
	if err := db.ResetBundleBuild(ctx, x.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.BundleChunk(ctx, x.ID, 0); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("chunk after reset: %v", err)
	}
	if err := db.FailBundleBuild(ctx, y.ID, "boom"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.FindBundle(ctx, a.ID, y.ID); got.BuildState != sentinel.BundleFailed || got.BuildError != "boom" {
		t.Errorf("after FailBundleBuild: %s %q", got.BuildState, got.BuildError)
	}
}

func testSigningCA(t *testing.T, db *store.DB) {
	ctx := context.Background()
	if _, _, err := db.SigningCA(ctx); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Fatalf("SigningCA before any: %v", err)
	}
	put := func(certs string) bool {
		var ok bool
		if err := db.InTx(ctx, func(tx *store.Tx) (err error) { ok, err = tx.PutSigningCA(ctx, certs, []byte{1, 2, 3}); return err }); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !put("first") || put("second") {
		t.Error("PutSigningCA: the first CA must win")
	}
	certs, sealed, err := db.SigningCA(ctx)
	if err != nil || certs != "first" || !bytes.Equal(sealed, []byte{1, 2, 3}) {
		t.Errorf("SigningCA = %q %v %v", certs, sealed, err)
	}
}

// testEvidenceSources checks the streams a bundle is built from.
func testEvidenceSources(t *testing.T, db *store.DB) {
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	db.Clock = func() time.Time { return now }
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	submit := func(org *sentinel.Organization, host string, body string, purls ...string) string {
		t.Helper()
		s := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: org.ID, Host: host, SpecVersion: "1.5",
			ComponentCount: len(purls), Size: int64(len(body)), SHA256: "x"}
		var items []sentinel.InventoryItem
		for _, p := range purls {
			items = append(items, purl.ItemFromPurl(p, "", ""))
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateSubmission(ctx, s, []byte(body), items) }); err != nil {
			t.Fatalf("CreateSubmission: %v", err)
		}
		return s.ID
	}
	old := submit(a, "web-1", `{"old":true}`, "pkg:npm/lodash@4.17.15", "pkg:npm/left-pad@1.0.0")
	now = now.Add(48 * time.Hour)
	s1 := submit(a, "web-1", "{ \"original\" :  1 }\n", "pkg:npm/lodash@4.17.21", "pkg:npm/Zod@3.0.0", "pkg:pypi/django@4.2.0")
	now = now.Add(time.Hour)
	s2 := submit(a, "db-1", `{"db":1}`, "pkg:npm/lodash@4.17.21", "pkg:golang/golang.org/x/net@v0.1.0")
	submit(b, "other", `{"b":1}`, "pkg:npm/evil@1.0.0")
	since, until := now.Add(-24*time.Hour), now.Add(time.Hour)

	var subs []string
	err := db.EvidenceSubmissions(ctx, a.ID, since, until, func(s *sentinel.EvidenceSubmission) error {
		subs = append(subs, s.ID+" "+s.Host+" "+string(s.Original))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{s1 + " web-1 { \"original\" :  1 }\n", s2 + ` db-1 {"db":1}`}, subs); diff != "" {
		t.Errorf("EvidenceSubmissions mismatch (-want +got):\n%s", diff)
	}

	var comps []string
	err = db.EvidenceComponents(ctx, a.ID, func(c *sentinel.EvidenceComponent) error {
		comps = append(comps, c.Purl+" "+c.Asset+" "+c.Name+" "+c.Version)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantComps := []string{
		"pkg:golang/golang.org/x/net@v0.1.0 db-1 golang.org/x/net v0.1.0",
		"pkg:npm/Zod@3.0.0 web-1 Zod 3.0.0",
		"pkg:npm/lodash@4.17.21 db-1 lodash 4.17.21",
		"pkg:npm/lodash@4.17.21 web-1 lodash 4.17.21",
		"pkg:pypi/django@4.2.0 web-1 django 4.2.0",
	}
	if diff := cmp.Diff(wantComps, comps); diff != "" {
		t.Errorf("EvidenceComponents (byte order, latest submission per host) mismatch (-want +got):\n%s", diff)
	}

	var changes []string
	err = db.EvidenceChanges(ctx, a.ID, since, until, func(c *sentinel.EvidenceChange) error {
		changes = append(changes, c.Asset+" "+c.Change+" "+c.Name+" "+c.FromVersion+">"+c.ToVersion+" "+c.SubmissionID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	wantChanges := []string{
		"db-1 added golang.org/x/net >v0.1.0 " + s2,
		"db-1 added lodash >4.17.21 " + s2,
		"web-1 added django >4.2.0 " + s1,
		"web-1 removed left-pad 1.0.0> " + s1,
		"web-1 changed lodash 4.17.15>4.17.21 " + s1,
		"web-1 added zod >3.0.0 " + s1,
	}
	if diff := cmp.Diff(wantChanges, changes); diff != "" {
		t.Errorf("EvidenceChanges mismatch (-want +got):\n%s", diff)
	}
	_ = old

	if err := db.InTx(ctx, func(tx *store.Tx) error {
		return tx.Audit(ctx, a.ID, sentinel.Actor{KeyID: "key_1"}, "thing.do", "t", nil)
	}); err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := db.EvidenceAudit(ctx, a.ID, since, until, func(*sentinel.AuditEntry) error { n++; return nil }); err != nil || n != 1 {
		t.Errorf("EvidenceAudit: %d entries, %v", n, err)
	}
	if err := db.EvidenceFindings(ctx, a.ID, []string{"open", "accepted"}, func(*sentinel.EvidenceFinding) error { return nil }); err != nil {
		t.Errorf("EvidenceFindings: %v", err)
	}
}
