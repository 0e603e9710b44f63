package secret

import (
	"strings"
)

// APIKeyPrefix starts every API key, so secret scanners can find leaked ones.
const APIKeyPrefix = "sntl_"

// NewAPIKey returns a new key's full text and its visible prefix. The text
// is "sntl_" + the key id's suffix + "_" + 256 random bits; only its
// SHA-256 is stored.
func NewAPIKey(keyID string) (full, visible string) {
	suffix := strings.TrimPrefix(keyID, "key_")
	visible = APIKeyPrefix + suffix
	return visible + "_" + Token(32), visible
}

// LooksLikeAPIKey reports whether s has an API key's shape; it lets the
// authenticator refuse junk without a store round trip.
func LooksLikeAPIKey(s string) bool {
	rest, ok := strings.CutPrefix(s, APIKeyPrefix)
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
