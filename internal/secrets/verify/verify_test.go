package verify_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/secrets"
	"github.com/sentinel-sca/sentinel/internal/secrets/verify"
)

// Tokens are built when the tests run, in each provider's real format with
// "SNTL" marking them synthetic; none is written in the repository.

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

var rng = rand.New(rand.NewPCG(42, 7))

func randStr(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// kind is what a fake provider does with a token.
type kind int

const (
	kActive kind = iota
	kRevoked
	kLimited
	kSlow
	kBroken
)

var kinds = []kind{kActive, kRevoked, kLimited, kSlow, kBroken}

func (k kind) String() string {
	return [...]string{"active", "revoked", "rate_limited", "timeout", "server_error"}[k]
}

// tokenFor makes a token of the provider's format; AWS returns the key
// id and its secret key.
func tokenFor(provider string) (string, string) {
	switch provider {
	case "github":
		return "ghp_SNTL" + randStr(alnum, 32), ""
	case "gitlab":
		return "glpat-SNTL" + randStr(alnum, 16), ""
	case "slack":
		return "xoxb-" + randStr("0123456789", 12) + "-" + randStr("0123456789", 13) + "-SNTL" + randStr(alnum, 20), ""
	case "stripe":
		return "sk_live_SNTL" + randStr(alnum, 95), ""
	case "npm":
		return "npm_sntl" + randStr("abcdefghijklmnopqrstuvwxyz0123456789", 32), ""
	case "aws":
		return "AKIASNTL" + randStr("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 12), "sntl" + randStr(alnum+"/+", 36)
	}
	panic(provider)
}

// fake is a loopback server answering as a provider's documentation
// says, by token.
type fake struct {
	srv    *httptest.Server
	hits   atomic.Int64
	tokens map[string]kind
	// awsSecrets maps AWS key ids to their secret keys.
	awsSecrets map[string]string
	resetAt    time.Time
}

func newFake(t *testing.T, provider string) *fake {
	f := &fake{tokens: map[string]kind{}, awsSecrets: map[string]string{}, resetAt: time.Now().Add(90 * time.Second)}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		handlers[provider](t, f, w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) kindOf(tok string) (kind, bool) {
	k, ok := f.tokens[tok]
	return k, ok
}

// slow answers after the client has given up.
func slow(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(3 * time.Second):
	}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

var handlers = map[string]func(t *testing.T, f *fake, w http.ResponseWriter, r *http.Request){
	// https://docs.github.com/en/rest/users/users#get-the-authenticated-user
	// https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api
	"github": func(t *testing.T, f *fake, w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/user" || r.Header.Get("X-GitHub-Api-Version") == "" || r.Header.Get("User-Agent") == "" {
			t.Errorf("github: unexpected request %s %s", r.Method, r.URL)
		}
		k, ok := f.kindOf(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		switch {
		case !ok || k == kRevoked:
			writeJSON(w, 401, `{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`)
		case k == kActive:
			w.Header().Set("X-OAuth-Scopes", "repo, read:org")
			writeJSON(w, 200, `{"login":"octo-sntl","id":1,"type":"User"}`)
		case k == kLimited:
			w.Header().Set("X-RateLimit-Limit", "5000")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(f.resetAt.Unix(), 10))
			writeJSON(w, 403, `{"message":"API rate limit exceeded for user ID 1.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}`)
		case k == kSlow:
			slow(w, r)
		default:
			writeJSON(w, 502, `{"message":"Server Error"}`)
		}
	},
	// https://docs.gitlab.com/api/personal_access_tokens/#get-single-personal-access-token
	"gitlab": func(t *testing.T, f *fake, w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/api/v4/personal_access_tokens/self" {
			t.Errorf("gitlab: unexpected request %s %s", r.Method, r.URL)
		}
		k, ok := f.kindOf(r.Header.Get("PRIVATE-TOKEN"))
		switch {
		case !ok || k == kRevoked:
			writeJSON(w, 401, `{"message":"401 Unauthorized"}`)
		case k == kActive:
			writeJSON(w, 200, `{"id":4,"name":"ci-deploy","revoked":false,"created_at":"2026-01-01T00:00:00.000Z","scopes":["api","read_repository"],"user_id":3,"last_used_at":null,"active":true,"expires_at":"2027-01-01"}`)
		case k == kLimited:
			w.Header().Set("Retry-After", "60")
			w.Header().Set("RateLimit-Reset", strconv.FormatInt(f.resetAt.Unix(), 10))
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(429)
			io.WriteString(w, "Retry later\n")
		case k == kSlow:
			slow(w, r)
		default:
			writeJSON(w, 500, `{"message":"500 Internal Server Error"}`)
		}
	},
	// https://api.slack.com/methods/auth.test and https://api.slack.com/apis/rate-limits
	"slack": func(t *testing.T, f *fake, w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/auth.test" {
			t.Errorf("slack: unexpected request %s %s", r.Method, r.URL)
		}
		k, ok := f.kindOf(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		switch {
		case !ok:
			writeJSON(w, 200, `{"ok":false,"error":"invalid_auth"}`)
		case k == kRevoked:
			writeJSON(w, 200, `{"ok":false,"error":"token_revoked"}`)
		case k == kActive:
			writeJSON(w, 200, `{"ok":true,"url":"https://sntl-test.slack.com/","team":"Sentinel Test","user":"deploybot","team_id":"T12345678","user_id":"U12345678","bot_id":"B12345678","is_enterprise_install":false}`)
		case k == kLimited:
			w.Header().Set("Retry-After", "30")
			writeJSON(w, 429, `{"ok":false,"error":"ratelimited"}`)
		case k == kSlow:
			slow(w, r)
		default:
			writeJSON(w, 503, `{"ok":false,"error":"service_unavailable"}`)
		}
	},
	// https://docs.stripe.com/api/accounts/retrieve and https://docs.stripe.com/error-codes
	"stripe": func(t *testing.T, f *fake, w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/account" {
			t.Errorf("stripe: unexpected request %s %s", r.Method, r.URL)
		}
		tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		k, ok := f.kindOf(tok)
		switch {
		case !ok || k == kRevoked:
			// Stripe echoes (part of) the key: the verifier must not pass it on.
			writeJSON(w, 401, `{"error":{"message":"Invalid API Key provided: `+tok+`","type":"invalid_request_error"}}`)
		case k == kActive:
			writeJSON(w, 200, `{"id":"acct_1SNTLtest","object":"account","business_profile":{"name":"Sentinel Test Shop"},"settings":{"dashboard":{"display_name":"Sentinel Test"}},"charges_enabled":true}`)
		case k == kLimited:
			writeJSON(w, 429, `{"error":{"code":"rate_limit","message":"Too many requests hit the API too quickly.","type":"invalid_request_error"}}`)
		case k == kSlow:
			slow(w, r)
		default:
			writeJSON(w, 500, `{"error":{"type":"api_error","message":"Something went wrong."}}`)
		}
	},
	// npm's registry: GET /-/whoami
	"npm": func(t *testing.T, f *fake, w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/-/whoami" {
			t.Errorf("npm: unexpected request %s %s", r.Method, r.URL)
		}
		k, ok := f.kindOf(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		switch {
		case !ok || k == kRevoked:
			writeJSON(w, 401, `{"error":"You must be logged in to access this resource"}`)
		case k == kActive:
			writeJSON(w, 200, `{"username":"sntl-publisher"}`)
		case k == kLimited:
			w.Header().Set("Retry-After", "120")
			writeJSON(w, 429, `{"error":"Too Many Requests"}`)
		case k == kSlow:
			slow(w, r)
		default:
			writeJSON(w, 503, `{"error":"Service Unavailable"}`)
		}
	},
	// https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html
	"aws": func(t *testing.T, f *fake, w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/" || string(body) != "Action=GetCallerIdentity&Version=2011-06-15" {
			t.Errorf("aws: unexpected request %s %s %q", r.Method, r.URL, body)
		}
		stsError := func(status int, code, msg string) {
			w.Header().Set("Content-Type", "text/xml")
			w.WriteHeader(status)
			fmt.Fprintf(w, `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ErrorResponse>`, code, msg)
		}
		keyID, err := checkSigV4(r, body, f.awsSecrets)
		k, ok := f.kindOf(keyID)
		switch {
		case !ok || k == kRevoked:
			stsError(403, "InvalidClientTokenId", "The security token included in the request is invalid.")
		case err != nil:
			stsError(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided.")
		case k == kActive:
			w.Header().Set("Content-Type", "text/xml")
			io.WriteString(w, `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/sntl-deployer</Arn><UserId>AIDASNTLEXAMPLEUSER1</UserId><Account>123456789012</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId></ResponseMetadata></GetCallerIdentityResponse>`)
		case k == kLimited:
			stsError(400, "Throttling", "Rate exceeded")
		case k == kSlow:
			slow(w, r)
		default:
			w.WriteHeader(503)
		}
	},
}

