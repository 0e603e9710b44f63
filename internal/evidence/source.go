package evidence

import (
	"context"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// Source is the tenant data a bundle is built from, read as streams: each
// method calls fn once per row and stops at fn's first error. *store.DB
// implements it.
type Source interface {
	// EvidenceSubmissions streams the SBOM submissions received in
	// [since, until), with the agent's original bytes, oldest first.
	EvidenceSubmissions(ctx context.Context, orgID string, since, until time.Time, fn func(*store.EvidenceSubmission) error) error
	// EvidenceComponents streams the current inventory ordered by purl in
	// byte order; a purl may repeat, once per asset.
	EvidenceComponents(ctx context.Context, orgID string, fn func(*store.EvidenceComponent) error) error
	// EvidenceChanges streams component drift in [since, until).
	EvidenceChanges(ctx context.Context, orgID string, since, until time.Time, fn func(*store.EvidenceChange) error) error
	// EvidenceFindings streams findings with one of the statuses.
	EvidenceFindings(ctx context.Context, orgID string, statuses []string, fn func(*store.EvidenceFinding) error) error
	// EvidenceAudit streams audit entries in [since, until), oldest first.
	EvidenceAudit(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.AuditEntry) error) error
}

var _ Source = (*store.DB)(nil)
