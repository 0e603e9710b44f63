package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// MustServer opens a server on a fresh SQLite store in a temp dir.
func MustServer(tb testing.TB) *server.Server {
	tb.Helper()
	cfg := server.DefaultConfig()
	cfg.DataDir = tb.TempDir()
	cfg.Addr, cfg.AgentAddr, cfg.ShareAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	s, err := server.Open(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// mustKey creates an API key in org with scopes.
func mustKey(tb testing.TB, s *server.Server, org string, scopes []string) string {
	tb.Helper()
	_, full, err := server.CreateKey(context.Background(), s.DB, org, "t", scopes)
	if err != nil {
		tb.Fatal(err)
	}
	return full
}

// fixtures create, in the organization given, one resource of the kind a
// route's path names, and return the path values that address it. Every
// route with path parameters must have one: the tenant-isolation walk
// below fails for a route without.
var fixtures = map[string]func(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string{
	"DELETE /v1/api-keys/{id}": func(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
		k, _, err := server.CreateKey(context.Background(), s.DB, org.Slug, "victim", []string{sentinel.ScopeSCARead})
		if err != nil {
			t.Fatal(err)
		}
		return map[string]string{"id": k.ID}
	},
}

var param = regexp.MustCompile(`\{([a-zA-Z_]+)\.{0,3}\}`)

func fill(path string, vals map[string]string) string {
	return param.ReplaceAllStringFunc(path, func(m string) string {
		name := param.FindStringSubmatch(m)[1]
		if v, ok := vals[name]; ok {
			return v
		}
		return "x_" + name
	})
}

// TestEveryRoute walks every route the router registered (not a
// hand-written list): no key is 401, a key without the route's scope is
// 403 naming the scope, and another organization's id is 404.
func TestEveryRoute(t *testing.T) {
	s := MustServer(t)
	ctx := context.Background()
	a, err := server.CreateOrg(ctx, s.DB, "alpha", "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := server.CreateOrg(ctx, s.DB, "beta", "")
	if err != nil {
		t.Fatal(err)
	}
	full := mustKey(t, s, a.Slug, sentinel.AllScopes)
	routes := s.API.Routes()
	if len(routes) < 8 {
		t.Fatalf("only %d routes registered", len(routes))
	}
	for _, rt := range routes {
		pattern := rt.Method + " " + rt.Path
		t.Run(pattern, func(t *testing.T) {
			if rt.Scope == "" {
				if !slices.Contains([]string{"/healthz", "/readyz", "/metrics", "/openapi.json"}, rt.Path) && !strings.HasPrefix(rt.Path, "/s/") {
					t.Errorf("route %s has no scope: every API route must require one", pattern)
				}
				return
			}
			path := fill(rt.Path, nil)
			do := func(key string, path string) *httptest.ResponseRecorder {
				r := httptest.NewRequest(rt.Method, path, strings.NewReader("{}"))
				r.Header.Set("Content-Type", "application/json")
				if key != "" {
					r.Header.Set("Authorization", "ApiKey "+key)
				}
				w := httptest.NewRecorder()
				s.API.ServeHTTP(w, r)
				return w
			}
			if w := do("", path); w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), `"unauthenticated"`) {
				t.Errorf("no key: %d %s", w.Code, w.Body)
			}
			if w := do("sntl_nosuchkey_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", path); w.Code != http.StatusUnauthorized {
				t.Errorf("unknown key: %d %s", w.Code, w.Body)
			}
			var others []string
			for _, sc := range sentinel.AllScopes {
				if sc != rt.Scope {
					others = append(others, sc)
				}
			}
			w := do(mustKey(t, s, a.Slug, others), path)
			if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), `"required_scope":"`+rt.Scope+`"`) {
				t.Errorf("key without %s: %d %s", rt.Scope, w.Code, w.Body)
			}
			if header(w.Header(), "X-RateLimit-Limit") == nil && rt.Class != httpapi.ClassScan {
				t.Errorf("no X-RateLimit-Limit header")
			}
			if !param.MatchString(rt.Path) {
				return
			}
			fx, ok := fixtures[pattern]
			if !ok {
				t.Fatalf("route %s has path parameters but no fixture in routes_test.go: add one so tenant isolation is tested", pattern)
			}
			// The resource exists in beta; alpha's full key must not see it.
			w = do(full, fill(rt.Path, fx(t, s, b)))
			if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"not_found"`) {
				t.Errorf("another organization's id: %d %s, want 404 not_found", w.Code, w.Body)
			}
		})
	}
}

// TestOpenAPICoversEveryRoute checks that /openapi.json documents every
// pattern registered on the mux.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	s := MustServer(t)
	doc := s.API.OpenAPI()
	for _, p := range s.API.Patterns() {
		method, path, _ := strings.Cut(p, " ")
		item := doc.Paths[param.ReplaceAllString(path, "{$1}")]
		if item == nil {
			t.Errorf("%s: path missing from OpenAPI", p)
			continue
		}
		ops := map[string]bool{"GET": item.Get != nil, "POST": item.Post != nil, "PATCH": item.Patch != nil,
			"PUT": item.Put != nil, "DELETE": item.Delete != nil}
		if !ops[method] {
			t.Errorf("%s: operation missing from OpenAPI", p)
		}
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("OpenAPI version %q", doc.OpenAPI)
	}
}

// TestOpenSQLitePath checks the sqlite: DSN form.
func TestOpenSQLitePath(t *testing.T) {
	db, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}
