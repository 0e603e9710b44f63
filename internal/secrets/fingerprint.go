package secrets

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// MinKeySize is the smallest fingerprint key accepted, in bytes; KeySize is
// the size GenerateKey makes.
const (
	MinKeySize = 16
	KeySize    = 32
)

// fingerprintDomain separates fingerprints from any other use of the same
// key: the MAC input is this string, a zero byte, then the value.
const fingerprintDomain = "sentinel/secret-fingerprint/v1"

// Fingerprinter computes keyed fingerprints of secret values.
//
// A fingerprint is HMAC-SHA256(key, "sentinel/secret-fingerprint/v1" 0x00
// value), truncated to 128 bits and written as 32 lowercase hex digits. An
// unkeyed hash of a secret would let anyone holding a report confirm a
// guess offline, and a password or a short token is easily guessed; the key
// turns that into a question only the key holder can ask. The same value
// under the same key always gives the same fingerprint, so detections
// deduplicate across files, commits and runs; under different keys the
// fingerprints are unrelated.
//
// Two keys exist by design. The agent fingerprints with a key of its own
// (GenerateKey, LoadOrCreateKey, or one the operator provisions to CI so
// that ignore entries stay valid across ephemeral runners); its
// fingerprints are for local output and the ignore file. The service
// recomputes the authoritative fingerprint from the raw value it receives,
// with its own key, and never trusts the agent's: an agent cannot make two
// secrets collide or one secret look like another.
type Fingerprinter struct {
	key   []byte
	keyID string
}

// NewFingerprinter returns a Fingerprinter for key, which must be at least
// MinKeySize bytes. The key is copied.
func NewFingerprinter(key []byte) (*Fingerprinter, error) {
	if len(key) < MinKeySize {
		return nil, fmt.Errorf("fingerprint key must be at least %d bytes, got %d", MinKeySize, len(key))
	}
	k := append([]byte(nil), key...)
	m := hmac.New(sha256.New, k)
	m.Write([]byte("sentinel/secret-fingerprint/key-id"))
	return &Fingerprinter{key: k, keyID: hex.EncodeToString(m.Sum(nil)[:4])}, nil
}

// Fingerprint returns the fingerprint of value (see the type's comment).
func (f *Fingerprinter) Fingerprint(value string) string {
	m := hmac.New(sha256.New, f.key)
	m.Write([]byte(fingerprintDomain))
	m.Write([]byte{0})
	m.Write([]byte(value))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// KeyID names the key in 8 hex digits, derived from it by HMAC so that it
// reveals nothing about it. Reports carry it, so that a reader can tell
// whether two fingerprints were made with the same key and can be compared.
func (f *Fingerprinter) KeyID() string { return f.keyID }

// GenerateKey returns a new random key of KeySize bytes.
func GenerateKey() ([]byte, error) {
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("generate fingerprint key: %w", err)
	}
	return k, nil
}

// ParseKey reads a key written in hex (as LoadOrCreateKey stores it, and as
// an operator would put it in a CI variable).
func ParseKey(s string) ([]byte, error) {
	k, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil, errors.New("fingerprint key must be written in hex")
	}
	if len(k) < MinKeySize {
		return nil, fmt.Errorf("fingerprint key must be at least %d bytes (%d hex digits), got %d bytes", MinKeySize, 2*MinKeySize, len(k))
	}
	return k, nil
}

// LoadOrCreateKey reads the hex key in the file name, or, when the file does
// not exist, generates a key and writes it there with mode 0600 (creating
// the directory with mode 0700). A file that exists but holds no valid key
// is an error, never silently replaced: fingerprints in ignore files depend
// on it.
func LoadOrCreateKey(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err == nil {
		k, err := ParseKey(string(data))
		if err != nil {
			return nil, fmt.Errorf("read fingerprint key %s: %w", name, err)
		}
		return k, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read fingerprint key: %w", err)
	}
	k, err := GenerateKey()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return nil, fmt.Errorf("create fingerprint key: %w", err)
	}
	// Write a temporary file, then link it into place: the link fails if
	// another process created the key first, and a reader never sees a
	// half-written key.
	f, err := os.CreateTemp(filepath.Dir(name), ".fingerprint-key-*")
	if err != nil {
		return nil, fmt.Errorf("create fingerprint key: %w", err)
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return nil, fmt.Errorf("create fingerprint key: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(k) + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("write fingerprint key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("write fingerprint key: %w", err)
	}
	if err := os.Link(f.Name(), name); err != nil {
		if errors.Is(err, os.ErrExist) { // another process won the race: use its key
			return LoadOrCreateKey(name)
		}
		return nil, fmt.Errorf("create fingerprint key: %w", err)
	}
	return k, nil
}
