package signing

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/digitorus/pkcs7"
	"github.com/digitorus/timestamp"
)

// Bounds on untrusted inputs.
const (
	maxPEM           = 256 << 10
	maxSignature     = 4 << 10
	maxTimestampFile = 256 << 10
	maxChainLen      = 8
)

// Check names one verification step, for VerificationError.
type Check string

// The verification steps, in the order Verify runs them.
const (
	CheckInput     Check = "input"     // a file could not be decoded
	CheckChain     Check = "chain"     // the leaf does not chain to the root
	CheckIdentity  Check = "identity"  // no SAN matches the identity regexp
	CheckIssuer    Check = "issuer"    // the OIDC issuer extension is missing or different
	CheckSignature Check = "signature" // the signature does not match the artifact
	CheckTimestamp Check = "timestamp" // the RFC 3161 timestamp is invalid
	CheckValidity  Check = "validity"  // the certificates were not valid at signing time
)

// VerificationError says which check failed and why.
type VerificationError struct {
	Check Check
	Err   error
}

// Error reports the check and the reason, e.g. "identity check failed: ...".
func (e *VerificationError) Error() string {
	return fmt.Sprintf("%s check failed: %v", e.Check, e.Err)
}

// Unwrap returns the reason.
func (e *VerificationError) Unwrap() error { return e.Err }

func fail(c Check, format string, args ...any) error {
	return &VerificationError{Check: c, Err: fmt.Errorf(format, args...)}
}

// Material is what a bundle holds beside one artifact: the contents of the
// files named in the cosign command.
type Material struct {
	Certificate []byte // the leaf certificate, PEM (F.pem)
	Chain       []byte // intermediates then the root, PEM (chain.pem)
	Signature   []byte // base64 of the DER signature (F.sig)
	Timestamp   []byte // the timestamp JSON file (F.ts.json); optional
	TSAChain    []byte // the TSA certificate and its root, PEM (tsa-chain.pem)
}

// Policy is what the recipient expects.
type Policy struct {
	// IdentityRegexp must match one of the leaf's subject alternative
	// names. Like cosign, the match is unanchored: anchor it (see
	// IdentityRegexp).
	IdentityRegexp string
	// Issuer must equal the leaf's OIDC issuer extension.
	Issuer string
	// Roots, when set, pins the trust anchors: the last certificate of
	// Material.Chain must be one of them. When nil, the last certificate
	// is trusted, as `cosign verify-blob --certificate-chain` does; the
	// recipient should then compare its fingerprint with one obtained
	// out of band.
	Roots []*x509.Certificate
	// TSARoots, when set, pins the timestamp authority's roots in the same
	// way; when nil the self-signed certificates of Material.TSAChain are
	// trusted.
	TSARoots []*x509.Certificate
	// Now is the clock used only when there is no timestamp; nil means
	// time.Now.
	Now func() time.Time
}

// Result describes a verified artifact.
type Result struct {
	Identity    string    // the SAN that matched
	Issuer      string    // the OIDC issuer
	SHA256      string    // hex digest of the artifact
	Size        int64     // bytes read from the artifact
	SignedAt    time.Time // the timestamp's time, or the current time without one
	Timestamped bool      // whether SignedAt comes from a verified timestamp
	Fingerprint string    // KeyFingerprint of the leaf
}

