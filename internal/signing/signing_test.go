package signing_test

import (
	"bytes"
	"context"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/signing"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

const (
	testIdentity = "https://sentinel.example/orgs/acme/evidence"
	testIssuer   = "https://sentinel.example"
)

// MustCA returns a new CA valid from now.
func MustCA(tb testing.TB, now time.Time) *signing.CA {
	tb.Helper()
	ca, err := signing.NewCA(now, signing.CAOptions{Organization: "Sentinel Test"})
	if err != nil {
		tb.Fatalf("NewCA: %v", err)
	}
	return ca
}

// MustSigner returns a signer whose clock is now.
func MustSigner(tb testing.TB, ca *signing.CA, now time.Time) *signing.Signer {
	tb.Helper()
	s, err := ca.NewSigner(signing.SignerOptions{
		Identity: testIdentity,
		Issuer:   testIssuer,
		Now:      func() time.Time { return now },
	})
	if err != nil {
		tb.Fatalf("NewSigner: %v", err)
	}
	return s
}

// MustSign signs data.
func MustSign(tb testing.TB, s *signing.Signer, data []byte) *signing.Signature {
	tb.Helper()
	sig, err := s.Sign(context.Background(), bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("Sign: %v", err)
	}
	return sig
}

// signed is one artifact as a bundle holds it.
type signed struct {
	artifact []byte
	material signing.Material
}

func newSigned(ca *signing.CA, s *signing.Signer, data []byte, sig *signing.Signature) signed {
	return signed{
		artifact: data,
		material: signing.Material{
			Certificate: s.CertificatePEM(),
			Chain:       ca.ChainPEM(),
			Signature:   sig.SigFile(),
			Timestamp:   sig.TimestampFile(),
			TSAChain:    ca.TSAChainPEM(),
		},
	}
}

func mustDecodeSig(tb testing.TB, sigFile []byte) []byte {
	tb.Helper()
	der, err := signing.DecodeSignature(sigFile)
	if err != nil {
		tb.Fatal(err)
	}
	return der
}

func pemOf(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

// verifyCase is one scenario run through the Go verifier and cosign.
type verifyCase struct {
	name     string
	in       signed
	identity string        // regexp
	issuer   string        // issuer
	want     signing.Check // "" means it verifies
	cosign   string        // part of cosign's error message when it fails
}

func verifyCases(t *testing.T) []verifyCase {
	t.Helper()
	now := time.Now()
	ca := MustCA(t, now.Add(-24*time.Hour))
	artifact := []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5"}` + "\n")

	s := MustSigner(t, ca, now)
	good := newSigned(ca, s, artifact, MustSign(t, s, artifact))
	other := MustSign(t, s, []byte("another artifact"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// A leaf issued two hours ago: its 15 minutes are long over, but its
	// signature was timestamped inside them.
	past := now.Add(-2 * time.Hour)
	ps := MustSigner(t, ca, past)
	expired := newSigned(ca, ps, artifact, MustSign(t, ps, artifact))
	if !ps.Certificate().NotAfter.Before(now) {
		t.Fatalf("leaf NotAfter %v is not in the past", ps.Certificate().NotAfter)
	}
	ps.Close()

	changed := good
	changed.artifact = bytes.Clone(artifact)
	changed.artifact[10] ^= 0x01

	noTimestamp := expired
	noTimestamp.material.Timestamp = nil

	wrongTimestamp := good
	wrongTimestamp.material.Timestamp = other.TimestampFile()

	foreign := good
	foreign.material.Chain = MustCA(t, now.Add(-time.Hour)).ChainPEM()

	foreignTSA := good
	foreignTSA.material.TSAChain = MustCA(t, now.Add(-time.Hour)).TSAChainPEM()

	// A timestamp issued after the leaf expired (a TSA whose clock runs
	// an hour ahead).
	late, err := ca.TimestampAuthority(func() time.Time { return now.Add(time.Hour) }).
		Timestamp(context.Background(), mustDecodeSig(t, good.material.Signature))
	if err != nil {
		t.Fatal(err)
	}
	lateTimestamp := good
	lateTimestamp.material.Timestamp = signing.EncodeTimestampFile(late)

	// The right TSA certificate, with another root.
	tsaForeignRoot := good
	tsaForeignRoot.material.TSAChain = append(pemOf(ca.TSACertificate()), pemOf(MustCA(t, now.Add(-time.Hour)).Root())...)

	re := signing.IdentityRegexp(testIdentity)
	// A CA on P-256 rather than the default P-384.
	ca256, err := signing.NewCA(now.Add(-time.Hour), signing.CAOptions{Curve: elliptic.P256()})
	if err != nil {
		t.Fatal(err)
	}
	s256 := MustSigner(t, ca256, now)
	p256 := newSigned(ca256, s256, artifact, MustSign(t, s256, artifact))
	s256.Close()

	return []verifyCase{
		{name: "valid", in: good, identity: re, issuer: testIssuer},
		{name: "valid_p256_ca", in: p256, identity: re, issuer: testIssuer},
		{name: "golden_fixture", in: loadGolden(t), identity: re, issuer: testIssuer},
		{name: "changed_byte", in: changed, identity: re, issuer: testIssuer,
			want: signing.CheckSignature, cosign: "invalid signature"},
		{name: "wrong_identity", in: good, identity: signing.IdentityRegexp("https://sentinel.example/orgs/other/evidence"), issuer: testIssuer,
			want: signing.CheckIdentity, cosign: "none of the expected identities matched"},
		{name: "identity_prefix_only", in: good, identity: `^https://sentinel\.example/orgs/acme$`, issuer: testIssuer,
			want: signing.CheckIdentity, cosign: "none of the expected identities matched"},
		{name: "wrong_issuer", in: good, identity: re, issuer: "https://accounts.example",
			want: signing.CheckIssuer, cosign: "none of the expected identities matched"},
		{name: "expired_leaf_timestamped", in: expired, identity: re, issuer: testIssuer},
		{name: "expired_leaf_no_timestamp", in: noTimestamp, identity: re, issuer: testIssuer,
			want: signing.CheckValidity, cosign: "expected a signed timestamp to verify an expired certificate"},
		{name: "timestamp_of_other_signature", in: wrongTimestamp, identity: re, issuer: testIssuer,
			want: signing.CheckTimestamp, cosign: "hashed messages don't match"},
		{name: "timestamp_after_leaf_expiry", in: lateTimestamp, identity: re, issuer: testIssuer,
			want: signing.CheckValidity, cosign: "certificate expired before observed time"},
		{name: "foreign_chain", in: foreign, identity: re, issuer: testIssuer,
			want: signing.CheckChain, cosign: "cert verification failed"},
		{name: "foreign_tsa_chain", in: foreignTSA, identity: re, issuer: testIssuer,
			want: signing.CheckTimestamp, cosign: "does not match the provided TSA certificate"},
		{name: "tsa_chain_foreign_root", in: tsaForeignRoot, identity: re, issuer: testIssuer,
			want: signing.CheckTimestamp, cosign: "error while verifying signer certificate chain"},
	}
}

func TestVerify(t *testing.T) {
	for _, tc := range verifyCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			res, err := signing.Verify(context.Background(), bytes.NewReader(tc.in.artifact), tc.in.material,
				signing.Policy{IdentityRegexp: tc.identity, Issuer: tc.issuer})
			var got signing.Check
			if err != nil {
				var ve *signing.VerificationError
				if !errors.As(err, &ve) {
					t.Fatalf("Verify: %v is not a *VerificationError", err)
				}
				got = ve.Check
			}
			if got != tc.want {
				t.Fatalf("Verify: failed check %q (err %v), want %q", got, err, tc.want)
			}
			if err == nil && (res.Identity != testIdentity || res.Issuer != testIssuer || !res.Timestamped) {
				t.Errorf("Verify result = %+v", res)
			}
			t.Logf("err: %v", err)
		})
	}
}

// TestCosignVerifyBlob runs the real cosign on the same cases, offline:
// proxies point nowhere, so any network access would fail the run.
func TestCosignVerifyBlob(t *testing.T) {
	cosign := testenv.Cosign(t)
	if testing.Short() {
		t.Skip("runs cosign once per case")
	}
	for _, tc := range verifyCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f := signing.DefaultFiles("sbom/consolidated.cdx.json")
			if tc.in.material.Timestamp == nil {
				f.Timestamp = ""
			}
			write := func(name string, b []byte) {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(f.Artifact, tc.in.artifact)
			write(f.Signature, tc.in.material.Signature)
			write(f.Certificate, tc.in.material.Certificate)
			write(f.Chain, tc.in.material.Chain)
			write(f.TSAChain, tc.in.material.TSAChain)
			if f.Timestamp != "" {
				write(f.Timestamp, tc.in.material.Timestamp)
			}

			cmd := exec.Command(cosign, signing.CosignArgs(f, tc.identity, tc.issuer)...)
			cmd.Dir = dir
			cmd.Env = offlineEnv(t)
			out, err := cmd.CombinedOutput()
			ok := err == nil && strings.Contains(string(out), "Verified OK")
			if ok != (tc.want == "") || !strings.Contains(string(out), tc.cosign) {
				t.Fatalf("%s\nverified=%v, want %v (failing with %q); err %v; output:\n%s",
					signing.CosignCommand(f, tc.identity, tc.issuer), ok, tc.want == "", tc.cosign, err, out)
			}
			t.Logf("%s\n%s", signing.CosignCommand(f, tc.identity, tc.issuer), out)
		})
	}
}

