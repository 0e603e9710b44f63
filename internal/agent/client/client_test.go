package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/agent/client"
)

// mustClient returns a client of srv under the path prefix /api, whose
// sleeps are recorded in *sleeps and return at once.
func mustClient(tb testing.TB, srv *httptest.Server, o client.Options, sleeps *[]time.Duration) *client.Client {
	tb.Helper()
	base, err := url.Parse(srv.URL + "/api")
	if err != nil {
		tb.Fatal(err)
	}
	if sleeps != nil {
		o.Sleep = func(_ context.Context, d time.Duration) error {
			*sleeps = append(*sleeps, d)
			return nil
		}
	}
	c := client.New(base, o)
	tb.Cleanup(c.Close)
	return c
}

// TestDoJSON: the request carries the key, the User-Agent and the JSON
// body at the joined path, and the answer is decoded.
func TestDoJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Purls []string }
		_ = json.NewDecoder(r.Body).Decode(&in)
		got := fmt.Sprintf("%s %s?%s auth=%q ua=%q ct=%q purls=%v", r.Method, r.URL.Path, r.URL.RawQuery,
			r.Header.Get("Authorization"), r.Header.Get("User-Agent"), r.Header.Get("Content-Type"), in.Purls)
		json.NewEncoder(w).Encode(map[string]string{"got": got})
	}))
	defer srv.Close()
	var out struct{ Got string }
	c := mustClient(t, srv, client.Options{APIKey: "k", UserAgent: "sentinel/test"}, nil)
	err := c.Do(context.Background(), client.Request{Method: "POST", Path: "/v1/sca/gate", Query: url.Values{"host": {"h 1"}},
		JSON: map[string][]string{"purls": {"pkg:npm/a@1"}}, Want: http.StatusOK}, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := `POST /api/v1/sca/gate?host=h+1 auth="ApiKey k" ua="sentinel/test" ct="application/json" purls=[pkg:npm/a@1]`
	if diff := cmp.Diff(want, out.Got); diff != "" {
		t.Errorf("Do request mismatch (-want +got):\n%s", diff)
	}

	// Without a key (enrollment) there is no Authorization at all.
	c = mustClient(t, srv, client.Options{}, nil)
	if err := c.Do(context.Background(), client.Request{Method: "GET", Path: "/ca"}, &out); err != nil {
		t.Fatal(err)
	}
	if want := `GET /api/ca? auth="" ua="sentinel" ct="" purls=[]`; out.Got != want {
		t.Errorf("Do without a key sent %s, want %s", out.Got, want)
	}
}

// TestErrorAnswer: any status but the wanted one is an *Error carrying the
// service's error body and Retry-After.
func TestErrorAnswer(t *testing.T) {
	for _, tc := range []struct {
		name       string
		status     int
		header     string
		body       string
		want       client.Error
		text       string
		statusLine string
	}{
		{"unauthenticated", 401, "", `{"error":"unauthenticated","message":"unknown API key","request_id":"r"}`,
			client.Error{Status: 401, Code: "unauthenticated", Message: "unknown API key"},
			"unknown API key (unauthenticated, HTTP 401)", "401 Unauthorized unauthenticated: unknown API key"},
		{"insufficient_scope", 403, "", `{"error":"insufficient_scope","message":"needs sca:read","required_scope":"sca:read"}`,
			client.Error{Status: 403, Code: "insufficient_scope", Message: "needs sca:read", Scope: "sca:read"},
			"needs sca:read (insufficient_scope, HTTP 403)", "403 Forbidden insufficient_scope: needs sca:read"},
		{"scan_capacity", 429, "45", `{"error":"scan_capacity","message":"busy"}`,
			client.Error{Status: 429, Code: "scan_capacity", Message: "busy", RetryAfter: 45 * time.Second},
			"busy (scan_capacity, HTTP 429)", "429 Too Many Requests scan_capacity: busy"},
		{"edge_network", 502, "", `<html>bad gateway</html>`,
			client.Error{Status: 502},
			"the service answered 502 Bad Gateway", "502 Bad Gateway"},
		{"success_but_not_wanted", 200, "", `{}`,
			client.Error{Status: 200},
			"the service answered 200 OK", "200 OK"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.header != "" {
					w.Header().Set("Retry-After", tc.header)
				}
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			err := mustClient(t, srv, client.Options{}, nil).Do(context.Background(), client.Request{Method: "GET", Path: "/x", Want: http.StatusCreated}, nil)
			var e *client.Error
			if !errors.As(err, &e) {
				t.Fatalf("Do error = %v, want a *client.Error", err)
			}
			if diff := cmp.Diff(tc.want, *e); diff != "" {
				t.Errorf("Do error mismatch (-want +got):\n%s", diff)
			}
			if e.Error() != tc.text || e.StatusLine() != tc.statusLine {
				t.Errorf("Error() = %q, StatusLine() = %q; want %q, %q", e.Error(), e.StatusLine(), tc.text, tc.statusLine)
			}
		})
	}
}

// TestBadAnswer: a success whose body cannot be decoded, or is over the
// limit, wraps ErrBadAnswer.
func TestBadAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/big" {
			io.WriteString(w, `{"results": ["`+strings.Repeat("a", 100)+`"]}`)
			return
		}
		io.WriteString(w, `not json`)
	}))
	defer srv.Close()
	c := mustClient(t, srv, client.Options{}, nil)
	var out map[string]any
	for path, want := range map[string]string{"/garbage": "read the service's answer: invalid character", "/big": "read the service's answer: larger than 64 bytes"} {
		err := c.Do(context.Background(), client.Request{Method: "GET", Path: path, MaxAnswer: 64}, &out)
		if !errors.Is(err, client.ErrBadAnswer) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Do(%s) error = %v, want ErrBadAnswer and %q", path, err, want)
		}
		var e *client.Error
		if errors.As(err, &e) {
			t.Errorf("Do(%s) error is a *client.Error: %v", path, e)
		}
	}
}

