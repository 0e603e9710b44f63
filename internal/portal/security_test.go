package portal_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/portal"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// signedIn returns a browser signed in as a new user of org with role.
func signedIn(t *testing.T, e *env, org *sentinel.Organization, email, role string) *browser {
	t.Helper()
	pw := e.mustUser(t, org, email, role)
	b := newBrowser(t, e)
	b.mustLogin(org.Slug, email, pw)
	return b
}

func countKeys(t *testing.T, e *env, org *sentinel.Organization) int {
	t.Helper()
	ks, _, err := e.s.DB.ListAPIKeys(context.Background(), org.ID, sentinel.Page{Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	return len(ks)
}

// TestCSRF posts the Create API key form in every way a forged request
// could arrive; only the page's own form, with the session's token and
// from this site, makes a key.
func TestCSRF(t *testing.T) {
	e := mustEnv(t)
	b := signedIn(t, e, e.org, "ana@acme.example", sentinel.RoleAdmin)
	other := signedIn(t, e, e.org, "bo@acme.example", sentinel.RoleAdmin)
	page := b.get("/settings/keys")
	tok := token(t, page.body)
	form := func(tok string) url.Values {
		v := url.Values{"name": {"forged"}, "scopes": {"admin"}}
		if tok != "" {
			v.Set("csrf_token", tok)
		}
		return v
	}
	before := countKeys(t, e, e.org)
	cases := []struct {
		name   string
		tok    string
		header map[string]string
	}{
		{"no_token", "", nil},
		{"wrong_token", "AAAA" + tok[4:], nil},
		{"another_sessions_token", token(t, other.get("/settings/keys").body), nil},
		{"cross_site_origin", tok, map[string]string{"Origin": "https://evil.example"}},
		{"null_origin", tok, map[string]string{"Origin": "null"}},
		{"sec_fetch_cross_site", tok, map[string]string{"Sec-Fetch-Site": "cross-site"}},
		// The share site is another port of the same host: same-site, not
		// same-origin.
		{"sec_fetch_same_site", tok, map[string]string{"Sec-Fetch-Site": "same-site"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b.header = http.Header{}
			for k, v := range tc.header {
				b.header.Set(k, v)
			}
			r := b.do("POST", "/settings/keys", form(tc.tok))
			if r.status != http.StatusForbidden || !strings.Contains(r.body, "did not come from this site") {
				t.Errorf("%d %s", r.status, r.text())
			}
		})
	}
	// Without the session cookie (what a cross-site POST carries under
	// SameSite=Lax) it is no request of the user's at all.
	anon := newBrowser(t, e)
	if r := anon.do("POST", "/settings/keys", form(tok)); r.status != http.StatusUnauthorized {
		t.Errorf("no session: %d", r.status)
	}
	if n := countKeys(t, e, e.org); n != before {
		t.Fatalf("a forged form made a key: %d keys, had %d", n, before)
	}
	// The real form, from this site as a browser sends it.
	b.header = http.Header{"Origin": {e.base()}, "Sec-Fetch-Site": {"same-origin"}}
	if r := b.do("POST", "/settings/keys", form(tok)); r.status != http.StatusCreated || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("the page's own form: %d %v %s", r.status, r.header, r.text())
	}
	// The sign-in form is protected the same way (login CSRF).
	anon.header = http.Header{"Origin": {"https://evil.example"}}
	lp := anon.get("/login")
	r := anon.do("POST", "/login", url.Values{"csrf_token": {token(t, lp.body)}, "org": {"acme"}, "email": {"ana@acme.example"}, "password": {"x"}})
	if r.status != http.StatusForbidden {
		t.Errorf("cross-site sign-in: %d", r.status)
	}
	anon.header = http.Header{}
	delete(anon.cookies, "__Host-sentinel_login")
	r = anon.do("POST", "/login", url.Values{"csrf_token": {token(t, lp.body)}, "org": {"acme"}, "email": {"ana@acme.example"}, "password": {"x"}})
	if r.status != http.StatusForbidden {
		t.Errorf("sign-in without the form's cookie: %d", r.status)
	}
}

// TestSessionFixation plants session cookies before sign-in: neither an
// invented id nor another account's live session survives it.
func TestSessionFixation(t *testing.T) {
	e := mustEnv(t)
	pwA := e.mustUser(t, e.org, "ana@acme.example", sentinel.RoleAdmin)
	pwM := e.mustUser(t, e.org, "mal@acme.example", sentinel.RoleViewer)

	// An invented id is not a session, and sign-in replaces it.
	b := newBrowser(t, e)
	b.cookies["__Host-sentinel_session"] = "attacker-chosen-session-id-0123456789abcdef"
	if r := b.get("/"); r.status != http.StatusSeeOther {
		t.Fatalf("an invented session id is accepted: %d", r.status)
	}
	b.mustLogin("acme", "ana@acme.example", pwA)
	if b.cookies["__Host-sentinel_session"] == "attacker-chosen-session-id-0123456789abcdef" {
		t.Fatal("sign-in kept the planted session id")
	}

	// The attacker's own live session, planted in the victim's browser,
	// ends when the victim signs in; the victim gets a session of their own.
	mal := newBrowser(t, e)
	mal.mustLogin("acme", "mal@acme.example", pwM)
	planted := mal.cookies["__Host-sentinel_session"]
	victim := newBrowser(t, e)
	victim.cookies["__Host-sentinel_session"] = planted
	victim.mustLogin("acme", "ana@acme.example", pwA)
	if victim.cookies["__Host-sentinel_session"] == planted {
		t.Fatal("sign-in kept the planted session")
	}
	if r := mal.get("/"); r.status != http.StatusSeeOther {
		t.Errorf("the planted session still works after the victim signed in: %d", r.status)
	}
	if r := victim.get("/"); r.status != http.StatusOK || !strings.Contains(r.body, "ana@acme.example") {
		t.Errorf("the victim's session: %d", r.status)
	}
}

// TestAnotherOrganization opens, and posts to, every page that takes an
// id with another organization's ids: each is a 404, as in the API.
func TestAnotherOrganization(t *testing.T) {
	e := mustEnv(t)
	beta := e.mustOrg(t, "beta")
	e.submit(t, beta, "beta-host", tomcatSBOM)
	ctx := context.Background()
	ids := map[string]string{}
	key := e.mustKey(t, beta, sentinel.AllScopes...)
	var subs struct{ Data []sentinel.Submission }
	e.api(t, key, "GET", "/v1/sbom/submissions", "", &subs)
	ids["sub"] = subs.Data[0].ID
	var wh struct{ ID string }
	if code := e.api(t, key, "POST", "/v1/webhooks", `{"url":"http://127.0.0.1:9/hook","events":["*"]}`, &wh); code != 201 {
		t.Fatalf("webhook: %d", code)
	}
	ids["wh"] = wh.ID
	var ks struct{ Data []sentinel.APIKey }
	e.api(t, key, "GET", "/v1/api-keys", "", &ks)
	ids["key"] = ks.Data[0].ID
	u, _, err := server.CreateUser(ctx, e.s.DB, "beta", "victim@beta.example", "", sentinel.RoleAdmin, e.base())
	if err != nil {
		t.Fatal(err)
	}
	ids["user"] = u.ID
	err = e.s.DB.InTx(ctx, func(tx *store.Tx) error {
		a, _, err := tx.EnsureSite(ctx, beta.ID, "https://beta.example", "https://beta.example/", "medium", "off")
		if err != nil {
			return err
		}
		ids["asset"] = a.ID
		sc := &sentinel.Scan{ID: sentinel.NewID(sentinel.PrefixScan), OrgID: beta.ID, AssetID: a.ID, Target: a.Target}
		ids["scan"] = sc.ID
		if err := tx.CreateScan(ctx, sc); err != nil {
			return err
		}
		f := &sentinel.Finding{OrgID: beta.ID, AssetID: a.ID, Purl: "pkg:npm/x@1", AdvisoryID: "GHSA-beta", Category: sentinel.CategoryVulnerableComponent,
			Severity: "high", RiskScore: 75, Band: "high", Status: sentinel.StatusOpen, FirstSeen: tx.Now(), LastSeen: tx.Now(), SLADueAt: tx.Now()}
		if err := tx.SaveFinding(ctx, f); err != nil {
			return err
		}
		ids["finding"] = f.ID
		b := &sentinel.Bundle{ID: sentinel.NewID(sentinel.PrefixBundle), OrgID: beta.ID, Scope: []string{"audit"}, WindowDays: 1,
			WindowStart: tx.Now(), WindowEnd: tx.Now(), TokenHash: []byte(sentinel.NewID("tok_")), PasswordHash: "x", CreatedBy: "t",
			ExpiresAt: tx.Now().Add(time.Hour)}
		ids["bundle"] = b.ID
		if err := tx.CreateBundle(ctx, b); err != nil {
			return err
		}
		a2 := &sentinel.Agent{ID: sentinel.NewID("agt_"), OrgID: beta.ID, Host: "victim", Serial: sentinel.NewID(""), Fingerprint: "00",
			TokenID: "enr_x", NotAfter: tx.Now().Add(time.Hour)}
		ids["agent"] = a2.ID
		return tx.CreateAgent(ctx, a2)
	})
	if err != nil {
		t.Fatal(err)
	}

	b := signedIn(t, e, e.org, "ana@acme.example", sentinel.RoleAdmin)
	tok := token(t, b.get("/").body)
	gets := []string{"/findings/" + ids["finding"], "/assets/" + ids["asset"], "/scans/" + ids["scan"], "/webhooks/" + ids["wh"],
		"/bundles/" + ids["bundle"], "/submissions/" + ids["sub"] + "/document"}
	for _, p := range gets {
		if r := b.get(p); r.status != http.StatusNotFound || !strings.Contains(r.body, "not_found") {
			t.Errorf("GET %s: %d %s", p, r.status, r.text())
		}
	}
	posts := map[string]url.Values{
		"/findings/" + ids["finding"]:                    {"action": {"assign"}, "owner": {"mallory"}},
		"/assets/" + ids["asset"] + "/scan":              nil,
		"/scans/" + ids["scan"] + "/cancel":              nil,
		"/webhooks/" + ids["wh"] + "/send-test":          nil,
		"/webhooks/" + ids["wh"] + "/rotate":             nil,
		"/webhooks/" + ids["wh"] + "/active":             {"active": {"false"}},
		"/webhooks/" + ids["wh"] + "/delete":             nil,
		"/bundles/" + ids["bundle"] + "/revoke":          nil,
		"/settings/keys/" + ids["key"] + "/revoke":       nil,
		"/settings/users/" + ids["user"]:                 {"status": {"disabled"}},
		"/settings/users/" + ids["user"] + "/setup-link": nil,
		"/agents/" + ids["agent"] + "/revoke":            nil,
	}
	for p, form := range posts {
		if form == nil {
			form = url.Values{}
		}
		form.Set("csrf_token", tok)
		if r := b.do("POST", p, form); r.status != http.StatusNotFound || !strings.Contains(r.body, "not_found") {
			t.Errorf("POST %s: %d %s", p, r.status, r.text())
		}
	}
	// Nothing of beta's changed, and beta's data shows nowhere.
	if r := b.get("/inventory?name=lodash"); !strings.Contains(r.body, `id="no-match"`) {
		t.Errorf("another organization's inventory shows:\n%s", r.text())
	}
	if r := b.get("/submissions"); strings.Contains(r.body, ids["sub"]) {
		t.Error("another organization's submission is listed")
	}
	var w struct{ Active bool }
	if e.api(t, key, "GET", "/v1/webhooks/"+ids["wh"], "", &w); !w.Active {
		t.Error("another organization's webhook was deactivated")
	}
}

// TestRoles tries each role's forbidden actions: the API's 403 with the
// scope it lacks, and nothing changes.
func TestRoles(t *testing.T) {
	e := mustEnv(t)
	e.submit(t, e.org, "build-7", tomcatSBOM)
	viewer := signedIn(t, e, e.org, "vi@acme.example", sentinel.RoleViewer)
	member := signedIn(t, e, e.org, "me@acme.example", sentinel.RoleMember)
	ctx := context.Background()
	err := e.s.DB.InTx(ctx, func(tx *store.Tx) error {
		a, _, err := tx.UpsertAsset(ctx, e.org.ID, "build-7", "host")
		if err != nil {
			return err
		}
		return tx.SaveFinding(ctx, &sentinel.Finding{OrgID: e.org.ID, AssetID: a.ID, Purl: "pkg:npm/x@1", AdvisoryID: "GHSA-role",
			Category: sentinel.CategoryVulnerableComponent, Severity: "high", RiskScore: 75, Band: "high", Status: sentinel.StatusOpen,
			FirstSeen: tx.Now(), LastSeen: tx.Now(), SLADueAt: tx.Now()})
	})
	if err != nil {
		t.Fatal(err)
	}
	fs, _, _ := e.s.DB.FindFindings(ctx, sentinel.FindingFilter{OrgID: e.org.ID, Advisory: "GHSA-role"})
	fid := fs[0].ID
	tok := func(b *browser) string { return token(t, b.get("/").body) }

	cases := []struct {
		who   string
		b     *browser
		path  string
		form  url.Values
		scope string
	}{
		{"viewer", viewer, "/settings/keys", url.Values{"scopes": {"admin"}}, "admin"},
		{"viewer", viewer, "/settings/users", url.Values{"email": {"x@acme.example"}, "role": {"admin"}}, "admin"},
		{"viewer", viewer, "/agents/tokens", nil, "admin"},
		{"viewer", viewer, "/bundles", url.Values{"window_days": {"30"}}, "evidence.share"},
		{"viewer", viewer, "/webhooks", url.Values{"url": {"https://x.example"}, "events": {"*"}}, "webhooks:write"},
		{"viewer", viewer, "/findings/" + fid, url.Values{"action": {"assign"}, "owner": {"me"}}, "findings:write"},
		{"viewer", viewer, "/scans/start", url.Values{"target": {"https://x.example"}}, "scans:write"},
		{"member", member, "/settings/keys", url.Values{"scopes": {"admin"}}, "admin"},
		{"member", member, "/settings/organization", url.Values{"name": {"x"}, "catalog": {"pci-dss-4"}, "share_days": {"3"}}, "admin"},
		{"member", member, "/bundles", url.Values{"window_days": {"30"}}, "evidence.share"},
	}
	for _, tc := range cases {
		t.Run(tc.who+tc.path, func(t *testing.T) {
			form := tc.form
			if form == nil {
				form = url.Values{}
			}
			form.Set("csrf_token", tok(tc.b))
			r := tc.b.do("POST", tc.path, form)
			if r.status != http.StatusForbidden || !strings.Contains(r.body, "your role lacks the scope "+tc.scope) {
				t.Errorf("%d %s", r.status, r.text())
			}
		})
	}
	// Reads of admin pages are refused too.
	for _, p := range []string{"/settings/keys", "/settings/users", "/settings/organization", "/agents"} {
		if r := member.get(p); r.status != http.StatusForbidden {
			t.Errorf("member GET %s: %d", p, r.status)
		}
	}
	if r := viewer.get("/webhooks"); r.status != http.StatusForbidden {
		t.Errorf("viewer GET /webhooks: %d", r.status)
	}
	if n := countKeys(t, e, e.org); n != 0 {
		t.Errorf("%d keys made", n)
	}
	// What the member may do, the member can.
	if r := member.post("/findings/"+fid, "/findings/"+fid, url.Values{"action": {"assign"}, "owner": {"team-payments"}}); r.status != http.StatusSeeOther {
		t.Errorf("member assigns: %d %s", r.status, r.text())
	}
}

// TestLockout: five wrong passwords lock the account (whoever then knows
// the password), twenty failures lock the address, both for 15 minutes;
// every attempt is in the audit log.
func TestLockout(t *testing.T) {
	e := mustEnv(t)
	pw := e.mustUser(t, e.org, "ana@acme.example", sentinel.RoleAdmin)
	b := newBrowser(t, e)
	for i := 1; i <= portal.DefaultAccountFailures; i++ {
		if r := b.login("acme", "ana@acme.example", "wrong password "+string(rune('a'+i))); r.status != http.StatusUnauthorized ||
			!strings.Contains(r.body, "The organization, email address or password is not right.") {
			t.Fatalf("failure %d: %d %s", i, r.status, r.text())
		}
	}
	r := b.login("acme", "ana@acme.example", pw)
	if r.status != http.StatusTooManyRequests || !strings.Contains(r.body, "Too many failed sign-ins") || r.header.Get("Retry-After") == "" {
		t.Fatalf("right password on a locked account: %d %s", r.status, r.text())
	}
	// An account that does not exist locks the same way and answers the
	// same words: the answer tells nothing about who has an account.
	for i := 0; i < portal.DefaultAccountFailures; i++ {
		if r := b.login("acme", "nobody@acme.example", "whatever it is"); r.status != http.StatusUnauthorized ||
			!strings.Contains(r.body, "The organization, email address or password is not right.") {
			t.Fatalf("unknown account: %d", r.status)
		}
	}
	if r := b.login("acme", "nobody@acme.example", "whatever it is"); r.status != http.StatusTooManyRequests {
		t.Errorf("unknown account not locked: %d", r.status)
	}

	e.clk.Advance(16 * time.Minute)
	b.mustLogin("acme", "ana@acme.example", pw)

	// One address failing on many accounts is locked as a whole.
	c := newBrowser(t, e)
	for i := 0; i < portal.DefaultAddressFailures; i++ {
		c.login("acme", "user"+string(rune('a'+i))+"@acme.example", "wrong wrong wrong")
	}
	if r := c.login("acme", "ana@acme.example", pw); r.status != http.StatusTooManyRequests {
		t.Errorf("the address is not locked after %d failures: %d", portal.DefaultAddressFailures, r.status)
	}

	key := e.mustKey(t, e.org, sentinel.ScopeAuditLogsRead)
	var log struct{ Data []sentinel.AuditEntry }
	e.api(t, key, "GET", "/v1/audit-logs?action=user.sign_in_failed&limit=500", "", &log)
	reasons := map[string]int{}
	for _, a := range log.Data {
		reasons[a.Details["reason"].(string)]++
		if a.Addr != "127.0.0.1" || a.Details["user_agent"] != "portal-test/1.0" {
			t.Errorf("audit entry without address or user agent: %+v", a)
		}
	}
	if reasons["wrong_password"] < 5 || reasons["locked"] < 2 || reasons["unknown_user"] < 5 {
		t.Errorf("failed sign-ins in the audit log: %v", reasons)
	}
	e.api(t, key, "GET", "/v1/audit-logs?action=user.sign_in", "", &log)
	if len(log.Data) != 1 {
		t.Errorf("%d successful sign-ins logged, want 1", len(log.Data))
	}
}

// TestExpiry: idle and absolute session expiry, set-up link expiry.
func TestExpiry(t *testing.T) {
	e := mustEnv(t)
	pw := e.mustUser(t, e.org, "ana@acme.example", sentinel.RoleAdmin)
	b := newBrowser(t, e)
	b.mustLogin("acme", "ana@acme.example", pw)
	e.clk.Advance(29 * time.Minute)
	if r := b.get("/"); r.status != http.StatusOK {
		t.Fatalf("after 29 idle minutes: %d", r.status)
	}
	e.clk.Advance(31 * time.Minute)
	if r := b.get("/"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), "/login") {
		t.Fatalf("after 31 idle minutes: %d", r.status)
	}
	// Active all along, the session still ends 12 hours after sign-in.
	b.mustLogin("acme", "ana@acme.example", pw)
	for range 24 { // 11 h 36 min
		e.clk.Advance(29 * time.Minute)
		if r := b.get("/"); r.status != http.StatusOK {
			t.Fatalf("an active session ended early: %d", r.status)
		}
	}
	e.clk.Advance(29 * time.Minute) // 12 h 5 min after sign-in
	if r := b.get("/"); r.status != http.StatusSeeOther {
		t.Errorf("a session older than 12 hours: %d", r.status)
	}
	// A set-up link lasts 24 hours.
	_, link, err := server.CreateUser(context.Background(), e.s.DB, "acme", "late@acme.example", "", sentinel.RoleViewer, e.base())
	if err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(25 * time.Hour)
	if r := newBrowser(t, e).get(link); r.status != http.StatusNotFound {
		t.Errorf("a 25-hour-old set-up link: %d", r.status)
	}
}

