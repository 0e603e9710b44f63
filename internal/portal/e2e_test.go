package portal_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/webhook"
)

// screenshotDir is where the browser test writes its screenshots:
// $SENTINEL_PORTAL_SCREENSHOTS when set, else a temporary directory.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("SENTINEL_PORTAL_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// chromium starts headless Chromium for the test, with no extensions,
// sync or background traffic, and a fresh profile.
func chromium(t *testing.T) context.Context {
	bin := testenv.Chromium(t)
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:0:0],
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true), // tests run as root in CI containers
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// TestBrowser drives the portal in real headless Chromium the way an
// operator does, with the browser's own cookie, form and redirect
// handling and no JavaScript of ours: set a password from the set-up
// link and sign in; create an API key and use it against the API, revoke
// it and see 401; filter findings and accept a risk; issue an Evidence
// Bundle and open its share link with its password in the same browser;
// register a webhook to a receiver on loopback and see a delivery; a
// cross-site form post is refused. Every page is photographed, on a
// laptop and on a phone.
func TestBrowser(t *testing.T) {
	ctx := chromium(t)
	shots := screenshotDir(t)
	e := mustEnv(t)
	servertest.SyncIntel(t, e.s)
	e.submit(t, e.org, "build-7", tomcatSBOM)
	e.submit(t, e.org, "web-1", webSBOM)
	admin := e.mustKey(t, e.org, sentinel.AllScopes...)
	var kevs struct{ Data []sentinel.Finding }
	e.api(t, admin, "GET", "/v1/findings?kev=true&sort=risk", "", &kevs)
	if len(kevs.Data) == 0 {
		t.Fatal("no known-exploited finding to show")
	}
	ghostcat := ""
	for _, f := range kevs.Data {
		if f.AdvisoryID == "GHSA-c9hw-wf7x-jp9j" {
			ghostcat = f.ID
		}
	}

	start := time.Now()
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		t0 := time.Now()
		defer func() {
			t.Logf("%6.1fs %-28s %v", time.Since(start).Seconds(), what, time.Since(t0).Round(time.Millisecond))
		}()
		if err := chromedp.Do(ctx, steps...); err != nil {
			loc, _ := chromedp.Run(ctx, chromedp.Location())
			body, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
			t.Fatalf("%s: %v (at %s)\n%s", what, err, loc, body)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	value := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("value of %s: %v", sel, err)
		}
		return s
	}
	n := 0
	shot := func(name string) {
		t.Helper()
		n++
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%02d-%s.png", n, name)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// a11y lists what a screen reader could not name on the page: form
	// controls without a label, images without alternative text, buttons
	// and links without text, a page without a title or a main landmark.
	a11y := func(where string) {
		t.Helper()
		problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const out = [];
			for (const el of document.querySelectorAll('input, select, textarea')) {
				if (el.type === 'hidden' || el.hidden) continue;
				const named = (el.id && document.querySelector('label[for="' + el.id + '"]')) || el.closest('label') ||
					el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
				if (!named) out.push('unlabelled ' + el.tagName.toLowerCase() + ' ' + (el.name || el.id));
			}
			for (const el of document.querySelectorAll('img:not([alt])')) out.push('image without alt ' + el.src);
			for (const el of document.querySelectorAll('a, button')) {
				if (!el.textContent.trim() && !el.getAttribute('aria-label')) out.push('nameless ' + el.tagName.toLowerCase());
			}
			if (!document.title.trim()) out.push('no title');
			if (!document.querySelector('main')) out.push('no main landmark');
			if (document.documentElement.lang !== 'en') out.push('no lang');
			return out;
		})()`))
		if err != nil {
			t.Fatalf("accessibility check on %s: %v", where, err)
		}
		for _, p := range problems {
			t.Errorf("%s: %s", where, p)
		}
	}
	// submit clicks what sends a form and waits for the page that answers
	// it: the old document is marked, so that a wait cannot be satisfied
	// by the page being left.
	submit := func(what, click, waitFor string, before ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		do(what, append(before, chromedp.Evaluate[chromedp.Void](`window.__leaving = true`), chromedp.Click(chromedp.CSS(click)))...)
		deadline := time.Now().Add(30 * time.Second)
		for {
			// Evaluating fails while the document is replaced; that is
			// expected, the loop asks again.
			arrived, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__leaving === undefined && document.readyState === "complete"`))
			if err == nil && arrived {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no new page after 30 s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
		do(what+" (page)", chromedp.WaitVisible(chromedp.CSS(waitFor)))
		a11y(what)
	}
	open := func(path, waitFor string) {
		t.Helper()
		do("open "+path, chromedp.Navigate(e.base()+path), chromedp.WaitVisible(chromedp.CSS(waitFor)))
		a11y(path)
	}

	// Set the password from the set-up link; the sign-in page comes next,
	// with the organization and email filled in.
	_, link, err := server.CreateUser(context.Background(), e.s.DB, "acme", "ana@acme.example", "Ana Lima", sentinel.RoleAdmin, e.base())
	if err != nil {
		t.Fatal(err)
	}
	const password = "four words make a passphrase"
	do("set-up page", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.ID("password")))
	shot("setup")
	submit("set the password", "#set-password", "#sign-in",
		chromedp.SendKeys(chromedp.ID("password"), password),
		chromedp.SendKeys(chromedp.ID("confirm"), password))
	if org, email := value("#org"), value("#email"); org != "acme" || email != "ana@acme.example" {
		t.Errorf("sign-in form after set-up: %q %q", org, email)
	}
	if !strings.Contains(text("#flash"), "Your password is set") {
		t.Errorf("no confirmation after set-up")
	}
	shot("login")
	submit("sign in", "#sign-in", "#kev", chromedp.SendKeys(chromedp.ID("password"), password))
	if got := text("#kev-count"); got == "0" {
		t.Errorf("overview shows no known-exploited finding")
	}
	if !strings.Contains(text("#kev"), "GHSA-c9hw-wf7x-jp9j") {
		t.Errorf("overview does not list Ghostcat first:\n%s", text("#kev"))
	}
	shot("overview")

	// Settings → API Keys: create a key, use it, revoke it.
	open("/settings/keys", "#key-form")
	submit("create a key", "#create-key", "#api-key",
		chromedp.SendKeys(chromedp.ID("key-name"), "ci"),
		chromedp.Click(chromedp.CSS(`input[name="scopes"][value="findings:read"]`)))
	key := value("#api-key")
	shot("settings-keys-created")
	// The "curl" step: the key works against the API at once.
	var fs struct{ Data []sentinel.Finding }
	if code := e.api(t, key, "GET", "/v1/findings", "", &fs); code != http.StatusOK || len(fs.Data) == 0 {
		t.Fatalf("GET /v1/findings with the new key: %d", code)
	}
	if code := e.api(t, key, "GET", "/v1/api-keys", "", nil); code != http.StatusForbidden {
		t.Errorf("the key holds a scope it was not given: %d", code)
	}
	open("/settings/keys", "#keys")
	// The key's id is in its text: sntl_<id>_<secret> is key_<id>.
	keyID := "key_" + strings.Split(strings.TrimPrefix(key, "sntl_"), "_")[0]
	submit("revoke the key", "#revoke-"+keyID, "#flash")
	if !strings.Contains(text("#keys"), "revoked") {
		t.Errorf("the list does not show the key revoked:\n%s", text("#keys"))
	}
	shot("settings-keys-revoked")
	if code := e.api(t, key, "GET", "/v1/findings", "", nil); code != http.StatusUnauthorized {
		t.Errorf("GET /v1/findings with the revoked key: %d, want 401", code)
	}

	// Findings: filter, open, accept the risk.
	open("/findings", "#filter")
	submit("filter", "#filter", "#findings", chromedp.SetValue(chromedp.ID("f-band"), "critical"), chromedp.SetValue(chromedp.ID("f-kev"), "true"))
	listed := text("#findings")
	if !strings.Contains(listed, "GHSA-c9hw-wf7x-jp9j") || strings.Contains(listed, "pkg:npm/lodash") {
		t.Errorf("critical known-exploited findings:\n%s", listed)
	}
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); !strings.Contains(loc, "band=critical") || !strings.Contains(loc, "kev=true") {
		t.Errorf("the filter is not in the address: %s", loc)
	}
	shot("findings-filtered")
	open("/findings/"+ghostcat, "#facts")
	until := time.Now().UTC().Add(30 * 24 * time.Hour).Format(time.DateOnly)
	submit("accept the risk", "#accept", "#flash",
		chromedp.Click(chromedp.CSS(`#actions details summary`)),
		chromedp.SendKeys(chromedp.ID("accept-reason"), "AJP connector disabled on every host; upgrade planned in sprint 42"),
		chromedp.SetValue(chromedp.ID("accept-until"), until))
	if st := text("#status"); !strings.Contains(st, "accepted") || !strings.Contains(st, "AJP connector") {
		t.Errorf("status after accepting: %q", st)
	}
	if !strings.Contains(text("#history"), "finding.status") {
		t.Errorf("history lacks the change:\n%s", text("#history"))
	}
	shot("finding-accepted")
	var f sentinel.Finding
	e.api(t, admin, "GET", "/v1/findings/"+ghostcat, "", &f)
	if f.Status != sentinel.StatusAccepted || f.AcceptedUntil == nil || f.AcceptedUntil.Format(time.DateOnly) != until {
		t.Errorf("the API's finding: %s until %v", f.Status, f.AcceptedUntil)
	}

	// Evidence Bundles: issue, and open the share in the same browser.
	open("/bundles", "#bundle-form")
	submit("issue a bundle", "#issue-bundle", "#issued", chromedp.SendKeys(chromedp.ID("b-desc"), "Q4 audit for Globex"))
	shareURL, sharePW := value("#share-url"), value("#share-password")
	if !strings.HasPrefix(shareURL, e.s.ShareURL()+"/s/") || len(sharePW) < 20 {
		t.Fatalf("issued: %q %q", shareURL, sharePW)
	}
	shot("bundle-issued")
	do("open the share", chromedp.Navigate(shareURL), chromedp.WaitVisible(chromedp.ID("password")))
	submit("unlock the share", "#unlock", "#bundle-id", chromedp.SendKeys(chromedp.ID("password"), sharePW))
	// The page reloads itself while the bundle builds.
	do("the built bundle", chromedp.WaitVisible(chromedp.ID("artifacts")))
	if !strings.Contains(text("#bundle-id"), "bundle_") {
		t.Errorf("share page: %s", text("body"))
	}
	shot("share-site")
	open("/bundles", "#bundles")
	submit("bundle page", "#bundles a", "#access-log")
	if log := text("#access-log"); !strings.Contains(log, "password_accepted") || !strings.Contains(log, "HeadlessChrome") {
		t.Errorf("the portal's access log:\n%s", log)
	}
	shot("bundle-access-log")

	// Webhooks: register one to a receiver on loopback, send a test, see
	// the delivery.
	var mu sync.Mutex
	var secret string
	var received []string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if err := webhook.Verify(secret, r.Header.Get("Service-Signature"), body, 5*time.Minute); err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		received = append(received, r.Header.Get("Service-Event"))
	}))
	defer recv.Close()
	open("/webhooks", "#webhook-form")
	submit("register a webhook", "#register-webhook", "#created",
		chromedp.SendKeys(chromedp.ID("wh-url"), recv.URL+"/sentinel"),
		chromedp.SendKeys(chromedp.ID("wh-desc"), "SIEM"),
		chromedp.Click(chromedp.CSS(`input[name="events"][value="finding.*"]`)),
		chromedp.Click(chromedp.CSS(`input[name="events"][value="webhook.test"]`)))
	mu.Lock()
	secret = value("#wh-secret")
	mu.Unlock()
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("webhook secret %q", secret)
	}
	shot("webhook-created")
	submit("open the webhook", "#created a", "#send-test")
	submit("send a test", "#send-test", "#flash")
	webhookURL, _ := chromedp.Run(ctx, chromedp.Location())
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(text("#deliveries"), "succeeded") {
		if time.Now().After(deadline) {
			t.Fatalf("no successful delivery shown:\n%s", text("#deliveries"))
		}
		time.Sleep(300 * time.Millisecond)
		do("reload", chromedp.Navigate(webhookURL), chromedp.WaitVisible(chromedp.ID("deliveries")))
	}
	if !strings.Contains(text("#deliveries"), "HTTP 200") {
		t.Errorf("the delivery's response is not shown:\n%s", text("#deliveries"))
	}
	shot("webhook-delivered")
	mu.Lock()
	if len(received) == 0 || received[0] != sentinel.EventWebhookTest {
		t.Errorf("receiver got %v", received)
	}
	mu.Unlock()

	// The other pages, for the record.
	for _, p := range []struct{ name, path, wait string }{
		{"inventory-search", "/inventory?name=lodash", "#result"},
		{"component", "/inventory/component?name=org.apache.tomcat.embed:tomcat-embed-core&version=9.0.30", "#advisories"},
		{"assets", "/assets", "#assets"},
		{"scans", "/scans", "#scans"},
		{"submissions", "/submissions", "#submissions"},
		{"agents", "/agents", "#agents"},
		{"settings-organization", "/settings/organization", "#org-form"},
		{"settings-users", "/settings/users", "#users"},
	} {
		open(p.path, p.wait)
		shot(p.name)
	}
	open("/assets", "#assets")
	submit("asset page", "#assets tbody a", "#asset-components")
	shot("asset")
	open("/agents", "#new-token")
	submit("enrollment token", "#new-token", "#enroll-command")
	if cmd := text("#enroll-command"); !strings.HasPrefix(cmd, "sentinel enroll --agent-server "+e.s.AgentURL()+" --token sntl_enr_") {
		t.Errorf("enroll command %q", cmd)
	}
	shot("agents-token")

	// On a phone.
	do("phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	for _, p := range []struct{ name, path, wait string }{
		{"overview-phone", "/", "#kev"},
		{"findings-phone", "/findings", "#findings"},
		{"finding-phone", "/findings/" + ghostcat, "#facts"},
	} {
		open(p.path, p.wait)
		shot(p.name)
	}
	do("laptop", chromedp.EmulateViewport(1280, 900))

	// A cross-site form: a page on another site posts Create API key with
	// every scope. The browser sends no session cookie cross-site (Lax),
	// and the portal would refuse the form anyway.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><form method="post" action="%s/settings/keys"><input name="name" value="forged">
