package sentinel

import (
	"slices"
	"strings"
	"time"
)

// PrefixUser starts the id of an operator account of the portal; it is
// also the account's audit actor (docs/design.md, The portal).
const PrefixUser = "usr_"

// Roles of portal users. Each maps onto API scopes (RoleScopes): the portal
// holds no permission of its own.
const (
	RoleViewer = "viewer"
	RoleMember = "member"
	RoleAdmin  = "admin"
)

// Roles lists the roles from least to most privileged.
var Roles = []string{RoleViewer, RoleMember, RoleAdmin}

// ValidRole reports whether r is a role.
func ValidRole(r string) bool { return slices.Contains(Roles, r) }

// viewerScopes are the read scopes; a member adds the everyday writes; an
// admin holds every scope (keys, users, agents, bundles, settings).
var (
	viewerScopes = []string{ScopeSCARead, ScopeSCAIntelRead, ScopeAuditLogsRead, ScopeScansRead, ScopeFindingsRead, ScopeAssetsRead}
	memberScopes = append(slices.Clone(viewerScopes), ScopeFindingsWrite, ScopeWebhooksWrite, ScopeScansWrite, ScopeSCAIOC)
)

// RoleScopes returns the scopes a role holds, in AllScopes order; nil for
// an unknown role.
func RoleScopes(role string) []string {
	var set []string
	switch role {
	case RoleViewer:
		set = viewerScopes
	case RoleMember:
		set = memberScopes
	case RoleAdmin:
		return slices.Clone(AllScopes)
	default:
		return nil
	}
	var out []string
	for _, s := range AllScopes {
		if slices.Contains(set, s) {
			out = append(out, s)
		}
	}
	return out
}

// User statuses.
const (
	UserActive   = "active"
	UserDisabled = "disabled"
)

// User is an operator account of one organization, signing in to the
// portal with an email address and a password. The password is stored only
// as an argon2id hash; a set-up link's token only as its SHA-256.
type User struct {
	ID    string `json:"id"`
	OrgID string `json:"-"`
	// Email is stored in lower case; it is unique within the organization.
	Email  string `json:"email"`
	Name   string `json:"name,omitempty"`
	Role   string `json:"role"`
	Status string `json:"status"`
	// PasswordHash is empty until the user follows the set-up link.
	PasswordHash string `json:"-"`
	// SetupHash is the SHA-256 of the pending set-up link's token.
	SetupHash      []byte     `json:"-"`
	SetupExpiresAt *time.Time `json:"setup_expires_at,omitempty"`
	PasswordSetAt  *time.Time `json:"password_set_at,omitempty"`
	LastSignInAt   *time.Time `json:"last_sign_in_at,omitempty"`
	CreatedBy      string     `json:"created_by"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
}

// NormalizeEmail returns the stored form of an email address: trimmed, in
// lower case.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ValidEmail reports whether s looks like an email address: one "@" with
// text on both sides, a dot in the domain, at most 254 bytes, no spaces or
// control characters. Delivery is not checked; the set-up link is handed
// over by whoever creates the account.
func ValidEmail(s string) bool {
	if len(s) < 3 || len(s) > 254 || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '<' || r == '>' || r == '"' }) {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	return ok && local != "" && domain != "" && !strings.Contains(domain, "@") &&
		strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// UserUpdate changes a user; nil fields stay.
type UserUpdate struct {
	Name   *string
	Role   *string
	Status *string
}

// PortalSession is a signed-in user's session: stored by the SHA-256 of
// its cookie, with the per-session anti-forgery token of the portal's forms.
type PortalSession struct {
	UserID string
	OrgID  string
	// CSRF is the token every form of this session carries.
	CSRF       string
	CreatedAt  time.Time
	LastSeenAt time.Time
	// ExpiresAt is the absolute end of the session, whatever its activity.
	ExpiresAt time.Time
	Addr      string
	UserAgent string
}

// SignInThrottle is the state of one sign-in throttle key (an account or
// a client address): failures in the current window and, once too many,
// until when sign-in is refused.
type SignInThrottle struct {
	Key         string
	Failures    int
	WindowStart time.Time
	LockedUntil *time.Time
}
