package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
	"github.com/sentinel-sca/sentinel/webhook"
)

// startServer runs a whole sentineld in the test process on 127.0.0.1:0
// and returns it with an API key of a new organization holding scopes.
func startServer(tb testing.TB, allowPrivate bool, scopes ...string) (*server.Server, string) {
	tb.Helper()
	cfg := server.DefaultConfig()
	cfg.DataDir = tb.TempDir()
	cfg.Addr, cfg.AgentAddr, cfg.ShareAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	cfg.AllowPrivateTargets = allowPrivate
	s, err := server.Open(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Start(context.Background()); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	if _, err := server.CreateOrg(context.Background(), s.DB, "acme", ""); err != nil {
		tb.Fatal(err)
	}
	if len(scopes) == 0 {
		scopes = []string{sentinel.ScopeWebhooksWrite}
	}
	_, key, err := server.CreateKey(context.Background(), s.DB, "acme", "t", scopes)
	if err != nil {
		tb.Fatal(err)
	}
	return s, key
}

// call makes an API request and decodes the JSON answer into out (if not nil).
func call(tb testing.TB, base, key, method, path string, body any, out any) int {
	tb.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	req.Header.Set("Authorization", "ApiKey "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			tb.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

// capture is a receiver that keeps every request and answers 204.
type capture struct {
	mu   sync.Mutex
	reqs []received
	hdrs []http.Header
}

func (c *capture) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc, _ := readDelivery(r)
	c.mu.Lock()
	c.reqs = append(c.reqs, rc)
	c.hdrs = append(c.hdrs, r.Header.Clone())
	c.mu.Unlock()
	w.WriteHeader(204)
}

func (c *capture) wait(tb testing.TB, n int) []received {
	tb.Helper()
	testenv.WaitFor(tb, 20*time.Second, "deliveries", func() bool { c.mu.Lock(); defer c.mu.Unlock(); return len(c.reqs) >= n })
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]received(nil), c.reqs...)
}

