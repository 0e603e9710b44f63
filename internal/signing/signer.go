package signing

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"time"

	"github.com/digitorus/timestamp"
)

// The Fulcio certificate extensions carrying the OIDC issuer
// (https://github.com/sigstore/fulcio/blob/main/docs/oid-info.md).
var (
	// OIDIssuer (1.3.6.1.4.1.57264.1.1, deprecated by Fulcio) holds the
	// issuer URL as raw bytes; cosign's certificate-chain path reads only it.
	OIDIssuer = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 1, 1}
	// OIDIssuerV2 (1.3.6.1.4.1.57264.1.8) holds the same URL as a DER
	// UTF8String; sigstore-go reads this one.
	OIDIssuerV2 = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 57264, 1, 8}
)

// ErrSignerClosed is returned by Sign after Close.
var ErrSignerClosed = errors.New("signer closed: the bundle's private key was discarded")

// SignerOptions configures CA.NewSigner.
type SignerOptions struct {
	// Identity is the signing identity, written as the leaf's only URI SAN,
	// for example "https://sentinel.example/orgs/acme/evidence".
	Identity string
	// Issuer is the OIDC issuer URL written into the Fulcio issuer
	// extensions, for example "https://sentinel.example".
	Issuer string
	// Validity is the leaf's lifetime; default DefaultLeafValidity, at
	// most MaxLeafValidity.
	Validity time.Duration
	// Now is the clock for the leaf and, when Timestamper is nil, for the
	// timestamps; nil means time.Now.
	Now func() time.Time
	// Timestamper timestamps the signatures; nil means the CA's own
	// TimestampAuthority with the clock Now.
	Timestamper Timestamper
}

// Signer signs the artifacts of one bundle with a fresh key pair and a
// short-lived leaf certificate. It is safe for concurrent use. Close it once
// the bundle is signed.
type Signer struct {
	cert  *x509.Certificate
	now   func() time.Time
	stamp Timestamper

	mu  sync.RWMutex
	key *ecdsa.PrivateKey // nil once closed
}

// NewSigner generates a P-256 key pair and issues its leaf certificate from
// the intermediate, valid from now for opts.Validity, with the identity as
// URI SAN, digitalSignature key usage, the codeSigning extended key usage
// and both Fulcio OIDC-issuer extensions.
func (ca *CA) NewSigner(opts SignerOptions) (*Signer, error) {
	if err := checkURL("identity", opts.Identity); err != nil {
		return nil, fmt.Errorf("new signer: %w", err)
	}
	if err := checkURL("issuer", opts.Issuer); err != nil {
		return nil, fmt.Errorf("new signer: %w", err)
	}
	validity := opts.Validity
	if validity == 0 {
		validity = DefaultLeafValidity
	}
	if validity < time.Minute || validity > MaxLeafValidity {
		return nil, fmt.Errorf("new signer: validity %v outside 1m..%v", validity, MaxLeafValidity)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if ca.intermediateKey == nil {
		return nil, errors.New("new signer: intermediate key not loaded")
	}

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("new signer: generate key: %w", err)
	}
	san, _ := url.Parse(opts.Identity) // checked above
	issuerV2, err := asn1.MarshalWithParams(opts.Issuer, "utf8")
	if err != nil {
		return nil, fmt.Errorf("new signer: encode issuer: %w", err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("new signer: %w", err)
	}
	skid := sha256.Sum256(pubDER)

	// X.509 times have one-second precision: truncating keeps NotBefore at
	// or before the first timestamp.
	notBefore := now().UTC().Truncate(time.Second)
	tmpl := &x509.Certificate{
		// An empty subject, as Fulcio issues: the identity is the SAN (Go
		// then marks the SAN extension critical, per RFC 5280).
		NotBefore:    notBefore,
		NotAfter:     notBefore.Add(validity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		URIs:         []*url.URL{san},
		SubjectKeyId: skid[:20],
		ExtraExtensions: []pkix.Extension{
			{Id: OIDIssuer, Value: []byte(opts.Issuer)},
			{Id: OIDIssuerV2, Value: issuerV2},
		},
		BasicConstraintsValid: true,
	}
	if notBefore.Before(ca.intermediate.NotBefore) || tmpl.NotAfter.After(ca.intermediate.NotAfter) {
		return nil, fmt.Errorf("new signer: leaf window %s..%s is outside the intermediate's validity",
			tmpl.NotBefore.Format(time.RFC3339), tmpl.NotAfter.Format(time.RFC3339))
	}
	cert, err := createCertificate(tmpl, ca.intermediate, &key.PublicKey, ca.intermediateKey)
	if err != nil {
		return nil, fmt.Errorf("new signer: issue leaf: %w", err)
	}
	stamp := opts.Timestamper
	if stamp == nil {
		stamp = ca.TimestampAuthority(now)
	}
	return &Signer{cert: cert, now: now, stamp: stamp, key: key}, nil
}

func checkURL(what, s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%s %q: %w", what, s, err)
	}
	if u.Scheme == "" || u.Host == "" {
		return fmt.Errorf("%s %q: want an absolute URL", what, s)
	}
	return nil
}

// Certificate returns the leaf certificate.
func (s *Signer) Certificate() *x509.Certificate { return s.cert }

// CertificatePEM returns the leaf certificate as PEM, the file for
// `cosign verify-blob --certificate`.
func (s *Signer) CertificatePEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.cert.Raw})
}

