// Package signing signs Evidence Bundle artifacts "keyless in style" and
// verifies them offline.
//
// The deployment keeps one signing CA (see [NewCA]): a root, an intermediate
// that issues short-lived code-signing certificates, and a timestamp
// authority (RFC 3161) certified by the same root. Each bundle gets a
// [Signer]: a fresh ECDSA P-256 key pair and a leaf certificate, valid for a
// few minutes, that names the signing identity in a URI SAN and carries the
// Fulcio OIDC-issuer extensions. Every artifact is hashed with SHA-256 as a
// stream and signed (ASN.1 DER ECDSA), and the raw signature bytes are
// timestamped by the deployment's timestamp authority, as Sigstore does, so
// that the signature keeps verifying after the leaf certificate has expired.
// Closing the Signer drops the private key.
//
// The output is what `cosign verify-blob` (v3) accepts offline:
//
//	cosign verify-blob --certificate F.pem --signature F.sig \
//	  --certificate-identity-regexp R --certificate-oidc-issuer I \
//	  --certificate-chain chain.pem \
//	  --rfc3161-timestamp F.ts.json --timestamp-certificate-chain tsa-chain.pem \
//	  --insecure-ignore-tlog --insecure-ignore-sct F
//
// where F.sig is the base64 of the DER signature, chain.pem lists the
// intermediate then the root, F.ts.json is {"SignedRFC3161Timestamp":
// "<base64 of the DER TimeStampResp>"} (cosign's bundle.RFC3161Timestamp),
// and tsa-chain.pem holds exactly one TSA leaf certificate plus the root
// (cosign splits that file into leaf, intermediates and self-signed roots).
// [CosignCommand] prints that line and [Verify] performs the same checks in
// Go, for `sentinel verify` on machines without cosign.
//
// Only the standard library and github.com/digitorus/timestamp (with its
// pkcs7 dependency) are used: sigstore-go and cosign would add about 80
// modules to the service for what amounts to a few X.509 templates.
package signing
