package portal_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// TestEveryPage signs in as an admin and opens every page: each answers
// 200 with the layout, and lists and forms render with real data.
func TestEveryPage(t *testing.T) {
	e := mustEnv(t)
	servertest.SyncIntel(t, e.s)
	e.submit(t, e.org, "build-7", tomcatSBOM)
	pw := e.mustUser(t, e.org, "ana@acme.example", sentinel.RoleAdmin)
	b := newBrowser(t, e)
	b.mustLogin("acme", "ana@acme.example", pw)

	var fs struct{ Data []sentinel.Finding }
	key := e.mustKey(t, e.org, sentinel.AllScopes...)
	e.api(t, key, "GET", "/v1/findings?kev=true", "", &fs)
	if len(fs.Data) == 0 {
		t.Fatal("no known-exploited finding from the SBOM")
	}
	var subs struct{ Data []sentinel.Submission }
	e.api(t, key, "GET", "/v1/sbom/submissions", "", &subs)
	var as struct{ Data []sentinel.Asset }
	e.api(t, key, "GET", "/v1/assets", "", &as)

	pages := map[string]string{
		"/":                      "Known-exploited, open",
		"/inventory":             "Component name",
		"/inventory?name=lodash": "pkg:npm/lodash@4.17.15",
		"/inventory/component?name=org.apache.tomcat.embed:tomcat-embed-core&version=9.0.30": "GHSA-c9hw-wf7x-jp9j",
		"/findings":                        fs.Data[0].AdvisoryID,
		"/findings?band=critical&kev=true": "GHSA-c9hw-wf7x-jp9j",
		"/findings/" + fs.Data[0].ID:       "Accept the risk",
		"/assets":                          "build-7",
		"/assets/" + as.Data[0].ID:         "tomcat-embed-core",
		"/scans":                           "Start the scan",
		"/submissions":                     subs.Data[0].ID,
		"/submissions?host=build-7":        subs.Data[0].ID,
		"/agents":                          "Create an enrollment token",
		"/webhooks":                        "Register a webhook",
		"/bundles":                         "Issue a bundle",
		"/settings/keys":                   "Create an API key",
		"/settings/organization":           "Compliance catalog",
		"/settings/users":                  "ana@acme.example",
	}
	for path, want := range pages {
		r := b.get(path)
		if r.status != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, r.status, r.text())
			continue
		}
		if !strings.Contains(r.body, want) {
			t.Errorf("GET %s: page lacks %q:\n%s", path, want, r.text())
		}
		if !strings.Contains(r.body, `id="sign-out"`) || r.header.Get("Cache-Control") != "no-store" ||
			!strings.Contains(r.header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("GET %s: layout or headers missing: %v", path, r.header)
		}
	}
	// lodash is there for development only: the inventory's hosts and the
	// findings list say so, and the list filters on it.
	if r := b.get("/inventory?name=lodash"); !strings.Contains(r.body, `build-7</a> <span class="dev"`) {
		t.Errorf("the inventory does not mark build-7's lodash as development-only:\n%s", r.text())
	}
	if r := b.get("/inventory?name=org.apache.tomcat.embed:tomcat-embed-core"); !strings.Contains(r.body, `build-7</a></td>`) {
		t.Errorf("the inventory marks build-7's Tomcat as development-only:\n%s", r.text())
	}
	if r := b.get("/findings?development=true"); !strings.Contains(r.body, `pkg:npm/lodash@4.17.15 <span class="dev"`) ||
		strings.Contains(r.body, "tomcat-embed-core") {
		t.Errorf("development-only findings:\n%s", r.text())
	}
	if r := b.get("/findings?development=false"); strings.Contains(r.body, "lodash") || !strings.Contains(r.body, "tomcat-embed-core") {
		t.Errorf("deployed findings:\n%s", r.text())
	}
	// The overview says how fresh the intel is.
	if r := b.get("/"); !strings.Contains(r.body, "Last successful sync") || !strings.Contains(r.body, "2025.06.10") || strings.Contains(r.body, "stale") {
		t.Errorf("intel freshness on the overview:\n%s", r.text())
	}
	// The original SBOM downloads byte for byte.
	doc := b.get("/submissions/" + subs.Data[0].ID + "/document")
	if doc.status != 200 || doc.body != tomcatSBOM || !strings.Contains(doc.header.Get("Content-Disposition"), subs.Data[0].ID) {
		t.Errorf("download: %d %v %q", doc.status, doc.header, doc.text())
	}
}

