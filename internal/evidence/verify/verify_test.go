package verify_test

// Whole bundles, good and tampered with, are built and verified by package
// evidence's tests (TestVerifyBundle with its tampered cases,
// FuzzVerifyBundle); these cover what this package decides alone.

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
)

// mustZip returns a zip of files.
func mustZip(tb testing.TB, files map[string]string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// mustCert returns a self-signed certificate.
func mustCert(tb testing.TB) *x509.Certificate {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test Root"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestBundleUnreadable: a zip that is not a bundle at all is an error, not
// a report.
func TestBundleUnreadable(t *testing.T) {
	rootPEM := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: mustCert(t).Raw}))
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not_a_zip", []byte("this is not a zip"), "not a zip"},
		{"no_chain", mustZip(t, map[string]string{verify.FileVerification: "Bundle: b\n"}), "chain.pem is missing"},
		{"no_listing", mustZip(t, map[string]string{verify.FileChain: rootPEM, verify.FileTSAChain: rootPEM}), "verification.txt is missing"},
		{"no_identity", mustZip(t, map[string]string{verify.FileChain: rootPEM, verify.FileTSAChain: rootPEM, verify.FileVerification: "Bundle: b\n"}),
			"states no signing identity or issuer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := verify.Bundle(context.Background(), bytes.NewReader(tc.data), int64(len(tc.data)), verify.Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Bundle(%s) = %+v, %v; want an error containing %q", tc.name, rep, err, tc.want)
			}
		})
	}
}

func TestParseRoots(t *testing.T) {
	c := mustCert(t)
	data := append(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("skipped")}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})...)
	roots, err := verify.ParseRoots(data)
	if err != nil || len(roots) != 1 || !roots[0].Equal(c) {
		t.Errorf("ParseRoots = %v, %v; want the one certificate", roots, err)
	}
	if _, err := verify.ParseRoots([]byte("no PEM here")); err == nil {
		t.Error("ParseRoots(no PEM) error = nil, want an error")
	}
}

func TestCertFingerprint(t *testing.T) {
	c := mustCert(t)
	sum := sha256.Sum256(c.Raw)
	if got, want := verify.CertFingerprint(c), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("CertFingerprint = %s, want %s", got, want)
	}
}
