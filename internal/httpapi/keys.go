package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/secret"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// CreateKeyRequest is POST /v1/api-keys's body.
type CreateKeyRequest struct {
	Name   string   `json:"name,omitempty" maxLength:"100"`
	Scopes []string `json:"scopes" minItems:"1"`
}

// CreateKeyResponse shows the key's full text, once.
type CreateKeyResponse struct {
	sentinel.APIKey
	Key string `json:"key"`
}

// ListResponse is every list endpoint's shape.
type ListResponse[T any] struct {
	Data       []T    `json:"data"`
	NextCursor string `json:"next_cursor"`
}

// CreateKey makes an API key for an organization. The key's full text is
// returned once; only its hash is stored.
func CreateKey(ctx context.Context, tx *store.Tx, orgID, name string, scopes []string, createdBy string) (*sentinel.APIKey, string, error) {
	id := sentinel.NewID(sentinel.PrefixKey)
	full, visible := secret.NewAPIKey(id)
	k := &sentinel.APIKey{ID: id, OrgID: orgID, Name: name, Prefix: visible, Scopes: scopes, Hash: store.HashKey(full), CreatedBy: createdBy}
	if err := tx.CreateAPIKey(ctx, k); err != nil {
		return nil, "", err
	}
	return k, full, nil
}

func (s *Server) keyRoutes() []Route {
	return []Route{
		{Method: "POST", Path: "/v1/api-keys", Scope: sentinel.ScopeAdmin, Status: http.StatusCreated,
			Summary: "Create an API key. The key is shown once.", Request: CreateKeyRequest{}, Response: CreateKeyResponse{},
			Handler: s.createKey},
		{Method: "GET", Path: "/v1/api-keys", Scope: sentinel.ScopeAdmin, Query: []string{"limit", "cursor"},
			Summary: "List the organization's API keys (never their secrets).", Response: ListResponse[sentinel.APIKey]{},
			Handler: s.listKeys},
		{Method: "DELETE", Path: "/v1/api-keys/{id}", Scope: sentinel.ScopeAdmin,
			Summary: "Revoke an API key at once.", Response: sentinel.APIKey{},
			Handler: s.revokeKey},
		{Method: "GET", Path: "/v1/audit-logs", Scope: sentinel.ScopeAuditLogsRead, Query: []string{"since", "until", "action", "limit", "cursor"},
			Summary: "The organization's audit log inside a time window, oldest first.", Response: ListResponse[sentinel.AuditEntry]{},
			Handler: s.listAudit},
		{Method: "GET", Path: "/v1/meters", Scope: sentinel.ScopeAdmin,
			Summary: "The organization's monthly meters: limit and use this month.", Response: ListResponse[store.MeterStatus]{},
			Handler: func(w http.ResponseWriter, r *http.Request) error {
				ms, err := s.DB.MeterStatuses(r.Context(), PrincipalFromContext(r.Context()).OrgID)
				if err != nil {
					return err
				}
				WriteJSON(w, 200, ListResponse[store.MeterStatus]{Data: ms})
				return nil
			}},
	}
}

func (s *Server) createKey(w http.ResponseWriter, r *http.Request) error {
	var req CreateKeyRequest
	if err := DecodeJSON(r.Body, s.MaxBody, &req); err != nil {
		return err
	}
	if len(req.Name) > 100 {
		return sentinel.InvalidField("name", "name must be at most 100 characters")
	}
	if len(req.Scopes) == 0 {
		return sentinel.InvalidField("scopes", "at least one scope is required")
	}
	for _, sc := range req.Scopes {
		if !sentinel.ValidScope(sc) {
			return sentinel.InvalidField("scopes", "unknown scope %q", sc)
		}
	}
	p := PrincipalFromContext(r.Context())
	var resp CreateKeyResponse
	err := s.DB.InTx(r.Context(), func(tx *store.Tx) error {
		k, full, err := CreateKey(r.Context(), tx, p.OrgID, req.Name, req.Scopes, p.KeyID)
		if err != nil {
			return err
		}
		resp = CreateKeyResponse{APIKey: *k, Key: full}
		return tx.Audit(r.Context(), p.OrgID, Actor(r), "api_key.create", k.ID, map[string]any{"scopes": k.Scopes, "name": k.Name})
	})
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusCreated, resp)
	return nil
}

func (s *Server) listKeys(w http.ResponseWriter, r *http.Request) error {
	page, err := PageFromQuery(r)
	if err != nil {
		return err
	}
	ks, next, err := s.DB.ListAPIKeys(r.Context(), PrincipalFromContext(r.Context()).OrgID, page)
	if err != nil {
		return err
	}
	out := ListResponse[sentinel.APIKey]{Data: make([]sentinel.APIKey, 0, len(ks)), NextCursor: next}
	for _, k := range ks {
		out.Data = append(out.Data, *k)
	}
	WriteJSON(w, 200, out)
	return nil
}

func (s *Server) revokeKey(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFromContext(r.Context())
	var k *sentinel.APIKey
	err := s.DB.InTx(r.Context(), func(tx *store.Tx) (err error) {
		if k, err = tx.RevokeAPIKey(r.Context(), p.OrgID, r.PathValue("id")); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, Actor(r), "api_key.revoke", k.ID, nil)
	})
	if err != nil {
		return err
	}
	s.InvalidateKey(k.ID)
	WriteJSON(w, 200, k)
	return nil
}

func (s *Server) listAudit(w http.ResponseWriter, r *http.Request) error {
	page, err := PageFromQuery(r)
	if err != nil {
		return err
	}
	f := store.AuditFilter{OrgID: PrincipalFromContext(r.Context()).OrgID, Action: r.URL.Query().Get("action"), Page: page}
	if f.Since, err = timeParam(r, "since"); err != nil {
		return err
	}
	if f.Until, err = timeParam(r, "until"); err != nil {
		return err
	}
	es, next, err := s.DB.FindAuditEntries(r.Context(), f)
	if err != nil {
		return err
	}
	out := ListResponse[sentinel.AuditEntry]{Data: make([]sentinel.AuditEntry, 0, len(es)), NextCursor: next}
	for _, e := range es {
		out.Data = append(out.Data, *e)
	}
	WriteJSON(w, 200, out)
	return nil
}

// PageFromQuery reads ?limit= (default 50, at most 500) and ?cursor=.
func PageFromQuery(r *http.Request) (store.Page, error) {
	p := store.Page{Limit: 50, Cursor: r.URL.Query().Get("cursor")}
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			return p, sentinel.InvalidField("limit", "limit must be an integer from 1 to 500")
		}
		p.Limit = n
	}
	if len(p.Cursor) > 200 {
		return p, sentinel.InvalidField("cursor", "cursor is not valid")
	}
	return p, nil
}

func timeParam(r *http.Request, name string) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return t, sentinel.InvalidField(name, "%s must be an RFC 3339 time such as 2026-11-21T00:00:00Z", name)
	}
	return t, nil
}
