package evidence_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
	"github.com/sentinel-sca/sentinel/internal/seal"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// failingSource fails while the findings stream.
type failingSource struct{ memSource }

func (f *failingSource) EvidenceFindings(context.Context, string, []string, func(*sentinel.EvidenceFinding) error) error {
	return errors.New("findings table unavailable")
}

func TestBuildJob(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var org *sentinel.Organization
	if err := db.InTx(ctx, func(tx *store.Tx) (err error) { org, err = tx.CreateOrg(ctx, "acme", "Acme"); return err }); err != nil {
		t.Fatal(err)
	}
	box, _ := seal.NewBox(bytes.Repeat([]byte{7}, 32))
	ca, err := evidence.LoadOrCreateCA(ctx, store.Bind[evidence.Tx](db), box, time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	again, err := evidence.LoadOrCreateCA(ctx, store.Bind[evidence.Tx](db), box, time.Now())
	if err != nil || !again.Root().Equal(ca.Root()) {
		t.Fatalf("second LoadOrCreateCA made another CA: %v", err)
	}
	if other, _ := seal.NewBox(bytes.Repeat([]byte{8}, 32)); other != nil {
		if _, err := evidence.LoadOrCreateCA(ctx, store.Bind[evidence.Tx](db), other, time.Now()); err == nil {
			t.Error("CA keys opened with another master key")
		}
	}
	issue := func() *sentinel.Bundle {
		now := time.Now()
		b := &sentinel.Bundle{ID: sentinel.NewID(sentinel.PrefixBundle), OrgID: org.ID, Scope: evidence.Scopes, WindowDays: 90,
			WindowStart: now.AddDate(0, 0, -90), WindowEnd: now, TokenHash: []byte(sentinel.NewID("t_")), PasswordHash: "x",
			CreatedBy: "t", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.CreateBundle(ctx, b) }); err != nil {
			t.Fatal(err)
		}
		return b
	}
	job := func(id string, attempt int) *sentinel.Job {
		args, _ := json.Marshal(map[string]string{"bundle_id": id})
		return &sentinel.Job{Args: args, Attempts: attempt, MaxAttempts: 5}
	}

	bad := &evidence.Service{DB: store.Bind[evidence.Tx](db), CA: ca, PublicURL: "https://sentinel.example", Source: &failingSource{*testSource()}, TempDir: t.TempDir()}
	b := issue()
	if err := bad.BuildJob(ctx, job(b.ID, 1)); err == nil {
		t.Fatal("BuildJob with a failing source succeeded")
	}
	if got, _ := db.FindBundle(ctx, org.ID, b.ID); got.BuildState != sentinel.BundleBuilding {
		t.Errorf("after a failed attempt that will be retried: %s", got.BuildState)
	}
	if err := bad.BuildJob(ctx, job(b.ID, 5)); err == nil {
		t.Fatal("last attempt succeeded")
	}
	if got, _ := db.FindBundle(ctx, org.ID, b.ID); got.BuildState != sentinel.BundleFailed || got.BuildError == "" {
		t.Errorf("after the last attempt: %s %q", got.BuildState, got.BuildError)
	}

	good := &evidence.Service{DB: store.Bind[evidence.Tx](db), CA: ca, PublicURL: "https://sentinel.example", Source: testSource(), TempDir: t.TempDir()}
	b = issue()
	// A retried job starts over: chunks of an interrupted attempt go first.
	if err := db.PutBundleChunk(ctx, b.ID, 0, []byte("stale")); err != nil {
		t.Fatal(err)
	}
	if err := good.BuildJob(ctx, job(b.ID, 2)); err != nil {
		t.Fatal(err)
	}
	got, _ := db.FindBundle(ctx, org.ID, b.ID)
	var zipBytes bytes.Buffer
	if err := evidence.OpenZip(ctx, db, b.ID, &zipBytes); err != nil {
		t.Fatal(err)
	}
	if got.BuildState != sentinel.BundleReady || int64(zipBytes.Len()) != got.Size || len(got.Artifacts) != len(artifactNames) {
		t.Fatalf("built bundle: %+v, zip %d bytes", got, zipBytes.Len())
	}
	rep := verifyBytes(t, zipBytes.Bytes(), verify.Options{Roots: []*x509Certificate{ca.Root()}})
	if !rep.OK || rep.Identity != "^https://sentinel\\.example/orgs/acme/evidence$" {
		t.Errorf("stored bundle:\n%s", reportText(rep))
	}
	// Done is done: running the job again changes nothing.
	if err := good.BuildJob(ctx, job(b.ID, 3)); err != nil {
		t.Fatal(err)
	}
	if again, _ := db.FindBundle(ctx, org.ID, b.ID); again.SHA256 != got.SHA256 {
		t.Error("a finished bundle was rebuilt")
	}
}
