package sentinel

import (
	"slices"
	"strings"
	"time"
)

// Organization is a tenant. Every other resource belongs to exactly one.
type Organization struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
	// SharePeriod is how long a new Evidence Bundle share stays active
	// (default 7 days, at most 30).
	SharePeriod time.Duration `json:"-"`
	// Catalog is the primary compliance catalog ("nist-800-53", "pci-dss-4",
	// "iso-27001-2022") whose controls findings and bundles reference.
	Catalog string `json:"catalog"`
	// RequireVerifiedTargets makes external scans of a site wait until the
	// organization has proved it controls the site (off by default).
	RequireVerifiedTargets bool      `json:"require_verified_targets"`
	CreatedAt              time.Time `json:"created_at"`
}

// Scopes. The first six are the specification's; the rest are docs/design.md's
// for endpoints the specification does not scope.
const (
	ScopeSCASubmit     = "sca:submit"
	ScopeSCARead       = "sca:read"
	ScopeSCAIOC        = "sca:ioc"
	ScopeSCAIntelRead  = "sca:intel:read"
	ScopeEvidenceShare = "evidence.share"
	ScopeAuditLogsRead = "audit_logs:read"
	ScopeScansWrite    = "scans:write"
	ScopeScansRead     = "scans:read"
	ScopeFindingsRead  = "findings:read"
	ScopeFindingsWrite = "findings:write"
	ScopeAssetsRead    = "assets:read"
	ScopeWebhooksWrite = "webhooks:write"
	ScopeSecretsSubmit = "secrets:submit"
	ScopeEdgeSubmit    = "edge:submit"
	ScopeAdmin         = "admin"
)

// AllScopes lists every scope a key can hold, in a stable order.
var AllScopes = []string{
	ScopeSCASubmit, ScopeSCARead, ScopeSCAIOC, ScopeSCAIntelRead, ScopeEvidenceShare,
	ScopeAuditLogsRead, ScopeScansWrite, ScopeScansRead, ScopeFindingsRead,
	ScopeFindingsWrite, ScopeAssetsRead, ScopeWebhooksWrite, ScopeSecretsSubmit,
	ScopeEdgeSubmit, ScopeAdmin,
}

// ValidScope reports whether s is a known scope.
func ValidScope(s string) bool { return slices.Contains(AllScopes, s) }

// ParseScopes splits a comma-separated scope list, trims it, drops
// duplicates and rejects unknown scopes. "*" stands for every scope.
func ParseScopes(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "":
			continue
		case f == "*":
			return slices.Clone(AllScopes), nil
		case !ValidScope(f):
			return nil, InvalidField("scopes", "unknown scope %q; known scopes: %s", f, strings.Join(AllScopes, ", "))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, InvalidField("scopes", "at least one scope is required")
	}
	return out, nil
}

// APIKey is an API key's stored record. The secret itself is never stored:
// only its SHA-256, compared in constant time.
type APIKey struct {
	ID     string   `json:"id"`
	OrgID  string   `json:"-"`
	Name   string   `json:"name"`
	Prefix string   `json:"prefix"` // the visible start of the key, to tell keys apart
	Scopes []string `json:"scopes"`
	Hash   []byte   `json:"-"`
	// CreatedBy is the key id (or "admin-cli") that created this key.
	CreatedBy  string     `json:"created_by,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at,omitempty"`
	RevokedAt  *time.Time `json:"revoked_at,omitempty"`
}

// Principal is who makes a request: an API key of an organization.
type Principal struct {
	OrgID   string
	OrgSlug string
	KeyID   string
	Scopes  []string
}

// Has reports whether the principal holds scope.
func (p *Principal) Has(scope string) bool { return slices.Contains(p.Scopes, scope) }

// Actor identifies who changed something, for the audit log.
type Actor struct {
	// KeyID is the API key, or a name such as "admin-cli" or "system".
	KeyID string
	// Addr is the remote address the request came from, if any.
	Addr string
}

// AuditEntry is one state-changing operator action.
type AuditEntry struct {
	ID        int64          `json:"id"`
	OrgID     string         `json:"-"`
	Actor     string         `json:"actor"`
	Action    string         `json:"action"`
	Target    string         `json:"target"`
	Addr      string         `json:"addr,omitempty"`
	Details   map[string]any `json:"details,omitempty"`
	CreatedAt time.Time      `json:"created_at"`
}

// Meter names: monthly metered scopes (specification, Limits rule 4).
const (
	MeterScans           = "scans"
	MeterSBOMSubmissions = "sbom_submissions"
	MeterRecommendations = "recommendations"
)

// Meters lists every meter.
var Meters = []string{MeterScans, MeterSBOMSubmissions, MeterRecommendations}

// MeterStatus is one meter's limit and use in the current period.
type MeterStatus struct {
	Meter  string `json:"meter"`
	Period string `json:"period"`
	Used   int    `json:"used"`
	Limit  *int   `json:"limit"` // nil: unmetered
}

// OrgUpdate holds optional changes to an organization's settings.
type OrgUpdate struct {
	Name                   *string
	Catalog                *string
	SharePeriod            *time.Duration
	RequireVerifiedTargets *bool
}
