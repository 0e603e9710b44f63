package evidence

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
	"github.com/sentinel-sca/sentinel/internal/signing"
)

// Scopes are the values of a bundle's include list, in the order the
// bundle lays them out (specification, Evidence Bundle).
var Scopes = []string{"sbom", "drift", "findings", "audit", "compliance"}

// Artifact names inside the zip. Those of the files every bundle holds
// beside its artifacts (verify.FileVerification, verify.FileChain,
// verify.FileTSAChain) are package verify's, which reads them.
const (
	FileCover        = "cover.pdf"
	FileConsolidated = "sbom/consolidated.cdx.json"
	FileDrift        = "drift.csv"
	FileFindings     = "findings.csv"
	FileAudit        = "audit.csv"
	FileCompliance   = "compliance.csv"
	submissionsDir   = "sbom/submissions/"
)

// SubmissionFile returns the zip path of a submission's original SBOM.
func SubmissionFile(id string) string { return submissionsDir + id + ".cdx.json" }

// Environment is one deployment whose signatures a recipient may meet,
// with the identity and issuer to verify them with.
type Environment struct {
	Name     string
	Identity string
	Issuer   string
}

// Options describe one bundle to build.
type Options struct {
	Org         *sentinel.Organization
	BundleID    string
	Description string
	// Scope is the include list; nil means every scope.
	Scope       []string
	CreatedAt   time.Time
	WindowStart time.Time
	WindowEnd   time.Time

	// CA issues the bundle's short-lived signing certificate.
	CA *signing.CA
	// Identity and Issuer go into that certificate (see Identity).
	Identity string
	Issuer   string
	// Environments lists, for verification.txt, every configured
	// environment's identity and issuer; empty means this one only.
	Environments []Environment
	// Now is the signing clock (leaf validity and timestamps); nil means
	// time.Now.
	Now func() time.Time
	// TempDir holds the consolidated SBOM's spooled dependency graph;
	// "" means os.TempDir().
	TempDir string
}

// Identity returns the signing identity of an organization's bundles on
// the deployment at publicURL.
func Identity(publicURL, orgSlug string) string {
	return strings.TrimRight(publicURL, "/") + "/orgs/" + orgSlug + "/evidence"
}

// Result describes a built bundle.
type Result struct {
	// Artifacts lists every signed file, in the order written.
	Artifacts   []sentinel.BundleArtifact
	Submissions int
	Components  int
	Severity    SeverityCounts
	KEV         int
	Fingerprint string // the signing key's fingerprint
}

// builder writes one bundle.
type builder struct {
	ctx     context.Context
	zw      *zip.Writer
	signer  *signing.Signer
	opts    Options
	mtime   time.Time
	entries []entry
	res     Result
}

type entry struct {
	files signing.Files
	sig   *signing.Signature
}

// buildMu runs one Build at a time per process. Two reasons: the memory
// bound holds per build, so concurrent builds would multiply it; and
// github.com/digitorus/pkcs7, which parses every RFC 3161 response the
// signer checks, increments a package-level counter (encodeIndent in
// ber.go) without a lock, a data race between concurrent signers that
// `go test -race` reports. Bundles are issued by people, rarely: a queue
// of one costs nothing noticeable.
var buildMu sync.Mutex

// Build streams the bundle described by o, read from src, as a zip to w,
// signing every artifact. Memory stays bounded whatever the data's size.
// Builds in one process run one at a time.
func Build(ctx context.Context, w io.Writer, src Source, o Options) (*Result, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	if o.Org == nil || o.CA == nil || o.BundleID == "" {
		return nil, errors.New("build bundle: organization, CA and bundle id are required")
	}
	scope, err := NormalizeScope(o.Scope)
	if err != nil {
		return nil, err
	}
	o.Scope = scope
	if len(o.Environments) == 0 {
		o.Environments = []Environment{{Name: "this deployment", Identity: o.Identity, Issuer: o.Issuer}}
	}
	signer, err := o.CA.NewSigner(signing.SignerOptions{Identity: o.Identity, Issuer: o.Issuer, Now: o.Now})
	if err != nil {
		return nil, fmt.Errorf("build bundle: %w", err)
	}
	defer signer.Close() // the private key goes as soon as the bundle is signed

	b := &builder{ctx: ctx, zw: zip.NewWriter(w), signer: signer, opts: o, mtime: o.CreatedAt.UTC()}
	b.zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		// Level 5 compresses JSON and CSV nearly as well as the default
		// and about twice as fast, which matters for a million components.
		return flate.NewWriter(w, 5)
	})
	b.res.Fingerprint = signing.KeyFingerprint(signer.Certificate())
	if err := b.write(src); err != nil {
		return nil, fmt.Errorf("build bundle %s: %w", o.BundleID, err)
	}
	if err := signer.Close(); err != nil {
		return nil, err
	}
	if err := b.zw.Close(); err != nil {
		return nil, fmt.Errorf("build bundle %s: %w", o.BundleID, err)
	}
	return &b.res, nil
}

