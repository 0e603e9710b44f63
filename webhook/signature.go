// Package webhook signs and verifies Sentinel's webhook deliveries, and
// describes what a delivery carries: the event envelope and the delivery
// headers.
//
// It serves two callers. Sentinel's own sender uses [SignatureHeader] to sign
// every delivery attempt; consumers use [Verify] (or the ready-made [Handler])
// to check that a request really came from Sentinel and is recent.
//
// A delivery carries the header
//
//	Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>
//
// where the HMAC is keyed with the webhook secret (the whole whsec_... string,
// as returned when the webhook was created) and computed over the decimal
// timestamp, a dot, and the raw request body. During a secret rotation the
// header carries one v1 value per active secret; a consumer accepts the
// delivery when any of them matches.
//
// The rules are the specification's (Events, Signature verification rules);
// docs/webhooks/verify.mjs is a second, independent implementation in Node.js
// that the tests hold to the same answers.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is how far the signed timestamp may lie from the current
// time, in either direction, when a caller passes a tolerance of zero or less.
// It is the value the specification's reference verifiers use.
const DefaultTolerance = 300 * time.Second

// Errors returned by [ParseSignatureHeader], [Verify] and [VerifyAt]. The
// returned errors wrap one of these with detail; test with errors.Is.
var (
	// ErrNoSignature means the header is missing or empty, or carries no v1 value.
	ErrNoSignature = errors.New("webhook: no signature")
	// ErrMalformedHeader means the header cannot be read: a part that is not a
	// key=value pair, a missing or repeated t, or a t that is not a decimal
	// Unix timestamp in seconds.
	ErrMalformedHeader = errors.New("webhook: malformed signature header")
	// ErrTimestampOutOfTolerance means the signed timestamp is further from
	// now than the tolerance allows: a replay, or a badly skewed clock.
	ErrTimestampOutOfTolerance = errors.New("webhook: signature timestamp outside tolerance")
	// ErrSignatureMismatch means no v1 value equals the expected signature:
	// the body was altered, or the secret is not the one Sentinel signed with.
	ErrSignatureMismatch = errors.New("webhook: signature mismatch")
	// ErrNoSecret means the caller passed an empty secret. An empty HMAC key
	// would let anyone forge signatures, so it is refused rather than used.
	ErrNoSecret = errors.New("webhook: empty secret")
)

// Sign returns the lowercase hex HMAC-SHA256, keyed with secret, of the
// decimal Unix time of t (in seconds), a dot, and body.
func Sign(secret string, t time.Time, body []byte) string {
	return sign(secret, t.Unix(), body)
}

