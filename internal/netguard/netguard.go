// Package netguard keeps Sentinel's outbound requests (webhook deliveries,
// and later external scans) away from the service's own network: loopback,
// private, link-local and cloud metadata addresses, and the other ranges that
// are never a customer's public host.
//
// Two checks work together:
//
//   - [CheckURL] validates a URL when it is registered: scheme, no user info,
//     a plainly written host, and every address the host resolves to. Its
//     errors are one sentence fit for an API's 400 response.
//   - [NewClient] returns an http.Client whose dialer checks the address it is
//     actually about to connect to, in the socket's Control hook. A name that
//     resolved to a public address at registration and to 127.0.0.1 at
//     delivery (DNS rebinding) is refused there. The client never follows
//     redirects and ignores proxy settings from the environment, so the
//     checked address is the one the request goes to.
//
// Policy.AllowPrivate lets an operator deliver to internal targets (on-premise
// installs, tests); even then unspecified, multicast, broadcast, reserved and
// cloud metadata addresses stay refused.
package netguard

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DefaultTimeout bounds a whole request made with a client from [NewClient]
// when the caller passes no timeout.
const DefaultTimeout = 10 * time.Second

// Resolver looks up the addresses of a host. *net.Resolver implements it;
// tests substitute a fake.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Policy says which destinations are allowed.
type Policy struct {
	// AllowPrivate permits http as well as https, and loopback, private,
	// link-local, CGNAT, documentation and other non-public unicast addresses.
	// Unspecified, multicast, broadcast, reserved and cloud metadata addresses
	// stay refused.
	AllowPrivate bool
	// AllowHTTP permits plain http to public addresses too: external scans
	// read what any visitor sees, and many sites still serve http. Webhook
	// deliveries, which carry signed data, never set it.
	AllowHTTP bool
	// Resolver resolves host names; nil means net.DefaultResolver.
	Resolver Resolver
}

func (p Policy) resolver() Resolver {
	if p.Resolver != nil {
		return p.Resolver
	}
	return net.DefaultResolver
}

// ErrRefused is wrapped by every error that refuses a destination, as opposed
// to failing to resolve it.
var ErrRefused = errors.New("destination refused")

// Error explains why a URL or connection was refused, or why its host could
// not be resolved. Its message is one lowercase sentence safe to show to the
// person who supplied the URL: it names the host and the kind of address, but
// not the address a name resolved to, which could map Sentinel's own network.
type Error struct {
	// Host is the host from the URL, or the dialled address.
	Host string
	// Addr is the offending address, when there is one (log it, do not show it).
	Addr netip.Addr
	// Reason is the message returned by Error.
	Reason string
	// Err is ErrRefused for refusals, or the resolver's error.
	Err error
}

// Error returns Reason.
func (e *Error) Error() string { return e.Reason }

// Unwrap returns ErrRefused or the resolver's error.
func (e *Error) Unwrap() error { return e.Err }

func refused(host string, addr netip.Addr, format string, args ...any) *Error {
	return &Error{Host: host, Addr: addr, Reason: fmt.Sprintf(format, args...), Err: ErrRefused}
}

// CheckURL reports whether rawURL is an acceptable destination under p, and
// if not, why. It refuses:
//
//   - schemes other than https (and http, under AllowPrivate);
//   - URLs with user info, without a host, or with a zero or non-numeric port;
//   - hosts written as non-standard numbers ("2130706433", "0x7f.1",
//     "0177.0.0.1", "127.1"), which resolvers disagree on;
//   - IPv6 literals with a zone;
//   - hosts named localhost or *.localhost (RFC 6761) unless AllowPrivate;
//   - hosts that do not resolve, and hosts of which ANY resolved address is
//     not allowed (see the package comment).
//
// A URL that passes can still be refused at delivery, when its host resolves
// differently: [NewClient] checks the dialled address again.
func CheckURL(ctx context.Context, rawURL string, p Policy) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return &Error{Reason: "the url cannot be parsed", Err: ErrRefused}
	}
	if err := checkStatic(u, p); err != nil {
		return err
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if ok, c := allowed(a, p); !ok {
			return refused(host, a, "address %s is %s, which is not allowed", a, c.what)
		}
		return nil
	}

	addrs, err := p.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &Error{Host: host, Reason: fmt.Sprintf("host %q could not be resolved", host), Err: err}
	}
	if len(addrs) == 0 {
		return &Error{Host: host, Reason: fmt.Sprintf("host %q could not be resolved", host), Err: ErrRefused}
	}
	for _, a := range addrs {
		if ok, c := allowed(a, p); !ok {
			return refused(host, a, "host %q resolves to %s, which is not allowed", host, c.what)
		}
	}
	return nil
}

// checkStatic applies the checks that need no DNS: scheme, user info, port
// and the form of the host. The client repeats them on every request.
func checkStatic(u *url.URL, p Policy) error {
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme == "https":
	case scheme == "http" && (p.AllowPrivate || p.AllowHTTP):
	case scheme == "":
		return refused("", netip.Addr{}, "the url has no scheme; use https")
	default:
		return refused("", netip.Addr{}, "url scheme %q is not allowed; use https", u.Scheme)
	}
	if u.User != nil {
		return refused("", netip.Addr{}, "the url must not contain a user name or password")
	}
	host := u.Hostname()
	if host == "" {
		return refused("", netip.Addr{}, "the url has no host")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return refused(host, netip.Addr{}, "port %q is not a valid port number", port)
		}
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return refused(host, a, "IPv6 addresses with a zone are not allowed")
		}
		return nil
	}
	if strings.Contains(host, "%") || strings.Contains(host, ":") {
		return refused(host, netip.Addr{}, "host %q is not a valid host name", host)
	}
	if looksNumeric(host) {
		return refused(host, netip.Addr{}, "host %q is a non-standard numeric address; write IPv4 addresses as four decimal numbers", host)
	}
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if !p.AllowPrivate && (name == "localhost" || strings.HasSuffix(name, ".localhost")) {
		return refused(host, netip.Addr{}, "host %q is a loopback name, which is not allowed", host)
	}
	return nil
}

