package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sentinel-sca/sentinel/webhook"
)

const (
	secret    = "whsec_test_secret"
	oldSecret = "whsec_old_secret"
)

var (
	t0   = time.Unix(1700000000, 0)
	body = []byte(`{"id":"evt_abc","type":"finding.created","created_at":"2023-11-14T22:13:20Z","organization":"acme","data":{}}`)
)

// hmacHex is an independent spelling of rule 3 and 4, so that Sign is not
// tested against itself.
func hmacHex(key, signed string) string {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(signed))
	return hex.EncodeToString(m.Sum(nil))
}

func TestSign(t *testing.T) {
	// Known answer, computed with: printf '1700000000.hello' | openssl dgst -sha256 -hmac whsec_test_secret
	got := webhook.Sign(secret, t0, []byte("hello"))
	const want = "6583e50d5e0beeae6b463269d5ff09d86cd4871f6c6f81ce822a8abd544d7b36"
	if got != want {
		t.Errorf("Sign mismatch: got %s, want %s", got, want)
	}
	if got != strings.ToLower(got) || len(got) != 64 {
		t.Errorf("Sign = %q, want 64 lowercase hex digits", got)
	}
	// Sub-second parts of t are not signed: the header carries whole seconds.
	if s := webhook.Sign(secret, t0.Add(999*time.Millisecond), []byte("hello")); s != got {
		t.Errorf("Sign at t0+999ms = %s, want %s", s, got)
	}
}

