package keys_test

import (
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/keys"
)

func TestAPIKeyShape(t *testing.T) {
	full, visible := keys.New("key_abcdefgh23456789")
	if !keys.LooksLike(full) {
		t.Errorf("%q does not look like a key", full)
	}
	if visible != "sntl_abcdefgh23456789" || len(full) < len(visible)+40 {
		t.Errorf("full %q visible %q", full, visible)
	}
	for _, bad := range []string{"", "sntl_", "sntl_abc_short", "Bearer x", full + "!"} {
		if keys.LooksLike(bad) {
			t.Errorf("LooksLike(%q) = true", bad)
		}
	}
}

func TestParseAuthorization(t *testing.T) {
	good := "sntl_abcdefgh23456789_" + strings.Repeat("A", 43)
	tests := []struct {
		name, header, want string
		ok                 bool
	}{
		{"ok", "ApiKey " + good, good, true},
		{"scheme_case_insensitive", "apikey " + good, good, true},
		{"extra_space", "ApiKey   " + good, good, true},
		{"empty", "", "", false},
		{"bearer", "Bearer " + good, "", false},
		{"no_key", "ApiKey", "", false},
		{"junk_key", "ApiKey hunter2", "", false},
		{"two_keys", "ApiKey " + good + " " + good, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := keys.ParseAuthorization(tc.header)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("ParseAuthorization(%q) = %q, %v", tc.header, got, err)
			}
			if err != nil && sentinel.ErrorCode(err) != sentinel.EUNAUTHORIZED {
				t.Errorf("error code %q", sentinel.ErrorCode(err))
			}
		})
	}
}

func FuzzParseAuthorization(f *testing.F) {
	for _, s := range []string{"", "ApiKey ", "ApiKey sntl_a_" + strings.Repeat("b", 40), "Bearer x", "apikey\tsntl_", "ApiKey sntl_\x00_" + strings.Repeat("x", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		key, err := keys.ParseAuthorization(h)
		if err != nil {
			if key != "" || sentinel.ErrorCode(err) != sentinel.EUNAUTHORIZED {
				t.Fatalf("error with key %q, code %q", key, sentinel.ErrorCode(err))
			}
			return
		}
		if !strings.HasPrefix(key, "sntl_") || strings.ContainsAny(key, " \t\r\n") || !strings.Contains(h, key) {
			t.Fatalf("accepted key %q from %q", key, h)
		}
	})
}