// looksNumeric reports whether host's last label is a number (decimal, or hex
// with 0x), as in "2130706433", "0x7f000001", "0177.0.0.1" or "127.1". No
// top-level domain is numeric, so such a host is an IPv4 address in one of
// the historical inet_aton spellings: some resolvers turn it into an address,
// others send it to DNS. Either way it is not a name, and netip, which
// accepts only the four-decimal form, has already declined it.
func looksNumeric(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if l := strings.ToLower(last); strings.HasPrefix(l, "0x") {
		last = l[2:]
		if last == "" {
			return true
		}
		return strings.Trim(last, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

// control is the dialer's Control hook: it runs after the address is chosen
// and before connect, with the literal IP and port being dialled.
func (p Policy) control(network, address string, _ syscall.RawConn) error {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return refused(address, netip.Addr{}, "network %q is not allowed", network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return refused(address, netip.Addr{}, "dialled address %q is not an IP address and port", address)
	}
	if ok, c := allowed(ap.Addr(), p); !ok {
		// The address itself stays out of the message: it may be what a
		// name resolved to inside Sentinel's own network.
		return refused(address, ap.Addr(), "connection refused: the destination is %s, which is not allowed", c.what)
	}
	return nil
}

// NewClient returns an http.Client for requests to untrusted URLs under p.
//
//   - Every connection's address is checked in the dialer's Control hook,
//     after resolution, so DNS rebinding cannot reach a refused address.
//     Host names are resolved with p.Resolver when it is set.
//   - Redirects are not followed: the 3xx response is returned as is.
//   - Proxy settings from the environment are ignored.
//   - Each request's URL passes the checks of [CheckURL] that need no DNS
//     (scheme, user info, port, host form).
//   - TLS 1.2 or later with certificate verification; HTTP/2 when offered.
//   - timeout bounds each whole request, body included; zero or less means
//     [DefaultTimeout].
func NewClient(p Policy, timeout time.Duration) *http.Client {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	dialer := &net.Dialer{
		Timeout:   min(timeout, 5*time.Second),
		KeepAlive: 30 * time.Second,
		Control:   p.control,
	}
	t := &http.Transport{
		Proxy:                  nil,
		DialContext:            p.dialContext(dialer),
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    min(timeout, 5*time.Second),
		ResponseHeaderTimeout:  timeout,
		ExpectContinueTimeout:  time.Second,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    32, // the webhook sender runs 32 concurrent deliveries, often to one receiver
		IdleConnTimeout:        60 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		ForceAttemptHTTP2:      true,
	}
	return &http.Client{
		Transport: &guardedTransport{policy: p, next: t},
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// dialContext resolves with p.Resolver, when set, and dials the resulting
// addresses one by one; without a resolver it leaves resolution to the
// dialer. Either way the Control hook sees, and checks, each address.
func (p Policy) dialContext(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	if p.Resolver == nil {
		return d.DialContext
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if _, err := netip.ParseAddr(host); err == nil {
			return d.DialContext(ctx, network, addr)
		}
		family := "ip"
		switch network {
		case "tcp4":
			family = "ip4"
		case "tcp6":
			family = "ip6"
		}
		ips, err := p.Resolver.LookupNetIP(ctx, family, host)
		if err != nil {
			return nil, &Error{Host: host, Reason: fmt.Sprintf("host %q could not be resolved", host), Err: err}
		}
		if len(ips) == 0 {
			return nil, &Error{Host: host, Reason: fmt.Sprintf("host %q could not be resolved", host), Err: ErrRefused}
		}
		var first error
		for _, ip := range ips {
			c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.WithZone("").String(), port))
			if err == nil {
				return c, nil
			}
			if first == nil {
				first = err
			}
			if ctx.Err() != nil {
				break
			}
		}
		return nil, first
	}
}

// guardedTransport applies the static URL checks to every request, so that a
// caller who forgot CheckURL still cannot use another scheme or a numeric
// host spelling the dialer would hand to DNS.
type guardedTransport struct {
	policy Policy
	next   http.RoundTripper
}

func (g *guardedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := checkStatic(r.URL, g.policy); err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	return g.next.RoundTrip(r)
}

// Describe returns a one-sentence account of a failed request that is safe
// to show to whoever supplied the URL (a webhook's last_error): a refusal's
// reason, or what kind of network failure it was, never an address the
// host resolved to.
func Describe(err error) string {
	var ge *Error
	if errors.As(err, &ge) {
		return ge.Reason
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Sprintf("host %q could not be resolved", dns.Name)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "no answer in time"
	}
	var cv *tls.CertificateVerificationError
	if errors.As(err, &cv) {
		return "the TLS certificate did not verify: " + cv.Err.Error()
	}
	var re tls.RecordHeaderError
	if errors.As(err, &re) {
		return "the server did not speak TLS"
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the connection was closed before an answer"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the host is unreachable"
	}
	return "the request failed"
}
