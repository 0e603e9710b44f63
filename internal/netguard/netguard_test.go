package netguard_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/netguard"
)

// fakeResolver answers from a table. A name with several answers returns
// them one per call, the last one repeating: a DNS rebinding attacker's
// server in miniature. No test resolves through real DNS except "localhost",
// which /etc/hosts answers.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	calls   map[string]int
}

func newFakeResolver() *fakeResolver {
	a := func(ss ...string) []netip.Addr {
		var out []netip.Addr
		for _, s := range ss {
			out = append(out, netip.MustParseAddr(s))
		}
		return out
	}
	return &fakeResolver{
		answers: map[string][][]netip.Addr{
			// Public addresses are only ever checked, never connected to.
			"public.test":   {a("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c")},
			"loopback.test": {a("127.0.0.1")},
			"loop6.test":    {a("::1")},
			"mapped.test":   {a("::ffff:127.0.0.1")},
			"private.test":  {a("10.1.2.3")},
			"metadata.test": {a("169.254.169.254")},
			"mixed.test":    {a("93.184.215.14", "10.0.0.7")},
			"rebind.test":   {a("93.184.215.14"), a("127.0.0.1")},
			"empty.test":    {{}},
			"localhost":     {a("127.0.0.1", "::1")},
		},
		calls: map[string]int{},
	}
}

