package wire_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/agents/wire"
)

func TestTokenRoundTrip(t *testing.T) {
	tok := wire.EnrollmentToken{Secret: bytes.Repeat([]byte{0xfb}, 32)}
	for i := range tok.CAFingerprint {
		tok.CAFingerprint[i] = byte(i)
	}
	s := tok.String()
	if !strings.HasPrefix(s, wire.TokenPrefix) || len(s) != len(wire.TokenPrefix)+87 {
		t.Fatalf("String() = %q", s)
	}
	got, err := wire.ParseEnrollmentToken("  " + s + "\n")
	if err != nil || !bytes.Equal(got.Secret, tok.Secret) || got.CAFingerprint != tok.CAFingerprint {
		t.Fatalf("ParseEnrollmentToken(%q) = %+v, %v", s, got, err)
	}
	for _, bad := range []string{"", wire.TokenPrefix, s[:len(s)-1], strings.Replace(s, ".", "_", 1), "sntl_key_" + s[len(wire.TokenPrefix):],
		s[:len(s)-1] + "=", strings.Replace(s, "-", "+", 1)} {
		if _, err := wire.ParseEnrollmentToken(bad); err == nil {
			t.Errorf("ParseEnrollmentToken(%q) accepted", bad)
		}
	}
}

// FuzzParseEnrollmentToken checks that whatever parses is canonical: it
// formats back to the same text and has the right sizes.
func FuzzParseEnrollmentToken(f *testing.F) {
	tok := wire.EnrollmentToken{Secret: make([]byte, 32)}
	f.Add(tok.String())
	f.Add(wire.TokenPrefix + strings.Repeat("A", 43) + "." + strings.Repeat("_", 43))
	f.Add("sntl_enr_x.y")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := wire.ParseEnrollmentToken(s)
		if err != nil {
			return
		}
		if len(got.Secret) != 32 {
			t.Fatalf("secret of %d bytes", len(got.Secret))
		}
		if got.String() != strings.TrimSpace(s) {
			t.Fatalf("ParseEnrollmentToken(%q).String() = %q: not canonical", s, got.String())
		}
	})
}
