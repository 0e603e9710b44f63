package portal

import (
	"context"
	"crypto/subtle"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// Cookie names. The session cookie's __Host- prefix makes browsers insist
// on Secure, path / and no Domain attribute, so no sibling host can set or
// shadow it.
const (
	sessionCookie = "__Host-sentinel_session"
	loginCookie   = "__Host-sentinel_login"
	setupCookie   = "sentinel_setup_form"
)

// maxForm bounds a form post's body.
const maxForm = 64 << 10

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pages holds one template set per page: the layout plus the page's own
// file, which defines "content".
var pages = func() map[string]*template.Template {
	out := map[string]*template.Template{}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		panic(err)
	}
	for _, n := range names {
		base := strings.TrimPrefix(n, "templates/")
		if base == "layout.html" {
			continue
		}
		out[base] = template.Must(template.New(base).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", n))
	}
	return out
}()

// reqCtx is a signed-in request: the session, its user and organization,
// and the principal the user acts as.
type reqCtx struct {
	hash []byte
	sess *sentinel.PortalSession
	user *sentinel.User
	org  *sentinel.Organization
	p    *sentinel.Principal
}

func (c *reqCtx) can(scope string) bool { return c != nil && c.p.Has(scope) }

// view is what every page template gets.
type view struct {
	Title  string
	Active string
	User   *sentinel.User
	Org    *sentinel.Organization
	CSRF   string
	Nav    []navItem
	// Flash says what the previous form did; Error what went wrong with
	// this one (the API's message), Field which field it names.
	Flash string
	Error string
	Field string
	Data  any
	ctx   *reqCtx
}

// Can reports whether the user's role holds scope: pages hide the forms
// the user cannot use (the API would refuse them anyway).
func (v *view) Can(scope string) bool { return v.ctx.can(scope) }

type navItem struct {
	Key, Label, Href string
}

// nav lists the pages the user's role can read, in order.
func (s *Site) nav(c *reqCtx) []navItem {
	all := []struct {
		navItem
		scope string
	}{
		{navItem{"overview", "Overview", "/"}, sentinel.ScopeFindingsRead},
		{navItem{"inventory", "Inventory", "/inventory"}, sentinel.ScopeSCARead},
		{navItem{"findings", "Findings", "/findings"}, sentinel.ScopeFindingsRead},
		{navItem{"assets", "Assets", "/assets"}, sentinel.ScopeAssetsRead},
		{navItem{"scans", "Scans", "/scans"}, sentinel.ScopeScansRead},
		{navItem{"submissions", "SBOMs", "/submissions"}, sentinel.ScopeSCARead},
		{navItem{"agents", "Agents", "/agents"}, sentinel.ScopeAdmin},
		{navItem{"webhooks", "Webhooks", "/webhooks"}, sentinel.ScopeWebhooksWrite},
		{navItem{"bundles", "Evidence", "/bundles"}, sentinel.ScopeSCARead},
		{navItem{"settings", "Settings", "/settings/keys"}, sentinel.ScopeAdmin},
	}
	var out []navItem
	for _, it := range all {
		if c.can(it.scope) {
			out = append(out, it.navItem)
		}
	}
	return out
}

type route struct {
	pattern string
	h       http.Handler
}

func (s *Site) routes() []route {
	pg := s.page
	return []route{
		{"GET /login", s.public(s.loginPage)},
		{"POST /login", s.public(s.login)},
		{"POST /logout", pg(s.logout)},
		{"GET /setup/{token}", s.public(s.setupPage)},
		{"POST /setup/{token}", s.public(s.setup)},
		{"GET /static/", http.FileServerFS(staticFS)},

		{"GET /{$}", pg(s.overview)},
		{"GET /inventory", pg(s.inventory)},
		{"GET /inventory/component", pg(s.component)},
		{"GET /findings", pg(s.findings)},
		{"GET /findings/{id}", pg(s.finding)},
		{"POST /findings/{id}", pg(s.updateFinding)},
		{"GET /assets", pg(s.assets)},
		{"POST /assets", pg(s.createAsset)},
		{"GET /assets/{id}", pg(s.asset)},
		{"POST /assets/{id}/scan", pg(s.scanAsset)},
		{"GET /scans", pg(s.scans)},
		{"POST /scans/start", pg(s.startScan)},
		{"GET /scans/{id}", pg(s.scan)},
		{"POST /scans/{id}/cancel", pg(s.cancelScan)},
		{"GET /submissions", pg(s.submissions)},
		{"GET /submissions/{id}/document", pg(s.submissionDocument)},
		{"GET /agents", pg(s.agents)},
		{"POST /agents/tokens", pg(s.createEnrollmentToken)},
		{"POST /agents/{id}/revoke", pg(s.revokeAgent)},
		{"GET /webhooks", pg(s.webhooks)},
		{"POST /webhooks", pg(s.createWebhook)},
		{"GET /webhooks/{id}", pg(s.webhook)},
		// Not /webhooks/{id}/test: the API serves POST /webhooks/{id}/test
		// (the specification's path) on the same address.
		{"POST /webhooks/{id}/send-test", pg(s.testWebhook)},
		{"POST /webhooks/{id}/rotate", pg(s.rotateWebhook)},
		{"POST /webhooks/{id}/active", pg(s.setWebhookActive)},
		{"POST /webhooks/{id}/delete", pg(s.deleteWebhook)},
		{"POST /webhooks/{id}/deliveries/{delivery}/redeliver", pg(s.redeliver)},
		{"GET /bundles", pg(s.bundles)},
		{"POST /bundles", pg(s.issueBundle)},
		{"GET /bundles/{id}", pg(s.bundle)},
		{"POST /bundles/{id}/revoke", pg(s.revokeBundle)},
		{"GET /settings/keys", pg(s.keys)},
		{"POST /settings/keys", pg(s.createKey)},
		{"POST /settings/keys/{id}/revoke", pg(s.revokeKey)},
		{"GET /settings/organization", pg(s.organization)},
		{"POST /settings/organization", pg(s.updateOrganization)},
		{"GET /settings/users", pg(s.users)},
		{"POST /settings/users", pg(s.createUser)},
		{"POST /settings/users/{id}", pg(s.updateUser)},
		{"POST /settings/users/{id}/setup-link", pg(s.userSetupLink)},
	}
}

// headers sets what every page carries: never cached (pages hold the
// organization's data, some a secret shown once), never framed, no script
// at all, forms only to this site.
func headers(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
}

// public serves a page that needs no session (sign-in, set-up).
func (s *Site) public(h func(w http.ResponseWriter, r *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers(w)
		if err := h(w, r); err != nil {
			s.fail(w, r, nil, err)
		}
	})
}

