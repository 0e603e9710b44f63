// Package client is the agent's one HTTP client, for the Sentinel API (the
// CI gate, the match API) and for the agent listener (enrollment and SBOM
// submissions over mutual TLS). Every command of the agent talks to the
// service through it, so that they all send the same headers, read the
// same error body into the same typed Error, and follow the
// specification's retry policy (Limits, rule 5; see Do).
//
// It is a package of its own, apart from the agent's commands, so that the
// protocol can be tested against an httptest server without a command
// line, and it imports only the standard library and the wire package.
package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Defaults of Options and Request.
const (
	DefaultTimeout   = time.Minute
	DefaultMaxAnswer = 1 << 20 // 1 MiB
	// maxErrorBody bounds what is read of an error answer.
	maxErrorBody = 64 << 10
)

// ErrBadAnswer is wrapped by the error of a call that the service answered
// with the expected status but with a body that cannot be decoded (or is
// larger than the request allows): the service was reached, and answered
// something unexpected.
var ErrBadAnswer = errors.New("read the service's answer")

// Options configure a Client.
type Options struct {
	// APIKey is sent as "Authorization: ApiKey <key>"; empty sends no
	// Authorization (enrollment, which a one-time token authenticates).
	APIKey string
	// UserAgent is sent as User-Agent; empty means "sentinel".
	UserAgent string
	// Timeout bounds each attempt, answer included; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// TLS, when set, is the transport's TLS configuration: MutualTLS for
	// the agent listener, or a pinned trust for enrollment. nil means Go's
	// defaults (the system roots).
	TLS *tls.Config
	// Sleep waits between attempts; nil means a timer that honours ctx.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnRetry, when set, is told of each retry before its wait: the wait,
	// the number of the attempt to come and the most attempts.
	OnRetry func(wait time.Duration, attempt, attempts int)
}

// Client calls one service at one base URL. It is safe for concurrent
// use; Close releases its idle connections.
type Client struct {
	base *url.URL
	opts Options
	http *http.Client
}

// New returns a client for the service at base (scheme, host and an
// optional path prefix).
func New(base *url.URL, o Options) *Client {
	if o.UserAgent == "" {
		o.UserAgent = "sentinel"
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	hc := &http.Client{Timeout: o.Timeout}
	if o.TLS != nil {
		// A transport of its own, with exactly this TLS configuration: no
		// HTTP/2 (enrollment offers its own ALPN protocol) and no proxy
		// between the agent and its listener.
		hc.Transport = &http.Transport{TLSClientConfig: o.TLS, ExpectContinueTimeout: 5 * time.Second}
	}
	return &Client{base: base, opts: o, http: hc}
}

// MutualTLS is the TLS configuration of the agent listener: the agent's
// certificate, and the agent server CA as the only root.
func MutualTLS(serverCA *x509.CertPool, cert tls.Certificate) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: serverCA, Certificates: []tls.Certificate{cert}}
}

// Close closes the client's idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// Request is one call.
type Request struct {
	// Method is the HTTP method; Path is joined to the base URL.
	Method string
	Path   string
	Query  url.Values
	// JSON, when not nil, is the body, encoded once as JSON
	// (Content-Type application/json).
	JSON any
	// Body, when JSON is nil, opens a raw body for each attempt, with its
	// length; ContentType is its Content-Type.
	Body        func() (io.ReadCloser, int64, error)
	ContentType string
	// Want is the status of success; 0 means any 2xx. Any other status is
	// an *Error.
	Want int
	// MaxAnswer bounds the decoded answer; 0 means DefaultMaxAnswer.
	MaxAnswer int64
}

// Do makes the call and decodes a successful answer into out (nil: the
// answer is discarded). It retries with the specification's policy while
// the service answers 429 rate_limited (see Attempts), so ctx bounds the
// whole, waits included. The error is an *Error for an error answer, wraps
// ErrBadAnswer for an answer that cannot be decoded, and is otherwise the
// transport's (network, TLS, timeout, ctx).
func (c *Client) Do(ctx context.Context, r Request, out any) error {
	var data []byte
	if r.JSON != nil {
		var err error
		if data, err = json.Marshal(r.JSON); err != nil {
			return fmt.Errorf("encode the request: %w", err)
		}
	}
	return retry(ctx, c.opts.Sleep, c.opts.OnRetry, func() error { return c.once(ctx, r, data, out) })
}

// once makes one attempt.
func (c *Client) once(ctx context.Context, r Request, data []byte, out any) error {
	u := c.base.JoinPath(r.Path)
	if len(r.Query) > 0 {
		u.RawQuery = r.Query.Encode()
	}
	var body io.Reader
	size := int64(0)
	contentType := r.ContentType
	switch {
	case r.JSON != nil:
		body, size, contentType = bytes.NewReader(data), int64(len(data)), "application/json"
	case r.Body != nil:
		rc, n, err := r.Body()
		if err != nil {
			return err
		}
		defer rc.Close()
		body, size = rc, n
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, u.String(), body)
	if err != nil {
		return err
	}
	if body != nil {
		req.ContentLength = size
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if r.Body != nil {
			// An upload waits for the service's go-ahead: a refusal (a
			// revoked certificate, a wrong key, a full meter) then
			// arrives as an answer before the body is sent.
			req.Header.Set("Expect", "100-continue")
		}
	}
	if c.opts.APIKey != "" {
		req.Header.Set("Authorization", "ApiKey "+c.opts.APIKey)
	}
	req.Header.Set("User-Agent", c.opts.UserAgent)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if ok := resp.StatusCode == r.Want || (r.Want == 0 && resp.StatusCode/100 == 2); !ok {
		return readError(resp)
	}
	if out == nil {
		return nil
	}
	limit := r.MaxAnswer
	if limit <= 0 {
		limit = DefaultMaxAnswer
	}
	lr := &io.LimitedReader{R: resp.Body, N: limit + 1}
	if err := json.NewDecoder(lr).Decode(out); err != nil {
		if lr.N <= 0 {
			err = fmt.Errorf("larger than %d bytes", limit)
		}
		return fmt.Errorf("%w: %w", ErrBadAnswer, err)
	}
	return nil
}