func sign(secret string, ts int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	var buf [24]byte
	signed := strconv.AppendInt(buf[:0], ts, 10)
	signed = append(signed, '.')
	mac.Write(signed)
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// SignatureHeader returns the value of the Service-Signature header for body
// signed at t: "t=<unix>,v1=<hex>", with one v1 value per secret, in the order
// given. Sentinel signs with every active secret while a rotation overlaps.
// t must not be before the Unix epoch: verifiers refuse negative timestamps.
func SignatureHeader(t time.Time, body []byte, secrets ...string) string {
	ts := t.Unix()
	var b strings.Builder
	b.Grow(len("t=") + 20 + len(secrets)*(len(",v1=")+sha256.Size*2))
	b.WriteString("t=")
	b.WriteString(strconv.FormatInt(ts, 10))
	for _, s := range secrets {
		b.WriteString(",v1=")
		b.WriteString(sign(s, ts, body))
	}
	return b.String()
}

// ParseSignatureHeader reads a Service-Signature header value. It splits h on
// commas into key=value pairs, trimming spaces and tabs around each pair, key
// and value, and skipping empty parts. Keys are case-sensitive. Unknown keys
// are ignored so that later schemes can be added without breaking consumers.
//
// t must appear exactly once, as a decimal Unix timestamp in seconds: ASCII
// digits only, no sign, no leading zeros, within int64. Every non-empty v1
// value is returned, in order, exactly as written (no case folding). When t is
// valid but no v1 value is present, ParseSignatureHeader returns t and an error
// wrapping [ErrNoSignature].
func ParseSignatureHeader(h string) (t int64, v1 []string, err error) {
	h = trimOWS(h)
	if h == "" {
		return 0, nil, fmt.Errorf("%w: header is empty", ErrNoSignature)
	}
	haveT := false
	for i, part := range strings.Split(h, ",") {
		part = trimOWS(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return 0, nil, fmt.Errorf("%w: part %d is not a key=value pair", ErrMalformedHeader, i+1)
		}
		k, v = trimOWS(k), trimOWS(v)
		switch k {
		case "t":
			if haveT {
				return 0, nil, fmt.Errorf("%w: t appears more than once", ErrMalformedHeader)
			}
			if t, err = parseTimestamp(v); err != nil {
				return 0, nil, err
			}
			haveT = true
		case "v1":
			if v != "" {
				v1 = append(v1, v)
			}
		}
	}
	if !haveT {
		return 0, nil, fmt.Errorf("%w: t is missing", ErrMalformedHeader)
	}
	if len(v1) == 0 {
		return t, nil, fmt.Errorf("%w: no v1 value", ErrNoSignature)
	}
	return t, v1, nil
}

// parseTimestamp accepts only the canonical decimal form, so that the signed
// string rebuilt from the parsed value is byte for byte the one in the header.
func parseTimestamp(v string) (int64, error) {
	bad := fmt.Errorf("%w: t is not a decimal Unix timestamp in seconds", ErrMalformedHeader)
	if v == "" || len(v) > 19 || (len(v) > 1 && v[0] == '0') {
		return 0, bad
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, bad
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, bad
	}
	return n, nil
}

func trimOWS(s string) string { return strings.Trim(s, " \t") }

// Verify checks a delivery against the specification's rules, using the
// current time. See [VerifyAt].
func Verify(secret string, header string, body []byte, tolerance time.Duration) error {
	return VerifyAt(secret, header, body, tolerance, time.Now())
}

// VerifyAt checks a delivery as if the current time were now:
//
//  1. header is parsed by [ParseSignatureHeader];
//  2. the delivery is rejected when |now - t| exceeds tolerance (a tolerance
//     of zero or less means [DefaultTolerance]); exactly tolerance is accepted;
//  3. the signed string is the decimal t, a dot, and body, unchanged;
//  4. the expected value is its lowercase hex HMAC-SHA256 keyed with secret;
//  5. each v1 value is compared with hmac.Equal, and the delivery is accepted
//     when any of them matches. Uppercase hex never matches.
//
// It returns nil for a valid delivery, otherwise an error wrapping
// [ErrNoSecret], [ErrNoSignature], [ErrMalformedHeader],
// [ErrTimestampOutOfTolerance] or [ErrSignatureMismatch].
func VerifyAt(secret string, header string, body []byte, tolerance time.Duration, now time.Time) error {
	if secret == "" {
		return ErrNoSecret
	}
	ts, sigs, err := ParseSignatureHeader(header)
	if err != nil {
		return err
	}
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	if outsideTolerance(now, ts, tolerance) {
		return fmt.Errorf("%w: signed at %d, now %d, tolerance %s",
			ErrTimestampOutOfTolerance, ts, now.Unix(), tolerance)
	}
	expected := []byte(sign(secret, ts, body))
	match := false
	for _, s := range sigs {
		// Compare every value, so timing says nothing about which one matched.
		if hmac.Equal([]byte(s), expected) {
			match = true
		}
	}
	if !match {
		return ErrSignatureMismatch
	}
	return nil
}

// outsideTolerance reports whether |now - ts seconds| > tol, exactly, without
// overflowing for any ts (time.Unix cannot represent the whole int64 range).
func outsideTolerance(now time.Time, ts int64, tol time.Duration) bool {
	ns, frac := now.Unix(), int64(now.Nanosecond())
	// |now - ts| as whole seconds plus nanoseconds in [0, 1e9).
	var secs uint64
	var nanos int64
	if ns >= ts {
		secs, nanos = uint64(ns)-uint64(ts), frac
	} else {
		secs = uint64(ts) - uint64(ns)
		if frac > 0 {
			secs, nanos = secs-1, int64(time.Second)-frac
		}
	}
	tolSecs, tolNanos := uint64(tol/time.Second), int64(tol%time.Second)
	if secs != tolSecs {
		return secs > tolSecs
	}
	return nanos > tolNanos
}
