// Package share is the Evidence Bundle recipients' site, served on its own
// listener and host name (Config.ShareAddr, Config.ShareURL), apart from
// the API.
//
// A recipient has a link, <share-url>/s/<token>, and a password that
// arrived by another channel; no API key. The flow, without JavaScript:
//
//	GET  /s/{token}           the password form (or, with a session, the bundle page)
//	POST /s/{token}           form field "password" (+ the form's anti-forgery token)
//	                          -> 303 back, with a short session cookie
//	GET  /s/{token}/download  the zip, with the session cookie
//
// The token (256 bits) is looked up by its SHA-256; the password is checked
// against its argon2id hash in constant time. Every attempt, right or
// wrong, is appended to the share's access log with time, address and user
// agent: the bilateral log that the recipient sees on the bundle page and
// the operator reads through GET /v1/sca/bundles/{id}/audit. Ten wrong
// passwords lock the share; a locked, expired or revoked share answers 410
// with a page that says so. A successful access (password accepted, or a
// download) emits bundle.accessed in the same transaction as its log line.
//
// Cookies are HttpOnly, Secure and SameSite=Strict and scoped to the
// share's own path. The form also carries a per-page token that must match
// a cookie set with the page (double submit), so a cross-site form can
// neither guess passwords in the recipient's name nor lock the share;
// scripts that post only the password are accepted (see formTrusted).
// Browsers accept Secure cookies from http://127.0.0.1 and
// http://localhost (secure contexts), which is what local use and the
// tests rely on; anywhere else the share site must be served over HTTPS.
package share

import (
	"context"
	"crypto/subtle"
	"embed"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// MaxFailedPasswords is how many wrong passwords lock a share.
const MaxFailedPasswords = 10

// maxLogLines bounds the access history shown on the bundle page.
const maxLogLines = 500

// DefaultSessionTTL is the recipient session's lifetime.
const DefaultSessionTTL = 15 * time.Minute

// Cookie names.
const (
	sessionCookie = "sentinel_share_session"
	csrfCookie    = "sentinel_share_form"
)

//go:embed templates/*.html
var templateFS embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"size": humanSize,
}).ParseFS(templateFS, "templates/*.html"))

// Store is what the share site reads, and Update its write transaction.
// The store implements it (store.Bind[share.Tx]).
type Store interface {
	evidence.ChunkReader
	sentinel.OrgFinder
	FindBundleByTokenHash(ctx context.Context, hash []byte) (*sentinel.Bundle, error)
	FindBundleByID(ctx context.Context, id string) (*sentinel.Bundle, error)
	// BundleSession returns the bundle of a live recipient session.
	BundleSession(ctx context.Context, hash []byte, now time.Time) (string, error)
	BundleAccessLog(ctx context.Context, bundleID string, page sentinel.Page) ([]*sentinel.BundleAccess, string, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what the share site writes in one transaction.
type Tx interface {
	sentinel.Clock
	sentinel.EventWriter
	// FindBundleTx reads a bundle inside the transaction.
	FindBundleTx(ctx context.Context, id string) (*sentinel.Bundle, error)
	RecordBundleAccess(ctx context.Context, bundleID string, a sentinel.BundleAccess, success bool) error
	// ReserveBundlePassword counts an attempt before it is checked (false:
	// locked, or limit attempts counted); FailBundlePassword settles a
	// wrong one (locking the share at limit) and ReleaseBundlePassword a
	// right one.
	ReserveBundlePassword(ctx context.Context, id string, limit int) (bool, error)
	FailBundlePassword(ctx context.Context, id string, limit int) (int, bool, error)
	ReleaseBundlePassword(ctx context.Context, id string) error
	CreateBundleSession(ctx context.Context, hash []byte, bundleID string, expires time.Time) error
}

// Site serves the share host.
type Site struct {
	DB     Store
	Logger *slog.Logger
	// BaseURL returns the share site's public base URL; its host is the
	// only Host header served (another is 421 Misdirected Request).
	BaseURL func() string
	// Limiter, when set, caps password attempts per client address (30
	// per minute) on top of the per-share lock.
	Limiter ratelimit.Limiter
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SessionTTL defaults to DefaultSessionTTL.
	SessionTTL time.Duration

	once   sync.Once
	mux    *http.ServeMux
	argons chan struct{}
}

// Handler returns the site's http.Handler.
func (s *Site) Handler() http.Handler {
	s.once.Do(s.init)
	return s
}

func (s *Site) init() {
	if s.Logger == nil {
		s.Logger = slog.New(slog.DiscardHandler)
	}
	if s.SessionTTL == 0 {
		s.SessionTTL = DefaultSessionTTL
	}
	// At most two argon2id computations at once (19 MiB each): a flood of
	// wrong passwords cannot exhaust memory or both cores.
	s.argons = make(chan struct{}, 2)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /s/{token}", s.wrap(s.page))
	mux.HandleFunc("POST /s/{token}", s.wrap(s.unlock))
	mux.HandleFunc("GET /s/{token}/download", s.wrap(s.download))
	mux.HandleFunc("/", s.wrap(func(w http.ResponseWriter, r *http.Request) error {
		return s.render(w, http.StatusNotFound, "message.html", message{Title: "Not found",
			Text: "There is nothing here. Open the full link you were sent."})
	}))
	s.mux = mux
}

// ServeHTTP implements http.Handler.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.once.Do(s.init)
	s.mux.ServeHTTP(w, r)
}

func (s *Site) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Site) base() string {
	if s.BaseURL == nil {
		return ""
	}
	return strings.TrimRight(s.BaseURL(), "/")
}

