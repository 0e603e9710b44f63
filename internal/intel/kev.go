package intel

import (
	"fmt"
	"io"
	"strings"

	jsonv1 "github.com/go-json-experiment/json/v1"
)

// KEVCatalog is the CISA Known Exploited Vulnerabilities catalog in its
// published feed format (known_exploited_vulnerabilities.json).
type KEVCatalog struct {
	Title           string     `json:"title"`
	CatalogVersion  string     `json:"catalogVersion"`
	DateReleased    string     `json:"dateReleased"`
	Count           int        `json:"count"`
	Vulnerabilities []KEVEntry `json:"vulnerabilities"`

	// Raw is the catalog as it was read, for snapshots.
	Raw []byte `json:"-"`
}

// KEVEntry is one catalog entry. Dates are YYYY-MM-DD as published.
type KEVEntry struct {
	CVEID             string `json:"cveID"`
	VendorProject     string `json:"vendorProject"`
	Product           string `json:"product"`
	VulnerabilityName string `json:"vulnerabilityName"`
	DateAdded         string `json:"dateAdded"`
	ShortDescription  string `json:"shortDescription"`
	RequiredAction    string `json:"requiredAction"`
	DueDate           string `json:"dueDate"`
	// KnownRansomwareCampaignUse is "Known" or "Unknown".
	KnownRansomwareCampaignUse string   `json:"knownRansomwareCampaignUse"`
	Notes                      string   `json:"notes"`
	CWEs                       []string `json:"cwes,omitempty"`
}

// Ransomware reports whether CISA lists known ransomware campaign use.
func (e KEVEntry) Ransomware() bool {
	return strings.EqualFold(e.KnownRansomwareCampaignUse, "Known")
}

// DecodeKEV reads a KEV catalog. Entries without a cveID are dropped.
func DecodeKEV(r io.Reader) (*KEVCatalog, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read kev catalog: %w", err)
	}
	var c KEVCatalog
	// The v1-compatible decoder of go-json-experiment: encoding/json's
	// rules, three times as fast; the catalog is read on every offline
	// gate run.
	if err := jsonv1.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("decode kev catalog: %w", err)
	}
	kept := c.Vulnerabilities[:0]
	for _, v := range c.Vulnerabilities {
		if v.CVEID = strings.TrimSpace(v.CVEID); v.CVEID != "" {
			kept = append(kept, v)
		}
	}
	c.Vulnerabilities = kept
	c.Raw = data
	return &c, nil
}

// Lookup returns a map from CVE id to entry. When an id appears twice the
// earlier dateAdded wins.
func (c *KEVCatalog) Lookup() map[string]KEVEntry {
	if c == nil {
		return nil
	}
	m := make(map[string]KEVEntry, len(c.Vulnerabilities))
	for _, v := range c.Vulnerabilities {
		if old, ok := m[v.CVEID]; ok && old.DateAdded <= v.DateAdded {
			continue
		}
		m[v.CVEID] = v
	}
	return m
}
