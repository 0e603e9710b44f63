// Package seal encrypts secrets at rest (webhook secrets, signing and agent
// CA keys) with the deployment's master key, and makes random tokens.
//
// Encryption is AES-256-GCM with a random nonce; a ciphertext starts with a
// version byte so the scheme can change without a flag day.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the master key's size in bytes.
const KeySize = 32

const version1 = 1

// Box encrypts and decrypts with one master key.
type Box struct {
	aead cipher.AEAD
}

// NewBox returns a Box for a 32-byte master key.
func NewBox(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("master key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Seal encrypts plaintext. ad (associated data, e.g. the owning row's id)
// binds the ciphertext to its place: it cannot be moved to another row.
func (b *Box) Seal(plaintext, ad []byte) []byte {
	nonce := make([]byte, b.aead.NonceSize())
	_, _ = rand.Read(nonce)
	out := append([]byte{version1}, nonce...)
	return b.aead.Seal(out, nonce, plaintext, ad)
}

// ErrDecrypt means a ciphertext could not be opened: wrong master key,
// wrong associated data, or damaged bytes.
var ErrDecrypt = errors.New("seal: cannot decrypt (wrong master key or damaged data)")

// Open decrypts a ciphertext made by Seal with the same ad.
func (b *Box) Open(ciphertext, ad []byte) ([]byte, error) {
	ns := b.aead.NonceSize()
	if len(ciphertext) < 1+ns || ciphertext[0] != version1 {
		return nil, ErrDecrypt
	}
	pt, err := b.aead.Open(nil, ciphertext[1:1+ns], ciphertext[1+ns:], ad)
	if err != nil {
		return nil, ErrDecrypt
	}
	return pt, nil
}

// ParseKey decodes a master key given as 64 hex characters or base64.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if b, err := hex.DecodeString(s); err == nil && len(b) == KeySize {
		return b, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == KeySize {
			return b, nil
		}
	}
	return nil, errors.New("master key must be 32 bytes, as 64 hex characters or base64")
}

// LoadOrCreateKeyFile reads the master key from path, or creates it with
// 0600 permissions when it does not exist (embedded mode's first run). It
// refuses a key file that others can read.
func LoadOrCreateKeyFile(path string) (key []byte, created bool, err error) {
	b, err := os.ReadFile(path)
	if err == nil {
		st, err := os.Stat(path)
		if err != nil {
			return nil, false, err
		}
		if st.Mode().Perm()&0o077 != 0 {
			return nil, false, fmt.Errorf("master key file %s is readable by others (mode %v): run chmod 600 %s", path, st.Mode().Perm(), path)
		}
		k, err := ParseKey(string(b))
		if err != nil {
			return nil, false, fmt.Errorf("master key file %s: %w", path, err)
		}
		return k, false, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, err
	}
	k := make([]byte, KeySize)
	_, _ = rand.Read(k)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("create master key file: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(k) + "\n"); err != nil {
		f.Close()
		return nil, false, err
	}
	return k, true, f.Close()
}

// Token returns n random bytes in URL-safe base64 without padding.
func Token(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
