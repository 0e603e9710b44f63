package wire

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// Enrollment token format (version 1):
//
//	sntl_enr_<secret>.<fingerprint>
//
// secret is 32 random bytes and fingerprint the SHA-256 of the agent server
// CA certificate (DER), both in unpadded base64url (43 characters each).
// The service stores only the SHA-256 of the secret. The fingerprint is not
// secret: it is how the agent, before it trusts anything, authenticates the
// agent listener (the same idea as kubeadm's --discovery-token-ca-cert-hash),
// so a token cannot be redeemed at an impostor that would learn the secret.
const TokenPrefix = "sntl_enr_"

// EnrollmentToken is a parsed enrollment token.
type EnrollmentToken struct {
	Secret []byte
	// CAFingerprint is the SHA-256 of the agent server CA certificate.
	CAFingerprint [32]byte
}

// String formats the token.
func (t EnrollmentToken) String() string {
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(t.Secret) + "." + base64.RawURLEncoding.EncodeToString(t.CAFingerprint[:])
}

// Hash is the stored form of the token's secret.
func (t EnrollmentToken) Hash() []byte {
	h := sha256.Sum256(t.Secret)
	return h[:]
}

// ErrMalformedToken is returned by ParseEnrollmentToken.
var ErrMalformedToken = errors.New("malformed enrollment token: expected sntl_enr_<secret>.<fingerprint> as printed by sentineld admin create-enrollment-token")

// ParseEnrollmentToken parses a token as String writes it. Surrounding
// white space is ignored (tokens are pasted).
func ParseEnrollmentToken(s string) (EnrollmentToken, error) {
	var t EnrollmentToken
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), TokenPrefix)
	if !ok || len(rest) != 43+1+43 {
		return t, ErrMalformedToken
	}
	sec, fp, ok := strings.Cut(rest, ".")
	if !ok {
		return t, ErrMalformedToken
	}
	secret, err := base64.RawURLEncoding.Strict().DecodeString(sec)
	if err != nil || len(secret) != 32 {
		return t, ErrMalformedToken
	}
	f, err := base64.RawURLEncoding.Strict().DecodeString(fp)
	if err != nil || len(f) != 32 {
		return t, ErrMalformedToken
	}
	t.Secret = secret
	copy(t.CAFingerprint[:], f)
	return t, nil
}