// checkSigV4 recomputes the request's Signature Version 4 independently of
// the SDK (the algorithm as AWS documents it), and returns the key id.
func checkSigV4(r *http.Request, body []byte, secretsByID map[string]string) (string, error) {
	auth := r.Header.Get("Authorization")
	rest, ok := strings.CutPrefix(auth, "AWS4-HMAC-SHA256 ")
	if !ok {
		return "", errors.New("not SigV4")
	}
	fields := map[string]string{}
	for _, p := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		fields[k] = v
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 || scope[2] != "us-east-1" || scope[3] != "sts" || scope[4] != "aws4_request" {
		return "", fmt.Errorf("credential scope %q", fields["Credential"])
	}
	keyID, date := scope[0], scope[1]
	amzDate := r.Header.Get("X-Amz-Date")
	if !strings.HasPrefix(amzDate, date) {
		return keyID, errors.New("date mismatch")
	}
	var canonHeaders strings.Builder
	signed := strings.Split(fields["SignedHeaders"], ";")
	if !slices.Contains(signed, "host") || !slices.Contains(signed, "x-amz-date") {
		return keyID, errors.New("host or x-amz-date not signed")
	}
	for _, h := range signed {
		v := r.Header.Get(h)
		switch h {
		case "host":
			v = r.Host
		case "content-length":
			v = strconv.FormatInt(r.ContentLength, 10)
		}
		canonHeaders.WriteString(h + ":" + strings.TrimSpace(v) + "\n")
	}
	payload := sha256.Sum256(body)
	canon := strings.Join([]string{r.Method, "/", "", canonHeaders.String(), fields["SignedHeaders"], hex.EncodeToString(payload[:])}, "\n")
	cr := sha256.Sum256([]byte(canon))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + strings.Join(scope[1:], "/") + "\n" + hex.EncodeToString(cr[:])
	mac := func(key []byte, s string) []byte {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(s))
		return m.Sum(nil)
	}
	secret, ok := secretsByID[keyID]
	if !ok {
		return keyID, errors.New("unknown key")
	}
	k := mac(mac(mac(mac([]byte("AWS4"+secret), date), "us-east-1"), "sts"), "aws4_request")
	if hex.EncodeToString(mac(k, toSign)) != fields["Signature"] {
		return keyID, errors.New("signature mismatch")
	}
	return keyID, nil
}

