package sentinel

import "time"

// AgentCA is a certificate authority of the agent listener: the
// deployment's agent server CA (Name ServerCAName) or an organization's
// agent CA (Name is the organization id). KeySealed is the PKCS#8 private
// key sealed with the master key; the store never sees it in the clear.
type AgentCA struct {
	Name  string
	OrgID string // "" for the server CA
	// Cert is the certificate, DER.
	Cert      []byte
	KeySealed []byte
	// SKI is the hex subject key id; a client certificate's authority key
	// id finds its CA by it.
	SKI string
	// Fingerprint is the hex SHA-256 of Cert.
	Fingerprint string
	CreatedAt   time.Time
}

// EnrollmentToken is a one-time enrollment token's stored record; the
// secret itself is stored only as its SHA-256.
type EnrollmentToken struct {
	ID        string     `json:"id"`
	OrgID     string     `json:"-"`
	Hash      []byte     `json:"-"`
	CreatedBy string     `json:"created_by"`
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt time.Time  `json:"expires_at"`
	UsedAt    *time.Time `json:"used_at,omitempty"`
	AgentID   string     `json:"agent_id,omitempty"`
}

// Agent is an enrolled agent: one issued client certificate.
type Agent struct {
	ID    string `json:"id"`
	OrgID string `json:"-"`
	// Host is the certificate's common name, the host the agent enrolled from.
	Host string `json:"host"`
	// Serial is the certificate's serial number, hex.
	Serial string `json:"serial"`
	// Fingerprint is the hex SHA-256 of the certificate.
	Fingerprint string     `json:"fingerprint"`
	TokenID     string     `json:"token_id"`
	Addr        string     `json:"addr,omitempty"`
	NotAfter    time.Time  `json:"not_after"`
	CreatedAt   time.Time  `json:"created_at"`
	RevokedAt   *time.Time `json:"revoked_at,omitempty"`
}

// ErrTokenInvalid is the one answer for an unknown, used or expired
// enrollment token: the caller learns nothing about which.
var ErrTokenInvalid = Errorf(EUNAUTHORIZED, "the enrollment token is unknown, already used or expired; create a new one with: sentineld admin create-enrollment-token --org <slug>")

// ValidHost reports whether s can be a host's name as agents report it (the
// client certificate's common name and the inventory's host): 1 to 253
// printable ASCII characters without spaces, slashes, quotes or angle
// brackets.
func ValidHost(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '/' || c == '\\' || c == '"' || c == '\'' || c == '<' || c == '>' {
			return false
		}
	}
	return true
}
