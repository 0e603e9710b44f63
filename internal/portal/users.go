package portal

import (
	"context"
	"crypto/sha256"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// SetupTTL is how long a set-up link works.
const SetupTTL = 24 * time.Hour

// maxName bounds a user's display name.
const maxName = 200

// SetupLink returns the set-up address of a token under the portal's base
// URL.
func SetupLink(base, token string) string { return strings.TrimRight(base, "/") + "/setup/" + token }

// hashToken returns the stored form of a set-up token or session cookie:
// they carry 256 random bits, so a plain SHA-256 is enough and lets the
// store find them by it.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// UserCreator writes a new user; a write transaction implements it.
type UserCreator interface {
	sentinel.Clock
	CreateUser(ctx context.Context, u *sentinel.User) error
}

// NewUser creates a user of an organization, with a set-up link valid for
// SetupTTL, in the caller's transaction. It returns the user and the link's
// token, which is shown once and stored only as its SHA-256. The admin
// command line and POST /v1/users both create users through it.
// Errors: EINVALID (email, name, role; an email already taken).
func NewUser(ctx context.Context, tx UserCreator, orgID, email, name, role, createdBy string) (*sentinel.User, string, error) {
	email = sentinel.NormalizeEmail(email)
	if !sentinel.ValidEmail(email) {
		return nil, "", sentinel.InvalidField("email", "email must be an email address such as ana@example.com")
	}
	if !sentinel.ValidRole(role) {
		return nil, "", sentinel.InvalidField("role", "role must be viewer, member or admin")
	}
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > maxName || !utf8.ValidString(name) {
		return nil, "", sentinel.InvalidField("name", "name must be valid text of at most %d characters", maxName)
	}
	token := seal.Token(32)
	exp := tx.Now().Add(SetupTTL)
	u := &sentinel.User{ID: sentinel.NewID(sentinel.PrefixUser), OrgID: orgID, Email: email, Name: name, Role: role,
		CreatedBy: createdBy, SetupHash: hashToken(token), SetupExpiresAt: &exp}
	if err := tx.CreateUser(ctx, u); err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// SetupLinker replaces a user's set-up link; a write transaction
// implements it.
type SetupLinker interface {
	sentinel.Clock
	SetUserSetup(ctx context.Context, orgID, id string, hash []byte, expires *time.Time) error
}

// NewSetupLink gives an existing user a new set-up link (the previous one
// stops working) and returns its token and expiry. The user's password
// keeps working until the link is used. Errors: ENOTFOUND.
func NewSetupLink(ctx context.Context, tx SetupLinker, orgID, userID string) (string, time.Time, error) {
	token := seal.Token(32)
	exp := tx.Now().Add(SetupTTL)
	if err := tx.SetUserSetup(ctx, orgID, userID, hashToken(token), &exp); err != nil {
		return "", exp, err
	}
	return token, exp, nil
}

// CreateUserRequest is POST /v1/users's body.
type CreateUserRequest struct {
	Email string `json:"email" maxLength:"254"`
	Name  string `json:"name,omitempty" maxLength:"200"`
	Role  string `json:"role" enum:"viewer,member,admin"`
}

// UserWithLink answers the creation of a user and of a new set-up link:
// the link is shown once.
type UserWithLink struct {
	sentinel.User
	SetupURL string `json:"setup_url"`
}

// UpdateUserRequest is PATCH /v1/users/{id}'s body; absent fields stay.
type UpdateUserRequest struct {
	Name   *string `json:"name,omitempty" maxLength:"200"`
	Role   *string `json:"role,omitempty" enum:"viewer,member,admin"`
	Status *string `json:"status,omitempty" enum:"active,disabled"`
}

// Routes are the user operations of the API; the portal's Settings → Users
// page calls them like any other client.
func (s *Site) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/users", Scope: sentinel.ScopeAdmin, Status: http.StatusCreated,
			Summary: "Create a portal user (viewer, member or admin). The answer holds a one-time set-up link (24 hours) to hand to the user.",
			Request: CreateUserRequest{}, Response: UserWithLink{}, Handler: s.apiCreateUser},
		{Method: "GET", Path: "/v1/users", Scope: sentinel.ScopeAdmin, Query: []string{"limit", "cursor"},
			Summary: "List the organization's portal users.", Response: httpapi.ListResponse[sentinel.User]{}, Handler: s.apiListUsers},
		{Method: "PATCH", Path: "/v1/users/{id}", Scope: sentinel.ScopeAdmin,
			Summary: "Change a user's name, role or status (active, disabled). Disabling signs the user out everywhere; the last active admin stays.",
			Request: UpdateUserRequest{}, Response: sentinel.User{}, Handler: s.apiUpdateUser},
		{Method: "POST", Path: "/v1/users/{id}/setup-link", Scope: sentinel.ScopeAdmin,
			Summary:  "A new one-time set-up link for a user (to set a forgotten password); the previous link stops working.",
			Response: UserWithLink{}, Handler: s.apiSetupLink},
	}
}

