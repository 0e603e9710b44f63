package sentinel

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

// Identifier prefixes (docs/design.md: a type prefix and a random, URL-safe suffix).
const (
	PrefixOrg        = "org_"
	PrefixKey        = "key_"
	PrefixSubmission = "sub_"
	PrefixAsset      = "ast_"
	PrefixFinding    = "fnd_"
	PrefixScan       = "scan_"
	PrefixBundle     = "bundle_"
	PrefixWebhook    = "wh_"
	PrefixEvent      = "evt_"
	PrefixIOC        = "ioc_"
	PrefixDelivery   = "dlv_"
	PrefixEnrollment = "enr_"
)

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID returns prefix followed by 80 random bits in lowercase base32
// (16 characters): unguessable, URL-safe and easy to read aloud.
func NewID(prefix string) string {
	var b [10]byte
	// Since Go 1.24 crypto/rand.Read never returns an error: it crashes the
	// program instead of handing out predictable bytes.
	_, _ = rand.Read(b[:])
	return prefix + idEncoding.EncodeToString(b[:])
}

// HasPrefix reports whether id has the given type prefix and a non-empty
// suffix of the alphabet NewID uses.
func HasPrefix(id, prefix string) bool {
	s, ok := strings.CutPrefix(id, prefix)
	if !ok || s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