// wrap sets the headers every page carries and turns errors into pages.
func (s *Site) wrap(h func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		// The token is in the URL: never let it leave in a Referer.
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		if u, err := url.Parse(s.base()); err == nil && u.Host != "" && !strings.EqualFold(u.Host, r.Host) {
			http.Error(w, "this is not the share site's host name", http.StatusMisdirectedRequest)
			return
		}
		if err := h(w, r); err != nil {
			if sentinel.ErrorCode(err) == sentinel.EUNAVAILABLE {
				// The store is away for a moment (a database restart): say
				// so, and when to come back, rather than fail.
				s.Logger.Warn("share site unavailable", "path", redactPath(r.URL.Path), "err", err)
				hd.Set("Retry-After", "5")
				_ = s.render(w, http.StatusServiceUnavailable, "message.html", message{Title: "Temporarily unavailable",
					Text: "The share cannot be served right now. Try again in a few seconds."})
				return
			}
			s.Logger.Error("share site", "path", redactPath(r.URL.Path), "err", err)
			_ = s.render(w, http.StatusInternalServerError, "message.html", message{Title: "Something went wrong",
				Text: "The share could not be served. Try again in a minute."})
		}
	}
}

// redactPath keeps tokens out of logs.
func redactPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "/s/"); ok {
		_, tail, _ := strings.Cut(rest, "/")
		return "/s/<token>/" + tail
	}
	return p
}

func (s *Site) render(w http.ResponseWriter, status int, name string, data any) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	return pages.ExecuteTemplate(w, name, data)
}

type message struct {
	Title, Text string
}

func clientAddr(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// share finds the bundle of the request's token, or renders 404.
func (s *Site) share(w http.ResponseWriter, r *http.Request) (*sentinel.Bundle, bool, error) {
	token := r.PathValue("token")
	if len(token) < 40 || len(token) > 64 {
		return nil, false, s.render(w, http.StatusNotFound, "message.html", message{Title: "Not found",
			Text: "This share link is not valid. Check that you copied all of it."})
	}
	b, err := s.DB.FindBundleByTokenHash(r.Context(), evidence.HashToken(token))
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		return nil, false, s.render(w, http.StatusNotFound, "message.html", message{Title: "Not found",
			Text: "This share link is not valid. Check that you copied all of it."})
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// gone logs a refused attempt and renders the 410 page when the share is
// no longer active; it reports whether it did.
func (s *Site) gone(w http.ResponseWriter, r *http.Request, b *sentinel.Bundle) (bool, error) {
	var outcome, text string
	switch b.Status(s.now()) {
	case sentinel.BundleActive:
		return false, nil
	case sentinel.BundleRevoked:
		outcome, text = sentinel.AccessRefusedRevoked, "The sender revoked this share. Ask them for a new one if you still need it."
	case sentinel.BundleLocked:
		outcome, text = sentinel.AccessRefusedLocked, "This share is locked after too many wrong passwords. Ask the sender for a new one."
	default:
		outcome, text = sentinel.AccessRefusedExpired, "This share expired on "+b.ExpiresAt.UTC().Format(time.RFC3339)+". Ask the sender for a new one if you still need it."
	}
	if err := s.log(r, b, outcome, false, nil); err != nil {
		return true, err
	}
	return true, s.render(w, http.StatusGone, "message.html", message{Title: "This share is no longer available", Text: text})
}

// log appends an access line; with ev set it also emits bundle.accessed
// in the same transaction.
func (s *Site) log(r *http.Request, b *sentinel.Bundle, outcome string, success bool, ev map[string]any) error {
	ctx := context.WithoutCancel(r.Context()) // the log line must not be lost to a closed connection
	var org *sentinel.Organization
	if ev != nil {
		var err error
		if org, err = s.DB.FindOrgByID(ctx, b.OrgID); err != nil {
			return err
		}
	}
	return s.DB.Update(ctx, func(tx Tx) error {
		a := sentinel.BundleAccess{Addr: clientAddr(r), UserAgent: r.UserAgent(), Outcome: outcome}
		if err := tx.RecordBundleAccess(ctx, b.ID, a, success); err != nil {
			return err
		}
		if ev == nil {
			return nil
		}
		ev["bundle_id"], ev["address"], ev["user_agent"], ev["accessed_at"] = b.ID, a.Addr, a.UserAgent, tx.Now().UTC().Format(time.RFC3339)
		_, err := tx.EmitEvent(ctx, org, sentinel.EventBundleAccessed, b.ID, ev)
		return err
	})
}

// session reports whether the request carries a live session for b. An
// error is returned only when the store cannot tell (EUNAVAILABLE): a
// recipient with a live session is not sent back to the password form
// because the database restarts.
func (s *Site) session(r *http.Request, b *sentinel.Bundle) (bool, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return false, nil
	}
	id, err := s.DB.BundleSession(r.Context(), evidence.HashToken(c.Value), s.now())
	if sentinel.ErrorCode(err) == sentinel.EUNAVAILABLE {
		return false, err
	}
	return err == nil && subtle.ConstantTimeCompare([]byte(id), []byte(b.ID)) == 1, nil
}

func (s *Site) shareURL(r *http.Request) string {
	return evidence.ShareLink(s.base(), r.PathValue("token"))
}

func (s *Site) cookie(r *http.Request, name, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: "/s/" + r.PathValue("token"), MaxAge: maxAge,
		HttpOnly: true, Secure: true, SameSite: http.SameSiteStrictMode}
}

