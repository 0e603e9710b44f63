package share_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
	"github.com/sentinel-sca/sentinel/internal/server"
)

// clock is a settable clock for the server.
type clock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.off += d
	c.mu.Unlock()
}

// env is a running sentineld with an organization and a key.
type env struct {
	s   *server.Server
	org *sentinel.Organization
	key string
	clk *clock
}

// MustEnv starts a server on 127.0.0.1 with a fresh SQLite store.
func MustEnv(tb testing.TB) *env {
	tb.Helper()
	clk := &clock{}
	cfg := server.DefaultConfig()
	cfg.DataDir = tb.TempDir()
	cfg.Addr, cfg.AgentAddr, cfg.ShareAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	cfg.PublicURL = "https://sentinel.example"
	cfg.Workers = 2
	cfg.Now = clk.Now
	ctx := context.Background()
	s, err := server.Open(ctx, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	if err := s.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	org, err := server.CreateOrg(ctx, s.DB, "acme", "Acme Widgets")
	if err != nil {
		tb.Fatal(err)
	}
	_, key, err := server.CreateKey(ctx, s.DB, "acme", "t", []string{sentinel.ScopeEvidenceShare, sentinel.ScopeSCARead, sentinel.ScopeAuditLogsRead})
	if err != nil {
		tb.Fatal(err)
	}
	return &env{s: s, org: org, key: key, clk: clk}
}

// api calls the API and decodes the JSON answer into out (when not nil).
func (e *env) api(tb testing.TB, method, path, body string, out any) int {
	tb.Helper()
	req, _ := http.NewRequest(method, e.s.APIURL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "ApiKey "+e.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			tb.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

type issued struct {
	ID        string   `json:"id"`
	ShareURL  string   `json:"share_url"`
	Password  string   `json:"password"`
	ExpiresAt string   `json:"expires_at"`
	Scope     []string `json:"scope"`
}

// MustIssue issues a bundle and waits until it is built.
func (e *env) MustIssue(tb testing.TB, body string) issued {
	tb.Helper()
	var raw map[string]any
	if code := e.api(tb, "POST", "/v1/sca/bundles", body, &raw); code != http.StatusCreated {
		tb.Fatalf("issue: %d %v", code, raw)
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"expires_at", "id", "password", "scope", "share_url"}) {
		tb.Errorf("issue response fields %q, want exactly id, share_url, password, expires_at, scope", keys)
	}
	b, _ := json.Marshal(raw)
	var out issued
	json.Unmarshal(b, &out)
	deadline := time.Now().Add(30 * time.Second)
	for {
		bd, err := e.s.DB.FindBundle(context.Background(), e.org.ID, out.ID)
		if err != nil {
			tb.Fatal(err)
		}
		if bd.BuildState == sentinel.BundleReady {
			break
		}
		if bd.BuildState == sentinel.BundleFailed || time.Now().After(deadline) {
			tb.Fatalf("bundle build: %s %s", bd.BuildState, bd.BuildError)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return out
}

// browser is a minimal cookie-keeping client that never follows redirects.
type browser struct {
	cookies map[string]*http.Cookie
	ua      string
}

func newBrowser() *browser {
	return &browser{cookies: map[string]*http.Cookie{}, ua: "test-browser/1.0"}
}

func (b *browser) do(tb testing.TB, method, u string, form url.Values) (*http.Response, string) {
	tb.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, u, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("User-Agent", b.ua)
	for _, c := range b.cookies {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, string(data)
}

var csrfField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// unlock opens the share and submits password.
func (b *browser) unlock(tb testing.TB, shareURL, password string) (*http.Response, string) {
	tb.Helper()
	resp, page := b.do(tb, "GET", shareURL, nil)
	if resp.StatusCode != http.StatusOK {
		return resp, page
	}
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		tb.Fatalf("no csrf field in:\n%s", page)
	}
	return b.do(tb, "POST", shareURL, url.Values{"password": {password}, "csrf_token": {m[1]}})
}

func TestIssueValidation(t *testing.T) {
	e := MustEnv(t)
	for _, tc := range []struct{ name, body, field string }{
		{"window_zero", `{"window_days":0}`, "window_days"},
		{"window_too_long", `{"window_days":366}`, "window_days"},
		{"window_not_integer", `{"window_days":"x"}`, "window_days"},
		{"include_unknown", `{"include":["sbom","secrets"]}`, "include"},
		{"include_empty", `{"include":[]}`, "include"},
		{"description_too_long", `{"description":"` + strings.Repeat("é", 257) + `"}`, "description"},
		{"unknown_field", `{"windows":3}`, "windows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body map[string]any
			if code := e.api(t, "POST", "/v1/sca/bundles", tc.body, &body); code != http.StatusBadRequest || body["error"] != "invalid_request" || body["field"] != tc.field {
				t.Errorf("%s: %d %v, want 400 naming %s", tc.body, code, body, tc.field)
			}
		})
	}
	// The bounds themselves are accepted.
	for _, body := range []string{`{"window_days":1}`, `{"window_days":365,"description":"` + strings.Repeat("é", 256) + `"}`, `{}`} {
		var out map[string]any
		if code := e.api(t, "POST", "/v1/sca/bundles", body, &out); code != http.StatusCreated {
			t.Errorf("%s: %d %v", body, code, out)
		}
	}
}

func TestShareFlow(t *testing.T) {
	e := MustEnv(t)
	ctx := context.Background()
	start := e.clk.Now()
	// One agent submission, with formatting the service must keep byte for byte.
	original := "{\"bomFormat\": \"CycloneDX\", \"specVersion\": \"1.5\", \"version\": 1,\n  \"components\": [" +
		`{"type":"library","name":"lodash","version":"4.17.15","purl":"pkg:npm/lodash@4.17.15"},` +
		`{"type":"library","name":"Django","version":"4.2.0","purl":"pkg:pypi/django@4.2.0"}]}` + "\n"
	sub, err := e.s.Inventory.Ingest(ctx, e.org, "key_test", "web-1", "", []byte(original))
	if err != nil {
		t.Fatal(err)
	}
	b := e.MustIssue(t, `{"window_days":30,"include":["audit","sbom"],"description":"Globex procurement"}`)

	// The response.
	if !sentinel.HasPrefix(b.ID, sentinel.PrefixBundle) || !slices.Equal(b.Scope, []string{"sbom", "audit"}) {
		t.Errorf("id %q scope %q", b.ID, b.Scope)
	}
	exp, err := time.Parse(time.RFC3339, b.ExpiresAt)
	if err != nil || !strings.HasSuffix(b.ExpiresAt, "Z") || exp.Sub(start) < 7*24*time.Hour-time.Minute || exp.Sub(start) > 7*24*time.Hour+time.Minute {
		t.Errorf("expires_at %q: want RFC 3339 UTC, 7 days from now", b.ExpiresAt)
	}
	u, _ := url.Parse(b.ShareURL)
	token := strings.TrimPrefix(u.Path, "/s/")
	if "http://"+u.Host != e.s.ShareURL() || len(token) < 43 {
		t.Fatalf("share_url %q: want %s/s/<token>", b.ShareURL, e.s.ShareURL())
	}
	if raw, err := base64.RawURLEncoding.DecodeString(token); err != nil || len(raw)*8 < 256 {
		t.Errorf("token of %d bits, want at least 256", len(raw)*8)
	}
	// Only hashes are stored.
	bd, _ := e.s.DB.FindBundle(ctx, e.org.ID, b.ID)
	if sum := sha256.Sum256([]byte(token)); !bytes.Equal(bd.TokenHash, sum[:]) {
		t.Error("stored token hash is not SHA-256 of the token")
	}
	if !strings.HasPrefix(bd.PasswordHash, "$argon2id$v=19$") || strings.Contains(bd.PasswordHash, b.Password) {
		t.Errorf("stored password hash %q", bd.PasswordHash)
	}
	if ok, _ := evidence.CheckPassword(bd.PasswordHash, b.Password); !ok {
		t.Error("stored hash does not match the password")
	}
	// Event and audit entry.
	evs, _ := e.s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: e.org.ID, Type: sentinel.EventBundleCreated})
	if len(evs) != 1 || !strings.Contains(string(evs[0].Data), b.ID) || strings.Contains(string(evs[0].Data), b.Password) || strings.Contains(string(evs[0].Data), token) {
		t.Errorf("bundle.created events: %d %s", len(evs), evs[0].Data)
	}
	if as, _, _ := e.s.DB.FindAuditEntries(ctx, sentinel.AuditFilter{OrgID: e.org.ID, Action: "bundle.create"}); len(as) != 1 || as[0].Target != b.ID {
		t.Errorf("bundle.create audit entries: %+v", as)
	}

	br := newBrowser()
	resp, page := br.do(t, "GET", b.ShareURL, nil)
	if resp.StatusCode != 200 || !strings.Contains(page, `type="password"`) || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("password page: %d\n%s", resp.StatusCode, page)
	}
	// Wrong password: 401, logged, no session.
	resp, page = br.unlock(t, b.ShareURL, "wrong-password")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(page, "not right") || br.cookies["sentinel_share_session"] != nil {
		t.Errorf("wrong password: %d\n%s", resp.StatusCode, page)
	}
	// A form without the page's token is refused, whatever the password.
	resp, _ = br.do(t, "POST", b.ShareURL, url.Values{"password": {b.Password}})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("POST without the form token: %d, want 403", resp.StatusCode)
	}
	// Right password: 303 back with a strict session cookie.
	resp, _ = br.unlock(t, b.ShareURL, b.Password)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != b.ShareURL {
		t.Fatalf("right password: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	c := br.cookies["sentinel_share_session"]
	if c == nil || !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteStrictMode || c.Path != u.Path || c.MaxAge <= 0 || c.MaxAge > 3600 {
		t.Fatalf("session cookie %+v", c)
	}
	resp, page = br.do(t, "GET", b.ShareURL, nil)
	if resp.StatusCode != 200 || !strings.Contains(page, b.ID) || !strings.Contains(page, "password_rejected") || !strings.Contains(page, "How to verify") {
		t.Fatalf("bundle page: %d\n%s", resp.StatusCode, page)
	}
	bd, _ = e.s.DB.FindBundle(ctx, e.org.ID, b.ID)
	for _, a := range bd.Artifacts {
		if !strings.Contains(page, a.Name) || !strings.Contains(page, a.SHA256) {
			t.Errorf("bundle page lacks %s %s", a.Name, a.SHA256)
		}
	}
	resp, zipBody := br.do(t, "GET", b.ShareURL+"/download", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zip" || int64(len(zipBody)) != bd.Size {
		t.Fatalf("download: %d %s, %d bytes (want %d)", resp.StatusCode, resp.Header.Get("Content-Type"), len(zipBody), bd.Size)
	}
	if sum := sha256.Sum256([]byte(zipBody)); fmt.Sprintf("%x", sum) != bd.SHA256 {
		t.Error("downloaded zip's digest differs from the stored one")
	}
	rep, err := verify.Bundle(ctx, strings.NewReader(zipBody), int64(len(zipBody)), verify.Options{})
	if err != nil || !rep.OK {
		var buf bytes.Buffer
		rep.WriteText(&buf)
		t.Fatalf("VerifyBundle on the download: %v\n%s", err, buf.String())
	}
	zr, _ := zip.NewReader(strings.NewReader(zipBody), int64(len(zipBody)))
	inZip := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		inZip[f.Name] = string(data)
	}
	if got := inZip[evidence.SubmissionFile(sub.ID)]; got != original {
		t.Errorf("submission in the zip = %q, want the original bytes %q", got, original)
	}
	if c := inZip["sbom/consolidated.cdx.json"]; !strings.Contains(c, `"bom-ref":"pkg:npm/lodash@4.17.15"`) || !strings.Contains(c, `"bom-ref":"pkg:pypi/django@4.2.0"`) {
		t.Errorf("consolidated SBOM lacks the inventory:\n%s", c)
	}
	if rep.Issuer != "https://sentinel.example" || !strings.Contains(rep.Identity, "/orgs/acme/evidence") {
		t.Errorf("identity %q issuer %q", rep.Identity, rep.Issuer)
	}
	evs, _ = e.s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: e.org.ID, Type: sentinel.EventBundleAccessed})
	if len(evs) != 2 {
		t.Errorf("%d bundle.accessed events, want 2 (password, download)", len(evs))
	}
	// The operator's view: list and access log.
	var list struct {
		Data []evidence.Info `json:"data"`
	}
	e.api(t, "GET", "/v1/sca/bundles", "", &list)
	if len(list.Data) != 1 || list.Data[0].Status != "active" || list.Data[0].AccessCount != 2 || list.Data[0].LastAccessAt == "" || list.Data[0].Build != "ready" {
		t.Errorf("list: %+v", list.Data)
	}
	var log struct {
		Data []evidence.AccessEntry `json:"data"`
	}
	if code := e.api(t, "GET", "/v1/sca/bundles/"+b.ID+"/audit", "", &log); code != 200 {
		t.Fatalf("audit: %d", code)
	}
	var outcomes []string
	for _, a := range log.Data {
		outcomes = append(outcomes, a.Outcome)
		if a.Address != "127.0.0.1" || a.UserAgent != "test-browser/1.0" || !strings.HasSuffix(a.At, "Z") {
			t.Errorf("access entry %+v", a)
		}
	}
	want := []string{"opened", "opened", "password_rejected", "refused_bad_form", "opened", "password_accepted", "downloaded"}
	if !slices.Equal(outcomes, want) {
		t.Errorf("access log %q, want %q", outcomes, want)
	}

	// Revoke: access ends at once, even with a live session.
	var info evidence.Info
	if code := e.api(t, "POST", "/v1/sca/bundles/"+b.ID+"/revoke", "", &info); code != 200 || info.Status != "revoked" {
		t.Fatalf("revoke: %d %+v", code, info)
	}
	for _, path := range []string{"", "/download"} {
		resp, page = br.do(t, "GET", b.ShareURL+path, nil)
		if resp.StatusCode != http.StatusGone || !strings.Contains(page, "revoked") {
			t.Errorf("GET %q after revoke: %d\n%s", path, resp.StatusCode, page)
		}
	}
	if resp, _ = newBrowser().unlock(t, b.ShareURL, b.Password); resp.StatusCode != http.StatusGone {
		t.Errorf("unlock after revoke: %d", resp.StatusCode)
	}
	evs, _ = e.s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: e.org.ID, Type: sentinel.EventBundleRevoked})
	if len(evs) != 1 {
		t.Errorf("%d bundle.revoked events", len(evs))
	}
	if code := e.api(t, "POST", "/v1/sca/bundles/"+b.ID+"/revoke", "", &info); code != 200 {
		t.Errorf("second revoke: %d", code)
	}
	if evs, _ = e.s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: e.org.ID, Type: sentinel.EventBundleRevoked}); len(evs) != 1 {
		t.Errorf("second revoke emitted again: %d events", len(evs))
	}
}

