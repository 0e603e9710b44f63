package intake_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/seal"
	"github.com/sentinel-sca/sentinel/internal/secrets"
	"github.com/sentinel-sca/sentinel/internal/secrets/intake"
	"github.com/sentinel-sca/sentinel/internal/secrets/verify"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// The values are made when the tests run, never kept in the repository.
func token(prefix string, n int) string {
	r := ""
	for len(r) < n {
		r += sentinel.NewID("")
	}
	return prefix + "SNTL" + r[:n-4]
}

// fakeVerifier answers every check with res or err and counts the calls.
type fakeVerifier struct {
	res   verify.Result
	err   error
	calls int
}

func (f *fakeVerifier) Verify(_ context.Context, provider string, c secrets.Credential) (verify.Result, error) {
	f.calls++
	r := f.res
	r.Provider, r.CheckedAt = provider, time.Now()
	return r, f.err
}

// certOrg is an Identity that names one organization for any certificate.
type certOrg struct{ orgID string }

func (c certOrg) CertificateOrg(_ context.Context, st *tls.ConnectionState) (string, error) {
	if st == nil || len(st.PeerCertificates) == 0 {
		return "", nil
	}
	return c.orgID, nil
}

type env struct {
	db  *store.DB
	org *sentinel.Organization
	svc *intake.Service
	ver *fakeVerifier
}

