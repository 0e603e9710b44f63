package seal_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/seal"
)

func TestBox(t *testing.T) {
	key := make([]byte, 32)
	key[0] = 1
	b, err := seal.NewBox(key)
	if err != nil {
		t.Fatal(err)
	}
	ct := b.Seal([]byte("whsec_abc"), []byte("wh_1"))
	pt, err := b.Open(ct, []byte("wh_1"))
	if err != nil || string(pt) != "whsec_abc" {
		t.Fatalf("Open = %q, %v", pt, err)
	}
	if _, err := b.Open(ct, []byte("wh_2")); err == nil {
		t.Error("ciphertext opened under another row's id")
	}
	ct[len(ct)-1] ^= 1
	if _, err := b.Open(ct, []byte("wh_1")); err == nil {
		t.Error("damaged ciphertext opened")
	}
	other, _ := seal.NewBox(make([]byte, 32))
	if _, err := other.Open(b.Seal([]byte("x"), nil), nil); err == nil {
		t.Error("opened with the wrong master key")
	}
	if _, err := seal.NewBox([]byte("short")); err == nil {
		t.Error("short key accepted")
	}
}

func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d", "master.key")
	k1, created, err := seal.LoadOrCreateKeyFile(path)
	if err != nil || !created || len(k1) != 32 {
		t.Fatalf("create: %v %v %d", created, err, len(k1))
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	k2, created, err := seal.LoadOrCreateKeyFile(path)
	if err != nil || created || string(k1) != string(k2) {
		t.Fatalf("reload: %v %v", created, err)
	}
	_ = os.Chmod(path, 0o644)
	if _, _, err := seal.LoadOrCreateKeyFile(path); err == nil {
		t.Error("world-readable key file accepted")
	}
}