func (r *fakeResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, ok := r.answers[strings.TrimSuffix(strings.ToLower(host), ".")]
	if !ok {
		return nil, errors.New("lookup " + host + " on 10.9.8.7:53: no such host")
	}
	i := min(r.calls[host], len(seq)-1)
	r.calls[host]++
	return seq[i], nil
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		name         string
		url          string
		allowPrivate bool
		allowHTTP    bool
		wantRefused  bool   // errors.Is(err, ErrRefused)
		wantErr      bool   // any error
		wantMsg      string // substring of the message, when set
	}{
		// Allowed public destinations.
		{name: "https_name", url: "https://public.test/hook"},
		{name: "https_name_port_query", url: "https://public.test:8443/hook?a=1#x"},
		{name: "uppercase_scheme", url: "HTTPS://public.test/"},
		{name: "public_ipv4", url: "https://93.184.215.14/"},
		{name: "public_ipv6", url: "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/"},
		{name: "public_6to4", url: "https://[2002:5db8:d70e::1]/"},
		{name: "public_nat64", url: "https://[64:ff9b::5db8:d70e]/"},

		// URL shape.
		{name: "http", url: "http://public.test/", wantRefused: true, wantMsg: `url scheme "http" is not allowed; use https`},
		{name: "ftp", url: "ftp://public.test/", wantRefused: true},
		{name: "file", url: "file:///etc/passwd", wantRefused: true},
		{name: "no_scheme", url: "public.test/hook", wantRefused: true},
		{name: "userinfo", url: "https://user:pw@public.test/", wantRefused: true, wantMsg: "user name or password"},
		{name: "empty_userinfo", url: "https://@public.test/", wantRefused: true},
		{name: "no_host", url: "https:///hook", wantRefused: true, wantMsg: "no host"},
		{name: "opaque", url: "https:public.test", wantRefused: true},
		{name: "port_zero", url: "https://public.test:0/", wantRefused: true},
		{name: "port_too_big", url: "https://public.test:65536/", wantRefused: true},
		{name: "unparseable", url: "https://public.test:port/", wantRefused: true},
		{name: "control_chars", url: "https://public.test/\x00", wantRefused: true},

		// Loopback, every spelling.
		{name: "loopback", url: "https://127.0.0.1/", wantRefused: true, wantMsg: "address 127.0.0.1 is a loopback address, which is not allowed"},
		{name: "loopback_other", url: "https://127.8.9.10:8443/", wantRefused: true},
		{name: "loopback_v6", url: "https://[::1]/", wantRefused: true},
		{name: "loopback_v6_long", url: "https://[0:0:0:0:0:0:0:1]/", wantRefused: true},
		{name: "mapped_loopback", url: "https://[::ffff:127.0.0.1]/", wantRefused: true, wantMsg: "loopback"},
		{name: "mapped_loopback_hex", url: "https://[::ffff:7f00:1]/", wantRefused: true, wantMsg: "loopback"},
		{name: "compatible_loopback", url: "https://[::127.0.0.1]/", wantRefused: true, wantMsg: "loopback"},
		{name: "translated_loopback", url: "https://[::ffff:0:7f00:1]/", wantRefused: true, wantMsg: "loopback"},
		{name: "nat64_loopback", url: "https://[64:ff9b::7f00:1]/", wantRefused: true, wantMsg: "loopback"},
		{name: "6to4_loopback", url: "https://[2002:7f00:1::1]/", wantRefused: true, wantMsg: "loopback"},
		{name: "decimal", url: "https://2130706433/", wantRefused: true, wantMsg: "non-standard numeric address"},
		{name: "hex", url: "https://0x7f000001/", wantRefused: true},
		{name: "hex_dotted", url: "https://0x7f.0.0.1/", wantRefused: true},
		{name: "octal", url: "https://0177.0.0.1/", wantRefused: true},
		{name: "octal_whole", url: "https://017700000001/", wantRefused: true},
		{name: "short_form", url: "https://127.1/", wantRefused: true},
		{name: "trailing_dot_ip", url: "https://127.0.0.1./", wantRefused: true},
		{name: "bare_0x", url: "https://0x/", wantRefused: true},
		{name: "localhost", url: "https://localhost/", wantRefused: true, wantMsg: `host "localhost" is a loopback name`},
		{name: "localhost_upper_dot", url: "https://LOCALHOST./", wantRefused: true},
		{name: "sub_localhost", url: "https://api.localhost/", wantRefused: true},
		{name: "name_to_loopback", url: "https://loopback.test/", wantRefused: true, wantMsg: `host "loopback.test" resolves to a loopback address, which is not allowed`},
		{name: "name_to_loopback_v6", url: "https://loop6.test/", wantRefused: true},
		{name: "name_to_mapped", url: "https://mapped.test/", wantRefused: true},

		// Private, link-local, metadata and the rest.
		{name: "rfc1918_10", url: "https://10.0.0.1/", wantRefused: true, wantMsg: "private address (RFC 1918)"},
		{name: "rfc1918_172", url: "https://172.16.5.4/", wantRefused: true},
		{name: "rfc1918_172_top", url: "https://172.31.255.255/", wantRefused: true},
		{name: "rfc1918_192", url: "https://192.168.1.1/", wantRefused: true},
		{name: "ula", url: "https://[fd12:3456::1]/", wantRefused: true, wantMsg: "RFC 4193"},
		{name: "ula_fc", url: "https://[fc00::1]/", wantRefused: true},
		{name: "link_local", url: "https://169.254.1.1/", wantRefused: true, wantMsg: "link-local"},
		{name: "link_local_v6", url: "https://[fe80::1]/", wantRefused: true},
		{name: "link_local_zone", url: "https://[fe80::1%25eth0]/", wantRefused: true, wantMsg: "zone"},
		{name: "cgnat", url: "https://100.64.0.1/", wantRefused: true, wantMsg: "carrier-grade NAT"},
		{name: "metadata", url: "https://169.254.169.254/latest/meta-data/", wantRefused: true, wantMsg: "cloud metadata"},
		{name: "metadata_v6", url: "https://[fd00:ec2::254]/", wantRefused: true, wantMsg: "cloud metadata"},
		{name: "metadata_mapped", url: "https://[::ffff:169.254.169.254]/", wantRefused: true, wantMsg: "cloud metadata"},
		{name: "metadata_decimal", url: "https://2852039166/", wantRefused: true},
		{name: "unspecified", url: "https://0.0.0.0/", wantRefused: true, wantMsg: "unspecified"},
		{name: "this_network", url: "https://0.1.2.3/", wantRefused: true},
		{name: "unspecified_v6", url: "https://[::]/", wantRefused: true},
		{name: "multicast", url: "https://224.0.0.1/", wantRefused: true, wantMsg: "multicast"},
		{name: "multicast_v6", url: "https://[ff02::1]/", wantRefused: true},
		{name: "broadcast", url: "https://255.255.255.255/", wantRefused: true},
		{name: "reserved", url: "https://240.0.0.1/", wantRefused: true},
		{name: "documentation", url: "https://192.0.2.1/", wantRefused: true, wantMsg: "documentation"},
		{name: "documentation_2", url: "https://198.51.100.7/", wantRefused: true},
		{name: "documentation_3", url: "https://203.0.113.9/", wantRefused: true},
		{name: "documentation_v6", url: "https://[2001:db8::1]/", wantRefused: true},
		{name: "benchmark", url: "https://198.18.0.1/", wantRefused: true},
		{name: "ietf_assignments", url: "https://192.0.0.8/", wantRefused: true},
		{name: "teredo", url: "https://[2001::1]/", wantRefused: true},
		{name: "discard_v6", url: "https://[100::1]/", wantRefused: true},
		{name: "not_global_v6", url: "https://[4000::1]/", wantRefused: true},
		{name: "name_to_private", url: "https://private.test/", wantRefused: true, wantMsg: `host "private.test" resolves to a private address (RFC 1918), which is not allowed`},
		{name: "name_to_metadata", url: "https://metadata.test/", wantRefused: true},
		{name: "any_address_refused", url: "https://mixed.test/", wantRefused: true},
		{name: "unresolvable", url: "https://nxdomain.test/", wantErr: true, wantMsg: `host "nxdomain.test" could not be resolved`},
		{name: "no_addresses", url: "https://empty.test/", wantRefused: true},

		// AllowPrivate opens private ranges and http, nothing else.
		{name: "private_http_loopback", url: "http://127.0.0.1:8080/", allowPrivate: true},
		{name: "private_localhost", url: "http://localhost:8080/", allowPrivate: true},
		{name: "private_v6_loopback", url: "https://[::1]/", allowPrivate: true},
		{name: "private_rfc1918", url: "https://10.0.0.1/", allowPrivate: true},
		{name: "private_ula", url: "https://[fd12::1]/", allowPrivate: true},
		{name: "private_cgnat", url: "https://100.64.0.1/", allowPrivate: true},
		{name: "private_link_local", url: "https://169.254.1.1/", allowPrivate: true},
		{name: "private_name", url: "https://private.test/", allowPrivate: true},
		{name: "private_metadata", url: "http://169.254.169.254/", allowPrivate: true, wantRefused: true, wantMsg: "cloud metadata"},
		{name: "azure_wireserver", url: "https://168.63.129.16/", wantRefused: true, wantMsg: "cloud metadata"},
		{name: "private_azure_wireserver", url: "http://168.63.129.16/", allowPrivate: true, wantRefused: true, wantMsg: "cloud metadata"},
		{name: "oracle_metadata", url: "https://192.0.0.192/", wantRefused: true, wantMsg: "cloud metadata"},
		{name: "private_oracle_metadata", url: "http://192.0.0.192/opc/v2/instance/", allowPrivate: true, wantRefused: true, wantMsg: "cloud metadata"},
		{name: "private_alibaba_metadata", url: "http://100.100.100.200/latest/meta-data/", allowPrivate: true, wantRefused: true},
		{name: "private_tencent_metadata", url: "http://169.254.0.23/", allowPrivate: true, wantRefused: true},
		{name: "private_aws_dns_v6", url: "http://[fd00:ec2::253]/", allowPrivate: true, wantRefused: true},
		{name: "private_metadata_v6", url: "http://[fd00:ec2::254]/", allowPrivate: true, wantRefused: true},
		{name: "private_metadata_mapped", url: "http://[::ffff:169.254.169.254]/", allowPrivate: true, wantRefused: true},
		{name: "private_metadata_name", url: "http://metadata.test/", allowPrivate: true, wantRefused: true},
		{name: "private_unspecified", url: "http://0.0.0.0:8080/", allowPrivate: true, wantRefused: true},
		{name: "private_unspecified_v6", url: "http://[::]:8080/", allowPrivate: true, wantRefused: true},
		{name: "private_multicast", url: "http://224.0.0.251/", allowPrivate: true, wantRefused: true},
		{name: "private_broadcast", url: "http://255.255.255.255/", allowPrivate: true, wantRefused: true},
		{name: "private_ftp", url: "ftp://10.0.0.1/", allowPrivate: true, wantRefused: true},
		{name: "private_userinfo", url: "http://u@10.0.0.1/", allowPrivate: true, wantRefused: true},
		{name: "private_decimal", url: "http://2130706433/", allowPrivate: true, wantRefused: true},

		// AllowHTTP opens http to public addresses, nothing else.
		{name: "http_public", url: "http://public.test/", allowHTTP: true},
		{name: "http_private_still_refused", url: "http://private.test/", allowHTTP: true, wantRefused: true},
		{name: "http_loopback_still_refused", url: "http://127.0.0.1/", allowHTTP: true, wantRefused: true},
		{name: "http_metadata_still_refused", url: "http://169.254.169.254/", allowHTTP: true, wantRefused: true},
		{name: "http_ftp_still_refused", url: "ftp://public.test/", allowHTTP: true, wantRefused: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := netguard.Policy{AllowPrivate: tt.allowPrivate, AllowHTTP: tt.allowHTTP, Resolver: newFakeResolver()}
			err := netguard.CheckURL(context.Background(), tt.url, p)
			wantErr := tt.wantErr || tt.wantRefused
			if (err != nil) != wantErr {
				t.Fatalf("CheckURL(%q) = %v, want error: %v", tt.url, err, wantErr)
			}
			if err == nil {
				return
			}
			if got := errors.Is(err, netguard.ErrRefused); got != tt.wantRefused {
				t.Errorf("CheckURL(%q) = %v; errors.Is(ErrRefused) = %v, want %v", tt.url, err, got, tt.wantRefused)
			}
			var ge *netguard.Error
			if !errors.As(err, &ge) {
				t.Fatalf("CheckURL(%q) = %T %v, want *netguard.Error", tt.url, err, err)
			}
			msg := err.Error()
			if tt.wantMsg != "" && !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("CheckURL(%q) message = %q, want it to contain %q", tt.url, msg, tt.wantMsg)
			}
			// One sentence for an API response: no trailing period, no
			// newline, and no resolved addresses or resolver internals.
			if strings.HasSuffix(msg, ".") || strings.ContainsAny(msg, "\n") {
				t.Errorf("CheckURL(%q) message %q is not a single unpunctuated sentence", tt.url, msg)
			}
			for _, leak := range []string{"10.1.2.3", "10.0.0.7", "10.9.8.7"} {
				if strings.Contains(msg, leak) {
					t.Errorf("CheckURL(%q) message %q reveals %s", tt.url, msg, leak)
				}
			}
		})
	}
}

