package signing

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// Default lifetimes.
const (
	// DefaultCAValidity is how long the root, the intermediate and the
	// timestamp authority certificates stay valid. Signatures keep verifying
	// after that (the chain is checked at the time of the signed timestamp);
	// only new signing needs a new CA.
	DefaultCAValidity = 10 * 365 * 24 * time.Hour

	// DefaultLeafValidity is the lifetime of a per-bundle leaf certificate.
	DefaultLeafValidity = 15 * time.Minute

	// MaxLeafValidity bounds SignerOptions.Validity: a leaf is meant to
	// outlive only the signing of one bundle.
	MaxLeafValidity = time.Hour
)

// CAOptions configures NewCA. The zero value is usable.
type CAOptions struct {
	// Organization goes into the subjects of the CA certificates, for
	// example the deployment's name. Default "Sentinel".
	Organization string
	// Curve is the curve of the root, intermediate and TSA keys:
	// elliptic.P256() or elliptic.P384() (the default, as Fulcio uses).
	Curve elliptic.Curve
	// Validity of the CA certificates; default DefaultCAValidity.
	Validity time.Duration
}

// CA is a deployment's signing CA: a self-signed root, an intermediate that
// issues the per-bundle code-signing leaves, and a timestamp authority
// certificate issued by the root. The root key is optional once the CA
// exists (see LoadCA): it is needed only to create the other two.
type CA struct {
	root, intermediate, tsa          *x509.Certificate
	rootKey, intermediateKey, tsaKey *ecdsa.PrivateKey
}

// NewCA creates a new signing CA whose certificates are valid from now.
func NewCA(now time.Time, opts CAOptions) (*CA, error) {
	org := opts.Organization
	if org == "" {
		org = "Sentinel"
	}
	curve := opts.Curve
	if curve == nil {
		curve = elliptic.P384()
	}
	if curve != elliptic.P256() && curve != elliptic.P384() {
		return nil, fmt.Errorf("new ca: unsupported curve %s (want P-256 or P-384)", curve.Params().Name)
	}
	validity := opts.Validity
	if validity == 0 {
		validity = DefaultCAValidity
	}
	if validity < 0 {
		return nil, fmt.Errorf("new ca: negative validity %v", validity)
	}
	notBefore := now.UTC().Truncate(time.Second)
	notAfter := notBefore.Add(validity)

	keys := make([]*ecdsa.PrivateKey, 3)
	for i := range keys {
		k, err := ecdsa.GenerateKey(curve, rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("new ca: generate key: %w", err)
		}
		keys[i] = k
	}
	ca := &CA{rootKey: keys[0], intermediateKey: keys[1], tsaKey: keys[2]}

	rootTmpl := &x509.Certificate{
		Subject:               pkix.Name{Organization: []string{org}, CommonName: org + " evidence signing root"},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLen:            1,
	}
	var err error
	if ca.root, err = createCertificate(rootTmpl, rootTmpl, &ca.rootKey.PublicKey, ca.rootKey); err != nil {
		return nil, fmt.Errorf("new ca: root: %w", err)
	}

	// The intermediate is restricted to code signing, as Fulcio's is: Go's
	// (and cosign's) chain building requires every EKU-bearing CA in the
	// path to allow the leaf's usage, so it cannot issue anything else.
	interTmpl := &x509.Certificate{
		Subject:               pkix.Name{Organization: []string{org}, CommonName: org + " evidence signing intermediate"},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	if ca.intermediate, err = createCertificate(interTmpl, ca.root, &ca.intermediateKey.PublicKey, ca.rootKey); err != nil {
		return nil, fmt.Errorf("new ca: intermediate: %w", err)
	}

	// RFC 3161 section 2.3: the TSA certificate has exactly one extended key
	// usage, timeStamping, and the extension is critical (the Sigstore
	// timestamp verifier rejects anything else). Go marks the EKU extension
	// non-critical, so it is written by hand.
	ekuExt, err := timeStampingEKU()
	if err != nil {
		return nil, fmt.Errorf("new ca: tsa: %w", err)
	}
	tsaTmpl := &x509.Certificate{
		Subject:               pkix.Name{Organization: []string{org}, CommonName: org + " evidence timestamp authority"},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtraExtensions:       []pkix.Extension{ekuExt},
		BasicConstraintsValid: true,
	}
	if ca.tsa, err = createCertificate(tsaTmpl, ca.root, &ca.tsaKey.PublicKey, ca.rootKey); err != nil {
		return nil, fmt.Errorf("new ca: tsa: %w", err)
	}
	return ca, nil
}

// Root returns the root certificate, the trust anchor a recipient may pin.
func (ca *CA) Root() *x509.Certificate { return ca.root }

// Intermediate returns the intermediate that issues the leaf certificates.
func (ca *CA) Intermediate() *x509.Certificate { return ca.intermediate }

// TSACertificate returns the timestamp authority's certificate.
func (ca *CA) TSACertificate() *x509.Certificate { return ca.tsa }

// ChainPEM returns the chain file for `cosign verify-blob
// --certificate-chain`: the intermediate, then the root (cosign trusts the
// last certificate of the file).
func (ca *CA) ChainPEM() []byte {
	return encodeCertificates(ca.intermediate, ca.root)
}

// TSAChainPEM returns the file for `cosign verify-blob
// --timestamp-certificate-chain`: the TSA certificate (cosign requires
// exactly one non-CA certificate in it) and the root.
func (ca *CA) TSAChainPEM() []byte {
	return encodeCertificates(ca.tsa, ca.root)
}

// CertificatesPEM returns the root, intermediate and TSA certificates, in
// that order, as PEM. They are public.
func (ca *CA) CertificatesPEM() []byte {
	return encodeCertificates(ca.root, ca.intermediate, ca.tsa)
}

// PrivateKeysPEM returns the CA's private keys as PKCS#8 "PRIVATE KEY" PEM
// blocks. The caller encrypts them at rest. The root key is left out when
// withRoot is false, so that it can be kept offline: a CA loaded without it
// still signs and timestamps.
func (ca *CA) PrivateKeysPEM(withRoot bool) ([]byte, error) {
	keys := []*ecdsa.PrivateKey{ca.intermediateKey, ca.tsaKey}
	if withRoot {
		if ca.rootKey == nil {
			return nil, errors.New("marshal ca keys: root key not loaded")
		}
		keys = append([]*ecdsa.PrivateKey{ca.rootKey}, keys...)
	}
	var buf bytes.Buffer
	for _, k := range keys {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			return nil, fmt.Errorf("marshal ca keys: %w", err)
		}
		if err := pem.Encode(&buf, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
			return nil, fmt.Errorf("marshal ca keys: %w", err)
		}
	}
	return buf.Bytes(), nil
}