// NormalizeScope validates an include list and returns it deduplicated in
// canonical order; nil means every scope. Errors: EINVALID naming the
// field "include".
func NormalizeScope(in []string) ([]string, error) {
	if in == nil {
		return slices.Clone(Scopes), nil
	}
	if len(in) == 0 {
		return nil, sentinel.InvalidField("include", "include must name at least one of %s, or be omitted for all", strings.Join(Scopes, ", "))
	}
	for _, s := range in {
		if !slices.Contains(Scopes, s) {
			return nil, sentinel.InvalidField("include", "unknown include value %q; allowed: %s", s, strings.Join(Scopes, ", "))
		}
	}
	var out []string
	for _, s := range Scopes {
		if slices.Contains(in, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

func (b *builder) has(scope string) bool { return slices.Contains(b.opts.Scope, scope) }

func (b *builder) write(src Source) error {
	o := b.opts
	ctx := b.ctx
	// The window includes its end, the moment of issuance: a submission
	// stored in the same millisecond as the bundle belongs to it. The
	// sources take half-open ranges at the store's millisecond precision.
	since, until := o.WindowStart, o.WindowEnd.Add(time.Millisecond)
	if err := b.plain(verify.FileChain, o.CA.ChainPEM()); err != nil {
		return err
	}
	if err := b.plain(verify.FileTSAChain, o.CA.TSAChainPEM()); err != nil {
		return err
	}
	if b.has("sbom") {
		err := src.EvidenceSubmissions(ctx, o.Org.ID, since, until, func(s *sentinel.EvidenceSubmission) error {
			if !sentinel.HasPrefix(s.ID, sentinel.PrefixSubmission) {
				return fmt.Errorf("submission id %q is not a sub_ id", s.ID)
			}
			b.res.Submissions++
			return b.artifact(SubmissionFile(s.ID), func(w io.Writer) error {
				_, err := w.Write(s.Original)
				return err
			})
		})
		if err != nil {
			return fmt.Errorf("submissions: %w", err)
		}
		err = b.artifact(FileConsolidated, func(w io.Writer) (err error) {
			b.res.Components, err = writeConsolidated(ctx, w, src, o.Org, o.TempDir)
			return err
		})
		if err != nil {
			return err
		}
	}
	if b.has("drift") {
		if err := b.artifact(FileDrift, func(w io.Writer) error {
			return writeDrift(ctx, w, src, o.Org.ID, since, until)
		}); err != nil {
			return err
		}
	}
	st := newFindingStats(o.Org.Catalog)
	switch {
	case b.has("findings"):
		if err := b.artifact(FileFindings, func(w io.Writer) error { return streamFindings(ctx, w, src, o.Org.ID, st) }); err != nil {
			return err
		}
	default:
		// The cover and compliance.csv still count findings.
		if err := streamFindings(ctx, nil, src, o.Org.ID, st); err != nil {
			return fmt.Errorf("findings: %w", err)
		}
	}
	b.res.Severity, b.res.KEV = st.severity, st.kev
	if b.has("audit") {
		if err := b.artifact(FileAudit, func(w io.Writer) error {
			return writeAudit(ctx, w, src, o.Org.ID, since, until)
		}); err != nil {
			return err
		}
	}
	if b.has("compliance") {
		if err := b.artifact(FileCompliance, func(w io.Writer) error { return writeCompliance(w, st) }); err != nil {
			return err
		}
	}
	cover := Cover{
		OrganizationName: o.Org.Name, OrganizationSlug: o.Org.Slug, BundleID: o.BundleID, Description: o.Description,
		CreatedAt: o.CreatedAt, WindowStart: o.WindowStart, WindowEnd: o.WindowEnd, Severity: st.severity,
		KnownExploited: st.kev, Components: b.res.Components, Submissions: b.res.Submissions, Scopes: o.Scope,
	}
	if err := b.artifact(FileCover, func(w io.Writer) error { return WriteCover(w, cover) }); err != nil {
		return err
	}
	var vt bytes.Buffer
	if err := b.writeVerification(&vt); err != nil {
		return err
	}
	return b.artifact(verify.FileVerification, func(w io.Writer) error {
		_, err := w.Write(vt.Bytes())
		return err
	})
}

// plain adds an unsigned file (the certificate chains).
func (b *builder) plain(name string, data []byte) error {
	w, err := b.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: b.mtime})
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// artifact adds one signed artifact: produce writes it into a pipe, the
// signer reads the pipe through a tee into the zip entry (hashing as it
// goes), then the signature, certificate and timestamp files follow.
func (b *builder) artifact(name string, produce func(w io.Writer) error) error {
	ew, err := b.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: b.mtime})
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		bw := bufio.NewWriterSize(pw, 64<<10)
		err := produce(bw)
		if err == nil {
			err = bw.Flush()
		}
		pw.CloseWithError(err) // nil: the reader sees EOF
	}()
	sig, err := b.signer.Sign(b.ctx, io.TeeReader(pr, ew))
	pr.CloseWithError(errors.New("bundle artifact abandoned")) // unblocks the producer if Sign stopped early
	<-done
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	f := signing.DefaultFiles(name)
	for _, side := range []struct {
		name string
		data []byte
	}{{f.Signature, sig.SigFile()}, {f.Certificate, b.signer.CertificatePEM()}, {f.Timestamp, sig.TimestampFile()}} {
		if err := b.plain(side.name, side.data); err != nil {
			return err
		}
	}
	b.entries = append(b.entries, entry{files: f, sig: sig})
	b.res.Artifacts = append(b.res.Artifacts, sentinel.BundleArtifact{Name: name, SHA256: hex.EncodeToString(sig.SHA256[:]), Size: sig.Size})
	return nil
}

