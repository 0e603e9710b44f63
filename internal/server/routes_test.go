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
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// MustServer opens a server on a fresh SQLite store in a temp dir.
func MustServer(tb testing.TB) *server.Server { return servertest.Open(tb) }

// mustKey creates an API key in org with scopes.
// startAcme starts a service with the test intel synced and the
// organization acme, and returns them with a key of acme's holding every
// scope.
func startAcme(t *testing.T) (*server.Server, *sentinel.Organization, string) {
	t.Helper()
	s := servertest.Start(t)
	servertest.SyncIntel(t, s)
	org, err := server.CreateOrg(context.Background(), s.DB, "acme", "")
	if err != nil {
		t.Fatal(err)
	}
	return s, org, mustKey(t, s, "acme", sentinel.AllScopes)
}

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
	// Advisories are global data: another organization's id does not
	// exist, so the walk checks an unknown id is 404.
	"GET /v1/sca/intel/advisories/{id}": func(*testing.T, *server.Server, *sentinel.Organization) map[string]string {
		return map[string]string{"id": "GHSA-0000-0000-0000"}
	},
	"GET /v1/findings/{id}":          findingFixture,
	"PATCH /v1/findings/{id}":        findingFixture,
	"GET /v1/findings/{id}/history":  findingFixture,
	"PATCH /v1/users/{id}":           userFixture,
	"POST /v1/users/{id}/setup-link": userFixture,
	"DELETE /v1/api-keys/{id}": func(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
		k, _, err := server.CreateKey(context.Background(), s.DB, org.Slug, "victim", []string{sentinel.ScopeSCARead})
		if err != nil {
			t.Fatal(err)
		}
		return map[string]string{"id": k.ID}
	},
	"GET /v1/webhooks/{id}":                                     webhookFixture,
	"PATCH /v1/webhooks/{id}":                                   webhookFixture,
	"DELETE /v1/webhooks/{id}":                                  webhookFixture,
	"POST /v1/webhooks/{id}/rotate-secret":                      webhookFixture,
	"GET /v1/webhooks/{id}/deliveries":                          webhookFixture,
	"POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver": webhookFixture,
	"POST /v1/webhooks/{id}/test":                               webhookFixture,
	"POST /webhooks/{id}/test":                                  webhookFixture,
	"GET /v1/sbom/submissions/{id}":                             submissionFixture,
	"GET /v1/sbom/submissions/{id}/document":                    submissionFixture,
	"POST /v1/agents/{id}/revoke": func(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
		a := &sentinel.Agent{ID: sentinel.NewID("agt_"), OrgID: org.ID, Host: "victim", Serial: sentinel.NewID(""), Fingerprint: "00",
			TokenID: "enr_fixture", NotAfter: time.Now().Add(time.Hour)}
		if err := s.DB.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateAgent(context.Background(), a) }); err != nil {
			t.Fatal(err)
		}
		return map[string]string{"id": a.ID}
	},
	"POST /v1/sca/bundles/{id}/revoke": bundleFixture,
	"GET /v1/sca/bundles/{id}/audit":   bundleFixture,
	"GET /v1/scans/{id}":               scanFixture,
	"POST /v1/scans/{id}/cancel":       scanFixture,
	"GET /v1/assets/{id}":              assetFixture,
	"PATCH /v1/assets/{id}":            assetFixture,
	"POST /v1/assets/{id}/verify":      assetFixture,
	"GET /v1/sca/iocs/{id}":            iocFixture,
	"POST /v1/sca/iocs/{id}/dry-run":   iocFixture,
	"POST /v1/sca/iocs/{id}/apply":     iocFixture,
	"POST /v1/sca/iocs/{id}/archive":   iocFixture,
	"GET /v1/secrets/{id}":             secretFixture,
}

// iocFixture defines an indicator in org and returns its id.
func iocFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	i := &sentinel.IOC{ID: sentinel.NewID(sentinel.PrefixIOC), OrgID: org.ID, Ecosystem: "npm", Name: "victim", NameKey: "victim",
		Versions: "*", Reason: "fixture", Severity: "high"}
	if err := s.DB.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateIOC(context.Background(), i) }); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": i.ID}
}