type formPage struct {
	Action    string
	CSRF      string
	Error     string
	Remaining int
}

// passwordForm renders the password page with a fresh anti-forgery token.
func (s *Site) passwordForm(w http.ResponseWriter, r *http.Request, status int, errText string, b *sentinel.Bundle) error {
	csrf := seal.Token(32)
	http.SetCookie(w, s.cookie(r, csrfCookie, csrf, 3600))
	return s.render(w, status, "password.html", formPage{Action: s.shareURL(r), CSRF: csrf, Error: errText,
		Remaining: MaxFailedPasswords - b.FailedAttempts})
}

type bundlePage struct {
	Bundle      evidence.Info
	Org         *sentinel.Organization
	Artifacts   []sentinel.BundleArtifact
	Ready       bool
	Failed      bool
	Download    string
	Identity    string
	Issuer      string
	Command     string
	Log         []evidence.AccessEntry
	LogComplete bool
}

func (s *Site) page(w http.ResponseWriter, r *http.Request) error {
	b, ok, err := s.share(w, r)
	if !ok {
		return err
	}
	if done, err := s.gone(w, r, b); done {
		return err
	}
	live, err := s.session(r, b)
	if err != nil {
		return err
	}
	if !live {
		if err := s.log(r, b, sentinel.AccessOpened, false, nil); err != nil {
			return err
		}
		return s.passwordForm(w, r, http.StatusOK, "", b)
	}
	org, err := s.DB.FindOrgByID(r.Context(), b.OrgID)
	if err != nil {
		return err
	}
	// The newest 500 lines of the log, read a page at a time.
	var log []*sentinel.BundleAccess
	total := 0
	for page := (sentinel.Page{Limit: 1000}); ; {
		got, next, err := s.DB.BundleAccessLog(r.Context(), b.ID, page)
		if err != nil {
			return err
		}
		total += len(got)
		log = append(log, got...)
		if len(log) > maxLogLines {
			log = append(log[:0:0], log[len(log)-maxLogLines:]...)
		}
		if next == "" {
			break
		}
		page.Cursor = next
	}
	p := bundlePage{Bundle: evidence.InfoOf(b, s.now()), Org: org, Artifacts: b.Artifacts,
		Ready: b.BuildState == sentinel.BundleReady, Failed: b.BuildState == sentinel.BundleFailed,
		Download: s.shareURL(r) + "/download", Identity: b.Identity, Issuer: b.Issuer, LogComplete: total <= maxLogLines}
	if p.Ready {
		p.Command = "sentinel verify " + b.ID + ".zip"
	}
	for i := len(log) - 1; i >= 0; i-- { // newest first
		p.Log = append(p.Log, evidence.AccessEntryOf(log[i]))
	}
	if !p.Ready && !p.Failed {
		w.Header().Set("Refresh", "5") // no JavaScript: the page reloads itself while the bundle builds
	}
	return s.render(w, http.StatusOK, "bundle.html", p)
}

