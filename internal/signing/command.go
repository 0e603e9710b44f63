package signing

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// Files names, relative to the folder the recipient runs cosign in, the
// files needed to verify one artifact.
type Files struct {
	Artifact    string // the artifact itself
	Signature   string // base64 DER signature
	Certificate string // leaf certificate PEM
	Chain       string // intermediate + root PEM
	Timestamp   string // RFC 3161 timestamp JSON; empty: none
	TSAChain    string // TSA certificate + root PEM
}

// DefaultFiles returns the bundle's naming for artifact: beside it
// artifact.sig, artifact.pem and artifact.ts.json; the shared chain.pem and
// tsa-chain.pem at the root of the bundle. Artifact paths use "/".
func DefaultFiles(artifact string) Files {
	return Files{
		Artifact:    artifact,
		Signature:   artifact + ".sig",
		Certificate: artifact + ".pem",
		Chain:       "chain.pem",
		Timestamp:   artifact + ".ts.json",
		TSAChain:    "tsa-chain.pem",
	}
}

// IdentityRegexp returns an anchored regular expression matching exactly
// identity. cosign matches --certificate-identity-regexp unanchored.
func IdentityRegexp(identity string) string {
	return "^" + regexp.QuoteMeta(identity) + "$"
}

// CosignCommand returns the `cosign verify-blob` command line (v3) that
// verifies one artifact offline: no transparency log, no SCT, the chain
// and the timestamp authority given as files. Arguments are quoted for a
// POSIX shell.
func CosignCommand(f Files, identityRegexp, issuer string) string {
	args := append([]string{"cosign"}, CosignArgs(f, identityRegexp, issuer)...)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// CosignArgs returns the arguments of CosignCommand after "cosign",
// unquoted, for running cosign without a shell.
func CosignArgs(f Files, identityRegexp, issuer string) []string {
	args := []string{"verify-blob",
		"--certificate", f.Certificate,
		"--signature", f.Signature,
		"--certificate-identity-regexp", identityRegexp,
		"--certificate-oidc-issuer", issuer,
		"--certificate-chain", f.Chain,
	}
	if f.Timestamp != "" {
		args = append(args, "--rfc3161-timestamp", f.Timestamp, "--timestamp-certificate-chain", f.TSAChain)
	}
	return append(args, "--insecure-ignore-tlog", "--insecure-ignore-sct", f.Artifact)
}

// shellQuote single-quotes s unless it is made only of characters a POSIX
// shell leaves alone.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// KeyFingerprint returns the hex SHA-256 of the certificate's
// SubjectPublicKeyInfo, the key fingerprint printed in verification.txt.
func KeyFingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.RawSubjectPublicKeyInfo)
	return hex.EncodeToString(sum[:])
}

// ArtifactVerification is the input of WriteVerification for one artifact.
type ArtifactVerification struct {
	Files       Files
	Signature   *Signature
	Certificate *x509.Certificate // the bundle's leaf
	Identity    string            // the signing identity (URI SAN)
	Issuer      string            // the OIDC issuer
}

// WriteVerification writes the verification.txt section for one artifact:
// its digest, the signature algorithm, the key fingerprint, the leaf's
// serial and validity, the signing time from the timestamp, the signing
// identity and issuer, and the cosign command.
func WriteVerification(w io.Writer, a ArtifactVerification) error {
	c := a.Certificate
	lines := []string{
		"Artifact: " + a.Files.Artifact,
		fmt.Sprintf("  SHA-256: %x (%d bytes)", a.Signature.SHA256, a.Signature.Size),
		"  Signature: ECDSA P-256 with SHA-256, ASN.1 DER, base64 in " + a.Files.Signature,
		"  Key fingerprint (SHA-256 of SubjectPublicKeyInfo): " + KeyFingerprint(c),
		fmt.Sprintf("  Certificate: %s, serial %s, valid %s to %s", a.Files.Certificate, c.SerialNumber.Text(16),
			c.NotBefore.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339)),
		"  Chain: " + a.Files.Chain + " (intermediate, then root)",
	}
	if a.Files.Timestamp != "" {
		lines = append(lines,
			"  Signed at (RFC 3161 timestamp): "+a.Signature.SignedAt.UTC().Format(time.RFC3339),
			"  Timestamp: "+a.Files.Timestamp+", authority chain "+a.Files.TSAChain)
	}
	lines = append(lines,
		"  Signing identity: "+a.Identity,
		"  OIDC issuer: "+a.Issuer,
		"  Verify offline:",
		"    "+CosignCommand(a.Files, IdentityRegexp(a.Identity), a.Issuer),
		"")
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}
