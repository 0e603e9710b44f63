package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

type ctxKey int

const (
	principalKey ctxKey = iota
	requestIDKey
	servedAsKey // the principal of an in-process request (ServeAs)
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
