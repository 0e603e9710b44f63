package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// testReconcileReads checks the reads a reconciliation batch makes:
// assets found or created (and touched), live sources, findings of whole
// assets or of some purls, each organization's own only.
func testReconcileReads(t *testing.T, db *store.DB) {
	ctx := context.Background()
	org, other := MustOrg(t, db, "recon"), MustOrg(t, db, "recon-other")
	MustSubmission(t, db, org, "h1", nil)
	sub2 := MustSubmission(t, db, org, "h2", nil)
	MustSubmission(t, db, other, "h3", nil)
	var h1 *sentinel.Asset
	err := db.InTx(ctx, func(tx *store.Tx) (err error) {
		h1, _, err = tx.UpsertAsset(ctx, org.ID, "h1", sentinel.AssetHost)
		if err != nil {
			return err
		}
		o, _, err := tx.UpsertAsset(ctx, other.ID, "h2", sentinel.AssetHost)
		if err != nil {
			return err
		}
		for _, f := range []*sentinel.Finding{
			{OrgID: org.ID, AssetID: h1.ID, Purl: "pkg:npm/a@1", AdvisoryID: "GHSA-1", Source: "sbom"},
			{OrgID: org.ID, AssetID: h1.ID, Purl: "pkg:npm/b@1", AdvisoryID: "GHSA-2", Source: "sbom"},
			{OrgID: org.ID, AssetID: h1.ID, Purl: "pkg:npm/a@1", AdvisoryID: "GHSA-3", Source: "scan"},
			{OrgID: other.ID, AssetID: o.ID, Purl: "pkg:npm/a@1", AdvisoryID: "GHSA-1", Source: "sbom"},
		} {
			f.Category, f.Status, f.FirstSeen, f.LastSeen, f.SLADueAt = sentinel.CategoryVulnerableComponent, sentinel.StatusOpen, tx.Now(), tx.Now(), tx.Now().Add(time.Hour)
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Clock = func() time.Time { return time.Now().Add(time.Hour) }
	defer func() { db.Clock = time.Now }()
	err = db.InTx(ctx, func(tx *store.Tx) error {
		assets, created, err := tx.UpsertAssets(ctx, org.ID, []sentinel.AssetRef{{Name: "h1", Kind: sentinel.AssetHost}, {Name: "h2", Kind: sentinel.AssetHost}, {Name: "site", Kind: sentinel.AssetSite}})
		if err != nil {
			return err
		}
		if len(assets) != 3 || assets["h1"].ID != h1.ID || !created["h2"] || !created["site"] || created["h1"] || assets["site"].Kind != sentinel.AssetSite {
			t.Errorf("UpsertAssets = %+v, created %v", assets, created)
		}
		if !assets["h1"].LastSeen.Equal(tx.Now()) {
			t.Errorf("h1 last seen %v, want %v", assets["h1"].LastSeen, tx.Now())
		}
		live, err := tx.LiveSourcesOf(ctx, org.ID, []string{"h2", "h3", "nowhere"})
		if err != nil {
			return err
		}
		if len(live) != 1 || live["h2"] != sub2.ID {
			t.Errorf("LiveSourcesOf = %v, want h2's only", live)
		}
		fs, err := tx.FindingsOf(ctx, org.ID, "sbom", []sentinel.FindingScope{{AssetID: h1.ID}, {AssetID: assets["h2"].ID, Purls: []string{"pkg:npm/a@1"}}})
		if err != nil {
			return err
		}
		if len(fs[h1.ID]) != 2 || len(fs[assets["h2"].ID]) != 0 {
			t.Errorf("FindingsOf whole h1 = %v, h2 = %v", fs[h1.ID], fs[assets["h2"].ID])
		}
		fs, err = tx.FindingsOf(ctx, org.ID, "sbom", []sentinel.FindingScope{{AssetID: h1.ID, Purls: []string{"pkg:npm/b@1", "pkg:npm/z@9"}}})
		if err != nil {
			return err
		}
		if f := fs[h1.ID]["pkg:npm/b@1\x00GHSA-2"]; len(fs[h1.ID]) != 1 || f == nil || f.AssetName != "h1" {
			t.Errorf("FindingsOf h1's b = %v", fs[h1.ID])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