// TestOpenRedirect: the sign-in page's return address stays on the site.
func TestOpenRedirect(t *testing.T) {
	e := mustEnv(t)
	pw := e.mustUser(t, e.org, "ana@acme.example", sentinel.RoleAdmin)
	for _, next := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"} {
		b := newBrowser(t, e)
		page := b.get("/login?next=" + url.QueryEscape(next))
		r := b.do("POST", "/login", url.Values{"csrf_token": {token(t, page.body)}, "org": {"acme"}, "email": {"ana@acme.example"},
			"password": {pw}, "next": {next}})
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "/" {
			t.Errorf("next=%q: %d to %q", next, r.status, r.header.Get("Location"))
		}
	}
}

// TestAPIStillAnswers: the portal owns its pages, not the API's paths: an
// unknown API path is still the API's JSON 404.
func TestAPIStillAnswers(t *testing.T) {
	e := mustEnv(t)
	b := newBrowser(t, e)
	for _, p := range []string{"/v1/nothing", "/api/v1/nothing", "/nothing"} {
		r := b.get(p)
		if r.status != http.StatusNotFound || !strings.Contains(r.body, `"error":"not_found"`) || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Errorf("GET %s: %d %s", p, r.status, r.text())
		}
	}
	if r := b.get("/healthz"); r.status != http.StatusOK || !strings.Contains(r.body, `"ok"`) {
		t.Errorf("/healthz: %d", r.status)
	}
	if r := b.do("POST", "/webhooks/wh_x/test", nil); r.status != http.StatusUnauthorized || !strings.Contains(r.body, "unauthenticated") {
		t.Errorf("the specification's POST /webhooks/{id}/test is the API's: %d %s", r.status, r.text())
	}
	if r := b.get("/static/portal.css"); r.status != http.StatusOK || !strings.Contains(r.header.Get("Content-Type"), "text/css") {
		t.Errorf("stylesheet: %d %v", r.status, r.header)
	}
}
