package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// testIOCsAndLive covers indicators (draft -> applied -> archived, never
// back) and the live sources: a host's newest submission replaces an older
// one, a late older one does not, and LiveComponents finds a package's
// live components only.
func testIOCsAndLive(t *testing.T, db *store.DB) {
	ctx := context.Background()
	a, b := MustOrg(t, db, "a"), MustOrg(t, db, "b")
	i := &sentinel.IOC{ID: sentinel.NewID(sentinel.PrefixIOC), OrgID: a.ID, Ecosystem: "npm", Name: "lodash", NameKey: "lodash",
		Versions: "=4.17.20", Reason: "r", Severity: "high"}
	if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateIOC(ctx, i) }); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.AppliedIOCs(ctx, a.ID); len(got) != 0 {
		t.Errorf("a draft is applied: %v", got)
	}
	set := func(org, status string) (*sentinel.IOC, bool, error) {
		var x *sentinel.IOC
		var changed bool
		err := db.InTx(ctx, func(tx *store.Tx) (err error) {
			x, changed, err = tx.SetIOCStatus(ctx, org, i.ID, status)
			return err
		})
		return x, changed, err
	}
	if _, _, err := set(b.ID, sentinel.IOCApplied); sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		t.Errorf("another organization applied it: %v", err)
	}
	if x, changed, err := set(a.ID, sentinel.IOCApplied); err != nil || !changed || x.AppliedAt == nil {
		t.Errorf("apply: %+v %v %v", x, changed, err)
	}
	if _, changed, _ := set(a.ID, sentinel.IOCApplied); changed {
		t.Error("applied twice")
	}
	if got, _ := db.AppliedIOCs(ctx, a.ID); len(got) != 1 || got[0].ID != i.ID {
		t.Errorf("AppliedIOCs: %v", got)
	}
	if x, changed, err := set(a.ID, sentinel.IOCArchived); err != nil || !changed || x.ArchivedAt == nil {
		t.Errorf("archive: %+v %v %v", x, changed, err)
	}
	if _, _, err := set(a.ID, sentinel.IOCApplied); sentinel.ErrorCode(err) != sentinel.ECONFLICT {
		t.Errorf("apply after archive: %v", err)
	}
	if list, _, _ := db.FindIOCs(ctx, a.ID, sentinel.IOCArchived, sentinel.Page{}); len(list) != 1 {
		t.Errorf("FindIOCs archived: %v", list)
	}

	submit := func(id string, at int64, purls ...string) {
		t.Helper()
		var items []sentinel.InventoryItem
		for _, p := range purls {
			items = append(items, purl.ItemFromPurl(p, "", ""))
		}
		db.Clock = func() time.Time { return store.FromMS(at) }
		err := db.InTx(ctx, func(tx *store.Tx) error {
			return tx.CreateSubmission(ctx, &sentinel.Submission{ID: id, OrgID: a.ID, Host: "h1", SpecVersion: "1.5"}, []byte("{}"), items)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	submit("sub_old", 1_000, "pkg:npm/lodash@4.17.19")
	submit("sub_new", 3_000, "pkg:npm/lodash@4.17.20", "pkg:npm/left-pad@1.3.0")
	submit("sub_late", 2_000, "pkg:npm/lodash@4.17.18") // arrives last, but is older
	live, err := db.LiveComponents(ctx, a.ID, []sentinel.PackageRef{{Ecosystem: "npm", Name: "lodash"}})
	if err != nil || len(live) != 1 || live[0].SourceID != "sub_new" || live[0].Version != "4.17.20" || live[0].Kind != sentinel.SourceSBOM {
		t.Errorf("LiveComponents: %+v %v", live, err)
	}
	if other, _ := db.LiveComponents(ctx, b.ID, []sentinel.PackageRef{{Ecosystem: "npm", Name: "lodash"}}); len(other) != 0 {
		t.Errorf("another organization's live components: %+v", other)
	}
	if srcs, _ := db.LiveSources(ctx, a.ID); len(srcs) != 1 || srcs[0].SourceID != "sub_new" {
		t.Errorf("LiveSources: %+v", srcs)
	}
}
