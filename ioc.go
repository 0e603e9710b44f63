package sentinel

import "time"

// Indicator statuses. A draft is only dry-run; an applied indicator makes
// findings of its matches and keeps standing for every later submission
// and scan; an archived one matches nothing any more.
const (
	IOCDraft    = "draft"
	IOCApplied  = "applied"
	IOCArchived = "archived"
)

// IOC is a supply-chain indicator an operator defines: a package of an
// ecosystem and the versions of it that are bad (a range expression or a
// list, read with the ecosystem's version order).
type IOC struct {
	ID        string `json:"id"`
	OrgID     string `json:"-"`
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	// NameKey is the name as the inventory keys it.
	NameKey   string `json:"-"`
	Versions  string `json:"versions"`
	Reason    string `json:"reason"`
	Severity  string `json:"severity"`
	Reference string `json:"reference,omitempty"`
	// Malicious marks a package known to be malicious (not merely
	// vulnerable); its findings say so.
	Malicious  bool       `json:"malicious"`
	Status     string     `json:"status"`
	CreatedBy  string     `json:"created_by,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	AppliedAt  *time.Time `json:"applied_at,omitempty"`
	ArchivedAt *time.Time `json:"archived_at,omitempty"`
}