// page serves a signed-in page: without a live session a GET goes to the
// sign-in page (and back after it); a POST must come from this site and
// carry the session's anti-forgery token.
func (s *Site) page(h func(w http.ResponseWriter, r *http.Request, c *reqCtx) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers(w)
		c, err := s.session(r)
		if err != nil {
			s.fail(w, r, nil, err)
			return
		}
		if c == nil {
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			s.message(w, r, nil, http.StatusUnauthorized, "Signed out", "Your session ended. Sign in again, then repeat what you were doing.")
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			r.Body = http.MaxBytesReader(w, r.Body, maxForm)
			if err := r.ParseForm(); err != nil {
				s.message(w, r, c, http.StatusBadRequest, "Bad request", "The form could not be read.")
				return
			}
			if !s.sameOrigin(r) || !tokenEqual(c.sess.CSRF, r.PostForm.Get("csrf_token")) {
				s.Logger.Warn("portal form refused", "path", r.URL.Path, "user", c.user.ID, "origin", r.Header.Get("Origin"),
					"sec_fetch_site", r.Header.Get("Sec-Fetch-Site"), "addr", clientAddr(r))
				s.message(w, r, c, http.StatusForbidden, "Form refused",
					"The form expired or did not come from this site. Go back, reload the page and try again.")
				return
			}
		}
		if err := h(w, r, c); err != nil {
			s.fail(w, r, c, err)
		}
	})
}

func tokenEqual(want, got string) bool {
	return want != "" && got != "" && subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

// sameOrigin refuses a state-changing request that a browser says came
// from elsewhere: an Origin header naming another host (or "null"), or
// Sec-Fetch-Site other than same-origin or none. Requests without either
// header (old browsers, scripts) rely on the token alone.
func (s *Site) sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	if b, err := url.Parse(s.base()); err == nil && b.Host != "" && strings.EqualFold(b.Scheme+"://"+b.Host, u.Scheme+"://"+u.Host) {
		return true
	}
	return false
}