func (s *Site) unlock(w http.ResponseWriter, r *http.Request) error {
	b, ok, err := s.share(w, r)
	if !ok {
		return err
	}
	if s.Limiter != nil {
		res, err := s.Limiter.Allow(r.Context(), "share:"+clientAddr(r), 30, time.Minute)
		if err == nil && !res.Allowed {
			w.Header().Set("Retry-After", "60")
			return s.render(w, http.StatusTooManyRequests, "message.html", message{Title: "Too many attempts",
				Text: "Wait a minute before you try again."})
		}
	}
	if done, err := s.gone(w, r, b); done {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	if err := r.ParseForm(); err != nil {
		return s.render(w, http.StatusBadRequest, "message.html", message{Title: "Bad request", Text: "The form could not be read."})
	}
	if !formTrusted(r) {
		if err := s.log(r, b, sentinel.AccessRefusedBadForm, false, nil); err != nil {
			return err
		}
		return s.passwordForm(w, r, http.StatusForbidden, "The form expired or did not come from this page. Enter the password again.", b)
	}
	password := r.PostForm.Get("password")
	if len(password) > 256 {
		password = password[:256]
	}
	// The attempt is counted before the password is checked, in one
	// statement: of many guesses sent at once, at most MaxFailedPasswords
	// are ever checked.
	ctx := context.WithoutCancel(r.Context())
	var reserved bool
	if err := s.DB.Update(ctx, func(tx Tx) (err error) {
		reserved, err = tx.ReserveBundlePassword(ctx, b.ID, MaxFailedPasswords)
		return err
	}); err != nil {
		return err
	}
	if !reserved {
		cur, err := s.DB.FindBundleByID(ctx, b.ID)
		if err != nil {
			return err
		}
		if done, err := s.gone(w, r, cur); done {
			return err
		}
		w.Header().Set("Retry-After", "10")
		return s.passwordForm(w, r, http.StatusTooManyRequests, "Too many password attempts are being checked at once. Wait a moment and try again.", b)
	}
	s.argons <- struct{}{}
	match, err := evidence.CheckPassword(b.PasswordHash, password)
	<-s.argons
	if err != nil {
		_ = s.DB.Update(ctx, func(tx Tx) error { return tx.ReleaseBundlePassword(ctx, b.ID) })
		return err
	}
	if !match {
		var locked bool
		err := s.DB.Update(ctx, func(tx Tx) error {
			n, l, err := tx.FailBundlePassword(ctx, b.ID, MaxFailedPasswords)
			if err != nil {
				return err
			}
			b.FailedAttempts, locked = n, l
			outcome := sentinel.AccessPasswordWrong
			if l {
				outcome = sentinel.AccessLockedNow
			}
			return tx.RecordBundleAccess(ctx, b.ID, sentinel.BundleAccess{Addr: clientAddr(r), UserAgent: r.UserAgent(), Outcome: outcome}, false)
		})
		if err != nil {
			return err
		}
		if locked {
			return s.render(w, http.StatusGone, "message.html", message{Title: "This share is no longer available",
				Text: "This share is locked after too many wrong passwords. Ask the sender for a new one."})
		}
		return s.passwordForm(w, r, http.StatusUnauthorized, "That password is not right.", b)
	}
	// Right password: re-check the share inside the transaction (a revoke
	// or the lock may have landed meanwhile), start a session, log it and
	// emit bundle.accessed, all or nothing.
	org, err := s.DB.FindOrgByID(ctx, b.OrgID)
	if err != nil {
		return err
	}
	session := seal.Token(32)
	var refused bool
	err = s.DB.Update(ctx, func(tx Tx) error {
		if err := tx.ReleaseBundlePassword(ctx, b.ID); err != nil {
			return err
		}
		cur, err := tx.FindBundleTx(ctx, b.ID)
		if err != nil {
			return err
		}
		if cur.Status(s.now()) != sentinel.BundleActive {
			refused = true
			return nil
		}
		if err := tx.CreateBundleSession(ctx, evidence.HashToken(session), b.ID, s.now().Add(s.SessionTTL)); err != nil {
			return err
		}
		a := sentinel.BundleAccess{Addr: clientAddr(r), UserAgent: r.UserAgent(), Outcome: sentinel.AccessPasswordOK}
		if err := tx.RecordBundleAccess(ctx, b.ID, a, true); err != nil {
			return err
		}
		_, err = tx.EmitEvent(ctx, org, sentinel.EventBundleAccessed, b.ID, map[string]any{
			"bundle_id": b.ID, "access": "password_accepted", "address": a.Addr, "user_agent": a.UserAgent,
			"accessed_at": tx.Now().UTC().Format(time.RFC3339),
		})
		return err
	})
	if err != nil {
		return err
	}
	if refused {
		cur, err := s.DB.FindBundleByID(ctx, b.ID)
		if err != nil {
			return err
		}
		_, err = s.gone(w, r, cur)
		return err
	}
	http.SetCookie(w, s.cookie(r, sessionCookie, session, int(s.SessionTTL/time.Second)))
	http.SetCookie(w, s.cookie(r, csrfCookie, "", -1))
	http.Redirect(w, r, s.shareURL(r), http.StatusSeeOther)
	return nil
}
