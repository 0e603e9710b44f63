package evidence

import (
	"crypto/rand"
	"crypto/sha256"
	"strings"

	"github.com/sentinel-sca/sentinel/internal/seal"
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

// HashPassword returns the argon2id hash of a share password (see
// seal.HashPassword).
func HashPassword(password string) string { return seal.HashPassword(password) }

// ErrBadHash is returned for a stored hash that is not an argon2id PHC string.
var ErrBadHash = seal.ErrBadHash

// CheckPassword reports whether password matches a HashPassword hash,
// comparing in constant time. Surrounding white space is ignored, as a
// copied password often carries some.
func CheckPassword(hash, password string) (bool, error) {
	return seal.CheckPassword(hash, strings.TrimSpace(password))
}