// testOptions reach a loopback server: private addresses allowed, a short
// timeout, a limiter that never gets in the way.
func testOptions(base string) verify.Options {
	return verify.Options{BaseURL: base, Policy: netguard.Policy{AllowPrivate: true}, Timeout: 300 * time.Millisecond, Rate: 1000, Burst: 1000}
}

// sink gathers everything the package hands back, to search for values.
type sink struct{ strings.Builder }

func (s *sink) add(r verify.Result, err error) {
	b, _ := json.Marshal(r)
	s.Write(b)
	fmt.Fprintf(s, "%v %+v %#v\n", r, r, r)
	if err != nil {
		s.WriteString(err.Error() + "\n")
	}
}

func TestVerifiers(t *testing.T) {
	var out sink
	var planted []string
	for _, provider := range verify.Providers() {
		t.Run(provider, func(t *testing.T) {
			f := newFake(t, provider)
			creds := map[kind]secrets.Credential{}
			for _, k := range kinds {
				v, companion := tokenFor(provider)
				f.tokens[v] = k
				if companion != "" {
					f.awsSecrets[v] = companion
				}
				creds[k] = secrets.NewCredential(v, companion)
				planted = append(planted, v, companion)
			}
			for _, k := range kinds {
				t.Run(k.String(), func(t *testing.T) {
					// A fresh Verifier per case: a rate-limit answer
					// blocks the Verifier that got it.
					v, err := verify.New(provider, testOptions(f.srv.URL))
					if err != nil {
						t.Fatal(err)
					}
					r, err := v.Verify(context.Background(), creds[k])
					out.add(r, err)
					b, _ := json.Marshal(r)
					t.Logf("%s", b)
					if err != nil {
						t.Fatalf("Verify: %v", err)
					}
					if r.Provider != provider || r.CheckedAt.IsZero() || r.Reason == "" {
						t.Errorf("result %+v", r)
					}
					switch k {
					case kActive:
						if r.Status != verify.Active || r.Identity == "" {
							t.Errorf("active token: %+v", r)
						}
					case kRevoked:
						if r.Status != verify.Inactive {
							t.Errorf("revoked token: %+v", r)
						}
					case kLimited:
						if r.Status != verify.Indeterminate || r.RetryAfter <= 0 {
							t.Errorf("rate limited: %+v", r)
						}
						// The provider asked to slow down: the next check
						// is answered without asking it.
						before := f.hits.Load()
						r2, err := v.Verify(context.Background(), creds[kActive])
						out.add(r2, err)
						if r2.Status != verify.Indeterminate || f.hits.Load() != before || r2.RetryAfter <= 0 {
							t.Errorf("after a rate limit: %+v, %d more requests", r2, f.hits.Load()-before)
						}
					case kSlow:
						if r.Status != verify.Indeterminate || !strings.Contains(r.Reason, "timed out") {
							t.Errorf("timeout: %+v", r)
						}
					case kBroken:
						if r.Status != verify.Indeterminate || r.HTTPStatus < 500 || r.RetryAfter <= 0 {
							t.Errorf("server error: %+v", r)
						}
					}
				})
			}
			// An unknown token is inactive, as a revoked one.
			unknown, companion := tokenFor(provider)
			planted = append(planted, unknown, companion)
			v, _ := verify.New(provider, testOptions(f.srv.URL))
			r, err := v.Verify(context.Background(), secrets.NewCredential(unknown, companion))
			out.add(r, err)
			if r.Status != verify.Inactive {
				t.Errorf("unknown token: %+v %v", r, err)
			}
		})
	}

	s := out.String()
	for _, p := range planted {
		if p != "" && strings.Contains(s, p) {
			t.Errorf("a result or error contains a planted credential (%s)", secrets.Redact(p))
		}
	}
}