// Close discards the private key; Sign fails with ErrSignerClosed
// afterwards. Go cannot promise that no copy of the key remains in memory
// (the runtime may have moved it), but nothing references or serialises it
// any more. Close is idempotent.
func (s *Signer) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = nil
	return nil
}

// Signature is one artifact's signature.
type Signature struct {
	// SHA256 is the digest of the artifact, Size its length in bytes.
	SHA256 [sha256.Size]byte
	Size   int64
	// DER is the ASN.1 ECDSA signature over SHA256.
	DER []byte
	// Timestamp is the DER RFC 3161 TimeStampResp over SHA-256(DER), and
	// SignedAt its time.
	Timestamp []byte
	SignedAt  time.Time
}

// SigFile returns the ".sig" file: the base64 of DER, as cosign sign-blob
// writes it (no trailing newline).
func (sig *Signature) SigFile() []byte {
	return []byte(base64.StdEncoding.EncodeToString(sig.DER))
}

// TimestampFile returns the file for `cosign verify-blob
// --rfc3161-timestamp` (see EncodeTimestampFile).
func (sig *Signature) TimestampFile() []byte {
	return EncodeTimestampFile(sig.Timestamp)
}

// Sign reads the artifact to its end, hashes it with SHA-256, signs the
// digest and timestamps the signature. It fails with ErrSignerClosed after
// Close and refuses to sign once the leaf certificate has expired.
func (s *Signer) Sign(ctx context.Context, r io.Reader) (*Signature, error) {
	sig := &Signature{}
	var err error
	if sig.Size, err = hashStream(ctx, r, sig.SHA256[:0]); err != nil {
		return nil, fmt.Errorf("sign: read artifact: %w", err)
	}

	at := s.now()
	if at.Before(s.cert.NotBefore) || at.After(s.cert.NotAfter) {
		return nil, fmt.Errorf("sign: %s is outside the leaf certificate's validity (%s to %s)",
			at.UTC().Format(time.RFC3339), s.cert.NotBefore.Format(time.RFC3339), s.cert.NotAfter.Format(time.RFC3339))
	}
	s.mu.RLock()
	key := s.key
	s.mu.RUnlock()
	if key == nil {
		return nil, ErrSignerClosed
	}
	if sig.DER, err = ecdsa.SignASN1(rand.Reader, key, sig.SHA256[:]); err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}

	if sig.Timestamp, err = s.stamp.Timestamp(ctx, sig.DER); err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	pkcs7Mu.Lock()
	ts, err := timestamp.ParseResponse(sig.Timestamp)
	pkcs7Mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("sign: parse timestamp: %w", err)
	}
	if !ts.HashAlgorithm.Available() {
		return nil, fmt.Errorf("sign: timestamp hash algorithm %v", ts.HashAlgorithm)
	}
	th := ts.HashAlgorithm.New()
	th.Write(sig.DER)
	if !bytes.Equal(ts.HashedMessage, th.Sum(nil)) {
		return nil, errors.New("sign: the timestamp does not cover the signature")
	}
	if ts.Time.Before(s.cert.NotBefore) || ts.Time.After(s.cert.NotAfter) {
		return nil, fmt.Errorf("sign: timestamp %s is outside the leaf certificate's validity",
			ts.Time.UTC().Format(time.RFC3339))
	}
	sig.SignedAt = ts.Time.UTC()
	return sig, nil
}

// copyBuffers holds read buffers, so that signing many small artifacts
// does not allocate a large buffer each time.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 128<<10); return &b }}

// hashStream reads r to its end, appends its SHA-256 to sum and returns
// the number of bytes read.
func hashStream(ctx context.Context, r io.Reader, sum []byte) (int64, error) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	h := sha256.New()
	n, err := io.CopyBuffer(h, ctxReader{ctx, r}, *buf)
	if err != nil {
		return n, err
	}
	h.Sum(sum)
	return n, nil
}

// ctxReader stops a long read when the context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