func TestShareLocksAfterTenWrongPasswords(t *testing.T) {
	e := MustEnv(t)
	b := e.MustIssue(t, `{"include":["audit"]}`)
	br := newBrowser()
	for i := 1; i <= 10; i++ {
		resp, _ := br.unlock(t, b.ShareURL, fmt.Sprintf("guess-%d", i))
		want := http.StatusUnauthorized
		if i == 10 {
			want = http.StatusGone
		}
		if resp.StatusCode != want {
			t.Fatalf("attempt %d: %d, want %d", i, resp.StatusCode, want)
		}
	}
	// The right password no longer opens it.
	resp, page := newBrowser().unlock(t, b.ShareURL, b.Password)
	if resp.StatusCode != http.StatusGone || !strings.Contains(page, "locked") {
		t.Errorf("right password on a locked share: %d\n%s", resp.StatusCode, page)
	}
	var list struct {
		Data []evidence.Info `json:"data"`
	}
	e.api(t, "GET", "/v1/sca/bundles", "", &list)
	if list.Data[0].Status != "locked" || list.Data[0].FailedAttempts != 10 || list.Data[0].AccessCount != 0 {
		t.Errorf("list after lock: %+v", list.Data[0])
	}
}

func TestShareExpires(t *testing.T) {
	e := MustEnv(t)
	b := e.MustIssue(t, `{"include":["audit"]}`)
	br := newBrowser()
	if resp, _ := br.unlock(t, b.ShareURL, b.Password); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("unlock: %d", resp.StatusCode)
	}
	e.clk.Advance(7*24*time.Hour + time.Second)
	resp, page := br.do(t, "GET", b.ShareURL+"/download", nil)
	if resp.StatusCode != http.StatusGone || !strings.Contains(page, "expired") {
		t.Errorf("download after expiry: %d\n%s", resp.StatusCode, page)
	}
	var list struct {
		Data []evidence.Info `json:"data"`
	}
	e.api(t, "GET", "/v1/sca/bundles", "", &list)
	if list.Data[0].Status != "expired" {
		t.Errorf("status %q, want expired", list.Data[0].Status)
	}
	// Unknown tokens are 404, not 410.
	if resp, _ := br.do(t, "GET", e.s.ShareURL()+"/s/"+strings.Repeat("A", 43), nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown token: %d", resp.StatusCode)
	}
}