<input name="scopes" value="admin"><input name="csrf_token" value="guess"><button id="go">win a prize</button></form>`, e.base())
	}))
	defer evil.Close()
	before := countKeys(t, e, e.org)
	evilURL := strings.Replace(evil.URL, "127.0.0.1", "localhost", 1) // another site, not just another port
	do("cross-site page", chromedp.Navigate(evilURL), chromedp.WaitVisible(chromedp.ID("go")))
	submit("cross-site form", "#go", "#message")
	if msg := text("#message"); !strings.Contains(msg, "Sign in again") && !strings.Contains(msg, "did not come from this site") {
		t.Errorf("cross-site form answered: %s", msg)
	}
	shot("cross-site-refused")
	if countKeys(t, e, e.org) != before {
		t.Error("the cross-site form made a key")
	}

	// Sign out.
	open("/", "#sign-out")
	submit("sign out", "#sign-out", "#sign-in")
	do("after sign-out", chromedp.Navigate(e.base()+"/findings"), chromedp.WaitVisible(chromedp.ID("sign-in")))
}

// webSBOM is a second host's SBOM with a few more components.
const webSBOM = `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,
"metadata":{"component":{"type":"application","name":"storefront","version":"5.1.0"}},
"components":[
{"type":"library","name":"lodash","version":"4.17.15","purl":"pkg:npm/lodash@4.17.15"},
{"type":"library","name":"django","version":"3.2.0","purl":"pkg:pypi/django@3.2.0"},
{"type":"library","name":"log4j-core","group":"org.apache.logging.log4j","version":"2.14.1","purl":"pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1"},
{"type":"library","name":"jquery","version":"1.12.4","purl":"pkg:npm/jquery@1.12.4"}]}`
