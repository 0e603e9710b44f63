package sentinel

import (
	"encoding/json"
	"time"
)

// Scan statuses: queued (accepted into the queue), running, and the three
// final ones. Every transition emits the scan.* event of the same name
// (scan.started for running).
const (
	ScanQueued    = "queued"
	ScanRunning   = "running"
	ScanCompleted = "completed"
	ScanFailed    = "failed"
	ScanCanceled  = "canceled"
)

// Evidence kinds: the seven signals of external detection.
const (
	EvidenceHash        = "hash"        // SHA-1 of a fetched asset found in the known catalog
	EvidencePath        = "path"        // a versioned file name or CDN path
	EvidenceFingerprint = "fingerprint" // a web-technology fingerprint rule, a version banner in a file
	EvidenceGenerator   = "generator"   // <meta name="generator">, a feed's generator
	EvidenceHeader      = "header"      // Server, X-Powered-By, X-Generator, ...
	EvidenceCookie      = "cookie"      // a session cookie's name
	EvidenceCMSPath     = "cms_path"    // a well-known CMS path that answered
)

// Confidence of a detection, 0 to 100: the strongest evidence decides. A
// catalog hash names the exact file; a banner or versioned path names the
// version the file claims; a generator or header names what the server
// claims; a rule without a version says only that the product is there.
const (
	ConfidenceHash      = 100
	ConfidenceBanner    = 80 // a version banner inside the file, a versioned path
	ConfidenceGenerator = 60 // generator meta, a response header with a version
	ConfidenceProduct   = 40 // a rule, a cookie or a path that names no version
)

// Detection is one product (at one version, or at an unknown version) that
// an external scan found on a site, with every piece of evidence for it.
// One site can load several versions of a product: each is a Detection.
type Detection struct {
	// Name is the product as people call it ("jQuery", "WordPress").
	Name string `json:"name"`
	// Version is empty when no evidence carries one; it is never guessed.
	Version string `json:"version"`
	// Purl names the component in an ecosystem with advisories
	// ("pkg:npm/jquery@3.6.1"); empty when there is none or no version.
	Purl string `json:"purl"`
	// Confidence is the strongest evidence's (Confidence* constants).
	Confidence int `json:"confidence"`
	// Categories are the technology categories ("JavaScript libraries", "CMS").
	Categories []string `json:"categories,omitempty"`
	// CPE is the product's CPE 2.3 name where the rule set knows it.
	CPE string `json:"cpe,omitempty"`
	// Distribution names the operating system distribution whose build of
	// the product the server announces ("Ubuntu" for "Apache/2.4.41
	// (Ubuntu)" or "PHP/7.4.3-4ubuntu2.19"), or whose build a served
	// file is ("Debian" for a hash only a Debian package's copy has, such
	// as libjs-jquery's or WordPress's as Debian packages it). A distribution backports
	// security fixes without changing the upstream version, so advisories
	// matched on that version may already be fixed there: the host's own
	// package list (an agent SBOM) decides.
	Distribution string              `json:"distribution,omitempty"`
	Evidence     []DetectionEvidence `json:"evidence"`
}

// MarshalJSON writes an empty Version or Purl as null, as the API promises.
func (d Detection) MarshalJSON() ([]byte, error) {
	type plain Detection
	return json.Marshal(struct {
		plain
		Version *string `json:"version"`
		Purl    *string `json:"purl"`
	}{plain(d), nullable(d.Version), nullable(d.Purl)})
}

// UnmarshalJSON reads null Version and Purl as empty strings.
func (d *Detection) UnmarshalJSON(b []byte) error {
	type plain Detection
	var v struct {
		plain
		Version *string `json:"version"`
		Purl    *string `json:"purl"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*d = Detection(v.plain)
	if v.Version != nil {
		d.Version = *v.Version
	}
	if v.Purl != nil {
		d.Purl = *v.Purl
	}
	return nil
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// DetectionEvidence is one observation behind a detection.
type DetectionEvidence struct {
	// Kind is one of the Evidence* constants.
	Kind string `json:"kind"`
	// URL is the page, asset or probed path the observation was made on.
	URL string `json:"url"`
	// Detail is the matched text or hash ("sha1:...", "X-Powered-By: PHP/8.2.7").
	Detail string `json:"detail"`
	// Version is the version this observation alone names, if any.
	Version string `json:"version,omitempty"`
}

// ScanStats are what one crawl did, for the operator and for tuning limits.
type ScanStats struct {
	Pages    int   `json:"pages"`
	Assets   int   `json:"assets"`
	Requests int   `json:"requests"`
	Bytes    int64 `json:"bytes"`
	// Truncated names the limits the crawl reached ("pages", "depth",
	// "bytes", "time"), empty when it saw the whole site.
	Truncated []string `json:"truncated,omitempty"`
	Duration  float64  `json:"duration_seconds"`
	// Reachable is false when the site could not be reached at all;
	// Unreachable then says why.
	Reachable   bool   `json:"reachable"`
	Unreachable string `json:"unreachable,omitempty"`
}

// Scan is one external scan of one site.
type Scan struct {
	ID         string      `json:"id"`
	OrgID      string      `json:"-"`
	AssetID    string      `json:"asset_id"`
	Target     string      `json:"target"`
	Status     string      `json:"status"`
	Error      string      `json:"error,omitempty"`
	Detections []Detection `json:"detections"`
	// Findings counts the findings this scan created or kept open.
	Findings   int        `json:"findings"`
	Stats      *ScanStats `json:"stats,omitempty"`
	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	// Scheduled is true for a scan the asset's schedule started.
	Scheduled bool `json:"scheduled"`
	// Slot is the concurrency-cap slot the scan holds while queued or
	// running (the slot's lease name; the scan id is its holder).
	Slot string `json:"-"`
}
