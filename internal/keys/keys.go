// Package keys owns API keys: their format (a visible prefix to tell keys
// apart, 256 random bits, only the SHA-256 stored), authenticating the
// Authorization header of every API request, and the /v1/api-keys routes
// (create, list, revoke; scope admin). The admin command line and the
// portal create keys through Create, with the same rules.
package keys

import (
	"context"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// Store is what package keys reads, and Update its write transaction. The
// store implements it (store.Bind[keys.Tx]).
type Store interface {
	// FindAPIKeyByHash returns the key with the hash, revoked or not, and
	// its organization's slug. Errors: ENOTFOUND.
	FindAPIKeyByHash(ctx context.Context, hash []byte) (*sentinel.APIKey, string, error)
	// TouchAPIKey records that a key was used (at most once a minute).
	TouchAPIKey(ctx context.Context, id string) error
	ListAPIKeys(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.APIKey, string, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Creator stores a new key; a write transaction implements it.
type Creator interface {
	CreateAPIKey(ctx context.Context, k *sentinel.APIKey) error
}

// Tx is what package keys writes in one transaction.
type Tx interface {
	Creator
	sentinel.AuditWriter
	// RevokeAPIKey revokes an organization's key. Errors: ENOTFOUND.
	RevokeAPIKey(ctx context.Context, orgID, id string) (*sentinel.APIKey, error)
}

// Create makes an API key for an organization in the caller's transaction.
// The key's full text is returned once; only its hash is stored. Scopes
// must be valid (sentinel.ParseScopes) and are stored without duplicates.
func Create(ctx context.Context, tx Creator, orgID, name string, scopes []string, createdBy string) (*sentinel.APIKey, string, error) {
	id := sentinel.NewID(sentinel.PrefixKey)
	full, visible := New(id)
	k := &sentinel.APIKey{ID: id, OrgID: orgID, Name: name, Prefix: visible, Scopes: scopes, Hash: Hash(full), CreatedBy: createdBy}
	if err := tx.CreateAPIKey(ctx, k); err != nil {
		return nil, "", err
	}
	return k, full, nil
}

// cacheTTL bounds how long another replica may still accept a key revoked
// elsewhere.
const cacheTTL = 5 * time.Second

// Service authenticates API keys and serves the /v1/api-keys routes.
type Service struct {
	DB Store

	mu    sync.Mutex
	cache map[string]cacheEntry // by the key's SHA-256 in hex
}

type cacheEntry struct {
	p       *sentinel.Principal
	hash    []byte
	expires time.Time
}

var errBadKey = sentinel.Errorf(sentinel.EUNAUTHORIZED, "unknown or revoked API key")

// Authenticate resolves an Authorization header to the principal of its API
// key. A key found is cached for cacheTTL, so most requests make no store
// round trip; a revocation on this replica drops it at once (Invalidate).
// Errors: EUNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, authorization string) (*sentinel.Principal, error) {
	key, err := ParseAuthorization(authorization)
	if err != nil {
		return nil, err
	}
	hash := Hash(key)
	hh := hex.EncodeToString(hash)
	now := time.Now()
	if e, ok := s.get(hh, now); ok && subtle.ConstantTimeCompare(e.hash, hash) == 1 {
		return e.p, nil
	}
	k, slug, err := s.DB.FindAPIKeyByHash(ctx, hash)
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		return nil, errBadKey
	}
	if err != nil {
		return nil, err
	}
	// The lookup was by hash; compare again in constant time so that no
	// index or cache path decides alone.
	if subtle.ConstantTimeCompare(k.Hash, hash) != 1 || k.RevokedAt != nil {
		return nil, errBadKey
	}
	p := &sentinel.Principal{OrgID: k.OrgID, OrgSlug: slug, KeyID: k.ID, Scopes: k.Scopes}
	s.put(hh, cacheEntry{p: p, hash: hash, expires: now.Add(cacheTTL)})
	go func() { _ = s.DB.TouchAPIKey(context.WithoutCancel(ctx), k.ID) }()
	return p, nil
}

func (s *Service) get(h string, now time.Time) (cacheEntry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.cache[h]
	if ok && now.After(e.expires) {
		delete(s.cache, h)
		ok = false
	}
	return e, ok
}

func (s *Service) put(h string, e cacheEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil || len(s.cache) > 100_000 {
		s.cache = map[string]cacheEntry{}
	}
	s.cache[h] = e
}

// Invalidate drops a revoked key from this replica's cache at once. Other
// replicas drop it when their cache entry expires (cacheTTL).
func (s *Service) Invalidate(keyID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for h, e := range s.cache {
		if e.p.KeyID == keyID {
			delete(s.cache, h)
		}
	}
}

// CreateRequest is POST /v1/api-keys's body.
type CreateRequest struct {
	Name   string   `json:"name,omitempty" maxLength:"100"`
	Scopes []string `json:"scopes" minItems:"1"`
}

// CreateResponse shows the key's full text, once.
type CreateResponse struct {
	sentinel.APIKey
	Key string `json:"key"`
}

// Routes are the API key operations.
func (s *Service) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/api-keys", Scope: sentinel.ScopeAdmin, Status: http.StatusCreated,
			Summary: "Create an API key. The key is shown once.", Request: CreateRequest{}, Response: CreateResponse{},
			Handler: s.create},
		{Method: "GET", Path: "/v1/api-keys", Scope: sentinel.ScopeAdmin, Query: []string{"limit", "cursor"},
			Summary: "List the organization's API keys (never their secrets).", Response: httpapi.ListResponse[sentinel.APIKey]{},
			Handler: s.list},
		{Method: "DELETE", Path: "/v1/api-keys/{id}", Scope: sentinel.ScopeAdmin,
			Summary: "Revoke an API key at once.", Response: sentinel.APIKey{},
			Handler: s.revoke},
	}
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) error {
	var req CreateRequest
	if err := httpapi.DecodeJSON(r.Body, 1<<20, &req); err != nil {
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
	req.Scopes = slices.Compact(slices.Sorted(slices.Values(req.Scopes))) // each scope once
	p := httpapi.PrincipalFromContext(r.Context())
	var resp CreateResponse
	err := s.DB.Update(r.Context(), func(tx Tx) error {
		k, full, err := Create(r.Context(), tx, p.OrgID, req.Name, req.Scopes, p.KeyID)
		if err != nil {
			return err
		}
		resp = CreateResponse{APIKey: *k, Key: full}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "api_key.create", k.ID, map[string]any{"scopes": k.Scopes, "name": k.Name})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, resp)
	return nil
}

func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	ks, next, err := s.DB.ListAPIKeys(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, page)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, ks, next)
	return nil
}

func (s *Service) revoke(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.PrincipalFromContext(r.Context())
	var k *sentinel.APIKey
	err := s.DB.Update(r.Context(), func(tx Tx) (err error) {
		if k, err = tx.RevokeAPIKey(r.Context(), p.OrgID, r.PathValue("id")); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "api_key.revoke", k.ID, nil)
	})
	if err != nil {
		return err
	}
	s.Invalidate(k.ID)
	httpapi.WriteJSON(w, http.StatusOK, k)
	return nil
}