// writeVerification writes verification.txt: the bundle, the signing
// chain, the identities, the hashing strategy, then every artifact's
// section with its exact cosign command, and finally the command for
// verification.txt itself.
func (b *builder) writeVerification(w io.Writer) error {
	o := b.opts
	leaf := b.signer.Certificate()
	root := o.CA.Root()
	days := int(o.WindowEnd.Sub(o.WindowStart).Round(time.Hour).Hours() / 24)
	p := func(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
	p("Sentinel Evidence Bundle: verification")
	p("=======================================")
	p("")
	p("Bundle: %s", o.BundleID)
	p("Organization: %s (%s)", oneLine(o.Org.Name), o.Org.Slug)
	if o.Description != "" {
		p("Description: %s", oneLine(o.Description))
	}
	p("Created: %s", stamp(o.CreatedAt))
	p("Window covered: %s to %s (%d days)", stamp(o.WindowStart), stamp(o.WindowEnd), days)
	p("Scope: %s", strings.Join(o.Scope, ", "))
	p("")
	p("Signing")
	p("-------")
	p("Signature algorithm: ECDSA P-256 with SHA-256; each .sig file is the base64 of the ASN.1 DER signature")
	p("Key fingerprint (SHA-256 of SubjectPublicKeyInfo): %s", signing.KeyFingerprint(leaf))
	p("Signing identity: %s", o.Identity)
	p("OIDC issuer: %s", o.Issuer)
	p("Signing certificate: one key pair made for this bundle alone; its certificate (the .pem beside each")
	p("  artifact) has serial %s and is valid %s to %s; the private key was", leaf.SerialNumber.Text(16), stamp(leaf.NotBefore), stamp(leaf.NotAfter))
	p("  discarded once the bundle was signed.")
	p("Signing chain (every artifact): leaf (.pem) -> %s -> %s", certCN(o.CA.Intermediate()), certCN(root))
	p("  chain.pem holds the intermediate, then the root.")
	p("Root certificate SHA-256 fingerprint: %s", verify.CertFingerprint(root))
	p("  Compare it with the fingerprint the sender gives you through another channel, or pin the root")
	p("  with `sentinel verify --root root.pem`: chain.pem alone proves only that the files agree.")
	p("Timestamps: each signature is timestamped (RFC 3161, over the raw signature bytes) by %s,", certCN(o.CA.TSACertificate()))
	p("  certified by the same root; tsa-chain.pem holds it and the root. With the timestamp the signatures")
	p("  keep verifying after the short-lived certificate expires.")
	p("")
	p("Signing identity and OIDC issuer per environment")
	p("------------------------------------------------")
	for _, e := range o.Environments {
		p("%s: identity %s, issuer %s", e.Name, e.Identity, e.Issuer)
	}
	p("")
	p("Hashing strategy for the consolidated CycloneDX")
	p("-----------------------------------------------")
	p("%s", HashingStrategy)
	p("")
	p("How to verify")
	p("-------------")
	p("Unzip the bundle, change into its folder and run each command below with cosign (checked with")
	p("v3.1.3, which prints deprecation warnings for some flags and still verifies). Every command works offline: no")
	p("transparency log, no network. Each prints \"Verified OK\" when the artifact, its signature, its")
	p("certificate, the chain and the timestamp all check. `sentinel verify BUNDLE.zip` runs the same")
	p("checks without cosign and without unzipping.")
	p("")
	p("Artifacts")
	p("---------")
	for _, e := range b.entries {
		if err := signing.WriteVerification(w, signing.ArtifactVerification{
			Files: e.files, Signature: e.sig, Certificate: leaf, Identity: o.Identity, Issuer: o.Issuer,
		}); err != nil {
			return err
		}
	}
	self := signing.DefaultFiles(verify.FileVerification)
	p("Artifact: %s (this file; its digest cannot be written inside it)", verify.FileVerification)
	p("  Verify offline:")
	p("    %s", signing.CosignCommand(self, signing.IdentityRegexp(o.Identity), o.Issuer))
	return nil
}

func certCN(c *x509.Certificate) string {
	if c.Subject.CommonName != "" {
		return c.Subject.CommonName
	}
	return c.Subject.String()
}

// oneLine makes free text safe for a line of verification.txt: control
// characters (newlines included) become spaces, so a description can never
// forge a line such as "Signing identity:".
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || r == 0x85 {
			return ' '
		}
		return r
	}, s)
}
