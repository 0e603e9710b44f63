// Package portal is the operators' web portal: server-rendered pages on the
// API's address (/, /login, /findings, /settings/keys, ...) for the users of
// one organization, with the roles viewer, member and admin.
//
// # One more client of the API
//
// The portal holds no rule of its own (docs/design.md, The portal). A
// signed-in user becomes a sentinel.Principal: the organization, the user's
// id ("usr_…") as the actor, and the scopes of the role
// (sentinel.RoleScopes). Every read and every change a page makes is an
// API request served in process with that principal (httpapi.Server.ServeAs):
// the same route, scope check, rate limit, validation, audit entry, event
// and error wording as for an API key. A viewer who posts an admin form gets
// the API's 403; another organization's id is the API's 404.
//
// Why call the API's handlers rather than the services behind them: most
// operations have no service method apart from their handler (validation,
// the audit entry and the response shape live there), and extracting one
// per operation would touch a dozen packages for the same result. Calling
// the route keeps the portal's changes to those packages at zero and makes
// it impossible for a page to skip a check the API makes. The cost is a
// JSON encoding per call, a few microseconds per item on a page of 50. What
// the pages needed and the API lacked was added to the API, so that it
// serves every client: the findings summary and history, the owner filter
// and risk order of the findings list, submissions by host, and the users
// operations (/v1/users, served by this package).
//
// # Accounts and sessions
//
// Users are created by an admin (Settings → Users, POST /v1/users) or on the
// server's host (sentineld admin create-user), which gives a one-time set-up
// link valid 24 hours; its token is stored only as a SHA-256. The user
// chooses a password there (at least 12 characters, kept as an argon2id
// hash) and signs in with the organization, the email address and the
// password.
//
// A session is a random 256-bit cookie (__Host-sentinel_session: HttpOnly,
// Secure, SameSite=Lax, path /), stored only as its SHA-256, and a new one is
// made at every sign-in, so a cookie planted before sign-in is worthless
// (no fixation). It ends after 30 minutes without a request, 12 hours after
// sign-in, at sign-out, or when the user is disabled; the store decides, so
// every replica agrees. Lax rather than Strict: a link to a finding from a
// ticket or a chat message must open signed in; every change is a POST,
// which Lax never sends from another site.
//
// Every form carries the session's anti-forgery token in a hidden field,
// compared in constant time; a POST whose Origin names another host, or
// whose Sec-Fetch-Site is cross-site or same-site, is refused before the
// token is looked at. The sign-in and set-up forms, which have no session
// yet, use a token that must match a cookie set with the form (double
// submit).
//
// Sign-in is throttled in the store, so that the limits hold across
// replicas: 5 failures for one account (organization and email, whether or
// not it exists) or 20 from one address within 15 minutes lock that account
// or address for 15 minutes. An unknown account costs the same argon2id
// work as a wrong password, and every answer to a failure is the same
// sentence. Every attempt, successful or not, is written to the
// organization's audit log (user.sign_in, user.sign_in_failed) with the
// address and the user agent.
//
// # Pages
//
// html/template pages embedded in the binary, one small hand-written
// stylesheet, no JavaScript: charts are inline SVG drawn on the server,
// pages that wait for something reload themselves (Refresh header). Lists
// page with the API's opaque cursors. Pages that show a secret (an API key,
// a webhook secret, a bundle's password, an enrollment token, a set-up
// link) show it once, in the answer to the POST that made it, with
// Cache-Control: no-store like every page. The Content-Security-Policy
// allows no script at all and no inline style.
//
// Cookies are Secure: browsers keep them over https and on http://localhost
// and http://127.0.0.1 only, so anywhere else the portal must be served
// over HTTPS (behind a proxy that terminates TLS, set --public-url).
package portal

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// Store is what the portal reads, and Update its write transaction. The
// store implements it (store.Bind[portal.Tx]).
type Store interface {
	sentinel.OrgFinder
	FindUser(ctx context.Context, orgID, id string) (*sentinel.User, error)
	FindUserByEmail(ctx context.Context, orgID, email string) (*sentinel.User, error)
	// FindUserBySetupHash finds the user of a set-up link that has not
	// expired at now.
	FindUserBySetupHash(ctx context.Context, hash []byte, now time.Time) (*sentinel.User, error)
	ListUsers(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.User, string, error)
	// FindPortalSession returns a live session and its active user.
	FindPortalSession(ctx context.Context, hash []byte, now time.Time, idle time.Duration) (*sentinel.PortalSession, *sentinel.User, error)
	TouchPortalSession(ctx context.Context, hash []byte) error
	// SignInLockedUntil tells until when any of keys is locked, if any is.
	SignInLockedUntil(ctx context.Context, keys []string, now time.Time) (*time.Time, error)
	PurgePortal(ctx context.Context, before time.Time, idle, window time.Duration) (int64, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what the portal writes in one transaction.
type Tx interface {
	sentinel.Clock
	sentinel.AuditWriter
	CreateUser(ctx context.Context, u *sentinel.User) error
	FindUserTx(ctx context.Context, orgID, id string) (*sentinel.User, error)
	UpdateUser(ctx context.Context, orgID, id string, u sentinel.UserUpdate) (*sentinel.User, error)
	SetUserSetup(ctx context.Context, orgID, id string, hash []byte, expires *time.Time) error
	// UseUserSetup sets the password of the link's user and consumes the
	// link. Errors: ENOTFOUND.
	UseUserSetup(ctx context.Context, hash []byte, passwordHash string) (*sentinel.User, error)
	CountActiveAdmins(ctx context.Context, orgID string) (int, error)
	RecordSignIn(ctx context.Context, userID string) error
	CreatePortalSession(ctx context.Context, hash []byte, s *sentinel.PortalSession) error
	DeletePortalSession(ctx context.Context, hash []byte) error
	DeleteUserSessions(ctx context.Context, userID string) (int64, error)
	// FailSignIn counts a failure against a throttle key and locks it at
	// limit; ClearSignIn forgets its failures.
	FailSignIn(ctx context.Context, key string, limit int, window, lockout time.Duration) (*sentinel.SignInThrottle, error)
	ClearSignIn(ctx context.Context, key string) error
}

// API serves an API request in process on behalf of a principal;
// *httpapi.Server implements it.
type API interface {
	ServeAs(w http.ResponseWriter, r *http.Request, p *sentinel.Principal)
}

// Defaults.
const (
	DefaultIdleTimeout     = 30 * time.Minute
	DefaultSessionLifetime = 12 * time.Hour
	// DefaultAccountFailures failed sign-ins of one account, or
	// DefaultAddressFailures from one address, within DefaultFailureWindow
	// lock it for DefaultLockout.
	DefaultAccountFailures = 5
	DefaultAddressFailures = 20
	DefaultFailureWindow   = 15 * time.Minute
	DefaultLockout         = 15 * time.Minute
)

// PurgeJobKind is the periodic job that deletes ended sessions and stale
// throttle entries.
const PurgeJobKind = "portal.purge"

// Site serves the portal.
type Site struct {
	DB     Store
	API    API
	Logger *slog.Logger
	// BaseURL returns the portal's public base URL (the API's): set-up
	// links start with it, and a POST's Origin may name it.
	BaseURL func() string
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	IdleTimeout     time.Duration
	SessionLifetime time.Duration
	AccountFailures int
	AddressFailures int
	FailureWindow   time.Duration
	Lockout         time.Duration

	once   sync.Once
	argons chan struct{}
}

func (s *Site) init() {
	s.once.Do(func() {
		if s.Logger == nil {
			s.Logger = slog.New(slog.DiscardHandler)
		}
		if s.IdleTimeout <= 0 {
			s.IdleTimeout = DefaultIdleTimeout
		}
		if s.SessionLifetime <= 0 {
			s.SessionLifetime = DefaultSessionLifetime
		}
		if s.AccountFailures <= 0 {
			s.AccountFailures = DefaultAccountFailures
		}
		if s.AddressFailures <= 0 {
			s.AddressFailures = DefaultAddressFailures
		}
		if s.FailureWindow <= 0 {
			s.FailureWindow = DefaultFailureWindow
		}
		if s.Lockout <= 0 {
			s.Lockout = DefaultLockout
		}
		// At most two argon2id computations at once (19 MiB each): a flood
		// of sign-ins cannot exhaust memory or both cores.
		s.argons = make(chan struct{}, 2)
	})
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

// Handler returns the portal's pages in front of next, which serves
// everything else (the API, with its JSON 404 for unknown paths).
func (s *Site) Handler(next http.Handler) http.Handler {
	s.init()
	mux := http.NewServeMux()
	for _, rt := range s.routes() {
		mux.Handle(rt.pattern, rt.h)
	}
	mux.Handle("/", next)
	return mux
}

// Purge deletes ended sessions and throttle entries that no longer count;
// it runs as a periodic job.
func (s *Site) Purge(ctx context.Context, _ *sentinel.Job) error {
	s.init()
	n, err := s.DB.PurgePortal(ctx, s.now(), s.IdleTimeout, s.FailureWindow)
	if err == nil && n > 0 {
		s.Logger.Info("portal purge", "rows", n)
	}
	return err
}
