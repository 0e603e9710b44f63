package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// testScans covers site assets and scans: a site is created once, a scan
// moves queued -> running -> completed only along those edges, a canceled
// scan cannot finish, reachability reports its transitions once, another
// organization sees nothing, and a due schedule is taken by one caller.
func testScans(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	var site *sentinel.Asset
	err := db.InTx(ctx, func(tx *store.Tx) (err error) {
		var created bool
		site, created, err = tx.EnsureSite(ctx, a.ID, "https://shop.example", "https://shop.example/", "high", "daily")
		if err == nil && !created {
			t.Error("EnsureSite: not created")
		}
		again, created2, err2 := tx.EnsureSite(ctx, a.ID, "https://shop.example", "https://other/", "low", "off")
		if err2 != nil || created2 || again.ID != site.ID {
			t.Errorf("EnsureSite twice: %+v %v %v", again, created2, err2)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if site.Kind != sentinel.AssetSite || site.Criticality != "high" || site.NextScanAt == nil || site.VerifyToken == "" || site.State != sentinel.AssetActive {
		t.Errorf("site %+v", site)
	}
	if _, err := db.FindAssetByID(ctx, b.ID, site.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("another organization finds the asset: %v", err)
	}

	sc := &sentinel.Scan{ID: sentinel.NewID(sentinel.PrefixScan), OrgID: a.ID, AssetID: site.ID, Target: site.Target, Slot: "scan:x:0"}
	tx := func(fn func(tx *store.Tx) error) {
		t.Helper()
		if err := db.InTx(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	tx(func(tx *store.Tx) error { return tx.CreateScan(ctx, sc) })
	tx(func(tx *store.Tx) error {
		if ok, err := tx.FinishScan(ctx, &sentinel.Scan{ID: sc.ID, Status: sentinel.ScanCompleted}); ok || err != nil {
			t.Errorf("a queued scan finished: %v %v", ok, err)
		}
		if ok, err := tx.StartScan(ctx, sc.ID); !ok || err != nil {
			t.Errorf("StartScan: %v %v", ok, err)
		}
		if ok, _ := tx.StartScan(ctx, sc.ID); ok {
			t.Error("a running scan started again")
		}
		return nil
	})
	done := &sentinel.Scan{ID: sc.ID, Status: sentinel.ScanCompleted, Findings: 3, Stats: &sentinel.ScanStats{Pages: 2, Reachable: true},
		Detections: []sentinel.Detection{{Name: "jQuery", Version: "3.6.1", Purl: "pkg:npm/jquery@3.6.1", Confidence: 100,
			Evidence: []sentinel.DetectionEvidence{{Kind: "hash", URL: "https://shop.example/j.js", Detail: "sha1:00"}}}}}
	tx(func(tx *store.Tx) error {
		ok, err := tx.FinishScan(ctx, done)
		if !ok || err != nil {
			t.Errorf("FinishScan: %v %v", ok, err)
		}
		return err
	})
	got, err := db.FindScan(ctx, a.ID, sc.ID)
	if err != nil || got.Status != sentinel.ScanCompleted || got.Findings != 3 || got.StartedAt == nil || got.FinishedAt == nil ||
		len(got.Detections) != 1 || got.Detections[0].Evidence[0].Detail != "sha1:00" || got.Stats == nil || got.Stats.Pages != 2 || got.Slot != "scan:x:0" {
		t.Errorf("FindScan: %+v %v", got, err)
	}
	if _, err := db.FindScan(ctx, b.ID, sc.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("another organization finds the scan: %v", err)
	}
	tx(func(tx *store.Tx) error {
		if _, err := tx.CancelScan(ctx, a.ID, sc.ID); sentinel.ErrorCode(err) != sentinel.ECONFLICT {
			t.Errorf("cancel of a completed scan: %v", err)
		}
		return nil
	})

	// A canceled scan cannot finish.
	later := time.Now().Add(time.Minute)
	db.Clock = func() time.Time { return later }
	defer func() { db.Clock = time.Now }()
	sc2 := &sentinel.Scan{ID: sentinel.NewID(sentinel.PrefixScan), OrgID: a.ID, AssetID: site.ID, Target: site.Target}
	tx(func(tx *store.Tx) error { return tx.CreateScan(ctx, sc2) })
	tx(func(tx *store.Tx) error {
		if _, err := tx.CancelScan(ctx, b.ID, sc2.ID); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
			t.Errorf("another organization canceled: %v", err)
		}
		c, err := tx.CancelScan(ctx, a.ID, sc2.ID)
		if err != nil || c.Status != sentinel.ScanCanceled {
			t.Errorf("CancelScan: %+v %v", c, err)
		}
		if ok, _ := tx.StartScan(ctx, sc2.ID); ok {
			t.Error("a canceled scan started")
		}
		return nil
	})
	list, next, err := db.FindScans(ctx, sentinel.ScanFilter{OrgID: a.ID, Page: sentinel.Page{Limit: 1}})
	if err != nil || len(list) != 1 || list[0].ID != sc2.ID || next == "" {
		t.Errorf("FindScans page 1: %v %q %v", list, next, err)
	}
	if list, _, _ := db.FindScans(ctx, sentinel.ScanFilter{OrgID: a.ID, Status: sentinel.ScanCompleted}); len(list) != 1 || list[0].ID != sc.ID {
		t.Errorf("FindScans by status: %v", list)
	}
	if latest, _ := db.LatestScans(ctx, a.ID); len(latest) != 1 || latest[0].ID != sc.ID {
		t.Errorf("LatestScans: %v", latest)
	}

	// Reachability transitions are reported once each.
	var changes []string
	for _, reachable := range []bool{true, false, false, true, true} {
		tx(func(tx *store.Tx) error {
			ch, _, err := tx.SetAssetReachable(ctx, a.ID, site.ID, reachable)
			changes = append(changes, ch)
			return err
		})
	}
	if want := []string{"", "disappeared", "", "reappeared", ""}; !slices.Equal(changes, want) {
		t.Errorf("reachability transitions %q, want %q", changes, want)
	}

	// A due schedule is taken once.
	due := time.UnixMilli(1000).UTC()
	if _, err := db.Exec(ctx, `UPDATE assets SET next_scan_at = 1000 WHERE id = $1`, site.ID); err != nil {
		t.Fatal(err)
	}
	assets, err := db.DueAssets(ctx, time.Now(), 10)
	if err != nil || len(assets) != 1 || assets[0].ID != site.ID {
		t.Fatalf("DueAssets: %v %v", assets, err)
	}
	var wins int
	for range 2 {
		tx(func(tx *store.Tx) error {
			ok, err := tx.ScheduleNextScan(ctx, site.ID, due, time.Now().Add(time.Hour))
			if ok {
				wins++
			}
			return err
		})
	}
	if wins != 1 {
		t.Errorf("the due schedule was taken %d times", wins)
	}
}