func offlineEnv(t *testing.T) []string {
	home := t.TempDir()
	env := []string{
		"HOME=" + home,
		"TUF_ROOT=" + filepath.Join(home, "tuf"),
		"PATH=" + os.Getenv("PATH"),
		"HTTPS_PROXY=http://127.0.0.1:9",
		"HTTP_PROXY=http://127.0.0.1:9",
		"https_proxy=http://127.0.0.1:9",
		"http_proxy=http://127.0.0.1:9",
		"NO_PROXY=",
		"no_proxy=",
	}
	return env
}

func TestSignerClose(t *testing.T) {
	now := time.Now()
	ca := MustCA(t, now.Add(-time.Hour))
	s := MustSigner(t, ca, now)
	MustSign(t, s, []byte("x"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sign(context.Background(), strings.NewReader("y")); !errors.Is(err, signing.ErrSignerClosed) {
		t.Fatalf("Sign after Close: err = %v, want ErrSignerClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestSignerRefusesAfterExpiry(t *testing.T) {
	now := time.Now()
	ca := MustCA(t, now.Add(-time.Hour))
	clock := now
	s, err := ca.NewSigner(signing.SignerOptions{Identity: testIdentity, Issuer: testIssuer, Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	clock = now.Add(signing.DefaultLeafValidity + time.Minute)
	if _, err := s.Sign(context.Background(), strings.NewReader("late")); err == nil {
		t.Fatal("Sign after the leaf expired: no error")
	}
}

func TestLeafCertificate(t *testing.T) {
	now := time.Date(2026, 11, 21, 22, 19, 5, 500, time.UTC)
	ca := MustCA(t, now.Add(-time.Hour))
	s := MustSigner(t, ca, now)
	c := s.Certificate()
	type summary struct {
		URIs      []string
		EKU       []x509.ExtKeyUsage
		KeyUsage  x509.KeyUsage
		NotBefore time.Time
		NotAfter  time.Time
		IsCA      bool
		Issuer1   string
		Issuer8   []byte
	}
	got := summary{EKU: c.ExtKeyUsage, KeyUsage: c.KeyUsage, NotBefore: c.NotBefore, NotAfter: c.NotAfter, IsCA: c.IsCA}
	for _, u := range c.URIs {
		got.URIs = append(got.URIs, u.String())
	}
	for _, e := range c.Extensions {
		switch {
		case e.Id.Equal(signing.OIDIssuer):
			got.Issuer1 = string(e.Value)
		case e.Id.Equal(signing.OIDIssuerV2):
			got.Issuer8 = e.Value
		}
	}
	want := summary{
		URIs:      []string{testIdentity},
		EKU:       []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning},
		KeyUsage:  x509.KeyUsageDigitalSignature,
		NotBefore: time.Date(2026, 11, 21, 22, 19, 5, 0, time.UTC),
		NotAfter:  time.Date(2026, 11, 21, 22, 34, 5, 0, time.UTC),
		Issuer1:   testIssuer,
		// UTF8String (tag 12), length 24.
		Issuer8: append([]byte{12, byte(len(testIssuer))}, testIssuer...),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("leaf certificate mismatch (-want +got):\n%s", diff)
	}
	if len(signing.KeyFingerprint(c)) != 64 {
		t.Errorf("KeyFingerprint = %q, want 64 hex digits", signing.KeyFingerprint(c))
	}
}

func TestLoadCA(t *testing.T) {
	now := time.Now()
	ca := MustCA(t, now.Add(-time.Hour))
	for _, withRoot := range []bool{true, false} {
		keys, err := ca.PrivateKeysPEM(withRoot)
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := signing.LoadCA(ca.CertificatesPEM(), keys)
		if err != nil {
			t.Fatalf("LoadCA(withRoot=%v): %v", withRoot, err)
		}
		if !bytes.Equal(loaded.ChainPEM(), ca.ChainPEM()) || !bytes.Equal(loaded.TSAChainPEM(), ca.TSAChainPEM()) {
			t.Fatal("LoadCA: chains differ")
		}
		s := MustSigner(t, loaded, now)
		data := []byte("reloaded")
		sig := MustSign(t, s, data)
		if _, err := signing.Verify(context.Background(), bytes.NewReader(data), newSigned(ca, s, data, sig).material,
			signing.Policy{IdentityRegexp: signing.IdentityRegexp(testIdentity), Issuer: testIssuer, Roots: []*x509.Certificate{ca.Root()}}); err != nil {
			t.Fatalf("Verify with a reloaded CA: %v", err)
		}
		_, err = loaded.PrivateKeysPEM(true)
		if gotErr := err != nil; gotErr == withRoot {
			t.Errorf("PrivateKeysPEM(true) after loading withRoot=%v: err %v", withRoot, err)
		}
	}
	if _, err := signing.LoadCA(ca.CertificatesPEM(), nil); err == nil {
		t.Error("LoadCA without keys: no error")
	}
}

func TestVerifyPinnedRoot(t *testing.T) {
	now := time.Now()
	ca, other := MustCA(t, now.Add(-time.Hour)), MustCA(t, now.Add(-time.Hour))
	s := MustSigner(t, ca, now)
	data := []byte("pinned")
	in := newSigned(ca, s, data, MustSign(t, s, data))
	_, err := signing.Verify(context.Background(), bytes.NewReader(data), in.material, signing.Policy{
		IdentityRegexp: signing.IdentityRegexp(testIdentity), Issuer: testIssuer, Roots: []*x509.Certificate{other.Root()},
	})
	var ve *signing.VerificationError
	if !errors.As(err, &ve) || ve.Check != signing.CheckChain {
		t.Fatalf("Verify with another pinned root: err = %v, want a chain failure", err)
	}
}

func TestCosignCommand(t *testing.T) {
	got := signing.CosignCommand(signing.DefaultFiles("findings.csv"), signing.IdentityRegexp(testIdentity), testIssuer)
	want := `cosign verify-blob --certificate findings.csv.pem --signature findings.csv.sig ` +
		`--certificate-identity-regexp '^https://sentinel\.example/orgs/acme/evidence$' ` +
		`--certificate-oidc-issuer https://sentinel.example --certificate-chain chain.pem ` +
		`--rfc3161-timestamp findings.csv.ts.json --timestamp-certificate-chain tsa-chain.pem ` +
		`--insecure-ignore-tlog --insecure-ignore-sct findings.csv`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CosignCommand mismatch (-want +got):\n%s", diff)
	}
}

func TestWriteVerification(t *testing.T) {
	now := time.Date(2026, 11, 21, 22, 19, 5, 0, time.UTC)
	ca := MustCA(t, now.Add(-time.Hour))
	s := MustSigner(t, ca, now)
	sig := MustSign(t, s, []byte("abc"))
	var buf bytes.Buffer
	err := signing.WriteVerification(&buf, signing.ArtifactVerification{
		Files: signing.DefaultFiles("audit.csv"), Signature: sig, Certificate: s.Certificate(),
		Identity: testIdentity, Issuer: testIssuer,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Artifact: audit.csv",
		"SHA-256: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad (3 bytes)",
		"Key fingerprint (SHA-256 of SubjectPublicKeyInfo): " + signing.KeyFingerprint(s.Certificate()),
		"Signed at (RFC 3161 timestamp): 2026-11-21T22:19:05Z",
		"cosign verify-blob --certificate audit.csv.pem",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("WriteVerification output lacks %q:\n%s", want, buf.String())
		}
	}
}
