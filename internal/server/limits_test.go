package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/redistest"
)

func do(s *server.Server, method, path, key, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if key != "" {
		r.Header.Set("Authorization", "ApiKey "+key)
	}
	w := httptest.NewRecorder()
	s.API.ServeHTTP(w, r)
	return w
}

func checkWrites(t *testing.T, servers []*server.Server, key, other string) {
	t.Helper()
	for i := 1; i <= 60; i++ {
		s := servers[i%len(servers)]
		w := do(s, "POST", "/v1/api-keys", key, `{"scopes":["sca:read"]}`)
		if w.Code != http.StatusCreated {
			t.Fatalf("write %d: %d %s", i, w.Code, w.Body)
		}
		if got := header(w.Header(), "X-RateLimit-Remaining"); len(got) != 1 || got[0] != itoa(60-i) {
			t.Fatalf("write %d: X-RateLimit-Remaining %v", i, got)
		}
	}
	w := do(servers[0], "POST", "/v1/api-keys", key, `{"scopes":["sca:read"]}`)
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("61st write: %d %s", w.Code, w.Body)
	}
	var body httpapi.ErrorBody
	_ = json.Unmarshal(w.Body.Bytes(), &body)
	h := w.Header()
	if body.Error != "rate_limited" || h.Get("Retry-After") != "30" || header(h, "X-RateLimit-Limit")[0] != "60" ||
		header(h, "X-RateLimit-Remaining")[0] != "0" || header(h, "X-RateLimit-Reset") == nil || body.RequestID == "" {
		t.Errorf("61st write: headers %v body %+v", h, body)
	}
	// Reads are a class of their own, and another key is unaffected.
	if w := do(servers[0], "GET", "/v1/api-keys", key, ""); w.Code != 200 || header(w.Header(), "X-RateLimit-Limit")[0] != "600" {
		t.Errorf("read after writes exhausted: %d %v", w.Code, w.Header())
	}
	if w := do(servers[0], "POST", "/v1/api-keys", other, `{"scopes":["sca:read"]}`); w.Code != http.StatusCreated {
		t.Errorf("second key: %d %s", w.Code, w.Body)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestWriteLimit: 61 writes with one key inside a minute, the 61st is 429.
func TestWriteLimit(t *testing.T) {
	s := MustServer(t)
	if _, err := server.CreateOrg(context.Background(), s.DB, "acme", ""); err != nil {
		t.Fatal(err)
	}
	checkWrites(t, []*server.Server{s}, mustKey(t, s, "acme", sentinel.AllScopes), mustKey(t, s, "acme", sentinel.AllScopes))
}

// TestSharedLimiter: two server instances over one store sharing Redis
// count together.
func TestSharedLimiter(t *testing.T) {
	url := redistest.URL(t)
	dir := t.TempDir()
	var servers []*server.Server
	for i := 0; i < 2; i++ {
		cfg := server.DefaultConfig()
		cfg.DataDir, cfg.Redis = dir, url
		s, err := server.Open(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		servers = append(servers, s)
	}
	if _, err := server.CreateOrg(context.Background(), servers[0].DB, "acme", ""); err != nil {
		t.Fatal(err)
	}
	checkWrites(t, servers, mustKey(t, servers[0], "acme", sentinel.AllScopes), mustKey(t, servers[1], "acme", sentinel.AllScopes))
}

// TestErrors checks the error table of docs/design.md for the cases the foundation
// decides: bad JSON, unknown field, body too large, revoked key.
func TestErrors(t *testing.T) {
	s := MustServer(t)
	ctx := context.Background()
	if _, err := server.CreateOrg(ctx, s.DB, "acme", ""); err != nil {
		t.Fatal(err)
	}
	key := mustKey(t, s, "acme", sentinel.AllScopes)
	cases := []struct {
		name, method, path, body string
		status                   int
		code, field              string
	}{
		{"bad_json", "POST", "/v1/api-keys", `{"scopes":`, 400, "invalid_request", ""},
		{"unknown_field", "POST", "/v1/api-keys", `{"scopes":["sca:read"],"nope":1}`, 400, "invalid_request", "nope"},
		{"wrong_type", "POST", "/v1/api-keys", `{"scopes":"sca:read"}`, 400, "invalid_request", "scopes"},
		{"unknown_scope", "POST", "/v1/api-keys", `{"scopes":["root"]}`, 400, "invalid_request", "scopes"},
		{"trailing", "POST", "/v1/api-keys", `{"scopes":["sca:read"]} {}`, 400, "invalid_request", ""},
		{"too_large", "POST", "/v1/api-keys", `{"name":"` + strings.Repeat("a", 2<<20) + `"}`, 413, "too_large", ""},
		{"bad_limit", "GET", "/v1/api-keys?limit=0", "", 400, "invalid_request", "limit"},
		{"unknown_route", "GET", "/v1/nothing", "", 404, "not_found", ""},
		{"unknown_key_id", "DELETE", "/v1/api-keys/key_doesnotexist", "", 404, "not_found", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := do(s, tc.method, tc.path, key, tc.body)
			var body httpapi.ErrorBody
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q: %v", w.Body, err)
			}
			if w.Code != tc.status || body.Error != tc.code || body.Field != tc.field || body.Message == "" || body.RequestID == "" {
				t.Errorf("got %d %+v, want %d %s field %q", w.Code, body, tc.status, tc.code, tc.field)
			}
		})
	}
	// A revoked key is 401 at once on this replica.
	victim := mustKey(t, s, "acme", []string{sentinel.ScopeAdmin})
	w := do(s, "GET", "/v1/api-keys", victim, "")
	var list httpapi.ListResponse[sentinel.APIKey]
	_ = json.Unmarshal(w.Body.Bytes(), &list)
	var id string
	for _, k := range list.Data {
		if strings.HasPrefix(victim, k.Prefix+"_") {
			id = k.ID
		}
	}
	if w := do(s, "DELETE", "/v1/api-keys/"+id, key, ""); w.Code != 200 {
		t.Fatalf("revoke: %d %s", w.Code, w.Body)
	}
	if w := do(s, "GET", "/v1/api-keys", victim, ""); w.Code != 401 {
		t.Errorf("revoked key: %d, want 401", w.Code)
	}
	// The revocation is in the audit log.
	w = do(s, "GET", "/v1/audit-logs?action=api_key.revoke", key, "")
	if !strings.Contains(w.Body.String(), id) {
		t.Errorf("audit log lacks the revocation: %s", w.Body)
	}
}

// header returns the values of a header stored under exactly this spelling:
// the API sends X-RateLimit-* as the specification spells them, not in Go's
// canonical case.
func header(h http.Header, name string) []string {
	for k, v := range h {
		if k == name {
			return v
		}
	}
	return nil
}

// TestGateFailsClosedWithoutIntel: with no advisory data loaded the CI gate
// answers 503 instead of a verdict; it must never say OK blindly.
func TestGateFailsClosedWithoutIntel(t *testing.T) {
	s := MustServer(t)
	if _, err := server.CreateOrg(context.Background(), s.DB, "acme", ""); err != nil {
		t.Fatal(err)
	}
	w := do(s, "POST", "/v1/sca/gate", mustKey(t, s, "acme", []string{sentinel.ScopeSCARead}), `{"purls":["pkg:npm/lodash@4.17.15"]}`)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), `"unavailable"`) {
		t.Errorf("gate without intel: %d %s", w.Code, w.Body)
	}
}