// TestSignInFlow follows a new user from the set-up link to the pages,
// and the API routes for users that Settings → Users uses.
func TestSignInFlow(t *testing.T) {
	e := mustEnv(t)
	b := newBrowser(t, e)
	// Unsigned, a page sends to the sign-in page and back.
	r := b.get("/findings?band=high")
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/login?next="+url.QueryEscape("/findings?band=high") {
		t.Fatalf("unsigned page: %d %v", r.status, r.header)
	}
	pw := e.mustUser(t, e.org, "Ana@Acme.example", sentinel.RoleMember)
	page := b.get("/login?next=" + url.QueryEscape("/findings?band=high"))
	r = b.do("POST", "/login", url.Values{"csrf_token": {token(t, page.body)}, "org": {"acme"}, "email": {"ana@acme.example"},
		"password": {pw}, "next": {"/findings?band=high"}})
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/findings?band=high" {
		t.Fatalf("sign in: %d %v %s", r.status, r.header, r.text())
	}
	c := cookie(r, "__Host-sentinel_session")
	if c == nil || !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Domain != "" {
		t.Errorf("session cookie %+v", c)
	}
	if r := b.get("/findings?band=high"); r.status != 200 || !strings.Contains(r.body, "ana@acme.example") {
		t.Errorf("after sign-in: %d", r.status)
	}
	// A member reads but does not see admin pages in the menu.
	home := b.get("/")
	if strings.Contains(home.body, `href="/settings/keys"`) || !strings.Contains(home.body, `href="/webhooks"`) {
		t.Errorf("member's menu:\n%s", home.text())
	}
	// Sign out ends the session for good.
	old := b.cookies["__Host-sentinel_session"]
	if r := b.post("/", "/logout", nil); r.status != http.StatusSeeOther || r.header.Get("Location") != "/login?done=signed_out" {
		t.Errorf("sign out: %d %v", r.status, r.header)
	}
	b.cookies["__Host-sentinel_session"] = old
	if r := b.get("/"); r.status != http.StatusSeeOther {
		t.Errorf("the signed-out session still works: %d", r.status)
	}
	// The audit log has both sign-ins' story.
	key := e.mustKey(t, e.org, sentinel.ScopeAuditLogsRead)
	var log struct{ Data []sentinel.AuditEntry }
	e.api(t, key, "GET", "/v1/audit-logs", "", &log)
	var actions []string
	for _, a := range log.Data {
		actions = append(actions, a.Action)
		if a.Action == "user.sign_in" && (a.Addr != "127.0.0.1" || a.Details["user_agent"] != "portal-test/1.0" || a.Details["email"] != "ana@acme.example") {
			t.Errorf("sign-in audit entry %+v", a)
		}
	}
	if got := strings.Join(actions, " "); !strings.Contains(got, "user.create user.password_set user.sign_in user.sign_out") {
		t.Errorf("audit actions %q", got)
	}
}

// TestUsersAPI drives /v1/users as an API client: create (a set-up link
// once), list, role change, the last admin, disable (sessions end).
func TestUsersAPI(t *testing.T) {
	e := mustEnv(t)
	key := e.mustKey(t, e.org, sentinel.ScopeAdmin)
	var created struct {
		sentinel.User
		SetupURL string `json:"setup_url"`
	}
	if code := e.api(t, key, "POST", "/v1/users", `{"email":"Bo@Acme.example","role":"admin","name":"Bo"}`, &created); code != 201 ||
		!strings.HasPrefix(created.SetupURL, e.base()+"/setup/") || created.Email != "bo@acme.example" || created.SetupExpiresAt == nil {
		t.Fatalf("create: %d %+v", code, created)
	}
	var bad struct{ Error, Field string }
	if code := e.api(t, key, "POST", "/v1/users", `{"email":"bo@acme.example","role":"admin"}`, &bad); code != 400 || bad.Field != "email" {
		t.Errorf("duplicate email: %d %+v", code, bad)
	}
	if code := e.api(t, key, "POST", "/v1/users", `{"email":"x@acme.example","role":"owner"}`, &bad); code != 400 || bad.Field != "role" {
		t.Errorf("bad role: %d %+v", code, bad)
	}
	b := newBrowser(t, e)
	if r := b.setup(created.SetupURL, "a long enough passphrase"); r.status != http.StatusSeeOther {
		t.Fatalf("set-up: %d %s", r.status, r.text())
	}
	// The link worked once.
	if r := b.get(created.SetupURL); r.status != http.StatusNotFound {
		t.Errorf("used set-up link: %d", r.status)
	}
	b.mustLogin("acme", "bo@acme.example", "a long enough passphrase")
	// Bo is the only admin: not demoted, not disabled.
	if code := e.api(t, key, "PATCH", "/v1/users/"+created.ID, `{"role":"viewer"}`, &bad); code != 409 {
		t.Errorf("demote the last admin: %d %+v", code, bad)
	}
	var u sentinel.User
	if code := e.api(t, key, "PATCH", "/v1/users/"+created.ID, `{"status":"disabled"}`, &bad); code != 409 {
		t.Errorf("disable the last admin: %d", code)
	}
	e.mustUser(t, e.org, "cy@acme.example", sentinel.RoleAdmin)
	if code := e.api(t, key, "PATCH", "/v1/users/"+created.ID, `{"status":"disabled"}`, &u); code != 200 || u.Status != "disabled" {
		t.Errorf("disable: %d %+v", code, u)
	}
	if r := b.get("/"); r.status != http.StatusSeeOther {
		t.Errorf("a disabled user's session still works: %d", r.status)
	}
	if r := b.login("acme", "bo@acme.example", "a long enough passphrase"); r.status != http.StatusUnauthorized {
		t.Errorf("a disabled user signs in: %d", r.status)
	}
	var list struct{ Data []sentinel.User }
	if code := e.api(t, key, "GET", "/v1/users", "", &list); code != 200 || len(list.Data) != 2 {
		t.Errorf("list: %d %d", code, len(list.Data))
	}
	var link struct {
		SetupURL string `json:"setup_url"`
	}
	if code := e.api(t, key, "POST", "/v1/users/"+created.ID+"/setup-link", "", &link); code != 200 || link.SetupURL == created.SetupURL {
		t.Errorf("new set-up link: %d %+v", code, link)
	}
	for _, raw := range []string{"password_hash", "setup_hash", "SetupHash"} {
		var m map[string]any
		e.api(t, key, "GET", "/v1/users/", "", nil)
		e.api(t, key, "PATCH", "/v1/users/"+created.ID, `{"name":"Bo B."}`, &m)
		if _, ok := m[raw]; ok {
			t.Errorf("the API shows %s", raw)
		}
	}
	_ = context.Background()
}

