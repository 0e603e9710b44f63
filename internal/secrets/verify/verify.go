package verify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/secrets"
)

// Status is the outcome of a check.
type Status string

// Statuses. Indeterminate is the only one to retry: after Result.RetryAfter.
const (
	// Active: the provider accepted the credential.
	Active Status = "active"
	// Inactive: the provider refused it (revoked, expired, deleted, or
	// never issued).
	Inactive Status = "inactive"
	// Indeterminate: no answer either way (rate limited, timeout, network
	// error, the provider's server error).
	Indeterminate Status = "indeterminate"
)

// Result is the outcome of one check. It never holds the credential: a
// test checks that no field, reason or error carries it.
type Result struct {
	Provider string `json:"provider"`
	Status   Status `json:"status"`
	// Identity is who the credential authenticates as, when the provider
	// says: a GitHub login, a GitLab token's name and user, a Slack user
	// and workspace, a Stripe account, an npm user, an AWS ARN.
	Identity string `json:"identity,omitempty"`
	// Scopes are the permissions the provider reports for the credential
	// (GitHub classic tokens, GitLab tokens).
	Scopes []string `json:"scopes,omitempty"`
	// Reason says in one sentence why the status is what it is.
	Reason string `json:"reason"`
	// HTTPStatus is the provider's answer, 0 when there was none.
	HTTPStatus int `json:"http_status,omitempty"`
	// RetryAfter is, for Indeterminate, how long to wait before checking
	// again: what the provider asked for, or a default backoff. JSON
	// writes it in whole seconds, as retry_after_seconds.
	RetryAfter time.Duration `json:"-"`
	CheckedAt  time.Time     `json:"checked_at"`

	// limited marks an answer that asked Sentinel to slow down: the
	// Verifier then asks nothing of the provider until RetryAfter ends.
	limited bool
}

// resultJSON is Result's JSON form.
type resultJSON struct {
	Provider          string    `json:"provider"`
	Status            Status    `json:"status"`
	Identity          string    `json:"identity,omitempty"`
	Scopes            []string  `json:"scopes,omitempty"`
	Reason            string    `json:"reason"`
	HTTPStatus        int       `json:"http_status,omitempty"`
	RetryAfterSeconds int64     `json:"retry_after_seconds,omitempty"`
	CheckedAt         time.Time `json:"checked_at"`
}

// MarshalJSON writes RetryAfter as retry_after_seconds, rounded up.
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(resultJSON{r.Provider, r.Status, r.Identity, r.Scopes, r.Reason, r.HTTPStatus,
		int64((r.RetryAfter + time.Second - 1) / time.Second), r.CheckedAt})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Result) UnmarshalJSON(b []byte) error {
	var j resultJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Result{Provider: j.Provider, Status: j.Status, Identity: j.Identity, Scopes: j.Scopes, Reason: j.Reason,
		HTTPStatus: j.HTTPStatus, RetryAfter: time.Duration(j.RetryAfterSeconds) * time.Second, CheckedAt: j.CheckedAt}
	return nil
}

// Errors for checks that cannot be made at all (as opposed to an
// indeterminate outcome): retrying them is pointless.
var (
	// ErrUnsupported: no verifier for the provider or the credential's
	// kind (a GitHub refresh token, an AWS temporary key).
	ErrUnsupported = errors.New("verify: this credential cannot be checked")
	// ErrIncomplete: a two-part credential without its second part (an
	// AWS access key id without its secret access key).
	ErrIncomplete = errors.New("verify: the credential lacks its secret part")
)

// defaultRetry is the backoff of an indeterminate outcome when the
// provider named none.
const defaultRetry = 5 * time.Minute

