package evidence

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/sentinel-sca/sentinel/internal/seal"
)

// Argon2id parameters for share passwords: OWASP's minimum recommendation
// (19 MiB, 2 passes, 1 lane). The passwords are random and long (120 bits),
// so the hash guards a database leak rather than weak choices, and modest
// parameters keep ten concurrent attempts well inside the memory budget.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
)

// TokenBytes is the share token's size: 256 random bits.
const TokenBytes = 32

// NewShareToken returns a random share token (256 bits, URL-safe base64)
// and the SHA-256 under which it is stored. A token this long needs no
// slow hash: it cannot be guessed, only leaked.
func NewShareToken() (token string, hash []byte) {
	token = seal.Token(TokenBytes)
	return token, HashToken(token)
}

// HashToken returns the stored form of a share token or session cookie.
func HashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// passwordAlphabet avoids characters that read alike (0/o, 1/l/i).
const passwordAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// NewPassword returns a random share password: six groups of four
// characters from a 31-letter alphabet (about 119 bits), easy to read out
// over the phone and to type.
func NewPassword() string {
	var b strings.Builder
	buf := make([]byte, 1)
	for i := 0; i < 24; {
		_, _ = rand.Read(buf)
		// Reject the top of the byte range to keep the choice uniform.
		if int(buf[0]) >= 256-256%len(passwordAlphabet) {
			continue
		}
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(passwordAlphabet[int(buf[0])%len(passwordAlphabet)])
		i++
	}
	return b.String()
}

// HashPassword returns the argon2id hash of password in the PHC string
// format: $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>.
func HashPassword(password string) string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key))
}

// ErrBadHash is returned for a stored hash that is not an argon2id PHC string.
var ErrBadHash = errors.New("password hash is not an argon2id PHC string")

// CheckPassword reports whether password matches a HashPassword hash,
// comparing in constant time. Surrounding white space is ignored, as a
// copied password often carries some.
func CheckPassword(hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, ErrBadHash
	}
	var v int
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false, ErrBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m > 1<<20 || t > 16 || p == 0 {
		return false, ErrBadHash
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[4])
	if err != nil {
		return false, ErrBadHash
	}
	want, err := enc.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, ErrBadHash
	}
	got := argon2.IDKey([]byte(strings.TrimSpace(password)), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
