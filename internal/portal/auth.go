package portal

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// The one answer to every failed sign-in: it does not tell which of the
// three was wrong, or whether the account exists.
const signInFailed = "The organization, email address or password is not right."

type loginData struct {
	Org, Email, Next string
	FormToken        string
}

// formCookie is a sign-in or set-up form's double-submit cookie.
func formCookie(name, path, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: path, MaxAge: maxAge, HttpOnly: true, Secure: true, SameSite: http.SameSiteStrictMode}
}

func (s *Site) loginForm(w http.ResponseWriter, r *http.Request, status int, d loginData, errText string) {
	d.FormToken = seal.Token(32)
	http.SetCookie(w, formCookie(loginCookie, "/", d.FormToken, 3600))
	d.Next = localPath(d.Next)
	s.render(w, r, nil, status, "login.html", &view{Title: "Sign in", Data: d, Error: errText})
}

// loginPage shows the sign-in form, also to a browser that has a session:
// signing in again replaces it (a session planted in the browser must not
// stand between its user and their own account).
func (s *Site) loginPage(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	s.loginForm(w, r, http.StatusOK, loginData{Org: q.Get("org"), Email: q.Get("email"), Next: q.Get("next")}, "")
	return nil
}

// formTrusted checks a form that has no session yet: it must come from
// this site and carry the token of the cookie set with the form.
func (s *Site) formTrusted(r *http.Request, cookie string) bool {
	c, err := r.Cookie(cookie)
	return err == nil && s.sameOrigin(r) && tokenEqual(c.Value, r.PostForm.Get("csrf_token"))
}

