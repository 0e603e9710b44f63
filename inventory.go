package sentinel

import "time"

// Submission is one SBOM submitted by an agent. Its original bytes are kept
// apart (SubmissionBody): Evidence Bundles sign exactly what the agent sent.
type Submission struct {
	ID    string `json:"id"`
	OrgID string `json:"-"`
	// Host is the host the SBOM describes: the submitting agent's
	// certificate names it.
	Host string `json:"host"`
	// ClaimedHost is another host name the request or the SBOM claimed
	// (kept as evidence, never used as the host).
	ClaimedHost string `json:"claimed_host,omitempty"`
	// Asset is the SBOM's metadata.component ("name" or "name@version").
	Asset        string `json:"asset,omitempty"`
	SpecVersion  string `json:"spec_version"`
	SerialNumber string `json:"serial_number,omitempty"`
	// ComponentCount is the number of components in the document, nested
	// ones included; IndexedCount the number of distinct inventory rows.
	ComponentCount int   `json:"component_count"`
	IndexedCount   int   `json:"indexed_count"`
	Size           int64 `json:"size"`
	// SHA256 is the hex SHA-256 of the original bytes.
	SHA256    string    `json:"sha256"`
	AgentID   string    `json:"agent_id,omitempty"`
	KeyID     string    `json:"key_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// InventoryItem is one component of a submission as the inventory indexes
// it. Name is the search key (InventoryKey); Ecosystem is the OSV ecosystem
// without release suffix, or "" when the component has no usable purl.
type InventoryItem struct {
	Purl      string `json:"purl"`
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Version   string `json:"version"`
	// Development is set when the submission marks the component as
	// needed only for development (Component.Development): every listing
	// of it there does.
	Development bool `json:"development,omitempty"`
}

// Component is the item as a component to match.
func (it InventoryItem) Component() Component {
	return Component{Purl: it.Purl, Ecosystem: it.Ecosystem, Name: it.Name, Version: it.Version, Development: it.Development}
}

// Sighting is one component on one host in the inverted index.
type Sighting struct {
	Host      string
	Ecosystem string
	Name      string
	Version   string
	Purl      string
	FirstSeen time.Time
	LastSeen  time.Time
	// Occurrences is the number of submissions from the host that listed it.
	Occurrences      int
	LastSubmissionID string
}

// HostSummary is a component search's aggregate on one host.
type HostSummary struct {
	Host      string
	FirstSeen time.Time
	LastSeen  time.Time
	// Occurrences is the number of submissions from the host that listed a
	// matching component (summed over matching components).
	Occurrences int
	// Development is true when every matching component on the host is
	// there only for development, as its last submission said.
	Development bool
}

// ComponentSummary is a component search's aggregate for one matching
// component (ecosystem, version and purl) over every host.
type ComponentSummary struct {
	Ecosystem   string
	Version     string
	Purl        string
	FirstSeen   time.Time
	LastSeen    time.Time
	Occurrences int
	Hosts       int
}

// InventorySummary is the answer of SearchInventory.
type InventorySummary struct {
	// Hosts are sorted by host; at most maxHosts (Truncated tells).
	Hosts      []HostSummary
	HostCount  int
	Components []ComponentSummary
}

// DependencyEdge is one edge of a submission's dependency graph (migration 0007):
// the component whose purl is From depends on the one whose purl is To.
// Both are purls as the submission's inventory rows keep them.
type DependencyEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// PackageRef names a package as the inventory keys it: the base OSV
// ecosystem ("PyPI", not "PyPI:3.11") and the ecosystem's normalised,
// lower-cased name.
type PackageRef struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
}

// Live source kinds: where a host's current components come from.
const (
	SourceSBOM = "sbom" // the host's newest SBOM submission
	SourceScan = "scan" // the site's newest reachable scan
)

// LiveComponent is one component of a host's live source: the newest
// submission of an agent's host, or the newest reachable scan of a site.
type LiveComponent struct {
	Host     string
	SourceID string
	Kind     string // SourceSBOM or SourceScan
	InventoryItem
}

// EcosystemCount is how much of an organization's inventory is in one
// ecosystem: its distinct components (name and version) and the hosts
// they were seen on. Ecosystem "" counts the components without a purl
// that names an ecosystem.
type EcosystemCount struct {
	Ecosystem  string `json:"ecosystem"`
	Components int    `json:"components"`
	Hosts      int    `json:"hosts"`
}
