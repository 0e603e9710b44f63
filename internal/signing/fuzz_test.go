package signing_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/signing"
)

// FuzzVerify feeds arbitrary files to Verify, the entry point for the
// untrusted contents of a bundle (PEM certificates, base64 signature,
// timestamp JSON and its DER). It must never panic, and must accept no
// certificate but the signing leaf. The seeds
// are the golden fixture and variations of it; `go test` runs them as a
// plain test.
func FuzzVerify(f *testing.F) {
	in := loadGolden(f)
	good := in.material
	leaf, _ := pem.Decode(good.Certificate)
	if leaf == nil {
		f.Fatal("golden certificate is not PEM")
	}
	root, err := x509.ParseCertificate(lastPEM(good.Chain))
	if err != nil {
		f.Fatal(err)
	}

	f.Add(good.Certificate, good.Chain, good.Signature, good.Timestamp, good.TSAChain)
	f.Add(good.Certificate, good.Chain, good.Signature, []byte(nil), good.TSAChain)
	f.Add(good.Chain, good.Certificate, good.Signature, good.Timestamp, good.TSAChain)
	f.Add(good.Certificate, good.Chain, []byte("!!not base64"), good.Timestamp, good.TSAChain)
	f.Add(good.Certificate, good.Chain, good.Signature, []byte(`{"SignedRFC3161Timestamp":"MAA="}`), good.TSAChain)
	f.Add(good.Certificate, good.Chain, good.Signature, []byte(`{"SignedRFC3161Timestamp":1}`), good.TSAChain)
	f.Add([]byte("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n"), good.Chain, good.Signature, good.Timestamp, good.TSAChain)
	f.Add(good.Certificate, good.Chain, good.Signature, good.Timestamp, good.Certificate)
	f.Add(good.Certificate, good.TSAChain, good.Signature, good.Timestamp, good.Chain)
	f.Add([]byte{}, []byte{}, []byte{}, []byte{}, []byte{})

	policy := signing.Policy{
		IdentityRegexp: signing.IdentityRegexp(testIdentity),
		Issuer:         testIssuer,
		Roots:          []*x509.Certificate{root},
	}
	f.Fuzz(func(t *testing.T, cert, chain, sigFile, ts, tsaChain []byte) {
		m := signing.Material{Certificate: cert, Chain: chain, Signature: sigFile, Timestamp: ts, TSAChain: tsaChain}
		_, err := signing.Verify(context.Background(), bytes.NewReader(in.artifact), m, policy)
		if err == nil {
			// Only the signing leaf can verify (its PEM layout may differ).
			if b, _ := pem.Decode(cert); b == nil || !bytes.Equal(b.Bytes, leaf.Bytes) {
				t.Errorf("Verify accepted a certificate other than the signing leaf")
			}
		}
		// The decoders on their own.
		_, _ = signing.DecodeSignature(sigFile)
		_, _ = signing.DecodeTimestampFile(ts)
	})
}

// lastPEM returns the DER of the last PEM block of b.
func lastPEM(b []byte) []byte {
	var last []byte
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			return last
		}
		last = block.Bytes
	}
}