func (s *Site) login(w http.ResponseWriter, r *http.Request) error {
	s.init()
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		s.message(w, r, nil, http.StatusBadRequest, "Bad request", "The form could not be read.")
		return nil
	}
	d := loginData{Org: strings.ToLower(strings.TrimSpace(r.PostForm.Get("org"))), Email: sentinel.NormalizeEmail(r.PostForm.Get("email")),
		Next: r.PostForm.Get("next")}
	if !s.formTrusted(r, loginCookie) {
		s.Logger.Warn("portal sign-in form refused", "addr", clientAddr(r), "origin", r.Header.Get("Origin"))
		s.loginForm(w, r, http.StatusForbidden, d, "The form expired or did not come from this site. Sign in again.")
		return nil
	}
	password := r.PostForm.Get("password")
	if len(d.Org) > 63 || len(d.Email) > 254 || len(password) > MaxPassword {
		s.loginForm(w, r, http.StatusUnauthorized, d, signInFailed)
		return nil
	}
	ctx := context.WithoutCancel(r.Context()) // an attempt is counted and logged even if the client goes away
	addr, ua := clientAddr(r), r.UserAgent()
	keys := []string{"account:" + d.Org + ":" + d.Email, "addr:" + addr}
	org, err := s.DB.FindOrgBySlug(ctx, d.Org)
	if err != nil && sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
		return err
	}
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		org = nil
	}

	locked, err := s.DB.SignInLockedUntil(ctx, keys, s.now())
	if err != nil {
		return err
	}
	if locked != nil {
		if err := s.auditSignIn(ctx, org, "", addr, ua, d.Email, "locked"); err != nil {
			return err
		}
		mins := int(math.Ceil(locked.Sub(s.now()).Minutes()))
		w.Header().Set("Retry-After", fmt.Sprint(int(math.Ceil(locked.Sub(s.now()).Seconds()))))
		s.loginForm(w, r, http.StatusTooManyRequests, d, fmt.Sprintf("Too many failed sign-ins. Try again in %d minute%s.", mins, plural(mins)))
		return nil
	}

	var u *sentinel.User
	if org != nil {
		u, err = s.DB.FindUserByEmail(ctx, org.ID, d.Email)
		if err != nil && sentinel.ErrorCode(err) != sentinel.ENOTFOUND {
			return err
		}
	}
	hash := dummyHash()
	if u != nil && u.PasswordHash != "" {
		hash = u.PasswordHash
	}
	s.argons <- struct{}{}
	match, err := checkPassword(hash, password)
	<-s.argons
	if err != nil {
		return err
	}
	reason := ""
	switch {
	case u == nil:
		reason = "unknown_user"
	case u.PasswordHash == "":
		reason, match = "no_password", false
	case u.Status != sentinel.UserActive:
		reason, match = "disabled", false
	case !match:
		reason = "wrong_password"
	}
	if !match {
		err := s.DB.Update(ctx, func(tx Tx) error {
			if _, err := tx.FailSignIn(ctx, keys[0], s.AccountFailures, s.FailureWindow, s.Lockout); err != nil {
				return err
			}
			if _, err := tx.FailSignIn(ctx, keys[1], s.AddressFailures, s.FailureWindow, s.Lockout); err != nil {
				return err
			}
			if org == nil {
				return nil
			}
			uid := ""
			if u != nil {
				uid = u.ID
			}
			return auditSignIn(ctx, tx, org, uid, addr, ua, d.Email, reason)
		})
		if err != nil {
			return err
		}
		if org == nil {
			s.Logger.Info("portal sign-in failed", "org", d.Org, "addr", addr, "reason", "unknown_org")
		}
		s.loginForm(w, r, http.StatusUnauthorized, d, signInFailed)
		return nil
	}

	// A new session, always: whatever cookie the browser had is ended, so
	// a session id planted before sign-in is worth nothing.
	token := seal.Token(32)
	sess := &sentinel.PortalSession{UserID: u.ID, OrgID: org.ID, CSRF: seal.Token(32), ExpiresAt: s.now().Add(s.SessionLifetime),
		Addr: addr, UserAgent: truncate(ua, 512)}
	err = s.DB.Update(ctx, func(tx Tx) error {
		if old, err := r.Cookie(sessionCookie); err == nil && old.Value != "" {
			if err := tx.DeletePortalSession(ctx, hashToken(old.Value)); err != nil {
				return err
			}
		}
		if err := tx.ClearSignIn(ctx, keys[0]); err != nil {
			return err
		}
		if err := tx.CreatePortalSession(ctx, hashToken(token), sess); err != nil {
			return err
		}
		if err := tx.RecordSignIn(ctx, u.ID); err != nil {
			return err
		}
		return auditSignIn(ctx, tx, org, u.ID, addr, ua, d.Email, "")
	})
	if err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/", MaxAge: int(s.SessionLifetime / time.Second),
		HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
	http.SetCookie(w, formCookie(loginCookie, "/", "", -1))
	http.Redirect(w, r, localPath(d.Next), http.StatusSeeOther)
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// auditSignIn writes a sign-in attempt to the organization's audit log:
// user.sign_in when it succeeded (reason ""), else user.sign_in_failed
// with the reason (unknown_user, wrong_password, no_password, disabled,
// locked).
func auditSignIn(ctx context.Context, tx Tx, org *sentinel.Organization, userID, addr, ua, email, reason string) error {
	actor := userID
	if actor == "" {
		actor = "anonymous"
	}
	action, details := "user.sign_in", map[string]any{"email": email, "user_agent": truncate(ua, 512)}
	if reason != "" {
		action, details["reason"] = "user.sign_in_failed", reason
	}
	target := userID
	if target == "" {
		target = email
	}
	return tx.Audit(ctx, org.ID, sentinel.Actor{KeyID: actor, Addr: addr}, action, target, details)
}

// auditSignIn writes an attempt outside a sign-in transaction (a locked
// account); without a known organization there is no log to write to.
func (s *Site) auditSignIn(ctx context.Context, org *sentinel.Organization, userID, addr, ua, email, reason string) error {
	if org == nil {
		s.Logger.Info("portal sign-in refused", "addr", addr, "reason", reason)
		return nil
	}
	if userID == "" {
		if u, err := s.DB.FindUserByEmail(ctx, org.ID, email); err == nil {
			userID = u.ID
		}
	}
	return s.DB.Update(ctx, func(tx Tx) error { return auditSignIn(ctx, tx, org, userID, addr, ua, email, reason) })
}

func (s *Site) logout(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	ctx := context.WithoutCancel(r.Context())
	err := s.DB.Update(ctx, func(tx Tx) error {
		if err := tx.DeletePortalSession(ctx, c.hash); err != nil {
			return err
		}
		return tx.Audit(ctx, c.org.ID, sentinel.Actor{KeyID: c.user.ID, Addr: clientAddr(r)}, "user.sign_out", c.user.ID, nil)
	})
	if err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: true, SameSite: http.SameSiteLaxMode})
	redirect(w, r, "/login", "signed_out")
	return nil
}

