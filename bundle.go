package sentinel

import "time"

// Bundle build states.
const (
	BundleBuilding = "building" // the durable build job has not finished
	BundleReady    = "ready"    // the zip is stored and can be downloaded
	BundleFailed   = "failed"   // the build gave up; BuildError says why
)

// Bundle share statuses, as the list operation reports them. They are
// derived, not stored: revoked wins over locked, locked over expired.
const (
	BundleActive  = "active"
	BundleExpired = "expired"
	BundleRevoked = "revoked"
	BundleLocked  = "locked"
)

// BundleArtifact is one signed file of a built bundle, as the share page
// lists it.
type BundleArtifact struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// Bundle is an Evidence Bundle and its share. The share token and the
// password are never stored: only the token's SHA-256 and the password's
// argon2id hash (PHC string).
type Bundle struct {
	ID             string
	OrgID          string
	Description    string
	Scope          []string
	WindowDays     int
	WindowStart    time.Time
	WindowEnd      time.Time
	TokenHash      []byte
	PasswordHash   string
	CreatedBy      string
	CreatedAt      time.Time
	ExpiresAt      time.Time
	RevokedAt      *time.Time
	LockedAt       *time.Time
	FailedAttempts int
	BuildState     string
	BuildError     string
	SHA256         string // of the whole zip, once built
	Size           int64  // of the whole zip, once built
	Artifacts      []BundleArtifact
	Identity       string // the signing identity of the built bundle
	Issuer         string // the OIDC issuer of the built bundle
	AccessCount    int
	LastAccessAt   *time.Time
}

// Status returns the share's status at now: revoked, locked, expired or
// active.
func (b *Bundle) Status(now time.Time) string {
	switch {
	case b.RevokedAt != nil:
		return BundleRevoked
	case b.LockedAt != nil:
		return BundleLocked
	case !now.Before(b.ExpiresAt):
		return BundleExpired
	}
	return BundleActive
}

// Access outcomes in a share's log.
const (
	AccessOpened          = "opened"            // the password page was shown
	AccessPasswordOK      = "password_accepted" // a session started
	AccessPasswordWrong   = "password_rejected"
	AccessLockedNow       = "locked"           // the wrong password that locked the share
	AccessRefusedLocked   = "refused_locked"   // any attempt on a locked share
	AccessRefusedExpired  = "refused_expired"  // any attempt after expires_at
	AccessRefusedRevoked  = "refused_revoked"  // any attempt after revocation
	AccessRefusedBadForm  = "refused_bad_form" // the form's anti-forgery token did not match
	AccessDownload        = "downloaded"
	AccessRefusedNotReady = "refused_not_ready" // download before the build finished
)

// BundleAccess is one entry of a share's access log.
type BundleAccess struct {
	ID        int64     `json:"id"`
	At        time.Time `json:"at"`
	Addr      string    `json:"address"`
	UserAgent string    `json:"user_agent"`
	Outcome   string    `json:"outcome"`
}
