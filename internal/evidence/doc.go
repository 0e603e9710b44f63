// Package evidence builds, signs, stores and verifies Evidence Bundles: the
// signed zip an organization shares with an auditor, a customer or a
// regulator (specification, Evidence Bundle; docs/design.md, Evidence Bundles).
//
// A bundle is built by [Build] from a [Source] (the store, read as streams)
// into any io.Writer, in one pass and in bounded memory: every artifact is
// produced by a goroutine into a pipe, and the signer reads that pipe
// through a tee into the zip entry, so an artifact is hashed, signed and
// compressed as it is written and never held whole. The consolidated
// CycloneDX keeps only a set of 64-bit purl hashes (to drop dangling
// dependency references) and spools its dependency graph to a temporary
// file. A bundle of 1,000 submissions and 1,000,000 components builds in
// about 9 s with a peak Go heap of about 95 MiB from a generated source
// (BenchmarkBuildLarge), and in about 18 s with a peak heap of about 86 MiB
// (130 MiB RSS) from a seeded SQLite store into stored chunks
// (BenchmarkBuildFromStore), on two shared cores: inside docs/design.md's 30 s
// and 256 MiB.
//
// The zip holds:
//
//	verification.txt                     how to verify everything, offline
//	cover.pdf                            cover page, executive summary, metadata
//	sbom/submissions/<sub_id>.cdx.json   each agent submission, original bytes
//	sbom/consolidated.cdx.json           deterministic organization-wide SBOM
//	drift.csv, findings.csv, audit.csv, compliance.csv
//	<artifact>.sig, .pem, .ts.json       beside every artifact above
//	chain.pem, tsa-chain.pem             the signing and timestamping chains
//
// Each bundle is signed by a fresh key pair whose short-lived certificate
// comes from the deployment's signing CA (package signing), each signature
// is timestamped by the deployment's RFC 3161 authority, and the private key
// is discarded once the bundle is signed. `cosign verify-blob` checks every
// artifact offline with the commands printed in verification.txt;
// package verify performs the same checks in Go for `sentinel verify`,
// without the service.
//
// The built zip is stored in the database in 1 MiB chunks (table
// bundle_chunks) rather than as a file in the data directory: several
// replicas share one PostgreSQL, and any of them may serve the download; a
// chunked table streams in both directions, is backed up with the rest of
// the data, and disappears with its bundle.
//
// [Service] holds the API operations (issue, list, revoke, access log) and
// the durable build job; package share serves the recipients' site.
package evidence