// TestCreateUserAdminPage covers Settings → Users in the portal: the
// set-up link is shown once, and the admin can change a role.
func TestCreateUserAdminPage(t *testing.T) {
	e := mustEnv(t)
	pw := e.mustUser(t, e.org, "ana@acme.example", sentinel.RoleAdmin)
	b := newBrowser(t, e)
	b.mustLogin("acme", "ana@acme.example", pw)
	r := b.post("/settings/users", "/settings/users", url.Values{"email": {"new@acme.example"}, "role": {"viewer"}})
	if r.status != http.StatusCreated || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("add a user: %d %s", r.status, r.text())
	}
	m := regexp.MustCompile(`id="setup-url" class="mono" readonly value="([^"]+)"`).FindStringSubmatch(r.body)
	if m == nil || !strings.Contains(m[1], "/setup/") {
		t.Fatalf("no set-up link on the page:\n%s", r.text())
	}
	nb := newBrowser(t, e)
	if r := nb.setup(m[1], "short"); r.status != http.StatusBadRequest || !strings.Contains(r.body, "at least 12 characters") {
		t.Errorf("short password: %d %s", r.status, r.text())
	}
	if r := nb.setup(m[1], "viewer passphrase ok"); r.status != http.StatusSeeOther {
		t.Fatalf("set-up: %d %s", r.status, r.text())
	}
	nb.mustLogin("acme", "new@acme.example", "viewer passphrase ok")
	if r := nb.get("/settings/users"); r.status != http.StatusForbidden {
		t.Errorf("a viewer opens Settings → Users: %d", r.status)
	}
}

func cookie(r response, name string) *http.Cookie {
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// TestInventoryCoverage: the inventory page says which ecosystems the
// service has no advisories for, and how many components that leaves
// unchecked (a RHEL host's packages, with the default intel).
func TestInventoryCoverage(t *testing.T) {
	e := mustEnv(t)
	servertest.SyncIntel(t, e.s)
	e.submit(t, e.org, "rhel-1", `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[
		{"type":"library","bom-ref":"a","name":"lodash","version":"4.17.15","purl":"pkg:npm/lodash@4.17.15"},
		{"type":"library","bom-ref":"b","name":"bash","version":"5.1.8-9.el9","purl":"pkg:rpm/redhat/bash@5.1.8-9.el9?arch=x86_64&distro=rhel-9.4"}]}`)
	pw := e.mustUser(t, e.org, "vi@acme.example", sentinel.RoleViewer)
	b := newBrowser(t, e)
	b.mustLogin("acme", "vi@acme.example", pw)
	r := b.get("/inventory")
	row := func(eco, checked string) *regexp.Regexp {
		return regexp.MustCompile(`>` + eco + `</td>\s*<td data-label="Components">1</td><td data-label="Hosts">1</td><td data-label="Checked against advisories">` + checked + `</td>`)
	}
	if r.status != http.StatusOK || !strings.Contains(r.body, "1 of 2 components are never checked") ||
		!row("Red Hat", "<strong>no</strong>").MatchString(r.body) || !row("npm", "yes").MatchString(r.body) {
		t.Errorf("GET /inventory: %d\n%s", r.status, r.body)
	}
}
