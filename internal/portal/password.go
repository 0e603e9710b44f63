package portal

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"github.com/sentinel-sca/sentinel"
)

// Argon2id parameters for operator passwords: OWASP's recommended
// configuration of 19 MiB, 2 passes, 1 lane (about 50 ms on one core).
// People choose these passwords, so the hash must make a stolen table slow
// to guess; the sign-in throttle makes online guessing slow.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
)

// Password rules: long enough to resist guessing (NIST SP 800-63B asks for
// at least 8; we ask 12), short enough to bound the hash's work.
const (
	MinPassword = 12
	MaxPassword = 256 // bytes
)

// hashPassword returns the argon2id hash of password as a PHC string:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>.
func hashPassword(password string) string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		enc.EncodeToString(salt), enc.EncodeToString(key))
}

var errBadHash = errors.New("password hash is not an argon2id PHC string")

// dummyHash is checked against when there is no account, so that an
// unknown email costs the same time as a wrong password. It is made on
// first use: no work at start-up for commands that never sign anyone in.
var dummyHash = sync.OnceValue(func() string { return hashPassword("no account has this password") })

// checkPassword reports whether password matches a hashPassword hash,
// comparing in constant time. The password is taken as typed.
func checkPassword(hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var v int
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m > 1<<20 || t > 16 || p == 0 {
		return false, errBadHash
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := enc.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

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
