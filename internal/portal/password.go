package portal

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// Password rules: long enough to resist guessing (NIST SP 800-63B asks for
// at least 8; we ask 12), short enough to bound the hash's work.
const (
	MinPassword = 12
	MaxPassword = 256 // bytes
)

// hashPassword returns the argon2id hash of an operator's password (see
// seal.HashPassword).
func hashPassword(password string) string { return seal.HashPassword(password) }

// dummyHash is checked against when there is no account, so that an
// unknown email costs the same time as a wrong password. It is made on
// first use: no work at start-up for commands that never sign anyone in.
var dummyHash = sync.OnceValue(func() string { return hashPassword("no account has this password") })

// checkPassword reports whether password matches a hashPassword hash,
// comparing in constant time. The password is taken as typed.
func checkPassword(hash, password string) (bool, error) { return seal.CheckPassword(hash, password) }

// checkNewPassword applies the password rules. Errors: EINVALID naming
// the field "password".
func checkNewPassword(password, confirm, email string) error {
	switch {
	case utf8.RuneCountInString(password) < MinPassword:
		return sentinel.InvalidField("password", "the password must be at least %d characters long", MinPassword)
	case len(password) > MaxPassword:
		return sentinel.InvalidField("password", "the password must be at most %d bytes long", MaxPassword)
	case !utf8.ValidString(password):
		return sentinel.InvalidField("password", "the password must be valid text")
	case password != confirm:
		return sentinel.InvalidField("password", "the two passwords differ")
	case strings.EqualFold(password, email):
		return sentinel.InvalidField("password", "the password must not be the email address")
	}
	return nil
}