func TestCheckURL_Localhost_DefaultResolver(t *testing.T) {
	// With AllowPrivate, "localhost" passes the name check and is resolved
	// (from /etc/hosts); without it, the name alone is refused.
	if err := netguard.CheckURL(context.Background(), "http://localhost:1/", netguard.Policy{AllowPrivate: true}); err != nil {
		t.Errorf("CheckURL(localhost, AllowPrivate) = %v, want nil", err)
	}
	if err := netguard.CheckURL(context.Background(), "https://localhost/", netguard.Policy{}); !errors.Is(err, netguard.ErrRefused) {
		t.Errorf("CheckURL(localhost) = %v, want ErrRefused", err)
	}
}

// server starts a TLS or plain test server on 127.0.0.1 that counts its
// requests; /redirect answers 302 to /target.
func server(t *testing.T, useTLS bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/target", http.StatusFound)
			return
		}
		io.WriteString(w, "ok "+r.URL.Path)
	})
	var srv *httptest.Server
	if useTLS {
		srv = httptest.NewTLSServer(h)
	} else {
		srv = httptest.NewServer(h)
	}
	t.Cleanup(srv.Close)
	return srv, &hits
}

// trustServer lets a netguard client verify srv's test certificate, without
// touching anything but the root CAs of its transport.
func trustServer(t *testing.T, c *http.Client, srv *httptest.Server) {
	t.Helper()
	tr := netguard.TransportForTest(c)
	tr.TLSClientConfig.RootCAs = srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
}

