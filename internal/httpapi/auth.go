package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/secret"
	"github.com/sentinel-sca/sentinel/internal/store"
)

type ctxKey int

const (
	principalKey ctxKey = iota
	requestIDKey
)

// NewContextWithPrincipal returns ctx carrying the request's principal.
func NewContextWithPrincipal(ctx context.Context, p *sentinel.Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// PrincipalFromContext returns the request's principal, or nil.
func PrincipalFromContext(ctx context.Context) *sentinel.Principal {
	p, _ := ctx.Value(principalKey).(*sentinel.Principal)
	return p
}

func withRequestID(ctx context.Context, given string) context.Context {
	if given == "" || len(given) > 64 || strings.ContainsFunc(given, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		var b [8]byte
		_, _ = rand.Read(b[:])
		given = "req_" + hex.EncodeToString(b[:])
	}
	return context.WithValue(ctx, requestIDKey, given)
}

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// ParseAuthorization extracts the API key from an Authorization header of
// the form "ApiKey <key>". The scheme is case-insensitive (RFC 9110); the
// key must have an API key's shape.
func ParseAuthorization(h string) (string, error) {
	if h == "" {
		return "", sentinel.Errorf(sentinel.EUNAUTHORIZED, "missing Authorization header; send Authorization: ApiKey <key>")
	}
	scheme, key, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "ApiKey") {
		return "", sentinel.Errorf(sentinel.EUNAUTHORIZED, "malformed Authorization header; send Authorization: ApiKey <key>")
	}
	key = strings.TrimSpace(key)
	if !secret.LooksLikeAPIKey(key) {
		return "", sentinel.Errorf(sentinel.EUNAUTHORIZED, "malformed API key; keys start with %s", secret.APIKeyPrefix)
	}
	return key, nil
}

var errBadKey = sentinel.Errorf(sentinel.EUNAUTHORIZED, "unknown or revoked API key")

// authCacheTTL bounds how long another replica may still accept a key
// revoked elsewhere.
const authCacheTTL = 5 * time.Second

type authEntry struct {
	p       *sentinel.Principal
	hash    []byte
	expires time.Time
}

type authCache struct {
	mu sync.Mutex
	m  map[string]authEntry // by sha256 hex of the key
}

func (c *authCache) get(h string, now time.Time) (authEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[h]
	if ok && now.After(e.expires) {
		delete(c.m, h)
		ok = false
	}
	return e, ok
}

func (c *authCache) put(h string, e authEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 100_000 {
		c.m = map[string]authEntry{}
	}
	c.m[h] = e
}

func (c *authCache) invalidate(keyID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.m {
		if e.p.KeyID == keyID {
			delete(c.m, h)
		}
	}
}

// authenticate resolves the request's API key to a principal.
func (s *Server) authenticate(r *http.Request) (*sentinel.Principal, error) {
	key, err := ParseAuthorization(r.Header.Get("Authorization"))
	if err != nil {
		return nil, err
	}
	hash := store.HashKey(key)
	hh := hex.EncodeToString(hash)
	now := time.Now()
	if e, ok := s.keys.get(hh, now); ok && subtle.ConstantTimeCompare(e.hash, hash) == 1 {
		return e.p, nil
	}
	k, slug, err := s.DB.FindAPIKeyByHash(r.Context(), hash)
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
	s.keys.put(hh, authEntry{p: p, hash: hash, expires: now.Add(authCacheTTL)})
	go func() { _ = s.DB.TouchAPIKey(context.WithoutCancel(r.Context()), k.ID) }()
	return p, nil
}

func remoteHost(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// Actor returns the audit actor of a request.
func Actor(r *http.Request) sentinel.Actor {
	a := sentinel.Actor{Addr: remoteHost(r)}
	if p := PrincipalFromContext(r.Context()); p != nil {
		a.KeyID = p.KeyID
	}
	return a
}