func newEnv(t *testing.T) *env {
	ctx := context.Background()
	db := testenv.Open(t, filepath.Join(t.TempDir(), "s.db"))
	var org *sentinel.Organization
	if err := db.InTx(ctx, func(tx *store.Tx) (err error) { org, err = tx.CreateOrg(ctx, "acme", ""); return err }); err != nil {
		t.Fatal(err)
	}
	box, err := seal.NewBox(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	fp, err := intake.LoadFingerprinter(ctx, db, box)
	if err != nil {
		t.Fatal(err)
	}
	again, err := intake.LoadFingerprinter(ctx, db, box)
	if err != nil || again.KeyID() != fp.KeyID() {
		t.Fatalf("the fingerprint key changed between loads: %v", err)
	}
	ver := &fakeVerifier{res: verify.Result{Status: verify.Active, Identity: "octo", Reason: "accepted"}}
	svc := &intake.Service{DB: store.Bind[intake.Tx](db), Box: box, Fingerprints: fp, Identity: certOrg{org.ID}, Verifier: ver}
	return &env{db: db, org: org, svc: svc, ver: ver}
}

func submission(items ...secrets.SubmissionItem) *secrets.Submission {
	return &secrets.Submission{Schema: secrets.SubmissionSchema, SchemaVersion: secrets.SubmissionSchemaVersion, Root: ".", Items: items}
}

// TestIngest checks what a submission becomes: one secret per
// fingerprint, what is kept for verification and what is not, and the
// risk of each kind.
func TestIngest(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	gh := token("ghp_", 36)
	sub := submission(
		secrets.SubmissionItem{RuleID: "github-pat", File: "a.env", Line: 1, Value: gh, LocalFingerprint: "local1"},
		secrets.SubmissionItem{RuleID: "github-pat", File: "b.sh", Line: 9, Value: gh},
		secrets.SubmissionItem{RuleID: "aws-access-token", File: "c.tf", Line: 2, Value: "AKIASNTL" + strings.ToUpper(sentinel.NewID(""))[:12]},
		secrets.SubmissionItem{RuleID: "stripe-access-token", File: "d.py", Line: 3, Value: "sk_test_SNTL" + sentinel.NewID("") + sentinel.NewID("")},
		secrets.SubmissionItem{RuleID: "pkcs12-file", File: "keys/store.p12"},
	)
	res, err := e.svc.Ingest(ctx, e.org.ID, "build-1", "", sub, sentinel.Actor{KeyID: "key_t"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Received != 5 || res.New != 4 || res.Known != 0 || res.Verifying != 2 || len(res.Items) != 5 {
		t.Fatalf("answer: %+v", res)
	}
	if res.Items[0].ID != res.Items[1].ID || !res.Items[0].New || res.Items[1].New || res.Items[0].LocalFingerprint != "local1" {
		t.Errorf("the same token in two files: %+v, %+v", res.Items[0], res.Items[1])
	}
	for i, want := range []struct {
		status string
		held   bool
		band   string
	}{
		{sentinel.SecretPending, true, sentinel.BandHigh},
		{sentinel.SecretPending, true, sentinel.BandHigh},
		{sentinel.SecretUnverifiable, false, sentinel.BandHigh}, // an AWS key id without its secret key
		{sentinel.SecretPending, true, sentinel.BandLow},        // a Stripe test-mode key
		{sentinel.SecretUnverifiable, false, sentinel.BandMedium},
	} {
		s, err := e.db.FindSecret(ctx, e.org.ID, res.Items[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		f, err := e.db.FindFindingByID(ctx, e.org.ID, s.FindingID)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != want.status || s.ValueHeld != want.held || f.Band != want.band || f.Category != sentinel.CategoryExposedSecret ||
			s.Host != "build-1" || f.AssetName != "build-1" {
			t.Errorf("item %d: secret %+v, finding band %s", i, s, f.Band)
		}
	}
	// Submitting again finds them all known.
	res2, err := e.svc.Ingest(ctx, e.org.ID, "build-2", "", sub, sentinel.Actor{KeyID: "key_t"})
	if err != nil || res2.New != 0 || res2.Known != 4 {
		t.Fatalf("second submission: %+v, %v", res2, err)
	}
	evs, _ := e.db.FindEvents(ctx, sentinel.EventFilter{OrgID: e.org.ID, Type: sentinel.EventSecretDetected, Limit: 100})
	if len(evs) != 4 {
		t.Errorf("secret.detected: %d events, want 4", len(evs))
	}
	for _, ev := range evs {
		if strings.Contains(string(ev.Data), gh) {
			t.Errorf("secret.detected carries the value: %s", ev.Data)
		}
	}
}

// runJob runs the verification job of a secret as the job runner would
// on its attempt-th try of max.
func runJob(t *testing.T, e *env, id string, attempt, max int) error {
	args, _ := json.Marshal(map[string]string{"org_id": e.org.ID, "secret_id": id})
	return e.svc.VerifyJob(context.Background(), &sentinel.Job{Kind: intake.JobVerify, Args: args, Attempts: attempt, MaxAttempts: max})
}

// TestVerifyOutcomes checks the job's outcomes: retried with the value
// kept while the provider gives no answer, given up (value deleted) on the
// last attempt, and a credential no check exists for settled at once.
func TestVerifyOutcomes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	res, err := e.svc.Ingest(ctx, e.org.ID, "build-1", "", submission(
		secrets.SubmissionItem{RuleID: "github-pat", File: "a.env", Line: 1, Value: token("ghp_", 36)},
		secrets.SubmissionItem{RuleID: "gitlab-pat", File: "b.yml", Line: 1, Value: token("glpat-", 20)},
	), sentinel.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	gh, gl := res.Items[0].ID, res.Items[1].ID

	e.ver.res = verify.Result{Status: verify.Indeterminate, Reason: "GitHub rate limited the check", RetryAfter: 90 * time.Second}
	err = runJob(t, e, gh, 1, 2)
	if err == nil {
		t.Fatal("an indeterminate answer completed the job")
	}
	s, _ := e.db.FindSecret(ctx, e.org.ID, gh)
	if s.Status != sentinel.SecretPending || !s.ValueHeld || s.VerifyAttempts != 1 || s.VerifyReason != "GitHub rate limited the check" {
		t.Errorf("after an indeterminate answer: %+v", s)
	}
	if err := runJob(t, e, gh, 2, 2); err != nil {
		t.Fatalf("the last attempt: %v", err)
	}
	s, _ = e.db.FindSecret(ctx, e.org.ID, gh)
	if s.Status != sentinel.SecretUnknown || s.ValueHeld || s.VerifyAttempts != 2 || !strings.HasPrefix(s.VerifyReason, "gave up after 2 checks") {
		t.Errorf("after giving up: %+v", s)
	}

	e.ver.err = verify.ErrUnsupported
	if err := runJob(t, e, gl, 1, 12); err != nil {
		t.Fatal(err)
	}
	s, _ = e.db.FindSecret(ctx, e.org.ID, gl)
	if s.Status != sentinel.SecretUnverifiable || s.ValueHeld {
		t.Errorf("an unsupported credential: %+v", s)
	}
	// A settled secret is not checked again.
	calls := e.ver.calls
	if err := runJob(t, e, gl, 2, 12); err != nil || e.ver.calls != calls {
		t.Errorf("a settled secret was checked again: %v, %d calls", err, e.ver.calls-calls)
	}
}

// TestSubmitRefusals checks the endpoint's refusals: no certificate, a key
// of another organization than the certificate's, an invalid or too large
// body.
func TestSubmitRefusals(t *testing.T) {
	e := newEnv(t)
	e.svc.MaxSubmission = 4 << 10
	api := &httpapi.Server{Auth: authAs{e.org.ID}}
	api.Handle(e.svc.ListenerRoutes()...)
	cert := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "build-1"}}
	good, _ := json.Marshal(submission(secrets.SubmissionItem{RuleID: "private-key", File: "k", Line: 1, Value: "x" + sentinel.NewID("")}))
	for _, tc := range []struct {
		name   string
		tls    bool
		org    string
		body   string
		status int
	}{
		{"accepted", true, e.org.ID, string(good), http.StatusCreated},
		{"no_certificate", false, e.org.ID, string(good), http.StatusUnauthorized},
		{"key_of_another_organization", true, "org_other", string(good), http.StatusUnauthorized},
		{"not_a_submission", true, e.org.ID, `{"schema":"x"}`, http.StatusBadRequest},
		{"too_large", true, e.org.ID, `{"items":"` + strings.Repeat("a", 5<<10) + `"}`, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api.Auth = authAs{tc.org}
			r := httptest.NewRequest("POST", "/sentinel/secrets/submit", strings.NewReader(tc.body))
			r.Header.Set("Authorization", "ApiKey k")
			if tc.tls {
				r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{cert}}
			}
			w := httptest.NewRecorder()
			api.ServeHTTP(w, r)
			if w.Code != tc.status {
				t.Errorf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}
		})
	}
}

// authAs authenticates every key as a key of org holding secrets:submit.
type authAs struct{ org string }

func (a authAs) Authenticate(context.Context, string) (*sentinel.Principal, error) {
	return &sentinel.Principal{OrgID: a.org, OrgSlug: "acme", KeyID: "key_t", Scopes: []string{sentinel.ScopeSecretsSubmit}}, nil
}
