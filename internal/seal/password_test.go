package seal_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/seal"
)

func TestPasswordHash(t *testing.T) {
	h := seal.HashPassword("correct horse battery")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not the PHC string of the configured parameters", h)
	}
	if h2 := seal.HashPassword("correct horse battery"); h2 == h {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	for pw, want := range map[string]bool{"correct horse battery": true, "correct horse battery ": false, "": false} {
		if ok, err := seal.CheckPassword(h, pw); err != nil || ok != want {
			t.Errorf("CheckPassword(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	parts := strings.Split(h, "$")
	for name, bad := range map[string]string{
		"empty":        "",
		"bcrypt":       "$2a$10$abcdefghijklmnopqrstuu",
		"argon2i":      strings.Replace(h, "argon2id", "argon2i", 1),
		"version":      strings.Replace(h, "v=19", "v=16", 1),
		"huge memory":  strings.Join([]string{"", "argon2id", "v=19", "m=4194304,t=2,p=1", parts[4], parts[5]}, "$"),
		"many passes":  strings.Join([]string{"", "argon2id", "v=19", "m=19456,t=1000,p=1", parts[4], parts[5]}, "$"),
		"bad salt":     strings.Join([]string{"", "argon2id", "v=19", "m=19456,t=2,p=1", "!!", parts[5]}, "$"),
		"missing hash": strings.Join([]string{"", "argon2id", "v=19", "m=19456,t=2,p=1", parts[4], ""}, "$"),
	} {
		if ok, err := seal.CheckPassword(bad, "correct horse battery"); ok || !errors.Is(err, seal.ErrBadHash) {
			t.Errorf("%s: CheckPassword = %v, %v; want false, ErrBadHash", name, ok, err)
		}
	}
}
