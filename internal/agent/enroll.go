package agent

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/agent/client"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
)

func (c *Command) enroll(ctx context.Context, args []string) error {
	fs := c.flagSet("enroll")
	o := c.commonFlags(fs)
	token := fs.String("token", "", "one-time enrollment token (env SENTINEL_ENROLL_TOKEN), from sentineld admin create-enrollment-token")
	name := fs.String("name", "", "this host's name in the certificate and the inventory (default: the system host name)")
	force := fs.Bool("force", false, "replace an existing enrollment")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("unexpected argument %q", pos[0])
	}
	o.env(c)
	if *token == "" {
		*token = c.getenv("SENTINEL_ENROLL_TOKEN")
	}
	// enroll talks to the agent listener only, named by --agent-server
	// (SENTINEL_AGENT_SERVER); --server is the API URL everywhere, which
	// enrollment saves for later commands.
	server := o.agentServer
	if *token == "" {
		return usageErr("--token is required: the one-time enrollment token an administrator created (sentineld admin create-enrollment-token, or POST /v1/agent/enrollment-tokens)")
	}
	if server == "" {
		return usageErr("--agent-server is required: the agent listener's URL, e.g. https://sentinel.example.com:8443 (env SENTINEL_AGENT_SERVER); --server is the API URL")
	}
	tok, err := wire.ParseEnrollmentToken(*token)
	if err != nil {
		return &exitError{ExitUsage, err}
	}
	base, err := agentURL(server)
	if err != nil {
		return err
	}
	dir, err := c.home()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, configFile)); err == nil && !*force {
		return fmt.Errorf("this host is already enrolled (%s); pass --force to enroll again", filepath.Join(dir, configFile))
	}
	host := *name
	if host == "" {
		if host, err = c.hostname(); err != nil {
			return fmt.Errorf("host name: %w (pass --name)", err)
		}
	}

	// 1. Trust the listener only through the CA pinned in the token: the
	// handshake must present a CA with that fingerprint and a leaf that
	// verifies against it for the host dialled.
	hostname := base.Hostname()
	pinned := c.apiClient(base, "", client.Options{TLS: &tls.Config{
		MinVersion: tls.VersionTLS12,
		NextProtos: []string{wire.EnrollProto, "http/1.1"},
		// Verification is not skipped: it is VerifyConnection's, against
		// the pinned CA instead of the system roots.
		InsecureSkipVerify: true,
		VerifyConnection:   func(cs tls.ConnectionState) error { return verifyPinned(cs, tok.CAFingerprint, hostname) },
	}})
	defer pinned.Close()

	// 2. Fetch the CA and check its fingerprint against the token.
	var car wire.CAResponse
	if err := pinned.Do(ctx, client.Request{Method: "GET", Path: wire.PathCA}, &car); err != nil {
		return fmt.Errorf("fetch the agent server CA: %w", err)
	}
	block, _ := pem.Decode([]byte(car.Certificate))
	if block == nil {
		return errors.New("the agent listener sent no CA certificate")
	}
	if sha256.Sum256(block.Bytes) != tok.CAFingerprint {
		return errors.New("the agent server CA does not match the fingerprint in the token: this is not the server the token was made for (or someone is in between); no key was sent")
	}
	caCert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return fmt.Errorf("the agent server CA: %w", err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(caCert)

	// 3. A new key pair and a CSR naming this host.
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	csrDER, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: host}}, key)
	if err != nil {
		return fmt.Errorf("make the certificate request: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}

	// 4. Redeem the token, now over ordinary verification with the CA as
	// the only root.
	cl := c.apiClient(base, "", client.Options{TLS: &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: roots, NextProtos: []string{wire.EnrollProto, "http/1.1"}}})
	defer cl.Close()
	req := wire.EnrollRequest{Token: strings.TrimSpace(*token),
		CSR: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: csrDER}))}
	var resp wire.EnrollResponse
	if err := cl.Do(ctx, client.Request{Method: "POST", Path: wire.PathEnroll, JSON: req}, &resp); err != nil {
		return fmt.Errorf("enroll: %w", err)
	}

	// 5. Keep the identity.
	cfg := savedConfig{AgentServer: base.String(), Server: o.server, Organization: resp.Organization, Host: resp.Host,
		AgentID: resp.AgentID, NotAfter: resp.NotAfter, EnrolledAt: time.Now().UTC()}
	if cfg.Server == base.String() {
		cfg.Server = ""
	}
	if err := saveIdentity(dir, keyDER, resp.Certificate, resp.CA, resp.ServerCA, cfg); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout(), "enrolled %s in organization %s as %s; certificate valid until %s\nidentity saved in %s\n",
		resp.Host, resp.Organization, resp.AgentID, resp.NotAfter.UTC().Format(time.RFC3339), dir)
	return nil
}

// verifyPinned accepts a server whose chain includes a CA certificate with
// the pinned SHA-256 and whose leaf verifies against that CA alone, for
// the host name dialled and server authentication.
func verifyPinned(cs tls.ConnectionState, pin [32]byte, host string) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("the server sent no certificate")
	}
	var ca *x509.Certificate
	for _, c := range cs.PeerCertificates[1:] {
		if c.IsCA && sha256.Sum256(c.Raw) == pin {
			ca = c
		}
	}
	if ca == nil {
		return fmt.Errorf("the server's certificate chain does not contain the CA pinned by the token (sha256:%s): wrong server, or someone in between", hex.EncodeToString(pin[:]))
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, DNSName: host,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
	return err
}

// agentURL parses the agent listener's URL: https only, no path needed.
func agentURL(s string) (*url.URL, error) {
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return nil, usageErr("agent server %q is not a URL such as https://sentinel.example.com:8443", s)
	}
	if u.Scheme != "https" {
		return nil, usageErr("the agent server must be an https:// URL (mutual TLS), not %q", s)
	}
	u.Path, u.RawQuery, u.Fragment = strings.TrimRight(u.Path, "/"), "", ""
	return u, nil
}