func TestResultJSON(t *testing.T) {
	r := verify.Result{Provider: "github", Status: verify.Indeterminate, Reason: "GitHub rate limited the check",
		HTTPStatus: 403, RetryAfter: 89500 * time.Millisecond, CheckedAt: time.Date(2026, 11, 21, 22, 19, 5, 0, time.UTC)}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"provider":"github","status":"indeterminate","reason":"GitHub rate limited the check","http_status":403,"retry_after_seconds":90,"checked_at":"2026-11-21T22:19:05Z"}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
	var back verify.Result
	if err := json.Unmarshal(b, &back); err != nil || back.RetryAfter != 90*time.Second || back.Status != r.Status {
		t.Errorf("round trip: %+v %v", back, err)
	}
}

func TestVerify_Identities(t *testing.T) {
	want := map[string]string{
		"github": "octo-sntl",
		"gitlab": `token "ci-deploy" of user 3 on 127.0.0.1`,
		"slack":  "deploybot in Sentinel Test (https://sntl-test.slack.com/)",
		"stripe": "acct_1SNTLtest (Sentinel Test)",
		"npm":    "sntl-publisher",
		"aws":    "arn:aws:iam::123456789012:user/sntl-deployer",
	}
	for provider, identity := range want {
		f := newFake(t, provider)
		tok, companion := tokenFor(provider)
		f.tokens[tok] = kActive
		f.awsSecrets[tok] = companion
		v, _ := verify.New(provider, testOptions(f.srv.URL))
		r, err := v.Verify(context.Background(), secrets.NewCredential(tok, companion))
		if err != nil || !strings.HasPrefix(r.Identity, strings.Split(identity, " on ")[0]) {
			t.Errorf("%s: identity %q (%v), want %q", provider, r.Identity, err, identity)
		}
	}
}