// Verify checks one artifact offline, as `cosign verify-blob` does with the
// flags CosignCommand prints: the leaf chains to the root (code signing,
// checked at the leaf's NotBefore); a SAN matches the identity regexp; the
// OIDC issuer extensions equal the issuer; the ECDSA signature matches the
// SHA-256 of the artifact stream; the timestamp is signed by a timestamp
// authority chaining to the TSA root, covers the raw signature bytes, and
// falls inside the validity of the leaf and its chain. Without a
// timestamp, validity is checked at the current time, so an expired leaf
// fails.
//
// Failures are *VerificationError values naming the check.
func Verify(ctx context.Context, artifact io.Reader, m Material, p Policy) (*Result, error) {
	re, err := regexp.Compile(p.IdentityRegexp)
	if err != nil {
		return nil, fmt.Errorf("verify: identity regexp: %w", err)
	}
	if p.IdentityRegexp == "" || p.Issuer == "" {
		return nil, errors.New("verify: identity regexp and issuer are required")
	}

	// Decode everything first: nothing below runs on malformed input.
	leaf, err := parseOneCertificate(m.Certificate)
	if err != nil {
		return nil, fail(CheckInput, "certificate: %w", err)
	}
	chain, err := parseCertificates(m.Chain, maxChainLen)
	if err != nil {
		return nil, fail(CheckInput, "certificate chain: %w", err)
	}
	sig, err := DecodeSignature(m.Signature)
	if err != nil {
		return nil, fail(CheckInput, "signature: %w", err)
	}
	var tsr []byte
	if len(m.Timestamp) > 0 {
		if tsr, err = DecodeTimestampFile(m.Timestamp); err != nil {
			return nil, fail(CheckInput, "%w", err)
		}
	}

	verified, err := verifyChain(leaf, chain, p.Roots)
	if err != nil {
		return nil, err
	}

	res := &Result{Fingerprint: KeyFingerprint(leaf)}
	if res.Identity, err = matchIdentity(leaf, re); err != nil {
		return nil, err
	}
	if res.Issuer, err = certIssuer(leaf); err != nil {
		return nil, fail(CheckIssuer, "%w", err)
	}
	if res.Issuer != p.Issuer {
		return nil, fail(CheckIssuer, "certificate issuer %q, want %q", res.Issuer, p.Issuer)
	}

	pub, ok := leaf.PublicKey.(*ecdsa.PublicKey)
	if !ok {
		return nil, fail(CheckSignature, "leaf key is %T, want ECDSA", leaf.PublicKey)
	}
	digest := make([]byte, 0, sha256.Size)
	if res.Size, err = hashStream(ctx, artifact, digest); err != nil {
		return nil, fmt.Errorf("verify: read artifact: %w", err)
	}
	digest = digest[:sha256.Size]
	res.SHA256 = hex.EncodeToString(digest)
	if !ecdsa.VerifyASN1(pub, digest, sig) {
		return nil, fail(CheckSignature, "signature does not match the artifact (sha256:%s) and the leaf key", res.SHA256)
	}

	if tsr != nil {
		if res.SignedAt, err = verifyTimestamp(tsr, sig, m.TSAChain, p.TSARoots); err != nil {
			return nil, err
		}
		res.Timestamped = true
	} else {
		now := time.Now
		if p.Now != nil {
			now = p.Now
		}
		res.SignedAt = now()
	}
	for _, c := range verified {
		if res.SignedAt.Before(c.NotBefore) || res.SignedAt.After(c.NotAfter) {
			why := "the signing time from the timestamp"
			if !res.Timestamped {
				why = "the current time: there is no signed timestamp"
			}
			return nil, fail(CheckValidity, "%q is valid %s to %s, not at %s (%s)",
				certName(c), c.NotBefore.Format(time.RFC3339), c.NotAfter.Format(time.RFC3339),
				res.SignedAt.UTC().Format(time.RFC3339), why)
		}
	}
	return res, nil
}

// DecodeSignature decodes a ".sig" file: base64 of the DER signature,
// surrounding white space ignored.
func DecodeSignature(b []byte) ([]byte, error) {
	if len(b) > maxSignature {
		return nil, fmt.Errorf("%d bytes, more than %d", len(b), maxSignature)
	}
	der, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(b)))
	if err != nil {
		return nil, fmt.Errorf("not base64: %w", err)
	}
	if len(der) == 0 {
		return nil, errors.New("empty")
	}
	return der, nil
}