func (s *Site) apiCreateUser(w http.ResponseWriter, r *http.Request) error {
	var req CreateUserRequest
	if err := httpapi.DecodeJSON(r.Body, 16<<10, &req); err != nil {
		return err
	}
	p := httpapi.PrincipalFromContext(r.Context())
	var resp UserWithLink
	err := s.DB.Update(r.Context(), func(tx Tx) error {
		u, token, err := NewUser(r.Context(), tx, p.OrgID, req.Email, req.Name, req.Role, p.KeyID)
		if err != nil {
			return err
		}
		resp = UserWithLink{User: *u, SetupURL: SetupLink(s.base(), token)}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "user.create", u.ID, map[string]any{"email": u.Email, "role": u.Role})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, resp)
	return nil
}

func (s *Site) apiListUsers(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	us, next, err := s.DB.ListUsers(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, page)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, us, next)
	return nil
}

func (s *Site) apiUpdateUser(w http.ResponseWriter, r *http.Request) error {
	var req UpdateUserRequest
	if err := httpapi.DecodeJSON(r.Body, 16<<10, &req); err != nil {
		return err
	}
	p := httpapi.PrincipalFromContext(r.Context())
	id := r.PathValue("id")
	// An unknown id is 404 before any check of the body's values.
	if _, err := s.DB.FindUser(r.Context(), p.OrgID, id); err != nil {
		return err
	}
	if req.Role != nil && !sentinel.ValidRole(*req.Role) {
		return sentinel.InvalidField("role", "role must be viewer, member or admin")
	}
	if req.Status != nil && *req.Status != sentinel.UserActive && *req.Status != sentinel.UserDisabled {
		return sentinel.InvalidField("status", "status must be active or disabled")
	}
	if req.Name != nil {
		n := strings.TrimSpace(*req.Name)
		if utf8.RuneCountInString(n) > maxName || !utf8.ValidString(n) {
			return sentinel.InvalidField("name", "name must be valid text of at most %d characters", maxName)
		}
		req.Name = &n
	}
	if req.Name == nil && req.Role == nil && req.Status == nil {
		return sentinel.Errorf(sentinel.EINVALID, "nothing to change: send name, role or status")
	}
	var out *sentinel.User
	err := s.DB.Update(r.Context(), func(tx Tx) error {
		before, err := tx.FindUserTx(r.Context(), p.OrgID, id)
		if err != nil {
			return err
		}
		u, err := tx.UpdateUser(r.Context(), p.OrgID, id, sentinel.UserUpdate{Name: req.Name, Role: req.Role, Status: req.Status})
		if err != nil {
			return err
		}
		wasAdmin := before.Role == sentinel.RoleAdmin && before.Status == sentinel.UserActive
		isAdmin := u.Role == sentinel.RoleAdmin && u.Status == sentinel.UserActive
		if wasAdmin && !isAdmin {
			n, err := tx.CountActiveAdmins(r.Context(), p.OrgID)
			if err != nil {
				return err
			}
			if n == 0 {
				return sentinel.Errorf(sentinel.ECONFLICT, "%s is the organization's last active admin; make another user admin first", before.Email)
			}
		}
		if u.Status == sentinel.UserDisabled && before.Status != sentinel.UserDisabled {
			if _, err := tx.DeleteUserSessions(r.Context(), u.ID); err != nil {
				return err
			}
		}
		out = u
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "user.update", u.ID, map[string]any{
			"name": req.Name, "role": req.Role, "status": req.Status, "previous_role": before.Role, "previous_status": before.Status})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (s *Site) apiSetupLink(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.PrincipalFromContext(r.Context())
	id := r.PathValue("id")
	var resp UserWithLink
	err := s.DB.Update(r.Context(), func(tx Tx) error {
		token, _, err := NewSetupLink(r.Context(), tx, p.OrgID, id)
		if err != nil {
			return err
		}
		u, err := tx.FindUserTx(r.Context(), p.OrgID, id)
		if err != nil {
			return err
		}
		resp = UserWithLink{User: *u, SetupURL: SetupLink(s.base(), token)}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "user.setup_link", id, nil)
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, resp)
	return nil
}
