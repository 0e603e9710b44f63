package sentinel

import "time"

// AuditFilter selects audit entries of one organization inside [Since, Until).
type AuditFilter struct {
	OrgID  string
	Since  time.Time
	Until  time.Time
	Action string // optional exact action
	Target string // optional exact target (an id)
	Page   Page
}
