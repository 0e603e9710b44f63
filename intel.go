package sentinel

import "time"

// IntelAdvisory is one stored OSV record.
type IntelAdvisory struct {
	ID         string
	Modified   time.Time
	Withdrawn  bool
	Ecosystems []string
	Raw        []byte
}

// KEVEntry is one stored catalog entry.
type KEVEntry struct {
	CVE        string
	DateAdded  string
	Ransomware bool
	Raw        []byte
}

// IntelSync is the record of one sync.
type IntelSync struct {
	ID         int64     `json:"id"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	Status     string    `json:"status"` // ok or failed
	Sources    string    `json:"sources"`
	Stats      string    `json:"-"`
	Delta      string    `json:"-"`
	Error      string    `json:"error,omitempty"`
}