func TestVerify_AWSWrongSecret(t *testing.T) {
	f := newFake(t, "aws")
	id, secret := tokenFor("aws")
	f.tokens[id] = kActive
	f.awsSecrets[id] = secret
	v, _ := verify.New("aws", testOptions(f.srv.URL))
	r, err := v.Verify(context.Background(), secrets.NewCredential(id, "sntl"+randStr(alnum, 36)))
	if err != nil || r.Status != verify.Inactive || !strings.Contains(r.Reason, "not its secret key") {
		t.Errorf("wrong secret key: %+v %v", r, err)
	}
	if _, err := v.Verify(context.Background(), secrets.NewCredential(id, "")); !errors.Is(err, verify.ErrIncomplete) {
		t.Errorf("key id alone: %v, want ErrIncomplete", err)
	}
	if _, err := v.Verify(context.Background(), secrets.NewCredential("ASIASNTL"+randStr("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 12), secret)); !errors.Is(err, verify.ErrUnsupported) {
		t.Errorf("temporary key: %v, want ErrUnsupported", err)
	}
}

// TestVerify_ProductionPolicyRefusesLoopback: with the zero policy, as in
// production, a base URL on loopback is refused before any byte is sent.
func TestVerify_ProductionPolicyRefusesLoopback(t *testing.T) {
	f := newFake(t, "github")
	tok, _ := tokenFor("github")
	f.tokens[tok] = kActive
	v, err := verify.New("github", verify.Options{BaseURL: f.srv.URL, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r, err := v.Verify(context.Background(), secrets.NewCredential(tok, ""))
	if err != nil || r.Status != verify.Indeterminate || !strings.Contains(r.Reason, "refused") {
		t.Errorf("Verify = %+v, %v; want indeterminate, refused", r, err)
	}
	if f.hits.Load() != 0 {
		t.Errorf("the loopback server was reached %d times", f.hits.Load())
	}
}

func TestVerify_LocalRateLimit(t *testing.T) {
	f := newFake(t, "npm")
	tok, _ := tokenFor("npm")
	f.tokens[tok] = kActive
	o := testOptions(f.srv.URL)
	o.Rate, o.Burst, o.MaxWait = 0.5, 1, 10*time.Millisecond
	v, _ := verify.New("npm", o)
	c := secrets.NewCredential(tok, "")
	if r, _ := v.Verify(context.Background(), c); r.Status != verify.Active {
		t.Fatalf("first check: %+v", r)
	}
	r, err := v.Verify(context.Background(), c)
	if err != nil || r.Status != verify.Indeterminate || !strings.Contains(r.Reason, "local rate limit") || r.RetryAfter < time.Second {
		t.Errorf("second check: %+v %v", r, err)
	}
	if f.hits.Load() != 1 {
		t.Errorf("%d requests, want 1", f.hits.Load())
	}
}

func TestVerify_Unsupported(t *testing.T) {
	v, _ := verify.New("github", testOptions("http://127.0.0.1:1"))
	refresh := "ghr_SNTL" + randStr(alnum, 32)
	_, err := v.Verify(context.Background(), secrets.NewCredential(refresh, ""))
	if !errors.Is(err, verify.ErrUnsupported) || strings.Contains(err.Error(), refresh) {
		t.Errorf("refresh token: %v", err)
	}
	if _, err := verify.New("twilio", verify.Options{}); !errors.Is(err, verify.ErrUnsupported) {
		t.Errorf("New(twilio) = %v", err)
	}
	s, err := verify.NewSet(testOptions(""), map[string]string{"github": "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Verify(context.Background(), "twilio", secrets.NewCredential("x", "")); !errors.Is(err, verify.ErrUnsupported) {
		t.Errorf("Set.Verify(twilio) = %v", err)
	}
	if s.Verifier("aws") == nil || s.Verifier("github") == nil {
		t.Error("NewSet misses a provider")
	}
}
