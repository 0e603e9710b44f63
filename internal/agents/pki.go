package agents

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// Lifetimes of the agent PKI.
const (
	caValidity     = 10 * 365 * 24 * time.Hour
	serverValidity = 90 * 24 * time.Hour
	// serverRenewBefore re-issues the listener's certificate when less than
	// this is left, so a long-running process never serves an expired one.
	serverRenewBefore = 30 * 24 * time.Hour
	// AgentValidity is the lifetime of an agent's client certificate.
	AgentValidity = 365 * 24 * time.Hour
	// clockSkew backdates NotBefore so that a client whose clock runs a
	// little behind accepts a fresh certificate.
	clockSkew = 5 * time.Minute
)

// ca is a loaded certificate authority with its private key in memory.
type ca struct {
	name  string
	orgID string
	cert  *x509.Certificate
	key   crypto.Signer
}

func sealAD(name string) []byte { return []byte("agent_ca:" + name) }

// Fingerprint returns the SHA-256 of a DER certificate.
func Fingerprint(der []byte) [32]byte { return sha256.Sum256(der) }

func randomSerial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n.Add(n, big.NewInt(1)) // never zero
}

// newCA makes a self-signed ECDSA P-256 CA that may sign only leaf
// certificates (MaxPathLen 0).
func newCA(cn, ou string, now time.Time) ([]byte, *ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          randomSerial(),
		Subject:               pkix.Name{CommonName: cn, Organization: []string{"Sentinel"}, OrganizationalUnit: []string{ou}},
		NotBefore:             now.Add(-clockSkew),
		NotAfter:              now.Add(caValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	return der, key, err
}

// loadCA returns the CA stored under name, creating it (and storing it
// sealed with the master key) when it does not exist yet.
func (s *Service) loadCA(ctx context.Context, name, orgID, cn, ou string) (*ca, error) {
	rec, err := s.DB.FindAgentCA(ctx, name)
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		der, key, err := newCA(cn, ou, s.now())
		if err != nil {
			return nil, fmt.Errorf("create agent ca: %w", err)
		}
		pk, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			return nil, err
		}
		cert, _ := x509.ParseCertificate(der)
		fp := Fingerprint(der)
		rec, err = s.DB.CreateAgentCA(ctx, &sentinel.AgentCA{Name: name, OrgID: orgID, Cert: der,
			KeySealed: s.Box.Seal(pk, sealAD(name)), SKI: hex.EncodeToString(cert.SubjectKeyId), Fingerprint: hex.EncodeToString(fp[:])})
		if err != nil {
			return nil, err
		}
		s.Logger.Info("created agent certificate authority", "name", name, "fingerprint", rec.Fingerprint)
	} else if err != nil {
		return nil, err
	}
	return s.openCA(rec)
}

func (s *Service) openCA(rec *sentinel.AgentCA) (*ca, error) {
	cert, err := x509.ParseCertificate(rec.Cert)
	if err != nil {
		return nil, fmt.Errorf("agent ca %q: %w", rec.Name, err)
	}
	pk, err := s.Box.Open(rec.KeySealed, sealAD(rec.Name))
	if err != nil {
		return nil, fmt.Errorf("agent ca %q: %w", rec.Name, err)
	}
	k, err := x509.ParsePKCS8PrivateKey(pk)
	if err != nil {
		return nil, fmt.Errorf("agent ca %q: %w", rec.Name, err)
	}
	signer, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("agent ca %q: key is not a signer", rec.Name)
	}
	return &ca{name: rec.Name, orgID: rec.OrgID, cert: cert, key: signer}, nil
}

// ServerCA returns the deployment's agent server CA, creating it on first
// use. Its fingerprint is what enrollment tokens carry.
func (s *Service) ServerCA(ctx context.Context) (*x509.Certificate, error) {
	c, err := s.serverCA(ctx)
	if err != nil {
		return nil, err
	}
	return c.cert, nil
}

func (s *Service) serverCA(ctx context.Context) (*ca, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srvCA != nil {
		return s.srvCA, nil
	}
	c, err := s.loadCA(ctx, store.ServerCAName, "", "Sentinel agent server CA", "agent-server")
	if err != nil {
		return nil, err
	}
	s.srvCA = c
	return c, nil
}

// orgCA returns the organization's agent CA, creating it on first use.
func (s *Service) orgCA(ctx context.Context, org *sentinel.Organization) (*ca, error) {
	c, err := s.loadCA(ctx, org.ID, org.ID, "Sentinel agent CA "+org.Slug, org.ID)
	if err != nil {
		return nil, err
	}
	s.trust.put(hex.EncodeToString(c.cert.SubjectKeyId), &trusted{orgID: org.ID, cert: c.cert})
	return c, nil
}

// serverNames are the listener certificate's SANs: loopback, localhost,
// the listen host when it is specific, and the configured names.
func (s *Service) serverNames(listenHost string) ([]net.IP, []string) {
	ips := []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	dns := []string{"localhost"}
	add := func(h string) {
		if h == "" {
			return
		}
		if ip := net.ParseIP(h); ip != nil {
			if ip.IsUnspecified() {
				return
			}
			for _, x := range ips {
				if x.Equal(ip) {
					return
				}
			}
			ips = append(ips, ip)
			return
		}
		for _, x := range dns {
			if x == h {
				return
			}
		}
		dns = append(dns, h)
	}
	add(listenHost)
	for _, n := range s.ServerNames {
		add(n)
	}
	return ips, dns
}

// issueServerCert issues the agent listener's certificate from the server
// CA. It is never stored: every replica issues its own at start-up.
func (s *Service) issueServerCert(ctx context.Context) (*tls.Certificate, error) {
	c, err := s.serverCA(ctx)
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := s.now()
	ips, dns := s.serverNames(s.listenHost)
	tmpl := &x509.Certificate{
		SerialNumber: randomSerial(),
		Subject:      pkix.Name{CommonName: dns[len(dns)-1], Organization: []string{"Sentinel"}},
		NotBefore:    now.Add(-clockSkew),
		NotAfter:     now.Add(serverValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  ips,
		DNSNames:     dns,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, &key.PublicKey, c.key)
	if err != nil {
		return nil, fmt.Errorf("issue agent listener certificate: %w", err)
	}
	leaf, _ := x509.ParseCertificate(der)
	// The chain carries the CA, so an enrolling agent can check the pin
	// from the token against the handshake itself.
	return &tls.Certificate{Certificate: [][]byte{der, c.cert.Raw}, PrivateKey: key, Leaf: leaf}, nil
}

// IssueAgentCertificate signs a client certificate for an agent of the
// organization: CN = host, client authentication only, valid from
// notBefore to notAfter. Enrollment uses it with now and now + one year;
// tests use it to make expired certificates.
func (s *Service) IssueAgentCertificate(ctx context.Context, org *sentinel.Organization, pub crypto.PublicKey, host string, notBefore, notAfter time.Time) ([]byte, error) {
	c, err := s.orgCA(ctx, org)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: randomSerial(),
		Subject:      pkix.Name{CommonName: host, Organization: []string{org.Slug}, OrganizationalUnit: []string{org.ID}},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, c.cert, pub, c.key)
	if err != nil {
		return nil, fmt.Errorf("issue agent certificate: %w", err)
	}
	return der, nil
}

// certPEM encodes DER certificates as PEM.
func certPEM(ders ...[]byte) string {
	var out []byte
	for _, d := range ders {
		out = append(out, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: d})...)
	}
	return string(out)
}
