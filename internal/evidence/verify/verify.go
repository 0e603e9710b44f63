// Package verify checks an Evidence Bundle offline, as a recipient does:
// every artifact's signature, certificate chain, signing identity, OIDC
// issuer and RFC 3161 timestamp, and that the zip holds exactly what its
// verification.txt lists. It is what `sentinel verify BUNDLE.zip` runs, and
// it performs in Go the checks of the cosign commands verification.txt
// prints.
//
// It is its own package, apart from package evidence (which builds, stores
// and shares bundles), so that the agent can verify bundles without linking
// the service: it imports only the standard library and package signing.
// The names of the files every bundle holds beside its artifacts
// (verification.txt, chain.pem, tsa-chain.pem) are defined here, and
// package evidence writes bundles with them.
package verify

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/signing"
)

// Files every bundle holds beside its signed artifacts.
const (
	// FileVerification is the signed listing: how to verify every
	// artifact, with its digest.
	FileVerification = "verification.txt"
	// FileChain holds the signing chain: the intermediate, then the root.
	FileChain = "chain.pem"
	// FileTSAChain holds the timestamp authority's certificate and the root.
	FileTSAChain = "tsa-chain.pem"
)

// CertFingerprint returns the hex SHA-256 of a certificate's DER.
func CertFingerprint(c *x509.Certificate) string {
	sum := sha256.Sum256(c.Raw)
	return hex.EncodeToString(sum[:])
}

// Options are what the recipient expects of a bundle. Empty fields
// default to what the bundle's verification.txt states.
type Options struct {
	// IdentityRegexp must match the signing certificate's identity;
	// default: exactly the identity verification.txt states.
	IdentityRegexp string
	// Issuer must equal the certificate's OIDC issuer; default: the issuer
	// verification.txt states.
	Issuer string
	// Roots, when set, pins the signing and timestamping roots: chain.pem
	// and tsa-chain.pem must end in one of them. Without it the bundle's
	// own root is trusted, which proves only that the files agree with
	// each other; compare Report.RootFingerprint out of band.
	Roots []*x509.Certificate
	// Now is the clock for signatures without a timestamp; nil: time.Now.
	Now func() time.Time
}

// ParseRoots reads PEM certificates, for Options.Roots.
func ParseRoots(pemBytes []byte) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for rest := pemBytes; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parse root: %w", err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("parse root: no CERTIFICATE in the PEM data")
	}
	return out, nil
}

// ArtifactReport is the outcome for one artifact.
type ArtifactReport struct {
	Name     string
	OK       bool
	SHA256   string
	Size     int64
	SignedAt time.Time
	// Check names the failed step ("signature", "identity", "issuer",
	// "chain", "timestamp", "validity", "input", or "listing" when the file
	// is missing, unlisted or differs from verification.txt).
	Check string
	Err   error
}

// Report is the outcome of Bundle.
type Report struct {
	BundleID        string
	Identity        string // the identity regexp used
	Issuer          string // the issuer used
	RootFingerprint string // SHA-256 of the root certificate in chain.pem
	RootPinned      bool
	Artifacts       []ArtifactReport
	// OK is true when every artifact verified and the listing in
	// verification.txt matches the zip exactly.
	OK bool
}

// Failed returns the artifacts that did not verify.
func (r *Report) Failed() []ArtifactReport {
	var out []ArtifactReport
	for _, a := range r.Artifacts {
		if !a.OK {
			out = append(out, a)
		}
	}
	return out
}

