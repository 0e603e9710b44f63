package evidence

import (
	"context"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// Source is the tenant data a bundle is built from, read as streams: each
// method calls fn once per row and stops at fn's first error. The store
// implements it.
type Source interface {
	// EvidenceSubmissions streams the SBOM submissions received in
	// [since, until), with the agent's original bytes, oldest first.
	EvidenceSubmissions(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.EvidenceSubmission) error) error
	// EvidenceComponents streams the current inventory ordered by purl in
	// byte order; a purl may repeat, once per asset.
	EvidenceComponents(ctx context.Context, orgID string, fn func(*sentinel.EvidenceComponent) error) error
	// EvidenceChanges streams component drift in [since, until).
	EvidenceChanges(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.EvidenceChange) error) error
	// EvidenceFindings streams findings with one of the statuses.
	EvidenceFindings(ctx context.Context, orgID string, statuses []string, fn func(*sentinel.EvidenceFinding) error) error
	// EvidenceAudit streams audit entries in [since, until), oldest first.
	EvidenceAudit(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.AuditEntry) error) error
}

// Store is what package evidence reads, and Update its write transaction.
// The store implements it (store.Bind[evidence.Tx]).
type Store interface {
	Source
	ChunkReader
	sentinel.OrgFinder
	FindBundle(ctx context.Context, orgID, id string) (*sentinel.Bundle, error)
	// FindBundleByID finds a bundle of any organization (for the build job).
	FindBundleByID(ctx context.Context, id string) (*sentinel.Bundle, error)
	ListBundles(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.Bundle, string, error)
	BundleAccessLog(ctx context.Context, bundleID string, page sentinel.Page) ([]*sentinel.BundleAccess, string, error)
	// ResetBundleBuild drops the chunks of an earlier, interrupted build.
	ResetBundleBuild(ctx context.Context, id string) error
	PutBundleChunk(ctx context.Context, id string, seq int, data []byte) error
	FailBundleBuild(ctx context.Context, id, reason string) error
	// SigningCA returns the deployment's signing CA (certificates PEM and
	// sealed keys). Errors: ENOTFOUND before the first start.
	SigningCA(ctx context.Context) (certs string, sealedKeys []byte, err error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// ChunkReader reads a built bundle's zip, a chunk at a time. Errors:
// ENOTFOUND after the last chunk.
type ChunkReader interface {
	BundleChunk(ctx context.Context, id string, seq int) ([]byte, error)
}

// Tx is what package evidence writes in one transaction.
type Tx interface {
	sentinel.Clock
	sentinel.EventWriter
	sentinel.AuditWriter
	sentinel.JobEnqueuer
	CreateBundle(ctx context.Context, b *sentinel.Bundle) error
	// RevokeBundle reports whether the bundle changed (false when it was
	// revoked already).
	RevokeBundle(ctx context.Context, orgID, id string) (*sentinel.Bundle, bool, error)
	FinishBundleBuild(ctx context.Context, b *sentinel.Bundle) error
	// PutSigningCA stores the signing CA unless one exists; it reports
	// whether this one was stored.
	PutSigningCA(ctx context.Context, certs string, sealedKeys []byte) (bool, error)
}
