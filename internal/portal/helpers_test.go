package portal_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/internal/watch"
)

// clock is a settable clock for the server: tests move it to expire
// sessions, locks and links.
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

// env is a running sentineld (SQLite, every listener on 127.0.0.1) with
// the organization "acme".
type env struct {
	s   *server.Server
	org *sentinel.Organization
	clk *clock
}

// mustEnv starts a server; private targets are allowed so that webhooks
// can reach a receiver on loopback.
func mustEnv(tb testing.TB, edit ...func(*server.Config)) *env {
	tb.Helper()
	clk := &clock{}
	s := servertest.Start(tb, append([]func(*server.Config){func(c *server.Config) {
		c.AllowPrivateTargets = true
		c.Now = clk.Now
		c.Workers = 2
	}}, edit...)...)
	org, err := server.CreateOrg(context.Background(), s.DB, "acme", "Acme Widgets")
	if err != nil {
		tb.Fatal(err)
	}
	return &env{s: s, org: org, clk: clk}
}

// base is the portal's address.
func (e *env) base() string { return e.s.APIURL() }

// mustOrg creates another organization.
func (e *env) mustOrg(tb testing.TB, slug string) *sentinel.Organization {
	tb.Helper()
	o, err := server.CreateOrg(context.Background(), e.s.DB, slug, strings.ToUpper(slug))
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

// mustUser creates a user of org with role through the admin command's
// path and sets its password through the set-up page; it returns the
// password.
func (e *env) mustUser(tb testing.TB, org *sentinel.Organization, email, role string) string {
	tb.Helper()
	_, link, err := server.CreateUser(context.Background(), e.s.DB, org.Slug, email, "", role, e.base())
	if err != nil {
		tb.Fatal(err)
	}
	password := "correct horse battery " + role
	b := newBrowser(tb, e)
	if r := b.setup(link, password); r.status != http.StatusSeeOther {
		tb.Fatalf("set-up of %s: %d %s", email, r.status, r.text())
	}
	return password
}

// mustKey creates an API key.
func (e *env) mustKey(tb testing.TB, org *sentinel.Organization, scopes ...string) string {
	tb.Helper()
	_, full, err := server.CreateKey(context.Background(), e.s.DB, org.Slug, "t", scopes)
	if err != nil {
		tb.Fatal(err)
	}
	return full
}

// api calls the API with an API key and decodes the answer into out.
func (e *env) api(tb testing.TB, key, method, path, body string, out any) int {
	tb.Helper()
	req, _ := http.NewRequest(method, e.base()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "ApiKey "+key)
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

// submit ingests an SBOM for host as an agent's submission would, and
// waits until the watch has turned it into findings (or found none).
func (e *env) submit(tb testing.TB, org *sentinel.Organization, host, sbom string) {
	tb.Helper()
	if _, err := e.s.Inventory.Ingest(context.Background(), org, "key_test", host, "", []byte(sbom)); err != nil {
		tb.Fatalf("ingest: %v", err)
	}
	e.s.Jobs.Notify()
	testenv.WaitFor(tb, 30*time.Second, "the submission's reconcile job", func() bool {
		n, _ := e.s.DB.CountJobs(context.Background(), watch.JobReconcile, sentinel.JobAvailable)
		m, _ := e.s.DB.CountJobs(context.Background(), watch.JobReconcile, sentinel.JobRunning)
		return n+m == 0
	})
}

// browser is an HTTP client that keeps the portal's cookies the way a
// browser does on http://127.0.0.1 (Secure cookies included, which Go's
// cookie jar would not send over plain http) and follows no redirect.
type browser struct {
	tb      testing.TB
	e       *env
	cookies map[string]string
	ua      string
	// header is added to every request (Origin, Sec-Fetch-Site, ...).
	header http.Header
	client *http.Client
}

func newBrowser(tb testing.TB, e *env) *browser {
	return &browser{tb: tb, e: e, cookies: map[string]string{}, ua: "portal-test/1.0", header: http.Header{},
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type response struct {
	status int
	header http.Header
	body   string
}

func (r response) text() string {
	if len(r.body) > 2000 {
		return r.body[:2000] + "…"
	}
	return r.body
}

func (b *browser) do(method, target string, form url.Values) response {
	b.tb.Helper()
	if strings.HasPrefix(target, "/") {
		target = b.e.base() + target
	}
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		b.tb.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("User-Agent", b.ua)
	for k, v := range b.header {
		req.Header[k] = v
	}
	for k, v := range b.cookies {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.tb.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if c.MaxAge < 0 || c.Value == "" {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c.Value
		}
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(data)}
}

func (b *browser) get(path string) response { return b.do(http.MethodGet, path, nil) }

var csrfField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// token returns the anti-forgery token of the first form on a page.
func token(tb testing.TB, page string) string {
	tb.Helper()
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		tb.Fatalf("no csrf_token on the page:\n%s", page)
	}
	return html.UnescapeString(m[1])
}

// post submits a form of the page at from (for its token) to action.
func (b *browser) post(from, action string, form url.Values) response {
	b.tb.Helper()
	page := b.get(from)
	if page.status != http.StatusOK {
		b.tb.Fatalf("GET %s: %d %s", from, page.status, page.text())
	}
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf_token", token(b.tb, page.body))
	return b.do(http.MethodPost, action, form)
}

// setup follows a set-up link and sets the password.
func (b *browser) setup(link, password string) response {
	b.tb.Helper()
	page := b.get(link)
	if page.status != http.StatusOK {
		b.tb.Fatalf("set-up page: %d %s", page.status, page.text())
	}
	return b.do(http.MethodPost, link, url.Values{"csrf_token": {token(b.tb, page.body)}, "password": {password}, "confirm": {password}})
}

// login signs in and returns the answer to the sign-in form.
func (b *browser) login(org, email, password string) response {
	b.tb.Helper()
	page := b.get("/login")
	if page.status != http.StatusOK {
		b.tb.Fatalf("sign-in page: %d %s", page.status, page.text())
	}
	return b.do(http.MethodPost, "/login", url.Values{"csrf_token": {token(b.tb, page.body)}, "org": {org}, "email": {email}, "password": {password}})
}

// mustLogin signs in or fails the test.
func (b *browser) mustLogin(org, email, password string) {
	b.tb.Helper()
	if r := b.login(org, email, password); r.status != http.StatusSeeOther || b.cookies["__Host-sentinel_session"] == "" {
		b.tb.Fatalf("sign in as %s: %d %s", email, r.status, r.text())
	}
}

// tomcatSBOM has a known-exploited component (Tomcat 9.0.30: Ghostcat),
// a vulnerable one (lodash 4.17.15) and a clean one.
const tomcatSBOM = `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,
"metadata":{"component":{"type":"application","name":"shop-api","version":"2.3.0"}},
"components":[
{"type":"library","name":"tomcat-embed-core","group":"org.apache.tomcat.embed","version":"9.0.30","purl":"pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30"},
{"type":"library","name":"lodash","version":"4.17.15","purl":"pkg:npm/lodash@4.17.15","scope":"excluded"},
{"type":"library","name":"left-pad","version":"1.3.0","purl":"pkg:npm/left-pad@1.3.0"}]}`