// WriteText prints the report for a terminal: one line per artifact, then
// a verdict.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Bundle %s\n", r.BundleID)
	fmt.Fprintf(bw, "  identity regexp: %s\n  issuer: %s\n", r.Identity, r.Issuer)
	pin := "NOT pinned: compare this fingerprint with the sender's, out of band"
	if r.RootPinned {
		pin = "pinned"
	}
	fmt.Fprintf(bw, "  root SHA-256: %s (%s)\n", r.RootFingerprint, pin)
	for _, a := range r.Artifacts {
		if a.OK {
			fmt.Fprintf(bw, "OK    %s  sha256:%s  signed %s\n", a.Name, a.SHA256, a.SignedAt.UTC().Format(time.RFC3339))
		} else {
			fmt.Fprintf(bw, "FAIL  %s  %s check: %v\n", a.Name, a.Check, a.Err)
		}
	}
	if r.OK {
		fmt.Fprintf(bw, "Verified OK: %d artifacts\n", len(r.Artifacts))
	} else {
		fmt.Fprintf(bw, "Verification FAILED: %d of %d artifacts\n", len(r.Failed()), len(r.Artifacts))
	}
	return bw.Flush()
}

// File opens a bundle zip and verifies it (see Bundle). This is what
// `sentinel verify BUNDLE.zip` calls.
func File(ctx context.Context, name string, o Options) (*Report, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return Bundle(ctx, f, st.Size(), o)
}

// Limits on what Bundle reads into memory.
const (
	maxSideFile = 1 << 20  // .sig, .pem, .ts.json, chain files
	maxListing  = 64 << 20 // verification.txt
)