// verifyChain verifies leaf up to the last certificate of chain (or to one
// of roots), at the leaf's NotBefore as cosign does, and returns the chain
// built, leaf first.
func verifyChain(leaf *x509.Certificate, chain []*x509.Certificate, roots []*x509.Certificate) ([]*x509.Certificate, error) {
	if len(chain) == 0 {
		return nil, fail(CheckChain, "empty certificate chain")
	}
	anchor := chain[len(chain)-1]
	if roots != nil {
		pinned := false
		for _, r := range roots {
			pinned = pinned || r.Equal(anchor)
		}
		if !pinned {
			return nil, fail(CheckChain, "root %q (sha256:%s) is not a pinned root", certName(anchor), certFingerprint(anchor))
		}
	}
	if leaf.IsCA {
		return nil, fail(CheckChain, "the signing certificate is a CA")
	}
	rootPool, inter := x509.NewCertPool(), x509.NewCertPool()
	rootPool.AddCert(anchor)
	for _, c := range chain[:len(chain)-1] {
		inter.AddCert(c)
	}
	chains, err := leaf.Verify(x509.VerifyOptions{
		Roots:         rootPool,
		Intermediates: inter,
		CurrentTime:   leaf.NotBefore,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
	})
	if err != nil {
		return nil, fail(CheckChain, "%w", err)
	}
	return chains[0], nil
}

func matchIdentity(leaf *x509.Certificate, re *regexp.Regexp) (string, error) {
	var sans []string
	for _, u := range leaf.URIs {
		sans = append(sans, u.String())
	}
	sans = append(sans, leaf.EmailAddresses...)
	sans = append(sans, leaf.DNSNames...)
	for _, s := range sans {
		if re.MatchString(s) {
			return s, nil
		}
	}
	if len(sans) == 0 {
		return "", fail(CheckIdentity, "the certificate has no subject alternative name")
	}
	return "", fail(CheckIdentity, "no subject alternative name (%s) matches %q", strings.Join(sans, ", "), re)
}

// certIssuer returns the OIDC issuer from the Fulcio extensions. When both
// are present they must agree.
func certIssuer(c *x509.Certificate) (string, error) {
	var v1, v2 string
	var has1, has2 bool
	for _, e := range c.Extensions {
		switch {
		case e.Id.Equal(OIDIssuer):
			v1, has1 = string(e.Value), true
		case e.Id.Equal(OIDIssuerV2):
			rest, err := asn1.UnmarshalWithParams(e.Value, &v2, "utf8")
			if err != nil || len(rest) > 0 {
				return "", fmt.Errorf("issuer extension %s is not a DER UTF8String", OIDIssuerV2)
			}
			has2 = true
		}
	}
	switch {
	case has1 && has2 && v1 != v2:
		return "", fmt.Errorf("issuer extensions disagree: %q (%s) and %q (%s)", v1, OIDIssuer, v2, OIDIssuerV2)
	case has1:
		return v1, nil
	case has2:
		return v2, nil
	}
	return "", fmt.Errorf("the certificate has no OIDC issuer extension (%s or %s)", OIDIssuer, OIDIssuerV2)
}