func TestClient_RefusesAtDial(t *testing.T) {
	srv, hits := server(t, true)
	port := portOf(t, srv)

	tests := []struct {
		name string
		url  string
	}{
		{"loopback", "https://127.0.0.1:" + port + "/"},
		{"loopback_v6", "https://[::1]:" + port + "/"},
		{"mapped_loopback", "https://[::ffff:127.0.0.1]:" + port + "/"},
		{"mapped_loopback_hex", "https://[::ffff:7f00:1]:" + port + "/"},
		{"name_to_loopback", "https://loopback.test:" + port + "/"},
		{"name_to_loopback_v6", "https://loop6.test:" + port + "/"},
		{"name_to_mapped", "https://mapped.test:" + port + "/"},
		{"localhost", "https://localhost:" + port + "/"},
		{"decimal", "https://2130706433:" + port + "/"},
		{"octal", "https://0177.0.0.1:" + port + "/"},
		{"hex", "https://0x7f.1:" + port + "/"},
		{"short_form", "https://127.1:" + port + "/"},
		{"http_scheme", "http://127.0.0.1:" + port + "/"},
		{"userinfo", "https://u:p@127.0.0.1:" + port + "/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := netguard.NewClient(netguard.Policy{Resolver: newFakeResolver()}, 2*time.Second)
			trustServer(t, c, srv)
			resp, err := c.Get(tt.url)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("Get(%q) succeeded with status %d, want a refusal", tt.url, resp.StatusCode)
			}
			if !errors.Is(err, netguard.ErrRefused) {
				t.Errorf("Get(%q) = %v, want ErrRefused", tt.url, err)
			}
			var ge *netguard.Error
			if !errors.As(err, &ge) {
				t.Errorf("Get(%q) = %v, want a *netguard.Error in the chain", tt.url, err)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("server received %d requests, want 0", n)
	}
}

// TestClient_DNSRebinding: the name resolves to a public address when the URL
// is checked and to 127.0.0.1 when the request is made. CheckURL passes; the
// dialer refuses.
func TestClient_DNSRebinding(t *testing.T) {
	srv, hits := server(t, true)
	port := portOf(t, srv)
	p := netguard.Policy{Resolver: newFakeResolver()}
	u := "https://rebind.test:" + port + "/"

	if err := netguard.CheckURL(context.Background(), u, p); err != nil {
		t.Fatalf("CheckURL(%q) at registration = %v, want nil", u, err)
	}
	c := netguard.NewClient(p, 2*time.Second)
	trustServer(t, c, srv)
	resp, err := c.Get(u)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("Get(%q) after rebinding succeeded, want a refusal", u)
	}
	var ge *netguard.Error
	if !errors.As(err, &ge) || !errors.Is(err, netguard.ErrRefused) {
		t.Fatalf("Get(%q) = %v, want a *netguard.Error wrapping ErrRefused", u, err)
	}
	if ge.Addr != netip.MustParseAddr("127.0.0.1") {
		t.Errorf("refused address = %v, want 127.0.0.1", ge.Addr)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("server received %d requests, want 0", n)
	}
}

