package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agent"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// lockedBuffer is a log sink shared by the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// randomString returns n characters of alphabet from crypto/rand: the
// planted values are made when the test runs, never kept in the
// repository (a literal token would be flagged by every secret scanner).
func randomString(t testing.TB, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		k, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			t.Fatal(err)
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b)
}

const (
	alnum  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	lownum = "abcdefghijklmnopqrstuvwxyz0123456789"
	digits = "0123456789"
)

// plantedTree writes a tree with one secret of each kind the test needs
// and returns the values, by name.
func plantedTree(t *testing.T, dir string) map[string]string {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalECPrivateKey(k)
	v := map[string]string{
		"github": "ghp_SNTL" + randomString(t, alnum, 32),
		"gitlab": "glpat-SNTL" + randomString(t, alnum, 16),
		"slack":  "xoxb-" + randomString(t, digits, 12) + "-" + randomString(t, digits, 13) + "-SNTL" + randomString(t, alnum, 20),
		"npm":    "npm_sntl" + randomString(t, lownum, 32),
		"key":    string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})),
	}
	files := map[string]string{
		"config/github.env":      "# release job\nGITHUB_TOKEN=" + v["github"] + "\n",
		"scripts/publish.sh":     "#!/bin/sh\nexport GITHUB_TOKEN=" + v["github"] + "\n", // the same secret again
		"ci/gitlab.yml":          "variables:\n  GITLAB_TOKEN: \"" + v["gitlab"] + "\"\n",
		"bot/slack.json":         "{\n  \"slack_token\": \"" + v["slack"] + "\"\n}\n",
		"pkg/.npmrc":             "//registry.npmjs.org/:_authToken=" + v["npm"] + "\n",
		"deploy/keys/server.key": v["key"],
		"README.md":              "# demo\nNothing to see.\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// fakeProviders answer as GitHub (active), GitLab (revoked), Slack (rate
// limited once, then active) and npm (too slow: the check times out) do,
// on loopback.
type fakeProviders struct {
	github, gitlab, slack, npm *httptest.Server
	hits                       map[string]*atomic.Int64
}

func newFakeProviders(t *testing.T, values map[string]string) *fakeProviders {
	f := &fakeProviders{hits: map[string]*atomic.Int64{"github": {}, "gitlab": {}, "slack": {}, "npm": {}}}
	f.github = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits["github"].Add(1)
		if r.URL.Path != "/user" || r.Header.Get("Authorization") != "Bearer "+values["github"] {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("X-OAuth-Scopes", "repo, workflow")
		io.WriteString(w, `{"login":"octo-sntl","id":1}`)
	}))
	f.gitlab = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits["gitlab"].Add(1)
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"message":"401 Unauthorized"}`)
	}))
	f.slack = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f.hits["slack"].Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, `{"ok":true,"user":"deploy-bot","team":"Acme"}`)
	}))
	f.npm = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits["npm"].Add(1)
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	}))
	for _, s := range []*httptest.Server{f.github, f.gitlab, f.slack, f.npm} {
		t.Cleanup(s.Close)
	}
	return f
}

// TestSecretsEndToEnd follows planted secrets from a source tree to the
// service and its providers: an agent enrolls, runs sentinel secrets
// --submit twice, the service records one secret and one finding per
// fingerprint, verifies each against loopback providers (active, revoked,
// rate limited then active, timed out), raises the live ones, and no
// planted value appears in the logs, events, API answers, the database
// files or an Evidence Bundle.
func TestSecretsEndToEnd(t *testing.T) {
	ctx := context.Background()
	tree := t.TempDir()
	values := plantedTree(t, tree)
	fakes := newFakeProviders(t, values)
	var logs lockedBuffer
	s := servertest.Start(t, func(c *server.Config) {
		c.AllowPrivateTargets = true
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		c.SecretsVerifyTimeout = 300 * time.Millisecond
		c.SecretsVerifyURLs = map[string]string{"github": fakes.github.URL, "gitlab": fakes.gitlab.URL, "slack": fakes.slack.URL, "npm": fakes.npm.URL}
	})
	org, err := server.CreateOrg(ctx, s.DB, "acme", "Acme Corp")
	if err != nil {
		t.Fatal(err)
	}
	admin := mustKey(t, s, "acme", sentinel.AllScopes)
	submitKey := mustKey(t, s, "acme", []string{sentinel.ScopeSecretsSubmit})

	var answers []string // every API answer, for the leak check
	api := func(method, path string, out any) int {
		t.Helper()
		req, _ := http.NewRequest(method, s.APIURL()+path, nil)
		req.Header.Set("Authorization", "ApiKey "+admin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answers = append(answers, string(b))
		if out != nil {
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s %s: %v: %s", method, path, err, b)
			}
		}
		return resp.StatusCode
	}
	var tok struct{ Token string }
	if code := apiPost(t, s, admin, "/v1/agent/enrollment-tokens", &tok); code != 201 {
		t.Fatalf("enrollment token: %d", code)
	}
	env := []string{"SENTINEL_HOME=" + t.TempDir(), "SENTINEL_API_KEY=" + submitKey, "SENTINEL_SERVER=" + s.APIURL()}
	var agentOut []string
	runAgent := func(want int, args ...string) {
		t.Helper()
		var out, errOut bytes.Buffer
		c := &agent.Command{Args: args, Stdout: &out, Stderr: &errOut, Env: env, Hostname: func() (string, error) { return "build-9", nil }}
		if code := agent.Main(ctx, c); code != want {
			t.Fatalf("sentinel %v: exit %d, want %d\n%s\n%s", args, code, want, out.String(), errOut.String())
		}
		agentOut = append(agentOut, out.String(), errOut.String())
	}
	runAgent(0, "enroll", "--agent-server", s.AgentURL(), "--token", tok.Token)
	runAgent(agent.ExitSecretsFound, "secrets", "--submit", "--json", tree)

	// One secret (and one secret.detected) per fingerprint: the GitHub
	// token in two files is one secret.
	listSecrets := func() map[string]sentinel.Secret {
		var l struct{ Data []sentinel.Secret }
		if code := api("GET", "/v1/secrets?limit=500", &l); code != 200 {
			t.Fatalf("list secrets: %d", code)
		}
		out := map[string]sentinel.Secret{}
		for _, x := range l.Data {
			out[x.Provider+"/"+x.RuleID] = x
		}
		return out
	}
	byKind := listSecrets()
	if len(byKind) != 5 {
		t.Fatalf("secrets after one submission: %d %v", len(byKind), byKind)
	}
	detected := func() int {
		es, err := s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Type: sentinel.EventSecretDetected, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(es)
	}
	if n := detected(); n != 5 {
		t.Errorf("secret.detected events: %d, want 5", n)
	}
	gh := byKind["github/github-pat"]
	if gh.Host != "build-9" || gh.Location.File == "" || gh.Location.Line != 2 || gh.Redacted != "ghp_…(40)" || gh.FindingID == "" ||
		!strings.HasPrefix(gh.ID, "sec_") || len(gh.Fingerprint) != 32 {
		t.Errorf("github secret: %+v", gh)
	}

	// Verification: active, revoked, rate limited (retried), timed out.
	testenv.WaitFor(t, 20*time.Second, "the checks to settle", func() bool {
		m := listSecrets()
		return m["github/github-pat"].Status == sentinel.SecretActive && m["gitlab/gitlab-pat"].Status == sentinel.SecretInactive &&
			m["slack/slack-bot-token"].Status == sentinel.SecretActive && m["npm/npm-access-token"].VerifyAttempts >= 1
	})
	byKind = listSecrets()
	for kind, want := range map[string]struct {
		status string
		held   bool
	}{
		"github/github-pat": {sentinel.SecretActive, false}, "gitlab/gitlab-pat": {sentinel.SecretInactive, false},
		"slack/slack-bot-token": {sentinel.SecretActive, false}, "npm/npm-access-token": {sentinel.SecretPending, true},
		"/private-key": {sentinel.SecretUnverifiable, false},
	} {
		got := byKind[kind]
		if got.Status != want.status || got.ValueHeld != want.held {
			t.Errorf("%s: status %s, value held %v; want %s, %v (%s)", kind, got.Status, got.ValueHeld, want.status, want.held, got.VerifyReason)
		}
	}
	if sl := byKind["slack/slack-bot-token"]; sl.VerifyAttempts != 2 || fakes.hits["slack"].Load() != 2 {
		t.Errorf("slack: %d attempts, %d provider calls; want 2 (rate limited, then retried)", sl.VerifyAttempts, fakes.hits["slack"].Load())
	}
	if np := byKind["npm/npm-access-token"]; !strings.Contains(np.VerifyReason, "timed out") {
		t.Errorf("npm: reason %q, want a timeout", np.VerifyReason)
	}
	// The timed-out check is retried at the verifier's time (five
	// minutes), not the job runner's default backoff (a second).
	var runAfter int64
	if err := s.DB.SQL().QueryRow(`SELECT run_after FROM jobs WHERE kind = 'secrets.verify' AND state = 'available'`).Scan(&runAfter); err != nil ||
		time.Until(time.UnixMilli(runAfter)) < 4*time.Minute {
		t.Errorf("the timed-out check's next attempt: %v, %v", time.UnixMilli(runAfter), err)
	}
	if g := byKind["github/github-pat"]; g.Identity != "octo-sntl" || g.VerifiedAt == nil || fakes.hits["github"].Load() != 1 {
		t.Errorf("github: %+v, %d provider calls", g, fakes.hits["github"].Load())
	}

	// secret.verified_live for the two live ones only.
	live, _ := s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Type: sentinel.EventSecretVerifiedLive, Limit: 100})
	if len(live) != 2 {
		t.Fatalf("secret.verified_live: %d events, want 2", len(live))
	}
	for _, e := range live {
		var d map[string]any
		_ = json.Unmarshal(e.Data, &d)
		if d["id"] == byKind["gitlab/gitlab-pat"].ID {
			t.Errorf("a revoked secret was reported live: %s", e.Data)
		}
		for _, k := range []string{"id", "provider", "verified_at", "finding_id"} {
			if d[k] == nil || d[k] == "" {
				t.Errorf("secret.verified_live lacks %s: %s", k, e.Data)
			}
		}
		if d["id"] == gh.ID && d["identity"] != "octo-sntl" {
			t.Errorf("secret.verified_live of GitHub: identity %v", d["identity"])
		}
	}

	// The live GitHub token's finding went from high to critical.
	var f sentinel.Finding
	if code := api("GET", "/v1/findings/"+gh.FindingID, &f); code != 200 || f.RiskScore != 100 || f.Band != sentinel.BandCritical ||
		f.Category != sentinel.CategoryExposedSecret || f.CWE != sentinel.CWEHardcodedCredentials || f.AdvisoryID != gh.ID {
		t.Errorf("github finding: %d %+v", code, f)
	}
	esc, _ := s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Type: sentinel.EventFindingEscalated, Limit: 100})
	var escalated map[string]any
	for _, e := range esc {
		var d map[string]any
		_ = json.Unmarshal(e.Data, &d)
		if d["finding_id"] == gh.FindingID {
			escalated = d
		}
	}
	checkEscalatedData(t, escalated, map[string]any{"finding_id": gh.FindingID, "category": "exposed_secret", "cwe": "CWE-798",
		"risk_score": 100.0, "previous_risk_score": 75.0, "asset_id": gh.AssetID, "asset_criticality": "medium", "sla_window_hours": 72.0,
		"primary_risk_category": "exposed_secret"})

	// A second run: no new secret, no new secret.detected; last_seen moves.
	time.Sleep(20 * time.Millisecond)
	runAgent(agent.ExitSecretsFound, "secrets", "--submit", tree)
	again := listSecrets()
	if len(again) != 5 || detected() != 5 {
		t.Errorf("after a second submission: %d secrets, %d secret.detected", len(again), detected())
	}
	if g := again["github/github-pat"]; !g.LastSeen.After(gh.LastSeen) || !g.FirstSeen.Equal(gh.FirstSeen) {
		t.Errorf("second sighting: first %v -> %v, last %v -> %v", gh.FirstSeen, g.FirstSeen, gh.LastSeen, g.LastSeen)
	}
	if fakes.hits["github"].Load() != 1 {
		t.Errorf("a known secret was checked again: %d GitHub calls", fakes.hits["github"].Load())
	}

	// Every audited check, and the rest of the API.
	var audit struct{ Data []sentinel.AuditEntry }
	api("GET", "/v1/audit-logs?action=secret.verify", &audit)
	if len(audit.Data) < 4 {
		t.Errorf("audit: %d secret.verify entries", len(audit.Data))
	}
	for _, x := range again {
		api("GET", "/v1/secrets/"+x.ID, nil)
		api("GET", "/v1/findings/"+x.FindingID, nil)
	}
	api("GET", "/v1/findings?category=exposed_secret", nil)
	api("GET", "/v1/audit-logs", nil)
	api("GET", "/v1/assets", nil)
	api("GET", "/v1/secrets?status=pending", nil)

	// An Evidence Bundle of everything.
	var bundle bytes.Buffer
	now := time.Now().UTC()
	if _, err := evidence.Build(ctx, &bundle, s.DB, evidence.Options{Org: org, BundleID: "bundle_secrets", CreatedAt: now,
		WindowStart: now.Add(-time.Hour), WindowEnd: now.Add(time.Hour), CA: s.Evidence.CA, Identity: "https://sentinel.test/orgs/acme/evidence",
		Issuer: "https://sentinel.test"}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(bundle.Bytes()), int64(bundle.Len()))
	if err != nil {
		t.Fatal(err)
	}
	bundleFiles := map[string]string{}
	for _, zf := range zr.File {
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		bundleFiles[zf.Name] = string(b)
	}
	if !strings.Contains(bundleFiles["findings.csv"], gh.FindingID) {
		t.Errorf("findings.csv does not list the secret's finding")
	}

	// The leak check: no planted value anywhere the service writes or
	// answers. Each value is searched whole and by its secret part.
	events, _ := s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Limit: 10000})
	var eventData []string
	for _, e := range events {
		eventData = append(eventData, string(e.Data))
	}
	places := map[string][]string{"logs": {logs.String()}, "events": eventData, "api": answers}
	for name, body := range bundleFiles {
		places["bundle:"+name] = []string{body}
	}
	for _, name := range []string{"sentinel.db", "sentinel.db-wal"} {
		if b, err := os.ReadFile(filepath.Join(s.Config.DataDir, name)); err == nil {
			places["store:"+name] = []string{string(b)}
		}
	}
	hits := 0
	for kind, v := range values {
		needles := []string{v}
		if kind == "key" {
			needles = pemBodyLines(v)
		} else {
			needles = append(needles, v[len(v)-16:]) // the random tail alone
		}
		for place, texts := range places {
			for _, text := range texts {
				for _, n := range needles {
					if strings.Contains(text, n) {
						hits++
						t.Errorf("the planted %s value appears in %s", kind, place)
					}
				}
			}
		}
	}
	t.Logf("leak check: %d places (%d log bytes, %d events, %d API answers, %d bundle files, the store's files): %d hits",
		len(places), len(logs.String()), len(eventData), len(answers), len(bundleFiles), hits)
}

// pemBodyLines returns the base64 lines of a PEM block: any of them would
// betray the key.
func pemBodyLines(p string) []string {
	var out []string
	for _, l := range strings.Split(p, "\n") {
		if len(l) >= 32 && !strings.HasPrefix(l, "-----") {
			out = append(out, l)
		}
	}
	return out
}

// apiPost posts an empty JSON object with key and decodes the answer.
func apiPost(t *testing.T, s *server.Server, key, path string, out any) int {
	t.Helper()
	req, _ := http.NewRequest("POST", s.APIURL()+path, strings.NewReader(`{}`))
	req.Header.Set("Authorization", "ApiKey "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		_ = json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// checkEscalatedData checks a finding.escalated data object field by field
// against the specification's table: exactly its ten fields, with the
// values given (compliance only for being a non-empty array of strings).
func checkEscalatedData(t *testing.T, d map[string]any, want map[string]any) {
	t.Helper()
	if d == nil {
		t.Fatal("no finding.escalated event for the finding")
	}
	spec := []string{"finding_id", "category", "cwe", "risk_score", "previous_risk_score", "asset_id", "asset_criticality",
		"sla_window_hours", "primary_risk_category", "compliance"}
	var keys []string
	for k := range d {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	sorted := slices.Clone(spec)
	slices.Sort(sorted)
	if !slices.Equal(keys, sorted) {
		t.Errorf("finding.escalated fields %v, want exactly %v", keys, sorted)
	}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("finding.escalated %s = %v (%T), want %v", k, d[k], d[k], v)
		}
	}
	c, ok := d["compliance"].([]any)
	if !ok || len(c) == 0 {
		t.Errorf("finding.escalated compliance = %v, want a non-empty array", d["compliance"])
	}
	for _, x := range c {
		if _, ok := x.(string); !ok {
			t.Errorf("compliance item %v is not a string", x)
		}
	}
}