// LoadCA rebuilds a CA from CertificatesPEM and PrivateKeysPEM output. The
// certificates may come in any order; each key is matched to its
// certificate by public key. The intermediate and TSA keys are required,
// the root key is optional.
func LoadCA(certsPEM, keysPEM []byte) (*CA, error) {
	certs, err := parseCertificates(certsPEM, 8)
	if err != nil {
		return nil, fmt.Errorf("load ca: %w", err)
	}
	ca := &CA{}
	for _, c := range certs {
		switch {
		case c.IsCA && bytes.Equal(c.RawSubject, c.RawIssuer):
			ca.root = c
		case c.IsCA:
			ca.intermediate = c
		case hasEKU(c, x509.ExtKeyUsageTimeStamping):
			ca.tsa = c
		}
	}
	if ca.root == nil || ca.intermediate == nil || ca.tsa == nil {
		return nil, errors.New("load ca: need a root, an intermediate and a timestamp authority certificate")
	}
	for _, c := range []*x509.Certificate{ca.intermediate, ca.tsa} {
		if err := c.CheckSignatureFrom(ca.root); err != nil {
			return nil, fmt.Errorf("load ca: %q not issued by the root: %w", c.Subject.CommonName, err)
		}
	}

	rest := keysPEM
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "PRIVATE KEY" {
			return nil, fmt.Errorf("load ca: unexpected PEM block %q", block.Type)
		}
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("load ca: parse key: %w", err)
		}
		ek, ok := k.(*ecdsa.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("load ca: key type %T, want ECDSA", k)
		}
		switch {
		case ek.PublicKey.Equal(ca.root.PublicKey):
			ca.rootKey = ek
		case ek.PublicKey.Equal(ca.intermediate.PublicKey):
			ca.intermediateKey = ek
		case ek.PublicKey.Equal(ca.tsa.PublicKey):
			ca.tsaKey = ek
		default:
			return nil, errors.New("load ca: a key matches none of the certificates")
		}
	}
	if ca.intermediateKey == nil || ca.tsaKey == nil {
		return nil, errors.New("load ca: missing the intermediate or the timestamp authority key")
	}
	return ca, nil
}

// createCertificate fills in a random serial number and creates the
// certificate.
func createCertificate(tmpl, parent *x509.Certificate, pub *ecdsa.PublicKey, priv crypto.Signer) (*x509.Certificate, error) {
	serial, err := randomSerial()
	if err != nil {
		return nil, err
	}
	tmpl.SerialNumber = serial
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, priv)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
}

// randomSerial returns a positive 128-bit serial number.
func randomSerial() (*big.Int, error) {
	limit := new(big.Int).Lsh(big.NewInt(1), 127)
	n, err := rand.Int(rand.Reader, limit)
	if err != nil {
		return nil, fmt.Errorf("serial number: %w", err)
	}
	return n.Add(n, big.NewInt(1)), nil
}

func encodeCertificates(certs ...*x509.Certificate) []byte {
	var buf bytes.Buffer
	for _, c := range certs {
		_ = pem.Encode(&buf, &pem.Block{Type: "CERTIFICATE", Bytes: c.Raw}) // writes to a bytes.Buffer do not fail
	}
	return buf.Bytes()
}

func hasEKU(c *x509.Certificate, eku x509.ExtKeyUsage) bool {
	for _, u := range c.ExtKeyUsage {
		if u == eku {
			return true
		}
	}
	return false
}
