package webhook_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/webhook"
)

// FuzzParseSignatureHeader checks that parsing never panics, that its result
// obeys the documented contract, and that a parsed header re-rendered in
// canonical form parses to the same values.
// Seeds: testdata/fuzz/FuzzParseSignatureHeader.
func FuzzParseSignatureHeader(f *testing.F) {
	f.Add("t=1700000000,v1=6583e50d5e0beeae6b463269d5ff09d86cd4871f6c6f81ce822a8abd544d7b36")
	f.Fuzz(func(t *testing.T, h string) {
		ts, v1, err := webhook.ParseSignatureHeader(h)
		if err != nil {
			if !errors.Is(err, webhook.ErrNoSignature) && !errors.Is(err, webhook.ErrMalformedHeader) {
				t.Fatalf("ParseSignatureHeader(%q) error %v wraps neither ErrNoSignature nor ErrMalformedHeader", h, err)
			}
			if v1 != nil {
				t.Fatalf("ParseSignatureHeader(%q) returned v1 %q with error %v", h, v1, err)
			}
			return
		}
		if ts < 0 {
			t.Fatalf("ParseSignatureHeader(%q) t = %d, want >= 0", h, ts)
		}
		if len(v1) == 0 {
			t.Fatalf("ParseSignatureHeader(%q) = no v1 and no error", h)
		}
		canon := "t=" + strconv.FormatInt(ts, 10)
		for _, v := range v1 {
			if v == "" || strings.ContainsAny(v, ",") || strings.TrimLeft(v, " \t") != v || strings.TrimRight(v, " \t") != v {
				t.Fatalf("ParseSignatureHeader(%q) v1 value %q is empty, has a comma or untrimmed", h, v)
			}
			canon += ",v1=" + v
		}
		ts2, v12, err := webhook.ParseSignatureHeader(canon)
		if err != nil || ts2 != ts || strings.Join(v12, ",") != strings.Join(v1, ",") {
			t.Fatalf("re-parse of %q (from %q) = %d, %q, %v; want %d, %q", canon, h, ts2, v12, err, ts, v1)
		}
	})
}

// FuzzVerify checks, for arbitrary secrets, times, bodies and headers, that
// what Sentinel signs verifies, that changing the body or the secret breaks
// it, and that Verify accepts a foreign header only when one of its v1
// values is exactly the signature Sign produces.
// Seeds: testdata/fuzz/FuzzVerify.
func FuzzVerify(f *testing.F) {
	f.Add("whsec_abc", int64(1700000000), []byte(`{"id":"evt_1"}`), "t=1700000000,v1=00", int64(0))
	f.Fuzz(func(t *testing.T, secret string, ts int64, body []byte, header string, skew int64) {
		if ts < 0 || ts > 1<<40 {
			ts &= 1<<40 - 1 // a time.Time the standard library can hold
		}
		signedAt := time.Unix(ts, 0)
		now := signedAt.Add(time.Duration(skew%600) * time.Second)
		const tol = 300 * time.Second
		inTolerance := skew%600 >= -300 && skew%600 <= 300

		// Property 1: our own header verifies, within tolerance, for every secret it holds.
		h := webhook.SignatureHeader(signedAt, body, secret, "whsec_second")
		err := webhook.VerifyAt(secret, h, body, tol, now)
		switch {
		case secret == "":
			if !errors.Is(err, webhook.ErrNoSecret) {
				t.Fatalf("VerifyAt with empty secret = %v, want ErrNoSecret", err)
			}
		case inTolerance && err != nil:
			t.Fatalf("VerifyAt(own header %q, skew %ds) = %v, want nil", h, skew%600, err)
		case !inTolerance && !errors.Is(err, webhook.ErrTimestampOutOfTolerance):
			t.Fatalf("VerifyAt(own header, skew %ds) = %v, want ErrTimestampOutOfTolerance", skew%600, err)
		}

		// Property 2: a changed body or another secret never verifies.
		if secret != "" {
			tampered := append(append([]byte(nil), body...), 'x')
			if err := webhook.VerifyAt(secret, h, tampered, tol, signedAt); !errors.Is(err, webhook.ErrSignatureMismatch) {
				t.Fatalf("VerifyAt(tampered body) = %v, want ErrSignatureMismatch", err)
			}
			if secret != "whsec_second" {
				if err := webhook.VerifyAt(secret+"x", h, body, tol, signedAt); !errors.Is(err, webhook.ErrSignatureMismatch) {
					t.Fatalf("VerifyAt(other secret) = %v, want ErrSignatureMismatch", err)
				}
			}
		}

		// Property 3: an arbitrary header verifies only if it carries the
		// exact lowercase signature for its own t.
		if webhook.VerifyAt(secret, header, body, tol, now) == nil {
			pt, v1, perr := webhook.ParseSignatureHeader(header)
			if perr != nil {
				t.Fatalf("VerifyAt accepted %q, which does not parse: %v", header, perr)
			}
			want := webhook.Sign(secret, time.Unix(pt, 0), body)
			found := false
			for _, v := range v1 {
				found = found || v == want
			}
			if !found {
				t.Fatalf("VerifyAt accepted %q without a v1 equal to %s", header, want)
			}
		}
	})
}
