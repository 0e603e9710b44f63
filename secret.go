package sentinel

import "time"

// PrefixSecret starts a secret's id (docs/design.md: "sec_").
const PrefixSecret = "sec_"

// CWEHardcodedCredentials is the weakness class of an exposed secret
// (CWE-798: use of hard-coded credentials).
const CWEHardcodedCredentials = "CWE-798"

// Secret statuses: what the service knows of whether a secret still works.
const (
	// SecretPending: verifiable, not checked yet (or checked without an
	// answer, and retried); the service holds the encrypted value.
	SecretPending = "pending"
	// SecretActive: the provider accepted the credential.
	SecretActive = "active"
	// SecretInactive: the provider refused it (revoked, expired, never
	// issued).
	SecretInactive = "inactive"
	// SecretUnverifiable: no provider check exists for it (a private key,
	// a generic password, an AWS key id found without its secret key).
	SecretUnverifiable = "unverifiable"
	// SecretUnknown: the checks never got an answer and the service gave
	// up; the value is gone.
	SecretUnknown = "unknown"
)

// ValidSecretStatus reports whether s is one of the secret statuses.
func ValidSecretStatus(s string) bool {
	switch s {
	case SecretPending, SecretActive, SecretInactive, SecretUnverifiable, SecretUnknown:
		return true
	}
	return false
}

// SecretLocation is where a secret was first found.
type SecretLocation struct {
	// File is slash-separated, relative to the scanned directory (or to
	// the repository's top level for a detection in git history).
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
	// Commit and CommitDate are set for a detection in git history.
	Commit     string `json:"commit,omitempty"`
	CommitDate string `json:"commit_date,omitempty"`
}

// Secret is one credential found by an agent, deduplicated per
// organization by its fingerprint. It never holds the value: the store
// keeps the value sealed, apart, and only until it has been verified.
type Secret struct {
	ID    string `json:"id"`
	OrgID string `json:"-"`
	// Fingerprint is the service's keyed fingerprint of the value
	// (HMAC-SHA256 under a per-deployment key, 128 bits, hex).
	Fingerprint string `json:"fingerprint"`
	// LocalFingerprint is the agent's fingerprint of the first sighting,
	// under the agent's own key: it matches the agent's local report.
	LocalFingerprint string `json:"local_fingerprint,omitempty"`
	RuleID           string `json:"rule"`
	Provider         string `json:"provider,omitempty"`
	// Redacted is the value's kind and length ("ghp_…(40)").
	Redacted string         `json:"redacted"`
	Location SecretLocation `json:"location"`
	// Host is the agent certificate's host name; Root the directory the
	// agent scanned.
	Host      string `json:"host"`
	Root      string `json:"root,omitempty"`
	AssetID   string `json:"asset_id"`
	FindingID string `json:"finding_id"`
	// Verifiable is true when a provider check exists for the secret.
	Verifiable bool   `json:"verifiable"`
	Status     string `json:"status"`
	// Identity is who the credential authenticates as, when its provider
	// said (a login, an account, an ARN).
	Identity     string     `json:"identity,omitempty"`
	VerifyReason string     `json:"verify_reason,omitempty"`
	VerifiedAt   *time.Time `json:"verified_at,omitempty"`
	// VerifyAttempts counts the provider checks made.
	VerifyAttempts int `json:"verify_attempts"`
	// ValueHeld is true while the service holds the encrypted value (until
	// the secret is verified or the checks are given up).
	ValueHeld bool      `json:"value_held"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	UpdatedAt time.Time `json:"updated_at"`
}

// SecretFilter selects an organization's secrets; empty fields do not
// filter.
type SecretFilter struct {
	OrgID    string
	Status   string
	Provider string
	Host     string
	Page     Page
}

// EdgeWindow is the edge correlation state of one finding: the window of
// adversary traffic that matched it (see package edge's State).
type EdgeWindow struct {
	FindingID   string
	OrgID       string
	WindowStart time.Time
	// Count is the matching observations in the window; Total over all
	// windows.
	Count int
	// Reached is true once a request in the window reached the
	// application.
	Reached  bool
	LastSeen time.Time
	Total    int
	// Boost is the risk score edge traffic has added to the finding in
	// all; reconciliation keeps it on top of the advisory's risk.
	Boost int
}