// TestRetryPolicy: the specification's policy (Limits, rule 5): only a 429
// that is not scan_capacity is retried, starting from Retry-After (default
// 30 s), doubling, with up to 50% jitter, at most 5 attempts; a raw body
// is sent whole on every attempt.
func TestRetryPolicy(t *testing.T) {
	for _, tc := range []struct {
		name       string
		failures   int // error answers before a 201
		status     int
		code       string
		retryAfter string
		attempts   int32
		minDelays  []time.Duration
		wantErr    bool
	}{
		{"rate_limited_then_ok", 2, 429, "rate_limited", "20", 3, []time.Duration{20 * time.Second, 40 * time.Second}, false},
		{"rate_limited_gives_up", 9, 429, "rate_limited", "20", 5, []time.Duration{20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second}, true},
		{"default_delay", 1, 429, "rate_limited", "", 2, []time.Duration{30 * time.Second}, false},
		{"edge_429_without_code", 1, 429, "", "7", 2, []time.Duration{7 * time.Second}, false},
		{"scan_capacity_not_retried", 9, 429, "scan_capacity", "30", 1, nil, true},
		{"unavailable_not_retried", 9, 503, "unavailable", "30", 1, nil, true},
		{"forbidden_not_retried", 9, 403, "metered", "", 1, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var attempts atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := attempts.Add(1)
				if b, _ := io.ReadAll(r.Body); string(b) != "the sbom" || r.ContentLength != 8 || r.Header.Get("Content-Type") != "application/vnd.cyclonedx+json" {
					t.Errorf("attempt %d sent %q (length %d, %s)", n, b, r.ContentLength, r.Header.Get("Content-Type"))
				}
				if int(n) <= tc.failures {
					if tc.retryAfter != "" {
						w.Header().Set("Retry-After", tc.retryAfter)
					}
					w.WriteHeader(tc.status)
					if tc.code != "" {
						fmt.Fprintf(w, `{"error":%q,"message":"slow down"}`, tc.code)
					}
					return
				}
				w.WriteHeader(http.StatusCreated)
				io.WriteString(w, `{"id":"sub_1"}`)
			}))
			defer srv.Close()
			var sleeps []time.Duration
			var notices []string
			c := mustClient(t, srv, client.Options{OnRetry: func(wait time.Duration, attempt, max int) {
				notices = append(notices, fmt.Sprintf("%d/%d", attempt, max))
			}}, &sleeps)
			var opens int
			var out struct{ ID string }
			err := c.Do(context.Background(), client.Request{Method: "POST", Path: "/submit", ContentType: "application/vnd.cyclonedx+json", Want: http.StatusCreated,
				Body: func() (io.ReadCloser, int64, error) {
					opens++
					return io.NopCloser(bytes.NewReader([]byte("the sbom"))), 8, nil
				}}, &out)
			if (err != nil) != tc.wantErr || (err == nil && out.ID != "sub_1") {
				t.Errorf("Do = %v, %+v; want error %v", err, out, tc.wantErr)
			}
			if got := attempts.Load(); got != tc.attempts || opens != int(got) {
				t.Errorf("%d attempts, %d bodies opened; want %d", got, opens, tc.attempts)
			}
			if len(sleeps) != len(tc.minDelays) || len(notices) != len(sleeps) {
				t.Fatalf("sleeps %v, notices %v; want %d", sleeps, notices, len(tc.minDelays))
			}
			for i, d := range sleeps {
				if lo, hi := tc.minDelays[i], tc.minDelays[i]*3/2; d < lo || d > hi {
					t.Errorf("sleep %d = %s, want in [%s, %s]", i, d, lo, hi)
				}
				if want := fmt.Sprintf("%d/%d", i+2, client.Attempts); notices[i] != want {
					t.Errorf("notice %d = %s, want %s", i, notices[i], want)
				}
			}
		})
	}
}

// TestRetryInterrupted: a wait that ends with ctx ends the call with ctx's
// error, with the injected Sleep and with the default timer.
func TestRetryInterrupted(t *testing.T) {
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts.Add(1)
		w.Header().Set("Retry-After", "20")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	base, _ := url.Parse(srv.URL)

	ctx, cancel := context.WithCancel(context.Background())
	c := client.New(base, client.Options{Sleep: func(context.Context, time.Duration) error { cancel(); return context.Canceled }})
	defer c.Close()
	if err := c.Do(ctx, client.Request{Method: "GET", Path: "/"}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Do with a cancelled wait = %v, want context.Canceled", err)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	c = client.New(base, client.Options{})
	defer c.Close()
	start := time.Now()
	if err := c.Do(ctx, client.Request{Method: "GET", Path: "/"}, nil); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Errorf("Do with a 50 ms deadline = %v after %s, want context.DeadlineExceeded at once", err, time.Since(start))
	}
	if got := attempts.Load(); got != 2 {
		t.Errorf("%d attempts, want 1 per call", got)
	}
}

func TestParseRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"20", 20 * time.Second},
		{" 7 ", 7 * time.Second},
		{"", 0},
		{"0", 0},
		{"-5", 0},
		{"20abc", 0},
		{"Wed, 21 Oct 2015 07:28:00 GMT", 0},
		{"999999999999", 24 * time.Hour},
		{"99999999999999999999", 0},
	} {
		if got := client.ParseRetryAfter(tc.in); got != tc.want {
			t.Errorf("ParseRetryAfter(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