// DefaultTimeout bounds one check when Options.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// Options configure a Verifier.
type Options struct {
	// BaseURL replaces the provider's public API address (tests, GitHub
	// Enterprise Server, a self-managed GitLab).
	BaseURL string
	// Policy is the netguard policy of the HTTP client when Client is
	// nil. Production leaves it zero: private, loopback and metadata
	// addresses are refused on every connection. Tests allow private
	// addresses to reach their loopback servers.
	Policy netguard.Policy
	// Timeout bounds one check; zero means DefaultTimeout.
	Timeout time.Duration
	// Client replaces the netguard client. Only tests should set it.
	Client *http.Client
	// Rate and Burst limit the checks sent to this provider, across all
	// callers of the Verifier; zero means the provider's default.
	Rate  rate.Limit
	Burst int
	// MaxWait is how long Verify waits for the rate limiter before giving
	// up with Indeterminate; zero means one second.
	MaxWait time.Duration
	// UserAgent identifies Sentinel to the provider.
	UserAgent string
	// AWSRegion is the STS signing region; empty means us-east-1, the
	// region of the global endpoint.
	AWSRegion string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// provider describes one provider's check.
type provider struct {
	name    string
	baseURL string
	rate    rate.Limit
	burst   int
	// prefixes are the credential prefixes the check accepts; empty
	// accepts anything.
	prefixes []string
	check    func(ctx context.Context, v *Verifier, c secrets.Credential) Result
}

// Default rates are conservative: far below every provider's published
// limit for one token or one account, since one Sentinel deployment checks
// for every tenant from the same addresses.
var providers = map[string]*provider{
	secrets.ProviderGitHub: {name: secrets.ProviderGitHub, baseURL: "https://api.github.com", rate: 5, burst: 10,
		prefixes: []string{"ghp_", "gho_", "ghu_", "ghs_", "github_pat_"}, check: checkGitHub},
	secrets.ProviderGitLab: {name: secrets.ProviderGitLab, baseURL: "https://gitlab.com", rate: 2, burst: 5,
		prefixes: []string{"glpat-"}, check: checkGitLab},
	secrets.ProviderSlack: {name: secrets.ProviderSlack, baseURL: "https://slack.com", rate: 1, burst: 5,
		prefixes: []string{"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxo-", "xoxs-"}, check: checkSlack},
	secrets.ProviderStripe: {name: secrets.ProviderStripe, baseURL: "https://api.stripe.com", rate: 5, burst: 10,
		prefixes: []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_", "sk_prod_", "rk_prod_"}, check: checkStripe},
	secrets.ProviderNPM: {name: secrets.ProviderNPM, baseURL: "https://registry.npmjs.org", rate: 2, burst: 5,
		prefixes: []string{"npm_"}, check: checkNPM},
	secrets.ProviderAWS: {name: secrets.ProviderAWS, baseURL: "https://sts.amazonaws.com", rate: 5, burst: 10,
		prefixes: []string{"AKIA"}, check: checkAWS},
}

// Providers returns the providers a Verifier can be made for, sorted.
func Providers() []string {
	var out []string
	for name := range providers {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Verifier checks credentials of one provider with a harmless
// authenticated read. It is safe for concurrent use; one Verifier per
// provider per process, shared by every caller, is what makes its rate
// limit and its backoff mean something.
type Verifier struct {
	p         *provider
	base      *url.URL
	client    *http.Client
	limiter   *rate.Limiter
	maxWait   time.Duration
	userAgent string
	region    string
	now       func() time.Time

	mu sync.Mutex
	// blockedUntil is when the provider's last rate-limit answer ends:
	// until then Verify answers Indeterminate without asking.
	blockedUntil time.Time
}

// New returns the Verifier of a provider (one of Providers()).
func New(providerName string, opts Options) (*Verifier, error) {
	p, ok := providers[providerName]
	if !ok {
		return nil, fmt.Errorf("%w: no verifier for provider %q", ErrUnsupported, providerName)
	}
	base := opts.BaseURL
	if base == "" {
		base = p.baseURL
	}
	u, err := url.Parse(strings.TrimSuffix(base, "/"))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("verify %s: base URL %q is not an http(s) URL", providerName, base)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	client := opts.Client
	if client == nil {
		client = netguard.NewClient(opts.Policy, timeout)
	}
	r, burst := opts.Rate, opts.Burst
	if r == 0 {
		r = p.rate
	}
	if burst == 0 {
		burst = p.burst
	}
	v := &Verifier{
		p: p, base: u, client: client,
		limiter:   rate.NewLimiter(r, burst),
		maxWait:   opts.MaxWait,
		userAgent: opts.UserAgent,
		region:    opts.AWSRegion,
		now:       opts.Now,
	}
	if v.maxWait <= 0 {
		v.maxWait = time.Second
	}
	if v.userAgent == "" {
		v.userAgent = "Sentinel-secret-verifier/1"
	}
	if v.region == "" {
		v.region = "us-east-1"
	}
	if v.now == nil {
		v.now = time.Now
	}
	return v, nil
}

// Provider returns the provider's name.
func (v *Verifier) Provider() string { return v.p.name }

// Verify checks c. It returns an error only when the check cannot be made
// at all (ErrUnsupported, ErrIncomplete) or ctx ended before it started;
// every answer, and every failure to get one, is a Result. Nothing it
// returns contains the credential.
func (v *Verifier) Verify(ctx context.Context, c secrets.Credential) (Result, error) {
	if err := v.accepts(c); err != nil {
		return Result{}, err
	}
	now := v.now()
	v.mu.Lock()
	blocked := v.blockedUntil
	v.mu.Unlock()
	if now.Before(blocked) {
		return v.indeterminate(now, 0, blocked.Sub(now), "%s asked Sentinel to slow down; not asked again before the time it named", v.p.name), nil
	}
	res := v.limiter.ReserveN(now, 1)
	if !res.OK() {
		return v.indeterminate(now, 0, defaultRetry, "local rate limit for %s", v.p.name), nil
	}
	if d := res.DelayFrom(now); d > 0 {
		if d > v.maxWait {
			res.CancelAt(now)
			return v.indeterminate(now, 0, d, "local rate limit for %s: too many checks at once", v.p.name), nil
		}
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			res.Cancel()
			return Result{}, ctx.Err()
		}
	}
	r := v.p.check(ctx, v, c)
	r.Provider = v.p.name
	r.CheckedAt = v.now().UTC()
	r.Reason = scrub(r.Reason, c)
	r.Identity = scrub(r.Identity, c)
	if r.Status == Indeterminate && r.RetryAfter <= 0 {
		r.RetryAfter = defaultRetry
	}
	if r.limited {
		v.mu.Lock()
		if until := v.now().Add(r.RetryAfter); until.After(v.blockedUntil) {
			v.blockedUntil = until
		}
		v.mu.Unlock()
	}
	return r, nil
}

func (v *Verifier) accepts(c secrets.Credential) error {
	if c.Value() == "" {
		return fmt.Errorf("%w: empty credential", ErrUnsupported)
	}
	if len(v.p.prefixes) > 0 {
		ok := false
		for _, p := range v.p.prefixes {
			if strings.HasPrefix(c.Value(), p) {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("%w: %s cannot check a credential of the form %s", ErrUnsupported, v.p.name, secrets.Redact(c.Value()))
		}
	}
	if v.p.name == secrets.ProviderAWS && c.Companion() == "" {
		return fmt.Errorf("%w: an AWS access key id is checked with its secret access key", ErrIncomplete)
	}
	return nil
}

func (v *Verifier) indeterminate(now time.Time, status int, retry time.Duration, format string, args ...any) Result {
	return Result{Provider: v.p.name, Status: Indeterminate, HTTPStatus: status, RetryAfter: retry,
		Reason: fmt.Sprintf(format, args...), CheckedAt: now.UTC()}
}

// scrub removes the credential from a string, should a provider ever echo
// it back (Stripe echoes a masked key; a proxy might echo more).
func scrub(s string, c secrets.Credential) string {
	for _, v := range []string{c.Value(), c.Companion()} {
		if len(v) >= 4 {
			s = strings.ReplaceAll(s, v, "[REDACTED]")
		}
	}
	return s
}

// maxBody bounds a provider's answer that Sentinel reads.
const maxBody = 64 << 10

// do sends req and reads at most maxBody of the answer. A failure to get
// an answer is returned as an Indeterminate Result.
func (v *Verifier) do(req *http.Request) (*http.Response, []byte, *Result) {
	req.Header.Set("User-Agent", v.userAgent)
	resp, err := v.client.Do(req)
	if err != nil {
		r := Result{Status: Indeterminate, Reason: "no answer from " + v.p.name + ": " + netReason(err)}
		return nil, nil, &r
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		r := Result{Status: Indeterminate, HTTPStatus: resp.StatusCode, Reason: "the answer of " + v.p.name + " was cut short: " + netReason(err)}
		return nil, nil, &r
	}
	return resp, body, nil
}

// netReason describes a transport error without URLs or addresses beyond
// the provider's host.
func netReason(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timed out"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, netguard.ErrRefused):
		var ge *netguard.Error
		if errors.As(err, &ge) {
			return "refused by the outbound policy: " + ge.Reason
		}
		return "refused by the outbound policy"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// newRequest builds a request to the provider's API path.
func (v *Verifier) newRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, method, v.base.String()+path, body)
}

// requestFailed is the Result for a request that could not be built.
func requestFailed(err error) Result {
	return Result{Status: Indeterminate, Reason: "the request could not be built: " + err.Error()}
}

// retryAfter reads a Retry-After header (seconds or an HTTP date).
func retryAfter(h http.Header, now time.Time) time.Duration {
	s := strings.TrimSpace(h.Get("Retry-After"))
	if s == "" {
		return 0
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(s); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// resetAt reads a rate-limit reset header holding a Unix time in seconds
// (GitHub's X-RateLimit-Reset, GitLab's RateLimit-Reset).
func resetAt(h http.Header, name string, now time.Time) time.Duration {
	n, err := strconv.ParseInt(strings.TrimSpace(h.Get(name)), 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	if d := time.Unix(n, 0).Sub(now); d > 0 {
		return d
	}
	return 0
}

// serverError is the Result of a 5xx answer.
func serverError(name string, resp *http.Response, now time.Time) Result {
	return Result{Status: Indeterminate, HTTPStatus: resp.StatusCode, RetryAfter: retryAfter(resp.Header, now),
		Reason: fmt.Sprintf("%s answered with a server error (%d)", name, resp.StatusCode)}
}

// unexpected is the Result of an answer the check does not know.
func unexpected(name string, resp *http.Response) Result {
	return Result{Status: Indeterminate, HTTPStatus: resp.StatusCode,
		Reason: fmt.Sprintf("%s answered %d, which the check does not know how to read", name, resp.StatusCode)}
}

// Set holds one Verifier per provider.
type Set struct {
	m map[string]*Verifier
}

// NewSet returns a Verifier for every provider, each with opts and, when
// baseURLs names it, its own base URL.
func NewSet(opts Options, baseURLs map[string]string) (*Set, error) {
	s := &Set{m: map[string]*Verifier{}}
	for name := range baseURLs {
		if _, ok := providers[name]; !ok {
			return nil, fmt.Errorf("%w: no verifier for provider %q", ErrUnsupported, name)
		}
	}
	for name := range providers {
		o := opts
		o.BaseURL = baseURLs[name]
		v, err := New(name, o)
		if err != nil {
			return nil, err
		}
		s.m[name] = v
	}
	return s, nil
}

// Verifier returns the provider's Verifier, or nil.
func (s *Set) Verifier(providerName string) *Verifier { return s.m[providerName] }

// Verify checks c with the provider's Verifier; ErrUnsupported for a
// provider without one.
func (s *Set) Verify(ctx context.Context, providerName string, c secrets.Credential) (Result, error) {
	v := s.m[providerName]
	if v == nil {
		return Result{}, fmt.Errorf("%w: no verifier for provider %q", ErrUnsupported, providerName)
	}
	return v.Verify(ctx, c)
}
