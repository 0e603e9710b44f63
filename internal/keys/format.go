package keys

import (
	"crypto/sha256"
	"strings"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// Prefix starts every API key, so secret scanners can find leaked ones.
const Prefix = "sntl_"

// New returns a new key's full text and its visible prefix. The text is
// "sntl_" + the key id's suffix + "_" + 256 random bits; only its SHA-256
// is stored.
func New(keyID string) (full, visible string) {
	suffix := strings.TrimPrefix(keyID, sentinel.PrefixKey)
	visible = Prefix + suffix
	return visible + "_" + seal.Token(32), visible
}

// Hash returns the stored hash of an API key's full text. A key carries 256
// random bits, so a plain SHA-256 is as strong as a slow hash and lets the
// store find the key by its hash.
func Hash(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// LooksLike reports whether s has an API key's shape; it lets the
// authenticator refuse junk without a store round trip.
func LooksLike(s string) bool {
	rest, ok := strings.CutPrefix(s, Prefix)
	if !ok || len(s) > 200 {
		return false
	}
	i := strings.IndexByte(rest, '_')
	if i <= 0 || len(rest)-i-1 < 32 {
		return false
	}
	for j := 0; j < len(rest); j++ {
		c := rest[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
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
	if !LooksLike(key) {
		return "", sentinel.Errorf(sentinel.EUNAUTHORIZED, "malformed API key; keys start with %s", Prefix)
	}
	return key, nil
}
