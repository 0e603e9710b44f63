package sentinel

import "time"

// EvidenceSubmission is one SBOM submission with the agent's original bytes.
type EvidenceSubmission struct {
	ID         string // "sub_..."
	Host       string
	ReceivedAt time.Time
	Original   []byte // exactly what the agent sent
}

// EvidenceComponent is one current component of the inventory on one asset.
type EvidenceComponent struct {
	Purl      string
	Name      string
	Version   string
	Type      string // CycloneDX component type; "" means library
	Ecosystem string
	Asset     string   // host, repository or asset where it was found
	DependsOn []string // purls, where a dependency graph is known
	// Development is set when the asset's submission marks the component
	// as needed only for development.
	Development bool
}

// EvidenceChange is one component drift event.
type EvidenceChange struct {
	At           time.Time
	Change       string // "added", "removed" or "changed"
	Purl         string
	Name         string
	FromVersion  string
	ToVersion    string
	Asset        string
	SubmissionID string
}

// EvidenceFinding is one finding tied to a component.
type EvidenceFinding struct {
	ID           string // "fnd_..."
	Status       string // "open", "accepted", ...
	Category     string // "vulnerable_component"
	AdvisoryID   string
	Aliases      []string
	Purl         string
	Component    string // name
	Version      string
	Asset        string
	Severity     string // the risk band: critical, high, medium, low
	RiskScore    int
	KEV          bool
	CWE          string
	FixedVersion string
	Compliance   []string // control references of the primary catalog
	CreatedAt    time.Time
	SLADueAt     *time.Time
	// AcceptedReason and AcceptedUntil are set for accepted findings.
	AcceptedReason string
	AcceptedUntil  *time.Time
}
