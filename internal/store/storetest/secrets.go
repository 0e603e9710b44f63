package storetest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// testSecretsAndEdge runs migration 0012's aggregates: secrets (a sealed
// value only through SealedSecret and SecretForUpdate, deleted with a
// settled verification), the fingerprint key, and edge windows.
func testSecretsAndEdge(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a := MustOrg(t, db, "acme")
	b := MustOrg(t, db, "beta")
	var f *sentinel.Finding
	mk := func(org *sentinel.Organization, fp, provider, host string, sealed []byte) *sentinel.Secret {
		t.Helper()
		var s *sentinel.Secret
		err := db.InTx(ctx, func(tx *store.Tx) error {
			as, _, err := tx.UpsertAsset(ctx, org.ID, host, sentinel.AssetHost)
			if err != nil {
				return err
			}
			s = &sentinel.Secret{ID: sentinel.NewID(sentinel.PrefixSecret), OrgID: org.ID, Fingerprint: fp, RuleID: "github-pat",
				Provider: provider, Redacted: "ghp_…(40)", Location: sentinel.SecretLocation{File: "a.env", Line: 3, Commit: "abc"},
				Host: host, AssetID: as.ID, Verifiable: sealed != nil, Status: sentinel.SecretPending, FirstSeen: tx.Now(), LastSeen: tx.Now()}
			f = &sentinel.Finding{OrgID: org.ID, AssetID: as.ID, AdvisoryID: s.ID, Category: sentinel.CategoryExposedSecret,
				CWE: sentinel.CWEHardcodedCredentials, Severity: "high", RiskScore: 75, Band: "high", Status: sentinel.StatusOpen,
				FirstSeen: tx.Now(), LastSeen: tx.Now(), SLADueAt: tx.Now()}
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
			s.FindingID = f.ID
			return tx.CreateSecret(ctx, s, sealed)
		})
		if err != nil {
			t.Fatalf("create secret: %v", err)
		}
		return s
	}
	s1 := mk(a, "fp1", "github", "h1", []byte("sealed-bytes"))
	s2 := mk(a, "fp2", "gitlab", "h2", nil)
	mk(b, "fp1", "github", "h1", nil) // the same fingerprint in another organization

	// The same fingerprint twice in one organization is a conflict.
	err := db.InTx(ctx, func(tx *store.Tx) error {
		return tx.CreateSecret(ctx, &sentinel.Secret{OrgID: a.ID, Fingerprint: "fp1", RuleID: "r", Redacted: "x", Host: "h1",
			AssetID: s1.AssetID, FindingID: s1.FindingID, Status: sentinel.SecretUnverifiable}, nil)
	})
	if sentinel.ErrorCode(err) != sentinel.ECONFLICT {
		t.Errorf("duplicate fingerprint: %v, want conflict", err)
	}

	got, err := db.FindSecret(ctx, a.ID, s1.ID)
	if err != nil || !got.ValueHeld || got.Location.Line != 3 || got.Location.Commit != "abc" || got.FindingID != s1.FindingID || !got.Verifiable {
		t.Fatalf("FindSecret = %+v, %v", got, err)
	}
	if _, err := db.FindSecret(ctx, b.ID, s1.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("another organization's secret: %v", err)
	}
	if _, sealed, err := db.SealedSecret(ctx, a.ID, s1.ID); err != nil || !bytes.Equal(sealed, []byte("sealed-bytes")) {
		t.Errorf("SealedSecret = %q, %v", sealed, err)
	}
	if _, sealed, err := db.SealedSecret(ctx, a.ID, s2.ID); err != nil || sealed != nil {
		t.Errorf("SealedSecret of a secret without a value = %q, %v", sealed, err)
	}

	// Lists: filters and pages.
	all, next, err := db.FindSecrets(ctx, sentinel.SecretFilter{OrgID: a.ID, Page: sentinel.Page{Limit: 1}})
	if err != nil || len(all) != 1 || next == "" {
		t.Fatalf("FindSecrets page 1: %d %q %v", len(all), next, err)
	}
	rest, next2, _ := db.FindSecrets(ctx, sentinel.SecretFilter{OrgID: a.ID, Page: sentinel.Page{Limit: 1, Cursor: next}})
	if len(rest) != 1 || next2 != "" || rest[0].ID == all[0].ID {
		t.Errorf("FindSecrets page 2: %d %q", len(rest), next2)
	}
	for _, tc := range []struct {
		f    sentinel.SecretFilter
		want int
	}{
		{sentinel.SecretFilter{OrgID: a.ID, Provider: "gitlab"}, 1},
		{sentinel.SecretFilter{OrgID: a.ID, Host: "h1"}, 1},
		{sentinel.SecretFilter{OrgID: a.ID, Status: sentinel.SecretPending}, 2},
		{sentinel.SecretFilter{OrgID: a.ID, Status: sentinel.SecretActive}, 0},
		{sentinel.SecretFilter{OrgID: b.ID}, 1},
	} {
		if got, _, err := db.FindSecrets(ctx, tc.f); err != nil || len(got) != tc.want {
			t.Errorf("FindSecrets(%+v) = %d, %v; want %d", tc.f, len(got), err, tc.want)
		}
	}

	// A known secret's sighting, then a settled verification drops the
	// value.
	db.Clock = func() time.Time { return time.Now().Add(time.Minute) }
	err = db.InTx(ctx, func(tx *store.Tx) error {
		x, err := tx.SecretByFingerprint(ctx, a.ID, "fp1")
		if err != nil || x.ID != s1.ID {
			t.Errorf("SecretByFingerprint = %+v, %v", x, err)
		}
		if _, err := tx.SecretByFingerprint(ctx, a.ID, "nope"); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
			t.Errorf("unknown fingerprint: %v", err)
		}
		return tx.TouchSecret(ctx, a.ID, s1.ID)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error {
		x, sealed, err := tx.SecretForUpdate(ctx, a.ID, s1.ID)
		if err != nil || sealed == nil {
			t.Errorf("SecretForUpdate = %q, %v", sealed, err)
			return err
		}
		now := tx.Now()
		x.Status, x.Identity, x.VerifyReason, x.VerifiedAt, x.VerifyAttempts = sentinel.SecretActive, "octo", "accepted", &now, 1
		return tx.SaveSecretVerification(ctx, x, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = db.FindSecret(ctx, a.ID, s1.ID)
	if got.ValueHeld || got.Status != sentinel.SecretActive || got.Identity != "octo" || got.VerifiedAt == nil || got.VerifyAttempts != 1 ||
		!got.LastSeen.After(got.FirstSeen) {
		t.Errorf("after verification: %+v", got)
	}

	// The fingerprint key: the first one stored wins.
	if _, err := db.SecretFingerprintKey(ctx, "default"); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("no key yet: %v", err)
	}
	k1, err := db.CreateSecretFingerprintKey(ctx, "default", []byte("k1"))
	if err != nil || string(k1) != "k1" {
		t.Fatalf("CreateSecretFingerprintKey = %q, %v", k1, err)
	}
	if k2, err := db.CreateSecretFingerprintKey(ctx, "default", []byte("k2")); err != nil || string(k2) != "k1" {
		t.Errorf("second create = %q, %v; want the first key", k2, err)
	}

	// Edge windows: saved, replaced, read by organization.
	w := &sentinel.EdgeWindow{FindingID: f.ID, OrgID: b.ID, WindowStart: time.UnixMilli(1_700_000_000_000).UTC(), Count: 1,
		LastSeen: time.UnixMilli(1_700_000_000_000).UTC(), Total: 1}
	err = db.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.LockFindings(ctx, b.ID, []string{f.ID, "fnd_missing"}); err != nil {
			return err
		}
		if err := tx.SaveEdgeWindow(ctx, w); err != nil {
			return err
		}
		w.Count, w.Total, w.Reached, w.Boost = 3, 4, true, 15
		return tx.SaveEdgeWindow(ctx, w)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) error {
		ws, err := tx.EdgeWindows(ctx, b.ID, []string{f.ID, "fnd_other"})
		if err != nil {
			return err
		}
		if g := ws[f.ID]; g == nil || g.Count != 3 || g.Total != 4 || !g.Reached || g.Boost != 15 || !g.WindowStart.Equal(w.WindowStart) || len(ws) != 1 {
			t.Errorf("EdgeWindows = %+v", ws)
		}
		if bs, err := tx.EdgeBoostsOf(ctx, b.ID, []string{f.AssetID}); err != nil || len(bs) != 1 || bs[f.ID] != 15 {
			t.Errorf("EdgeBoosts = %v, %v", bs, err)
		}
		if ws, _ := tx.EdgeWindows(ctx, a.ID, []string{f.ID}); len(ws) != 0 {
			t.Errorf("another organization's window: %+v", ws)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EdgeWindow(ctx, a.ID, f.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("EdgeWindow of another organization: %v", err)
	}
}
