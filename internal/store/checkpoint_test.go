package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/store/storetest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// TestSQLiteCheckpoints: the writer's commits leave the write-ahead log
// to the background checkpointer, which copies it into the database file
// within seconds; the data is read back after the store is reopened.
func TestSQLiteCheckpoints(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sentinel.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	org := storetest.MustOrg(t, db, "ckpt")
	before := size()
	// About 4 MiB of events, in one transaction.
	err = db.InTx(ctx, func(tx *store.Tx) error {
		for i := range 2000 {
			if _, err := tx.EmitEvent(ctx, org, sentinel.EventWebhookTest, "", map[string]any{"i": i, "pad": strings.Repeat("x", 2000)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	testenv.WaitFor(t, 30*time.Second, "the log copied into the database file", func() bool { return size() > before+2<<20 })
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	evs, err := db.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Limit: 5000})
	if err != nil || len(evs) != 2000 {
		t.Fatalf("after reopening: %d events, %v", len(evs), err)
	}
}
