package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// testBufferedInserts checks Tx.BufferInserts: buffered findings and
// events are written before the transaction's next read and before it
// commits, across more rows than one statement holds, with the events in
// the order they were emitted; a buffered row that breaks a constraint
// fails the transaction, which then writes nothing.
func testBufferedInserts(t *testing.T, db *store.DB) {
	ctx := context.Background()
	org := MustOrg(t, db, "buffered")
	const n = 1203 // three statements of findings
	var assetID string
	err := db.InTx(ctx, func(tx *store.Tx) error {
		tx.BufferInserts()
		asset, _, err := tx.UpsertAsset(ctx, org.ID, "h", sentinel.AssetHost)
		if err != nil {
			return err
		}
		assetID = asset.ID
		for i := range n {
			f := &sentinel.Finding{OrgID: org.ID, AssetID: asset.ID, Purl: fmt.Sprintf("pkg:npm/p%d@1.0.0", i), AdvisoryID: "GHSA-x",
				Category: sentinel.CategoryVulnerableComponent, Status: sentinel.StatusOpen, Source: "sbom", FirstSeen: tx.Now(),
				LastSeen: tx.Now(), SLADueAt: tx.Now().Add(time.Hour), Aliases: []string{"CVE-1"}}
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
			if f.ID == "" {
				return fmt.Errorf("no id assigned")
			}
			if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingCreated, f.ID, map[string]int{"i": i}); err != nil {
				return err
			}
		}
		// A read in the same transaction sees every buffered row.
		all, err := tx.FindingsOf(ctx, org.ID, "sbom", []sentinel.FindingScope{{AssetID: asset.ID}})
		if err != nil {
			return err
		}
		got := all[asset.ID]
		if len(got) != n || got["pkg:npm/p7@1.0.0\x00GHSA-x"].Aliases[0] != "CVE-1" {
			return fmt.Errorf("read in the transaction: %d findings", len(got))
		}
		// Those of some purls only.
		of, err := tx.FindingsOf(ctx, org.ID, "sbom", []sentinel.FindingScope{{AssetID: asset.ID,
			Purls: []string{"pkg:npm/p7@1.0.0", "pkg:npm/p1202@1.0.0", "pkg:npm/none@1"}}})
		if err != nil {
			return err
		}
		some := of[asset.ID]
		if len(some) != 2 || some["pkg:npm/p1202@1.0.0\x00GHSA-x"] == nil {
			return fmt.Errorf("findings of 3 purls: %d, want 2", len(some))
		}
		// Rows buffered after the last read are written at commit.
		for i := n; i < n+5; i++ {
			if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingCreated, "", map[string]int{"i": i}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var pending []*sentinel.Event
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		pending, err = tx.PendingEvents(ctx, 2*n)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != n+5 {
		t.Fatalf("%d events, want %d", len(pending), n+5)
	}
	for i, e := range pending {
		if want := fmt.Sprintf(`{"i":%d}`, i); string(e.Data) != want {
			t.Fatalf("event %d is %s, want %s: the outbox order changed", i, e.Data, want)
		}
	}
	// A duplicate finding (one per asset, purl and advisory) fails the
	// whole transaction when its buffer is written.
	err = db.InTx(ctx, func(tx *store.Tx) error {
		tx.BufferInserts()
		if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingCreated, "", nil); err != nil {
			return err
		}
		return tx.SaveFinding(ctx, &sentinel.Finding{OrgID: org.ID, AssetID: assetID, Purl: "pkg:npm/p0@1.0.0", AdvisoryID: "GHSA-x",
			Category: sentinel.CategoryVulnerableComponent, Status: sentinel.StatusOpen, Source: "sbom"})
	})
	if sentinel.ErrorCode(err) != sentinel.ECONFLICT {
		t.Fatalf("duplicate finding: %v, want a conflict", err)
	}
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		pending, err = tx.PendingEvents(ctx, 2*n)
		return err
	})
	if err != nil || len(pending) != n+5 {
		t.Fatalf("after the failed transaction: %d events (%v), want %d", len(pending), err, n+5)
	}
}