// session returns the request's signed-in context, or nil when it has no
// live session.
func (s *Site) session(r *http.Request) (*reqCtx, error) {
	ck, err := r.Cookie(sessionCookie)
	if err != nil || ck.Value == "" || len(ck.Value) > 100 {
		return nil, nil
	}
	hash := hashToken(ck.Value)
	now := s.now()
	sess, u, err := s.DB.FindPortalSession(r.Context(), hash, now, s.IdleTimeout)
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	org, err := s.DB.FindOrgByID(r.Context(), u.OrgID)
	if err != nil {
		return nil, err
	}
	if now.Sub(sess.LastSeenAt) > time.Minute {
		if err := s.DB.TouchPortalSession(r.Context(), hash); err != nil {
			s.Logger.Warn("touch portal session", "err", err)
		}
	}
	return &reqCtx{hash: hash, sess: sess, user: u, org: org,
		p: &sentinel.Principal{OrgID: org.ID, OrgSlug: org.Slug, KeyID: u.ID, Scopes: sentinel.RoleScopes(u.Role)}}, nil
}

// render writes a page with status.
func (s *Site) render(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, name string, v *view) {
	t, ok := pages[name]
	if !ok {
		s.Logger.Error("portal: no template", "name", name)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	v.ctx = c
	if c != nil {
		v.User, v.Org, v.CSRF, v.Nav = c.user, c.org, c.sess.CSRF, s.nav(c)
	}
	if v.Flash == "" {
		v.Flash = flashes[r.URL.Query().Get("done")]
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := t.ExecuteTemplate(w, "layout", v); err != nil && !errors.Is(err, context.Canceled) {
		s.Logger.Error("portal: render", "page", name, "err", err)
	}
}

// message renders a page that only says something.
func (s *Site) message(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, title, text string) {
	s.render(w, r, c, status, "message.html", &view{Title: title, Data: text})
}

// fail renders an error: the API's status and message when the API said
// no, "internal error" (logged) for anything else.
func (s *Site) fail(w http.ResponseWriter, r *http.Request, c *reqCtx, err error) {
	status, code, msg := errorOf(err)
	if status >= 500 {
		s.Logger.LogAttrs(r.Context(), slog.LevelError, "portal request failed", slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	s.render(w, r, c, status, "message.html", &view{Title: statusTitle(status), Data: msg, Error: code})
}

// errorOf returns the status, error code and message to show for err.
func errorOf(err error) (int, string, string) {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.Status, ae.Body.Error, ae.Body.Message
	}
	status, code := httpapi.StatusOf(err)
	return status, code, sentinel.ErrorMessage(err)
}

func statusTitle(status int) string {
	switch status {
	case http.StatusNotFound:
		return "Not found"
	case http.StatusForbidden:
		return "Not allowed"
	case http.StatusUnauthorized:
		return "Signed out"
	case http.StatusBadRequest:
		return "Not accepted"
	case http.StatusConflict:
		return "Conflict"
	case http.StatusTooManyRequests:
		return "Too many requests"
	case http.StatusGone:
		return "Gone"
	}
	if status >= 500 {
		return "Something went wrong"
	}
	return http.StatusText(status)
}

// flashes are what a page says after the form that redirected to it
// (?done=...): fixed sentences, so nothing from the URL is shown.
var flashes = map[string]string{
	"password_set":    "Your password is set. Sign in with it.",
	"signed_out":      "You signed out.",
	"finding_updated": "The finding was updated.",
	"scan_canceled":   "The scan was canceled.",
	"agent_revoked":   "The agent was revoked: its certificate is refused from now on.",
	"webhook_test":    "A webhook.test event is on its way; its delivery shows below.",
	"redelivered":     "The delivery was queued again.",
	"webhook_active":  "The webhook was updated.",
	"webhook_deleted": "The webhook and its deliveries were deleted.",
	"bundle_revoked":  "The share was revoked: access ends at once.",
	"key_revoked":     "The API key was revoked: it no longer authenticates.",
	"org_updated":     "The organization's settings were saved.",
	"user_updated":    "The user was updated.",
}

// redirect answers a successful form with 303 See Other to a page that
// says so.
func redirect(w http.ResponseWriter, r *http.Request, path, done string) {
	if done != "" {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + "done=" + url.QueryEscape(done)
	}
	http.Redirect(w, r, path, http.StatusSeeOther)
}

func clientAddr(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// localPath returns next when it is a path on this site, else "/": the
// sign-in page's return address must not send anyone elsewhere.
func localPath(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") ||
		strings.ContainsAny(next, "\r\n") {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return "/"
	}
	return next
}