type setupData struct {
	Email, Org, Action, FormToken string
	Min                           int
}

// setupUser finds the user of the request's set-up link, or renders 404.
func (s *Site) setupUser(w http.ResponseWriter, r *http.Request) (*sentinel.User, *sentinel.Organization, bool, error) {
	token := r.PathValue("token")
	if len(token) < 40 || len(token) > 64 {
		s.message(w, r, nil, http.StatusNotFound, "Link not valid", "This set-up link is not valid or has expired. Ask an administrator of your organization for a new one.")
		return nil, nil, false, nil
	}
	u, err := s.DB.FindUserBySetupHash(r.Context(), hashToken(token), s.now())
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		s.message(w, r, nil, http.StatusNotFound, "Link not valid", "This set-up link is not valid or has expired. Ask an administrator of your organization for a new one.")
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	org, err := s.DB.FindOrgByID(r.Context(), u.OrgID)
	if err != nil {
		return nil, nil, false, err
	}
	return u, org, true, nil
}

func (s *Site) setupForm(w http.ResponseWriter, r *http.Request, status int, u *sentinel.User, org *sentinel.Organization, errText string) {
	d := setupData{Email: u.Email, Org: org.Slug, Action: "/setup/" + r.PathValue("token"), FormToken: seal.Token(32), Min: MinPassword}
	http.SetCookie(w, formCookie(setupCookie, "/setup/", d.FormToken, 3600))
	// The token is in the URL: the page's Referrer-Policy (same-origin)
	// keeps it from leaving in a Referer. Not no-referrer: browsers then
	// send "Origin: null" with the form, which the origin check refuses.
	s.render(w, r, nil, status, "setup.html", &view{Title: "Set your password", Data: d, Error: errText})
}

func (s *Site) setupPage(w http.ResponseWriter, r *http.Request) error {
	u, org, ok, err := s.setupUser(w, r)
	if !ok {
		return err
	}
	s.setupForm(w, r, http.StatusOK, u, org, "")
	return nil
}

func (s *Site) setup(w http.ResponseWriter, r *http.Request) error {
	s.init()
	u, org, ok, err := s.setupUser(w, r)
	if !ok {
		return err
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		s.message(w, r, nil, http.StatusBadRequest, "Bad request", "The form could not be read.")
		return nil
	}
	if !s.formTrusted(r, setupCookie) {
		s.setupForm(w, r, http.StatusForbidden, u, org, "The form expired or did not come from this site. Enter the password again.")
		return nil
	}
	password := r.PostForm.Get("password")
	if err := checkNewPassword(password, r.PostForm.Get("confirm"), u.Email); err != nil {
		s.setupForm(w, r, http.StatusBadRequest, u, org, sentinel.ErrorMessage(err))
		return nil
	}
	s.argons <- struct{}{}
	hash := hashPassword(password)
	<-s.argons
	ctx := context.WithoutCancel(r.Context())
	err = s.DB.Update(ctx, func(tx Tx) error {
		u, err := tx.UseUserSetup(ctx, hashToken(r.PathValue("token")), hash)
		if err != nil {
			return err
		}
		// A new password ends every session of the old one.
		if _, err := tx.DeleteUserSessions(ctx, u.ID); err != nil {
			return err
		}
		return tx.Audit(ctx, org.ID, sentinel.Actor{KeyID: u.ID, Addr: clientAddr(r)}, "user.password_set", u.ID,
			map[string]any{"user_agent": truncate(r.UserAgent(), 512)})
	})
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		s.message(w, r, nil, http.StatusNotFound, "Link not valid", "This set-up link was used or has expired. Ask an administrator of your organization for a new one.")
		return nil
	}
	if err != nil {
		return err
	}
	http.SetCookie(w, formCookie(setupCookie, "/setup/", "", -1))
	redirect(w, r, "/login?"+url.Values{"org": {org.Slug}, "email": {u.Email}}.Encode(), "password_set")
	return nil
}