func TestSignatureHeader(t *testing.T) {
	tests := []struct {
		name    string
		secrets []string
		want    string
	}{
		{"no_secret", nil, "t=1700000000"},
		{"one_secret", []string{secret}, "t=1700000000,v1=" + hmacHex(secret, "1700000000."+string(body))},
		{"rotation_overlap", []string{secret, oldSecret},
			"t=1700000000,v1=" + hmacHex(secret, "1700000000."+string(body)) +
				",v1=" + hmacHex(oldSecret, "1700000000."+string(body))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := webhook.SignatureHeader(t0, body, tt.secrets...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SignatureHeader mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseSignatureHeader(t *testing.T) {
	tests := []struct {
		name    string
		header  string
		wantT   int64
		wantV1  []string
		wantErr error
	}{
		{"basic", "t=1700000000,v1=abc", 1700000000, []string{"abc"}, nil},
		{"multiple_v1", "t=1,v1=aa,v1=bb", 1, []string{"aa", "bb"}, nil},
		{"order_free", "v1=aa,t=5", 5, []string{"aa"}, nil},
		{"whitespace", " t = 1700000000 ,\tv1= abc ", 1700000000, []string{"abc"}, nil},
		{"empty_parts", ",t=1,,v1=aa,", 1, []string{"aa"}, nil},
		{"unknown_keys_ignored", "t=1,v0=zz,v2=yy,scheme=x,v1=aa", 1, []string{"aa"}, nil},
		{"value_with_equals", "t=1,v1=a=b", 1, []string{"a=b"}, nil},
		{"uppercase_kept", "t=1,v1=ABC", 1, []string{"ABC"}, nil},
		{"zero", "t=0,v1=aa", 0, []string{"aa"}, nil},
		{"int64_max", "t=9223372036854775807,v1=aa", 9223372036854775807, []string{"aa"}, nil},

		{"empty", "", 0, nil, webhook.ErrNoSignature},
		{"blank", "  \t ", 0, nil, webhook.ErrNoSignature},
		{"no_v1", "t=1", 1, nil, webhook.ErrNoSignature},
		{"empty_v1", "t=1,v1=", 1, nil, webhook.ErrNoSignature},
		{"missing_t", "v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"uppercase_key", "T=1,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"empty_t", "t=,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"non_numeric_t", "t=abc,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"float_t", "t=1700000000.5,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"negative_t", "t=-1,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"plus_t", "t=+1,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"leading_zero_t", "t=01700000000,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"hex_t", "t=0x10,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"milliseconds_overflow_t", "t=9223372036854775808,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"inner_space_t", "t=17 00,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"unicode_digit_t", "t=１,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"duplicate_t", "t=1,t=2,v1=abc", 0, nil, webhook.ErrMalformedHeader},
		{"not_a_pair", "t=1,v1abc", 0, nil, webhook.ErrMalformedHeader},
		{"semicolons", "t=1;v1=abc", 0, nil, webhook.ErrMalformedHeader},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotT, gotV1, err := webhook.ParseSignatureHeader(tt.header)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("ParseSignatureHeader(%q) error = %v, want %v", tt.header, err, tt.wantErr)
			}
			if gotT != tt.wantT {
				t.Errorf("ParseSignatureHeader(%q) t = %d, want %d", tt.header, gotT, tt.wantT)
			}
			if diff := cmp.Diff(tt.wantV1, gotV1); diff != "" {
				t.Errorf("ParseSignatureHeader(%q) v1 mismatch (-want +got):\n%s", tt.header, diff)
			}
		})
	}
}

func TestVerifyAt(t *testing.T) {
	ts := strconv.FormatInt(t0.Unix(), 10)
	good := hmacHex(secret, ts+"."+string(body))
	goodOld := hmacHex(oldSecret, ts+"."+string(body))
	tol := 300 * time.Second

	tests := []struct {
		name      string
		secret    string
		header    string
		body      []byte
		tolerance time.Duration
		now       time.Time
		wantErr   error
	}{
		// Rule 1: parsing.
		{"valid", secret, "t=" + ts + ",v1=" + good, body, tol, t0, nil},
		{"valid_whitespace", secret, "t=" + ts + ", v1=" + good + " ", body, tol, t0, nil},
		{"valid_unknown_key", secret, "t=" + ts + ",v2=zzz,v1=" + good, body, tol, t0, nil},
		{"missing_header", secret, "", body, tol, t0, webhook.ErrNoSignature},
		{"missing_v1", secret, "t=" + ts, body, tol, t0, webhook.ErrNoSignature},
		{"missing_t", secret, "v1=" + good, body, tol, t0, webhook.ErrMalformedHeader},
		{"non_numeric_t", secret, "t=now,v1=" + good, body, tol, t0, webhook.ErrMalformedHeader},
		{"t_in_milliseconds", secret, "t=" + ts + "000,v1=" + good, body, tol, t0, webhook.ErrTimestampOutOfTolerance},

		// Rule 2: tolerance, both directions, at the edges.
		{"now_plus_tolerance", secret, "t=" + ts + ",v1=" + good, body, tol, t0.Add(tol), nil},
		{"now_minus_tolerance", secret, "t=" + ts + ",v1=" + good, body, tol, t0.Add(-tol), nil},
		{"just_past_tolerance", secret, "t=" + ts + ",v1=" + good, body, tol, t0.Add(tol + time.Nanosecond), webhook.ErrTimestampOutOfTolerance},
		{"just_before_tolerance", secret, "t=" + ts + ",v1=" + good, body, tol, t0.Add(-tol - time.Nanosecond), webhook.ErrTimestampOutOfTolerance},
		{"one_second_past", secret, "t=" + ts + ",v1=" + good, body, tol, t0.Add(tol + time.Second), webhook.ErrTimestampOutOfTolerance},
		{"one_second_early", secret, "t=" + ts + ",v1=" + good, body, tol, t0.Add(-tol - time.Second), webhook.ErrTimestampOutOfTolerance},
		{"zero_tolerance_means_default", secret, "t=" + ts + ",v1=" + good, body, 0, t0.Add(webhook.DefaultTolerance), nil},
		{"zero_tolerance_default_edge", secret, "t=" + ts + ",v1=" + good, body, 0, t0.Add(webhook.DefaultTolerance + time.Millisecond), webhook.ErrTimestampOutOfTolerance},
		{"negative_tolerance_means_default", secret, "t=" + ts + ",v1=" + good, body, -time.Second, t0.Add(time.Minute), nil},
		{"short_tolerance", secret, "t=" + ts + ",v1=" + good, body, 10 * time.Second, t0.Add(11 * time.Second), webhook.ErrTimestampOutOfTolerance},
		{"replayed_day_later", secret, "t=" + ts + ",v1=" + good, body, tol, t0.Add(24 * time.Hour), webhook.ErrTimestampOutOfTolerance},
		{"t_zero", secret, "t=0,v1=" + hmacHex(secret, "0."+string(body)), body, tol, t0, webhook.ErrTimestampOutOfTolerance},
		{"t_int64_max", secret, "t=9223372036854775807,v1=" + good, body, tol, t0, webhook.ErrTimestampOutOfTolerance},
		// The timestamp check comes before the HMAC: a stale but otherwise
		// valid signature is reported as stale.
		{"stale_and_tampered", secret, "t=" + ts + ",v1=" + good, []byte("x"), tol, t0.Add(time.Hour), webhook.ErrTimestampOutOfTolerance},

		// Rule 3: the signed string is t, a dot, the raw body.
		{"tampered_body", secret, "t=" + ts + ",v1=" + good, append([]byte(nil), append(body, ' ')...), tol, t0, webhook.ErrSignatureMismatch},
		{"reencoded_body", secret, "t=" + ts + ",v1=" + good, []byte(strings.ReplaceAll(string(body), ",", ", ")), tol, t0, webhook.ErrSignatureMismatch},
		{"empty_body", secret, "t=" + ts + ",v1=" + hmacHex(secret, ts+"."), nil, tol, t0, nil},
		{"signed_without_dot", secret, "t=" + ts + ",v1=" + hmacHex(secret, ts+string(body)), body, tol, t0, webhook.ErrSignatureMismatch},
		{"body_only_signed", secret, "t=" + ts + ",v1=" + hmacHex(secret, string(body)), body, tol, t0, webhook.ErrSignatureMismatch},
		{"other_timestamp_signed", secret, "t=" + ts + ",v1=" + hmacHex(secret, "1700000001."+string(body)), body, tol, t0, webhook.ErrSignatureMismatch},

		// Rule 4: lowercase hex HMAC-SHA256 keyed with the secret.
		{"wrong_secret", "whsec_other", "t=" + ts + ",v1=" + good, body, tol, t0, webhook.ErrSignatureMismatch},
		{"secret_without_prefix", strings.TrimPrefix(secret, "whsec_"), "t=" + ts + ",v1=" + good, body, tol, t0, webhook.ErrSignatureMismatch},
		{"uppercase_hex", secret, "t=" + ts + ",v1=" + strings.ToUpper(good), body, tol, t0, webhook.ErrSignatureMismatch},
		{"truncated_hex", secret, "t=" + ts + ",v1=" + good[:63], body, tol, t0, webhook.ErrSignatureMismatch},
		{"prefix_of_hex", secret, "t=" + ts + ",v1=" + good[:2], body, tol, t0, webhook.ErrSignatureMismatch},
		{"extended_hex", secret, "t=" + ts + ",v1=" + good + "00", body, tol, t0, webhook.ErrSignatureMismatch},
		{"base64_digest", secret, "t=" + ts + ",v1=" + "not-hex", body, tol, t0, webhook.ErrSignatureMismatch},
		{"empty_secret", "", "t=" + ts + ",v1=" + hmacHex("", ts+"."+string(body)), body, tol, t0, webhook.ErrNoSecret},

		// Rule 5: any v1 may match.
		{"second_v1_matches", secret, "t=" + ts + ",v1=" + goodOld + ",v1=" + good, body, tol, t0, nil},
		{"first_v1_matches", secret, "t=" + ts + ",v1=" + good + ",v1=" + goodOld, body, tol, t0, nil},
		{"old_secret_during_rotation", oldSecret, "t=" + ts + ",v1=" + good + ",v1=" + goodOld, body, tol, t0, nil},
		{"no_v1_matches", secret, "t=" + ts + ",v1=" + goodOld + ",v1=" + strings.Repeat("0", 64), body, tol, t0, webhook.ErrSignatureMismatch},
		{"signature_under_unknown_key", secret, "t=" + ts + ",v0=" + good + ",v1=" + goodOld, body, tol, t0, webhook.ErrSignatureMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := webhook.VerifyAt(tt.secret, tt.header, tt.body, tt.tolerance, tt.now)
			if tt.wantErr == nil && err != nil {
				t.Fatalf("VerifyAt(%q) = %v, want nil", tt.header, err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("VerifyAt(%q) = %v, want %v", tt.header, err, tt.wantErr)
			}
		})
	}
}

func TestVerify_RoundTrip(t *testing.T) {
	now := time.Now()
	h := webhook.SignatureHeader(now, body, secret, oldSecret)
	for _, s := range []string{secret, oldSecret} {
		if err := webhook.Verify(s, h, body, 0); err != nil {
			t.Errorf("Verify(%q, SignatureHeader(now)) = %v, want nil", s, err)
		}
	}
	if err := webhook.Verify("whsec_other", h, body, 0); !errors.Is(err, webhook.ErrSignatureMismatch) {
		t.Errorf("Verify with an unrelated secret = %v, want ErrSignatureMismatch", err)
	}
}

func TestErrorsAreDistinct(t *testing.T) {
	all := []error{webhook.ErrNoSignature, webhook.ErrMalformedHeader, webhook.ErrTimestampOutOfTolerance,
		webhook.ErrSignatureMismatch, webhook.ErrNoSecret}
	for i, a := range all {
		for j, b := range all {
			if i != j && errors.Is(a, b) {
				t.Errorf("errors.Is(%v, %v) = true", a, b)
			}
		}
	}
}