// userFixture creates a portal user in org and returns its id.
func userFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	email := sentinel.NewID("victim-") + "@example.com"
	u, _, err := server.CreateUser(context.Background(), s.DB, org.Slug, email, "", sentinel.RoleAdmin, "https://portal.example")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": u.ID}
}

// assetFixture registers a site asset in org and returns its id.
func assetFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	var a *sentinel.Asset
	err := s.DB.InTx(context.Background(), func(tx *store.Tx) (err error) {
		a, _, err = tx.EnsureSite(context.Background(), org.ID, "https://victim.example", "https://victim.example/", "medium", "off")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": a.ID}
}

// scanFixture stores a queued scan of a site asset in org and returns its
// id.
func scanFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	ids := assetFixture(t, s, org)
	sc := &sentinel.Scan{ID: sentinel.NewID(sentinel.PrefixScan), OrgID: org.ID, AssetID: ids["id"], Target: "https://victim.example/"}
	if err := s.DB.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateScan(context.Background(), sc) }); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": sc.ID}
}

// submissionFixture stores an SBOM submission in org and returns its id.
func submissionFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	sbom := `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[{"type":"library","name":"lodash","version":"4.17.15","purl":"pkg:npm/lodash@4.17.15"}]}`
	res, err := s.Inventory.Ingest(context.Background(), org, "key_fixture", "fixture-host", "", []byte(sbom))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": res.ID}
}

// webhookFixture registers a webhook in org with one delivery (of a test
// event) and returns both ids.
func webhookFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	ctx := context.Background()
	id := sentinel.NewID(sentinel.PrefixWebhook)
	var did string
	err := s.DB.InTx(ctx, func(tx *store.Tx) (err error) {
		w := &sentinel.Webhook{ID: id, OrgID: org.ID, URL: "https://example.com/hook", Events: []string{"*"}, Active: true,
			Secret: s.Box.Seal([]byte("whsec_fixture"), []byte(id))}
		if err := tx.CreateWebhook(ctx, w); err != nil {
			return err
		}
		_, did, err = tx.EmitTestEvent(ctx, org, id, map[string]string{}, time.Hour)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": id, "delivery_id": did}
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
				w := httptest.NewRecorder()
				s.API.ServeHTTP(w, httptest.NewRequest(rt.Method, rt.Path, nil))
				if header(w.Header(), "X-RateLimit-Limit") == nil {
					t.Errorf("public route %s: no X-RateLimit-Limit header", pattern)
				}
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

// findingFixture writes a finding in org and returns its id.
func findingFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	ctx := context.Background()
	f := &sentinel.Finding{OrgID: org.ID, Purl: "pkg:npm/lodash@4.17.15", AdvisoryID: sentinel.NewID("GHSA-"), Category: sentinel.CategoryVulnerableComponent,
		CWE: sentinel.CWEVulnerableDependency, Severity: "high", RiskScore: 75, Band: "high", Status: sentinel.StatusOpen}
	err := s.DB.InTx(ctx, func(tx *store.Tx) error {
		a, _, err := tx.UpsertAsset(ctx, org.ID, "fixture-host", "host")
		if err != nil {
			return err
		}
		f.AssetID, f.FirstSeen, f.LastSeen, f.SLADueAt = a.ID, tx.Now(), tx.Now(), tx.Now()
		return tx.SaveFinding(ctx, f)
	})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": f.ID}
}

// bundleFixture stores an Evidence Bundle of org (not built: the walk only
// needs its id).
func bundleFixture(t *testing.T, s *server.Server, org *sentinel.Organization) map[string]string {
	now := time.Now().UTC().Truncate(time.Second)
	b := &sentinel.Bundle{ID: sentinel.NewID(sentinel.PrefixBundle), OrgID: org.ID, Scope: []string{"audit"}, WindowDays: 1,
		WindowStart: now.Add(-24 * time.Hour), WindowEnd: now, TokenHash: []byte(sentinel.NewID("tok_")),
		PasswordHash: "x", CreatedBy: "t", ExpiresAt: now.Add(time.Hour)}
	if err := s.DB.InTx(context.Background(), func(tx *store.Tx) error { return tx.CreateBundle(context.Background(), b) }); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"id": b.ID}
}
