package httpapi_test

import (
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

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
			got, err := httpapi.ParseAuthorization(tc.header)
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
		key, err := httpapi.ParseAuthorization(h)
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

type fuzzBody struct {
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
	N      int      `json:"n"`
	Sub    *struct {
		A bool `json:"a"`
	} `json:"sub"`
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"name":"x","scopes":["a"],"n":3,"sub":{"a":true}}`, `{"unknown":1}`, `[]`, `{"n":"x"}`, `{} {}`, ``, `{"sub":{"b":1}}`, `nul`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v fuzzBody
		err := httpapi.DecodeJSON(strings.NewReader(string(data)), 1<<16, &v)
		if err == nil {
			return
		}
		switch sentinel.ErrorCode(err) {
		case sentinel.EINVALID, sentinel.ETOOLARGE:
		default:
			t.Fatalf("DecodeJSON(%q): unexpected error %v", data, err)
		}
		if e := sentinel.AsError(err); e.Message == "" {
			t.Fatalf("DecodeJSON(%q): error without a message", data)
		}
	})
}