func TestWebhookAPI(t *testing.T) {
	s, key := startServer(t, true)
	base := s.APIURL()
	rcv := &capture{}
	hook := httptest.NewServer(rcv)
	defer hook.Close()

	// Create: the specification's fields, the secret once.
	var created webhooks.WithSecret
	code := call(t, base, key, "POST", "/v1/webhooks", map[string]any{"url": hook.URL + "/in", "events": []string{"finding.*", "webhook.test", "finding.*"}, "description": "SIEM"}, &created)
	if code != 201 || !sentinel.HasPrefix(created.ID, "wh_") || !strings.HasPrefix(created.Secret, "whsec_") || created.URL != hook.URL+"/in" ||
		strings.Join(created.Events, ",") != "finding.*,webhook.test" || created.Description != "SIEM" || !created.Active {
		t.Fatalf("create: %d %+v", code, created)
	}
	// The secret is stored sealed: not in the clear anywhere in the row.
	var raw []byte
	if err := s.DB.QueryRow(context.Background(), `SELECT secret FROM webhooks WHERE id = $1`, created.ID).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(created.Secret)) || bytes.Contains(raw, []byte(created.Secret[6:])) {
		t.Error("webhook secret stored in the clear")
	}

	// Get and list never show it.
	var got map[string]any
	if code := call(t, base, key, "GET", "/v1/webhooks/"+created.ID, nil, &got); code != 200 || got["secret"] != nil || got["id"] != created.ID {
		t.Errorf("get: %d %v", code, got)
	}
	var list httpapi.ListResponse[map[string]any]
	if code := call(t, base, key, "GET", "/v1/webhooks?limit=10", nil, &list); code != 200 || len(list.Data) != 1 || list.Data[0]["secret"] != nil {
		t.Errorf("list: %d %+v", code, list)
	}

	// Validation: 400 invalid_request naming the field.
	for _, tc := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"unknown_event", map[string]any{"url": hook.URL, "events": []string{"finding.nope"}}, "events"},
		{"bad_pattern", map[string]any{"url": hook.URL, "events": []string{"finding*"}}, "events"},
		{"unknown_group", map[string]any{"url": hook.URL, "events": []string{"nope.*"}}, "events"},
		{"no_events", map[string]any{"url": hook.URL, "events": []string{}}, "events"},
		{"no_url", map[string]any{"events": []string{"*"}}, "url"},
		{"long_description", map[string]any{"url": hook.URL, "events": []string{"*"}, "description": strings.Repeat("x", 257)}, "description"},
		{"unknown_field", map[string]any{"url": hook.URL, "events": []string{"*"}, "secret": "mine"}, "secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e httpapi.ErrorBody
			if code := call(t, base, key, "POST", "/v1/webhooks", tc.body, &e); code != 400 || e.Error != "invalid_request" || e.Field != tc.field {
				t.Errorf("got %d %+v, want 400 invalid_request field %q", code, e, tc.field)
			}
		})
	}

	// Test: 202, a signed webhook.test delivery to this webhook.
	var tr webhooks.TestResponse
	if code := call(t, base, key, "POST", "/webhooks/"+created.ID+"/test", nil, &tr); code != 202 || !strings.HasPrefix(tr.EventID, "evt_") {
		t.Fatalf("test: %d %+v", code, tr)
	}
	reqs := rcv.wait(t, 1)
	if bad := checkHeaders(reqs[0], rcv.hdrs[0].Get(webhook.HeaderEvent), created.Secret); bad != "" || reqs[0].Type != sentinel.EventWebhookTest || reqs[0].EventID != tr.EventID {
		t.Errorf("test delivery %+v: %s", reqs[0], bad)
	}

	// Update.
	var upd webhooks.Webhook
	if code := call(t, base, key, "PATCH", "/v1/webhooks/"+created.ID, map[string]any{"events": []string{"*"}, "description": "all"}, &upd); code != 200 || upd.Events[0] != "*" || upd.Description != "all" || upd.URL != created.URL {
		t.Errorf("update: %d %+v", code, upd)
	}
	var e httpapi.ErrorBody
	if code := call(t, base, key, "PATCH", "/v1/webhooks/"+created.ID, map[string]any{"events": []string{"bogus"}}, &e); code != 400 || e.Field != "events" {
		t.Errorf("update with a bad event: %d %+v", code, e)
	}

	// Rotate: a new secret, shown once; deliveries carry both signatures.
	var rot webhooks.WithSecret
	if code := call(t, base, key, "POST", "/v1/webhooks/"+created.ID+"/rotate-secret", nil, &rot); code != 200 || rot.Secret == created.Secret ||
		!strings.HasPrefix(rot.Secret, "whsec_") || rot.PreviousSecretExpiresAt == nil || time.Until(*rot.PreviousSecretExpiresAt) < 23*time.Hour {
		t.Fatalf("rotate: %d %+v", code, rot)
	}
	call(t, base, key, "POST", "/v1/webhooks/"+created.ID+"/test", nil, &tr)
	reqs = rcv.wait(t, 2)
	if n := strings.Count(reqs[1].Signature, "v1="); n != 2 {
		t.Errorf("signature during the overlap %q: %d v1 values, want 2", reqs[1].Signature, n)
	}
	for _, sec := range []string{created.Secret, rot.Secret} {
		if err := webhook.Verify(sec, reqs[1].Signature, reqs[1].Body, 0); err != nil {
			t.Errorf("verify with %s...: %v", sec[:10], err)
		}
	}

	// Deliveries: status, attempts, response code, event.
	var dl httpapi.ListResponse[webhooks.Delivery]
	testenv.WaitFor(t, 10*time.Second, "deliveries recorded", func() bool {
		call(t, base, key, "GET", "/v1/webhooks/"+created.ID+"/deliveries?status=succeeded", nil, &dl)
		return len(dl.Data) == 2
	})
	d := dl.Data[0]
	if d.EventID != tr.EventID || d.EventType != sentinel.EventWebhookTest || d.Attempts != 1 || d.LastResponseCode == nil || *d.LastResponseCode != 204 ||
		d.DeliveredAt == nil || d.LastAttemptID != reqs[1].Delivery {
		t.Errorf("delivery %+v", d)
	}
	if code := call(t, base, key, "GET", "/v1/webhooks/"+created.ID+"/deliveries?status=bogus", nil, &e); code != 400 || e.Field != "status" {
		t.Errorf("bad status filter: %d %+v", code, e)
	}

	// Redeliver by hand: the same event again, with a new attempt id.
	var rd webhooks.Delivery
	if code := call(t, base, key, "POST", "/v1/webhooks/"+created.ID+"/deliveries/"+d.ID+"/redeliver", nil, &rd); code != 200 || rd.Status != sentinel.DeliveryPending {
		t.Fatalf("redeliver: %d %+v", code, rd)
	}
	reqs = rcv.wait(t, 3)
	if reqs[2].EventID != d.EventID || reqs[2].Delivery == reqs[1].Delivery || !bytes.Equal(reqs[2].Body, reqs[1].Body) {
		t.Errorf("redelivery %+v", reqs[2])
	}

	// Every change is audited.
	entries, _, err := s.DB.FindAuditEntries(context.Background(), sentinel.AuditFilter{OrgID: mustOrgID(t, s), Page: sentinel.Page{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, a := range entries {
		if strings.HasPrefix(a.Action, "webhook.") {
			actions = append(actions, a.Action)
		}
	}
	if got, want := strings.Join(actions, ","), "webhook.create,webhook.test,webhook.update,webhook.rotate_secret,webhook.test,webhook.redeliver"; got != want {
		t.Errorf("audit actions %s, want %s", got, want)
	}

	// Deactivate, then test is refused; delete, then it is gone.
	if code := call(t, base, key, "PATCH", "/v1/webhooks/"+created.ID, map[string]any{"active": false}, &upd); code != 200 || upd.Active {
		t.Errorf("deactivate: %d %+v", code, upd)
	}
	if code := call(t, base, key, "POST", "/v1/webhooks/"+created.ID+"/test", nil, &e); code != 409 {
		t.Errorf("test an inactive webhook: %d %+v", code, e)
	}
	if code := call(t, base, key, "DELETE", "/v1/webhooks/"+created.ID, nil, nil); code != 200 {
		t.Errorf("delete: %d", code)
	}
	if code := call(t, base, key, "GET", "/v1/webhooks/"+created.ID, nil, &e); code != 404 || e.Error != "not_found" {
		t.Errorf("get after delete: %d %+v", code, e)
	}
}

func mustOrgID(tb testing.TB, s *server.Server) string {
	o, err := s.DB.FindOrgBySlug(context.Background(), "acme")
	if err != nil {
		tb.Fatal(err)
	}
	return o.ID
}

// TestTestRateLimit checks the test operation's class: 10 per minute per
// webhook.
func TestTestRateLimit(t *testing.T) {
	s, key := startServer(t, true)
	hook := httptest.NewServer(&capture{})
	defer hook.Close()
	var created webhooks.WithSecret
	call(t, s.APIURL(), key, "POST", "/v1/webhooks", map[string]any{"url": hook.URL, "events": []string{"*"}}, &created)
	for i := 1; i <= 11; i++ {
		code := call(t, s.APIURL(), key, "POST", "/v1/webhooks/"+created.ID+"/test", nil, nil)
		if want := map[bool]int{true: 202, false: 429}[i <= 10]; code != want {
			t.Fatalf("test request %d: %d, want %d", i, code, want)
		}
	}
}

// fakeResolver answers every name with one address.
type fakeResolver netip.Addr

func (f fakeResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.Addr(f)}, nil
}

// TestRegistrationRefusesInternalTargets checks the SSRF set at
// registration (and update): 400 invalid_request with field "url".
func TestRegistrationRefusesInternalTargets(t *testing.T) {
	s, key := startServer(t, false)
	urls := map[string]string{
		"plain_http":       "http://example.com/hook",
		"loopback_v4":      "https://127.0.0.1/hook",
		"localhost":        "https://localhost/hook",
		"loopback_v6":      "https://[::1]/hook",
		"metadata":         "https://169.254.169.254/latest/meta-data/",
		"private_10":       "https://10.1.2.3/hook",
		"private_192":      "https://192.168.0.1/hook",
		"decimal_loopback": "https://2130706433/hook",
	}
	// A real name that resolves to loopback through the system resolver
	// (/etc/hosts maps this machine's host name to 127.0.0.1 here).
	if h, err := os.Hostname(); err == nil {
		if addrs, err := lookup(h); err == nil && len(addrs) > 0 && addrs[0].IsLoopback() {
			urls["hostname_resolving_to_loopback"] = "https://" + h + "/hook"
		}
	}
	for name, u := range urls {
		t.Run(name, func(t *testing.T) {
			var e httpapi.ErrorBody
			code := call(t, s.APIURL(), key, "POST", "/v1/webhooks", map[string]any{"url": u, "events": []string{"*"}}, &e)
			if code != 400 || e.Error != "invalid_request" || e.Field != "url" {
				t.Errorf("POST %s: %d %+v, want 400 invalid_request field url", u, code, e)
			}
		})
	}

	// A name whose DNS answer is 127.0.0.1, deterministically: the same
	// routes with a resolver that answers so.
	api := &httpapi.Server{Auth: s.Keys}
	svc := &webhooks.Service{DB: store.Bind[webhooks.Tx](s.DB), Box: s.Box, Policy: netguard.Policy{Resolver: fakeResolver(netip.MustParseAddr("127.0.0.1"))}}
	api.Handle(svc.Routes()...)
	ts := httptest.NewServer(api)
	defer ts.Close()
	var e httpapi.ErrorBody
	if code := call(t, ts.URL, key, "POST", "/v1/webhooks", map[string]any{"url": "https://hooks.example.com/in", "events": []string{"*"}}, &e); code != 400 || e.Field != "url" {
		t.Errorf("name resolving to 127.0.0.1: %d %+v", code, e)
	}
	// Update is checked too.
	public := &webhooks.Service{DB: store.Bind[webhooks.Tx](s.DB), Box: s.Box, Policy: netguard.Policy{Resolver: fakeResolver(netip.MustParseAddr("93.184.215.14"))}}
	api2 := &httpapi.Server{Auth: s.Keys}
	api2.Handle(public.Routes()...)
	ts2 := httptest.NewServer(api2)
	defer ts2.Close()
	var created webhooks.WithSecret
	if code := call(t, ts2.URL, key, "POST", "/v1/webhooks", map[string]any{"url": "https://hooks.example.com/in", "events": []string{"*"}}, &created); code != 201 {
		t.Fatalf("public target refused: %d", code)
	}
	if code := call(t, ts2.URL, key, "PATCH", "/v1/webhooks/"+created.ID, map[string]any{"url": "https://10.0.0.1/in"}, &e); code != 400 || e.Field != "url" {
		t.Errorf("update to a private address: %d %+v", code, e)
	}
}

// lookup resolves host with the system resolver.
func lookup(host string) ([]netip.Addr, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}