// Bundle checks every artifact of a bundle zip offline, as the cosign
// commands in its verification.txt do, without cosign and without
// unzipping: each artifact's signature, certificate chain, identity,
// issuer and RFC 3161 timestamp, and that the zip holds exactly the
// artifacts verification.txt lists with the digests it states. The error
// is for a zip that cannot be read at all; verification failures are in
// the report, one per artifact, naming the check that failed.
func Bundle(ctx context.Context, r io.ReaderAt, size int64, o Options) (*Report, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("verify bundle: not a zip: %w", err)
	}
	files := map[string]*zip.File{}
	rep := &Report{}
	var bad []ArtifactReport
	for _, f := range zr.File {
		name := f.Name
		if name != path.Clean(name) || path.IsAbs(name) || strings.HasPrefix(name, "../") || strings.Contains(name, `\`) {
			bad = append(bad, ArtifactReport{Name: name, Check: "listing", Err: errors.New("unsafe path in the zip")})
			continue
		}
		if _, dup := files[name]; dup {
			bad = append(bad, ArtifactReport{Name: name, Check: "listing", Err: errors.New("the zip holds this name twice")})
			continue
		}
		files[name] = f
	}
	read := func(name string, max int64) ([]byte, error) {
		f := files[name]
		if f == nil {
			return nil, fmt.Errorf("%s is missing from the bundle", name)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, max+1))
		if err != nil {
			return nil, err
		}
		if int64(len(b)) > max {
			return nil, fmt.Errorf("%s is larger than %d bytes", name, max)
		}
		return b, nil
	}
	chain, err := read(FileChain, maxSideFile)
	if err != nil {
		return nil, fmt.Errorf("verify bundle: %w", err)
	}
	tsaChain, err := read(FileTSAChain, maxSideFile)
	if err != nil {
		return nil, fmt.Errorf("verify bundle: %w", err)
	}
	if roots, err := ParseRoots(chain); err == nil {
		rep.RootFingerprint = CertFingerprint(roots[len(roots)-1])
	}
	listingBytes, err := read(FileVerification, maxListing)
	if err != nil {
		return nil, fmt.Errorf("verify bundle: %w", err)
	}
	listing := parseListing(listingBytes)
	rep.BundleID = listing.bundleID
	rep.Identity, rep.Issuer = o.IdentityRegexp, o.Issuer
	if rep.Identity == "" && listing.identity != "" {
		rep.Identity = signing.IdentityRegexp(listing.identity)
	}
	if rep.Issuer == "" {
		rep.Issuer = listing.issuer
	}
	if rep.Identity == "" || rep.Issuer == "" {
		return nil, errors.New("verify bundle: verification.txt states no signing identity or issuer; give them explicitly")
	}
	rep.RootPinned = len(o.Roots) > 0
	policy := signing.Policy{IdentityRegexp: rep.Identity, Issuer: rep.Issuer, Roots: o.Roots, TSARoots: o.Roots, Now: o.Now}

	used := map[string]bool{FileChain: true, FileTSAChain: true}
	verifyOne := func(name, wantSHA string) ArtifactReport {
		ar := ArtifactReport{Name: name}
		fs := signing.DefaultFiles(name)
		for _, n := range []string{fs.Artifact, fs.Signature, fs.Certificate, fs.Timestamp} {
			used[n] = true
		}
		if files[name] == nil {
			ar.Check, ar.Err = "listing", errors.New("listed in verification.txt but missing from the zip")
			return ar
		}
		m := signing.Material{Chain: chain, TSAChain: tsaChain}
		var err error
		if m.Signature, err = read(fs.Signature, maxSideFile); err == nil {
			if m.Certificate, err = read(fs.Certificate, maxSideFile); err == nil {
				m.Timestamp, err = read(fs.Timestamp, maxSideFile)
			}
		}
		if err != nil {
			ar.Check, ar.Err = string(signing.CheckInput), err
			return ar
		}
		rc, err := files[name].Open()
		if err != nil {
			ar.Check, ar.Err = string(signing.CheckInput), err
			return ar
		}
		defer rc.Close()
		res, err := signing.Verify(ctx, rc, m, policy)
		if err != nil {
			var ve *signing.VerificationError
			if errors.As(err, &ve) {
				ar.Check = string(ve.Check)
			} else {
				ar.Check = string(signing.CheckInput)
			}
			ar.Err = err
			return ar
		}
		ar.SHA256, ar.Size, ar.SignedAt = res.SHA256, res.Size, res.SignedAt
		if wantSHA != "" && wantSHA != res.SHA256 {
			ar.Check, ar.Err = "listing", fmt.Errorf("sha256:%s, but verification.txt states sha256:%s", res.SHA256, wantSHA)
			return ar
		}
		ar.OK = true
		return ar
	}

	// verification.txt first: the listing of everything else is only as
	// good as its signature.
	rep.Artifacts = append(rep.Artifacts, verifyOne(FileVerification, ""))
	for _, a := range listing.artifacts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if a.name == FileVerification {
			continue
		}
		rep.Artifacts = append(rep.Artifacts, verifyOne(a.name, a.sha256))
	}
	var extra []string
	for name := range files {
		if !used[name] {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		rep.Artifacts = append(rep.Artifacts, ArtifactReport{Name: name, Check: "listing",
			Err: errors.New("in the zip but not listed in verification.txt")})
	}
	rep.Artifacts = append(rep.Artifacts, bad...)
	rep.OK = len(rep.Failed()) == 0 && len(listing.artifacts) > 0
	return rep, nil
}

type listedArtifact struct{ name, sha256 string }

type listing struct {
	bundleID, identity, issuer string
	artifacts                  []listedArtifact
}

// parseListing reads the facts Bundle needs from verification.txt:
// the bundle id, the first "Signing identity:" and "OIDC issuer:" lines,
// and each "Artifact:" section's name and SHA-256.
func parseListing(b []byte) listing {
	var l listing
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Bundle: ") && l.bundleID == "":
			l.bundleID = strings.TrimPrefix(line, "Bundle: ")
		case strings.HasPrefix(line, "Signing identity: ") && l.identity == "":
			l.identity = strings.TrimPrefix(line, "Signing identity: ")
		case strings.HasPrefix(line, "OIDC issuer: ") && l.issuer == "":
			l.issuer = strings.TrimPrefix(line, "OIDC issuer: ")
		case strings.HasPrefix(line, "Artifact: "):
			name := strings.TrimPrefix(line, "Artifact: ")
			if i := strings.Index(name, " ("); i >= 0 {
				name = name[:i]
			}
			l.artifacts = append(l.artifacts, listedArtifact{name: name})
		case strings.HasPrefix(line, "  SHA-256: ") && len(l.artifacts) > 0:
			f := strings.Fields(strings.TrimPrefix(line, "  SHA-256: "))
			if len(f) > 0 && l.artifacts[len(l.artifacts)-1].sha256 == "" {
				l.artifacts[len(l.artifacts)-1].sha256 = f[0]
			}
		}
	}
	return l
}
