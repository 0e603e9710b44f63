package signing

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/digitorus/timestamp"
)

var (
	oidExtKeyUsage    = asn1.ObjectIdentifier{2, 5, 29, 37}
	oidKPTimeStamping = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 8}
)

// timeStampingEKU returns a critical extended key usage extension holding
// only id-kp-timeStamping.
func timeStampingEKU() (pkix.Extension, error) {
	v, err := asn1.Marshal([]asn1.ObjectIdentifier{oidKPTimeStamping})
	if err != nil {
		return pkix.Extension{}, err
	}
	return pkix.Extension{Id: oidExtKeyUsage, Critical: true, Value: v}, nil
}

// A Timestamper issues RFC 3161 timestamps. Timestamp returns a DER
// TimeStampResp whose message imprint is the SHA-256 of data.
//
// The deployment's own TimestampAuthority implements it; a client of a
// public timestamp authority could too.
type Timestamper interface {
	Timestamp(ctx context.Context, data []byte) ([]byte, error)
}

// TimestampAuthority is the deployment's own RFC 3161 timestamp authority,
// certified by the signing CA's root.
type TimestampAuthority struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Policy is the TSA policy OID of the timestamps; nil means
	// OIDAnyPolicy.
	Policy asn1.ObjectIdentifier
}

var _ Timestamper = (*TimestampAuthority)(nil)

// TimestampAuthority returns the CA's timestamp authority using the clock
// now (nil means time.Now).
func (ca *CA) TimestampAuthority(now func() time.Time) *TimestampAuthority {
	return &TimestampAuthority{cert: ca.tsa, key: ca.tsaKey, Now: now}
}

// Timestamp returns a DER TimeStampResp over SHA-256(data), signed by the
// TSA key and carrying the TSA certificate.
//
// The CMS signing-time attribute is written by the pkcs7 library from the
// real clock, not from Now; verifiers only require it to fall inside the
// TSA certificate's validity. The time that counts is genTime, from Now.
func (t *TimestampAuthority) Timestamp(ctx context.Context, data []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := time.Now
	if t.Now != nil {
		now = t.Now
	}
	at := now().UTC()
	if at.Before(t.cert.NotBefore) || at.After(t.cert.NotAfter) {
		return nil, fmt.Errorf("timestamp: %s is outside the TSA certificate's validity (%s to %s)",
			at.Format(time.RFC3339), t.cert.NotBefore.Format(time.RFC3339), t.cert.NotAfter.Format(time.RFC3339))
	}
	sum := sha256.Sum256(data)
	policy := t.Policy
	if policy == nil {
		policy = OIDAnyPolicy
	}
	ts := timestamp.Timestamp{
		HashAlgorithm:     crypto.SHA256,
		HashedMessage:     sum[:],
		Time:              at,
		Policy:            policy,
		AddTSACertificate: true,
	}
	pkcs7Mu.Lock()
	resp, err := ts.CreateResponseWithOpts(t.cert, t.key, crypto.SHA256)
	pkcs7Mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("timestamp: %w", err)
	}
	return resp, nil
}

// OIDAnyPolicy (2.5.29.32.0, X.509 anyPolicy) is the default TSA policy.
// RFC 3161 requires a policy in every timestamp; the service has no
// registered arc of its own (and Go's ASN.1 parser, used by cosign, rejects
// OID arcs above 31 bits, ruling out a 2.25 UUID OID), so by default the
// timestamps state "no particular policy". An operator with an arc sets
// TimestampAuthority.Policy.
var OIDAnyPolicy = asn1.ObjectIdentifier{2, 5, 29, 32, 0}

// timestampFile is cosign's bundle.RFC3161Timestamp: the JSON file read by
// `cosign verify-blob --rfc3161-timestamp`. encoding/json writes the DER
// TimeStampResp as standard base64.
type timestampFile struct {
	SignedRFC3161Timestamp []byte
}

// EncodeTimestampFile returns the JSON file cosign reads with
// --rfc3161-timestamp: {"SignedRFC3161Timestamp":"<base64 DER>"}.
func EncodeTimestampFile(resp []byte) []byte {
	b, _ := json.Marshal(timestampFile{SignedRFC3161Timestamp: resp}) // a []byte field always marshals
	return append(b, '\n')
}

// DecodeTimestampFile parses a file written by EncodeTimestampFile and
// returns the DER TimeStampResp.
func DecodeTimestampFile(b []byte) ([]byte, error) {
	if len(b) > maxTimestampFile {
		return nil, fmt.Errorf("timestamp file is %d bytes, more than %d", len(b), maxTimestampFile)
	}
	var f timestampFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("decode timestamp file: %w", err)
	}
	if len(f.SignedRFC3161Timestamp) == 0 {
		return nil, errors.New("decode timestamp file: no SignedRFC3161Timestamp")
	}
	return f.SignedRFC3161Timestamp, nil
}

// pkcs7Mu serialises every call into github.com/digitorus/pkcs7 (directly
// or through digitorus/timestamp): its BER encoder keeps a package-level
// counter without a lock, so two bundles signed or verified at once would
// race. This is the one package-level mutable value here, and it exists
// only to guard that dependency.
var pkcs7Mu sync.Mutex