func TestClient_AllowPrivate(t *testing.T) {
	t.Run("http_loopback", func(t *testing.T) {
		srv, hits := server(t, false)
		c := netguard.NewClient(netguard.Policy{AllowPrivate: true}, 0)
		resp, err := c.Get(srv.URL + "/hello")
		if err != nil {
			t.Fatalf("Get(%q) = %v", srv.URL, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(b) != "ok /hello" {
			t.Errorf("Get = %d %q, want 200 \"ok /hello\"", resp.StatusCode, b)
		}
		if hits.Load() != 1 {
			t.Errorf("server hits = %d, want 1", hits.Load())
		}
	})
	t.Run("https_name_via_resolver", func(t *testing.T) {
		srv, _ := server(t, true)
		port := portOf(t, srv)
		c := netguard.NewClient(netguard.Policy{AllowPrivate: true, Resolver: newFakeResolver()}, 0)
		trustServer(t, c, srv)
		// The test certificate is for 127.0.0.1 and example.com, not
		// loopback.test: reaching the TLS handshake proves the dial was
		// allowed, and the failure proves verification is on.
		_, err := c.Get("https://loopback.test:" + port + "/")
		var certErr *tls.CertificateVerificationError
		if !errors.As(err, &certErr) {
			t.Errorf("Get(loopback.test) = %v, want a certificate verification error", err)
		}
		resp, err := c.Get("https://127.0.0.1:" + port + "/tls")
		if err != nil {
			t.Fatalf("Get(127.0.0.1 over TLS) = %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status = %d, want 200", resp.StatusCode)
		}
	})
	t.Run("environment_proxy_ignored", func(t *testing.T) {
		srv, hits := server(t, false)
		t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
		t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
		t.Setenv("NO_PROXY", "")
		c := netguard.NewClient(netguard.Policy{AllowPrivate: true}, 0)
		resp, err := c.Get(srv.URL + "/direct")
		if err != nil {
			t.Fatalf("Get with a proxy in the environment = %v, want a direct connection", err)
		}
		resp.Body.Close()
		if hits.Load() != 1 {
			t.Errorf("server hits = %d, want 1", hits.Load())
		}
	})
	t.Run("unspecified_still_refused", func(t *testing.T) {
		c := netguard.NewClient(netguard.Policy{AllowPrivate: true, Resolver: newFakeResolver()}, time.Second)
		// Refused before any packet: the guarded Control hook runs before
		// connect. (The address-level proof is TestControl, which dials nothing.)
		_, err := c.Get("http://[::ffff:0.0.0.0]:1/")
		if !errors.Is(err, netguard.ErrRefused) {
			t.Errorf("Get(unspecified, AllowPrivate) = %v, want ErrRefused", err)
		}
	})
}

func TestClient_NoRedirects(t *testing.T) {
	srv, hits := server(t, false)
	c := netguard.NewClient(netguard.Policy{AllowPrivate: true}, 0)
	resp, err := c.Get(srv.URL + "/redirect")
	if err != nil {
		t.Fatalf("Get(/redirect) = %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("status = %d, want 302 returned as is", resp.StatusCode)
	}
	if loc := resp.Header.Get("Location"); loc != "/target" {
		t.Errorf("Location = %q, want /target", loc)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("server hits = %d, want 1 (the redirect was followed)", n)
	}
}

func TestNewClient_Defaults(t *testing.T) {
	c := netguard.NewClient(netguard.Policy{}, 0)
	if c.Timeout != netguard.DefaultTimeout || netguard.DefaultTimeout != 10*time.Second {
		t.Errorf("Timeout = %v, want 10s", c.Timeout)
	}
	tr := netguard.TransportForTest(c)
	if tr.Proxy != nil {
		t.Error("Transport.Proxy is set, want nil (no proxy from the environment)")
	}
	if tr.TLSClientConfig == nil || tr.TLSClientConfig.MinVersion < tls.VersionTLS12 || tr.TLSClientConfig.InsecureSkipVerify {
		t.Errorf("TLS config = %+v, want TLS 1.2+ with verification", tr.TLSClientConfig)
	}
	req, _ := http.NewRequest(http.MethodGet, "https://public.test/", nil)
	if err := c.CheckRedirect(req, nil); !errors.Is(err, http.ErrUseLastResponse) {
		t.Errorf("CheckRedirect = %v, want http.ErrUseLastResponse", err)
	}
	if c := netguard.NewClient(netguard.Policy{}, 3*time.Second); c.Timeout != 3*time.Second {
		t.Errorf("Timeout = %v, want 3s", c.Timeout)
	}
}

// portOf returns the port srv listens on.
func portOf(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Port()
}