// TestConcurrentGuessesCountedBeforeTheCheck sends 25 wrong passwords at
// once: each is counted before it is checked, so at most ten are ever
// checked and the share locks at ten.
func TestConcurrentGuessesCountedBeforeTheCheck(t *testing.T) {
	e := MustEnv(t)
	b := e.MustIssue(t, `{"include":["audit"]}`)
	var wg sync.WaitGroup
	codes := make(chan int, 25)
	for i := range 25 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := newBrowser().unlock(t, b.ShareURL, fmt.Sprintf("guess-%d", i))
			codes <- resp.StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusUnauthorized && c != http.StatusGone && c != http.StatusTooManyRequests {
			t.Errorf("a guess got %d", c)
		}
	}
	log, _, err := e.s.DB.BundleAccessLog(context.Background(), b.ID, sentinel.Page{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, a := range log {
		if a.Outcome == sentinel.AccessPasswordWrong || a.Outcome == sentinel.AccessLockedNow {
			checked++
		}
	}
	if checked > 10 {
		t.Errorf("%d wrong passwords were checked, at most 10 may be", checked)
	}
	var list struct {
		Data []evidence.Info `json:"data"`
	}
	e.api(t, "GET", "/v1/sca/bundles", "", &list)
	if list.Data[0].Status != "locked" || list.Data[0].FailedAttempts != 10 {
		t.Errorf("after 25 guesses at once: %+v", list.Data[0])
	}
}