// verifyTimestamp checks a DER TimeStampResp over sig, as the Sigstore
// timestamp verifier does, and returns its time.
func verifyTimestamp(tsr, sig, tsaChainPEM []byte, pinned []*x509.Certificate) (time.Time, error) {
	var zero time.Time
	certs, err := parseCertificates(tsaChainPEM, maxChainLen)
	if err != nil {
		return zero, fail(CheckInput, "timestamp certificate chain: %w", err)
	}
	// Split as cosign does: non-CA certificates are TSA leaves, self-signed
	// CAs are roots, other CAs intermediates.
	var leaves, inter, roots []*x509.Certificate
	for _, c := range certs {
		switch {
		case !c.IsCA:
			leaves = append(leaves, c)
		case bytes.Equal(c.RawSubject, c.RawIssuer):
			roots = append(roots, c)
		default:
			inter = append(inter, c)
		}
	}
	if len(leaves) != 1 {
		return zero, fail(CheckInput, "timestamp certificate chain has %d TSA (non-CA) certificates, want exactly 1", len(leaves))
	}
	if pinned != nil {
		roots = pinned
	}
	if len(roots) == 0 {
		return zero, fail(CheckInput, "timestamp certificate chain has no root")
	}

	pkcs7Mu.Lock()
	ts, err := timestamp.ParseResponse(tsr)
	pkcs7Mu.Unlock()
	if err != nil {
		return zero, fail(CheckTimestamp, "parse: %w", err)
	}
	switch ts.HashAlgorithm {
	case crypto.SHA256, crypto.SHA384, crypto.SHA512:
	default:
		return zero, fail(CheckTimestamp, "hash algorithm %v not accepted", ts.HashAlgorithm)
	}
	hh := ts.HashAlgorithm.New()
	hh.Write(sig)
	if !bytes.Equal(hh.Sum(nil), ts.HashedMessage) {
		return zero, fail(CheckTimestamp, "the timestamp does not cover this signature")
	}

	pkcs7Mu.Lock()
	p7, err := pkcs7.Parse(ts.RawToken)
	pkcs7Mu.Unlock()
	if err != nil {
		return zero, fail(CheckTimestamp, "parse token: %w", err)
	}
	if len(p7.Certificates) == 0 {
		p7.Certificates = []*x509.Certificate{leaves[0]}
	}
	pkcs7Mu.Lock()
	err = p7.Verify()
	pkcs7Mu.Unlock()
	if err != nil {
		return zero, fail(CheckTimestamp, "token signature: %w", err)
	}
	signer := p7.GetOnlySigner()
	if signer == nil {
		return zero, fail(CheckTimestamp, "the token has no single signer certificate")
	}
	if !signer.Equal(leaves[0]) {
		return zero, fail(CheckTimestamp, "signed by %q (sha256:%s), not by the TSA certificate of the chain file (sha256:%s)",
			certName(signer), certFingerprint(signer), certFingerprint(leaves[0]))
	}
	if err := checkTSACertificate(signer); err != nil {
		return zero, fail(CheckTimestamp, "TSA certificate: %w", err)
	}
	rootPool, interPool := x509.NewCertPool(), x509.NewCertPool()
	for _, r := range roots {
		rootPool.AddCert(r)
	}
	for _, c := range append(inter, p7.Certificates...) {
		interPool.AddCert(c)
	}
	if _, err := signer.Verify(x509.VerifyOptions{
		Roots:         rootPool,
		Intermediates: interPool,
		CurrentTime:   ts.Time,
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageTimeStamping},
	}); err != nil {
		return zero, fail(CheckTimestamp, "TSA certificate chain: %w", err)
	}
	return ts.Time.UTC(), nil
}

// checkTSACertificate applies RFC 3161 section 2.3: exactly one extended
// key usage, timeStamping, in a critical extension.
func checkTSACertificate(c *x509.Certificate) error {
	critical := false
	for _, e := range c.Extensions {
		if e.Id.Equal(oidExtKeyUsage) {
			critical = e.Critical
		}
	}
	if !critical {
		return errors.New("the extended key usage extension is not critical")
	}
	if len(c.ExtKeyUsage) != 1 || c.ExtKeyUsage[0] != x509.ExtKeyUsageTimeStamping || len(c.UnknownExtKeyUsage) > 0 {
		return errors.New("the extended key usage is not timeStamping alone")
	}
	return nil
}

// parseOneCertificate parses a PEM file holding exactly one certificate.
func parseOneCertificate(b []byte) (*x509.Certificate, error) {
	certs, err := parseCertificates(b, 1)
	if err != nil {
		return nil, err
	}
	return certs[0], nil
}

// parseCertificates parses 1 to max PEM certificates; anything but
// CERTIFICATE blocks and white space is an error.
func parseCertificates(b []byte, max int) ([]*x509.Certificate, error) {
	if len(b) > maxPEM {
		return nil, fmt.Errorf("%d bytes, more than %d", len(b), maxPEM)
	}
	var certs []*x509.Certificate
	rest := b
	for len(bytes.TrimSpace(rest)) > 0 {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return nil, errors.New("not PEM")
		}
		if block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("PEM block %q, want CERTIFICATE", block.Type)
		}
		if len(certs) == max {
			return nil, fmt.Errorf("more than %d certificates", max)
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, err
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, errors.New("no certificate")
	}
	return certs, nil
}

func certName(c *x509.Certificate) string {
	if c.Subject.CommonName != "" {
		return c.Subject.CommonName
	}
	if len(c.URIs) > 0 {
		return c.URIs[0].String()
	}
	return "serial " + c.SerialNumber.String()
}

func certFingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.Raw)
	return hex.EncodeToString(sum[:])
}
