package agents

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// trusted is an organization agent CA as the handshake uses it.
type trusted struct {
	orgID string
	cert  *x509.Certificate
}

// trustCache maps a CA's hex subject key id to its organization, in front
// of the store. Unknown ids are remembered briefly, so that a client
// presenting certificates of a foreign CA cannot make every handshake a
// store query.
type trustCache struct {
	mu      sync.Mutex
	known   map[string]*trusted
	unknown map[string]time.Time
}

func (c *trustCache) get(ski string, now time.Time) (t *trusted, miss bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.known[ski]; t != nil {
		return t, false
	}
	if until, ok := c.unknown[ski]; ok && now.Before(until) {
		return nil, false
	}
	return nil, true
}

func (c *trustCache) put(ski string, t *trusted) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.known == nil {
		c.known = map[string]*trusted{}
	}
	c.known[ski] = t
	delete(c.unknown, ski)
}

func (c *trustCache) putUnknown(ski string, until time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.unknown == nil || len(c.unknown) > 10_000 {
		c.unknown = map[string]time.Time{}
	}
	c.unknown[ski] = until
}

// unknownCATTL is how long an unknown authority key id is not looked up
// again. A CA created on another replica is found at most this late by an
// agent whose first try raced its creation; CAs are created at enrollment,
// before the agent has a certificate to present, so in practice never.
const unknownCATTL = 10 * time.Second

// trustedCA returns the organization agent CA with the subject key id.
func (s *Service) trustedCA(ctx context.Context, ski []byte) (*trusted, error) {
	if len(ski) == 0 {
		return nil, errors.New("the certificate names no authority key id")
	}
	h := hex.EncodeToString(ski)
	now := time.Now()
	t, miss := s.trust.get(h, now)
	if t != nil {
		return t, nil
	}
	if !miss {
		return nil, errors.New("the certificate is not from an organization's agent CA")
	}
	rec, err := s.DB.FindOrgAgentCABySKI(ctx, h)
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		s.trust.putUnknown(h, now.Add(unknownCATTL))
		return nil, errors.New("the certificate is not from an organization's agent CA")
	}
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(rec.Cert)
	if err != nil {
		return nil, err
	}
	t = &trusted{orgID: rec.OrgID, cert: cert}
	s.trust.put(h, t)
	return t, nil
}

// verifyAgentCert checks a client certificate chain exactly as
// tls.RequireAndVerifyClientCert would (x509 path validation for client
// authentication at the current time), with the organization agent CA named
// by the leaf's authority key id as the only root. It returns that
// organization's id. Revocation is checked per request (CertificateOrg).
func (s *Service) verifyAgentCert(ctx context.Context, rawCerts [][]byte) (string, error) {
	if len(rawCerts) == 0 {
		return "", errors.New("a client certificate is required: enroll the agent first (sentinel enroll)")
	}
	leaf, err := x509.ParseCertificate(rawCerts[0])
	if err != nil {
		return "", fmt.Errorf("client certificate: %w", err)
	}
	if leaf.IsCA {
		return "", errors.New("client certificate: a CA certificate cannot authenticate an agent")
	}
	t, err := s.trustedCA(ctx, leaf.AuthorityKeyId)
	if err != nil {
		return "", fmt.Errorf("client certificate: %w", err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(t.cert)
	_, err = leaf.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: s.now(),
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
	if err != nil {
		return "", fmt.Errorf("client certificate: %w", err)
	}
	return t.orgID, nil
}

// TLSConfig returns the agent listener's TLS configuration. The server
// certificate is issued from the agent server CA (created on first use)
// for listenHost, 127.0.0.1, ::1, localhost and Service.ServerNames, and
// re-issued before it expires.
//
// Client authentication is decided per connection (GetConfigForClient):
// a ClientHello that offers EnrollProto gets no client-certificate request;
// every other one must present a certificate that verifies against the
// agent CA of an organization (tls.RequireAnyClientCert plus
// VerifyPeerCertificate: the trust set is every organization's CA, looked
// up by the certificate's authority key id, so a CA created on another
// replica is trusted without a restart). A missing, foreign or expired
// certificate fails the handshake: no handler runs.
func (s *Service) TLSConfig(ctx context.Context, listenHost string) (*tls.Config, error) {
	s.init()
	s.listenHost = listenHost
	cert, err := s.issueServerCert(ctx)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	getCert := func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		mu.Lock()
		defer mu.Unlock()
		if s.now().Add(serverRenewBefore).After(cert.Leaf.NotAfter) {
			c, err := s.issueServerCert(context.Background())
			if err != nil {
				s.Logger.Error("renew agent listener certificate", "err", err)
				return cert, nil
			}
			cert = c
		}
		return cert, nil
	}
	base := &tls.Config{
		MinVersion:     tls.VersionTLS12,
		NextProtos:     []string{"http/1.1"},
		GetCertificate: getCert,
	}
	enroll := base.Clone()
	enroll.ClientAuth = tls.NoClientCert
	cfg := base.Clone()
	cfg.GetConfigForClient = func(hello *tls.ClientHelloInfo) (*tls.Config, error) {
		if slices.Contains(hello.SupportedProtos, EnrollProto) {
			return enroll, nil
		}
		c := base.Clone()
		c.ClientAuth = tls.RequireAnyClientCert
		hctx := hello.Context()
		c.VerifyPeerCertificate = func(raw [][]byte, _ [][]*x509.Certificate) error {
			_, err := s.verifyAgentCert(hctx, raw)
			return err
		}
		return c, nil
	}
	return cfg, nil
}

// ErrRevoked answers every request made with a revoked agent's
// certificate.
var ErrRevoked = sentinel.Errorf(sentinel.EUNAUTHORIZED, "this agent's certificate was revoked: enroll the agent again with a new token (sentinel enroll)")

// CertificateOrg returns the organization of a request's verified client
// certificate, or "" when the connection has none (an enrollment
// connection). A revoked agent's certificate is ErrRevoked: the handshake
// lets it through so that the agent hears why, in an answer, rather than
// as a broken connection in the middle of its upload (the agent sends
// Expect: 100-continue, so the refusal comes before the body).
func (s *Service) CertificateOrg(ctx context.Context, state *tls.ConnectionState) (string, error) {
	if state == nil || len(state.PeerCertificates) == 0 {
		return "", nil
	}
	leaf := state.PeerCertificates[0]
	t, err := s.trustedCA(ctx, leaf.AuthorityKeyId)
	if err != nil {
		return "", err
	}
	revoked, err := s.DB.AgentRevoked(ctx, t.orgID, leaf.SerialNumber.Text(16))
	if err != nil {
		return "", err
	}
	if revoked {
		return "", ErrRevoked
	}
	return t.orgID, nil
}
