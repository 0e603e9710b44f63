package scan

import (
	"runtime"
	"time"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/scan/catalog"
)

// Config bounds one scan. Zero fields take the value of [DefaultConfig].
type Config struct {
	// MaxPages is the number of HTML pages of the site fetched (the
	// homepage included; CMS probes and feeds are not pages).
	MaxPages int
	// MaxDepth is how many links away from the homepage the crawl goes;
	// zero takes the default, a negative value means the homepage only.
	MaxDepth int
	// MaxAssets is the number of scripts and style sheets fetched.
	MaxAssets int
	// Concurrency is the number of requests in flight at once.
	Concurrency int
	// Analysis is how many fetched pages and assets are analysed at once
	// (HTML parsing, hashing, banners, fingerprint rules: the CPU work of a
	// scan) over all the scans of one Scanner. Zero means GOMAXPROCS-1, at
	// least 1: however many scans run at once, they leave a core to the
	// rest of the process (the API). A scan holds at most twice
	// Concurrency responses fetched and waiting for analysis.
	Analysis int
	// MaxResponseBytes is how much of one response body is read; the rest
	// is left unread and what was read is analysed.
	MaxResponseBytes int64
	// MaxTotalBytes bounds the bytes read over the whole scan.
	MaxTotalBytes int64
	// Timeout bounds the whole scan; what was found by then is returned.
	Timeout time.Duration
	// RequestTimeout bounds one request, body included.
	RequestTimeout time.Duration
	// UserAgent is sent with every request.
	UserAgent string
	// Policy is the SSRF guard's policy; every connection is checked by
	// netguard. Policy.AllowPrivate is for tests and on-premise installs.
	Policy netguard.Policy
	// Catalog is the known-file catalog; nil means catalog.Default().
	Catalog *catalog.Catalog
	// NoProbes turns off the well-known CMS path probes.
	NoProbes bool
	// Progress, when set, is called with the running statistics after
	// each response. It must be quick and safe for concurrent use.
	Progress func(sentinel.ScanStats)
}

// DefaultConfig returns the limits a scan runs with unless told otherwise:
// 50 pages, depth 3, 200 assets, 4 requests in flight, 8 MiB per response
// (an application's bundle or source map is often 3 to 6 MB, with the
// libraries' banners anywhere in it), 64 MiB in all, 2 minutes in all and
// 15 s per request; Analysis is left zero (GOMAXPROCS-1 when the Scanner
// is made).
func DefaultConfig() Config {
	return Config{
		MaxPages:         50,
		MaxDepth:         3,
		MaxAssets:        200,
		Concurrency:      4,
		MaxResponseBytes: 8 << 20,
		MaxTotalBytes:    64 << 20,
		Timeout:          2 * time.Minute,
		RequestTimeout:   15 * time.Second,
		UserAgent:        "Mozilla/5.0 (compatible; SentinelScan/1.0; +https://sentinel.invalid/scan)",
	}
}

// withDefaults fills zero fields from DefaultConfig.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.MaxPages <= 0 {
		c.MaxPages = d.MaxPages
	}
	if c.MaxDepth < 0 {
		c.MaxDepth = 0
	} else if c.MaxDepth == 0 {
		c.MaxDepth = d.MaxDepth
	}
	if c.MaxAssets <= 0 {
		c.MaxAssets = d.MaxAssets
	}
	if c.Concurrency <= 0 {
		c.Concurrency = d.Concurrency
	}
	if c.Analysis <= 0 {
		c.Analysis = max(1, runtime.GOMAXPROCS(0)-1)
	}
	if c.MaxResponseBytes <= 0 {
		c.MaxResponseBytes = d.MaxResponseBytes
	}
	if c.MaxTotalBytes <= 0 {
		c.MaxTotalBytes = d.MaxTotalBytes
	}
	if c.Timeout <= 0 {
		c.Timeout = d.Timeout
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = d.RequestTimeout
	}
	if c.UserAgent == "" {
		c.UserAgent = d.UserAgent
	}
	return c
}

// Result is what one scan found.
type Result struct {
	// Target is the URL the scan was asked to scan.
	Target string `json:"target"`
	// FinalURL is the homepage after redirects within the site; the crawl
	// stays on its origin.
	FinalURL string `json:"final_url,omitempty"`
	// Reachable is false when the homepage could not be fetched at all.
	Reachable bool `json:"reachable"`
	// Unreachable says why, in one sentence safe to show the operator
	// (a refused address is named by kind, never by value).
	Unreachable string `json:"unreachable,omitempty"`
	// Detections are sorted by name, then version.
	Detections []sentinel.Detection `json:"detections"`
	// Stats.Truncated names the limits reached: "pages", "depth",
	// "assets", "response_bytes" (some response was longer than
	// MaxResponseBytes), "bytes" (MaxTotalBytes) and "time" (Timeout).
	Stats sentinel.ScanStats `json:"stats"`
}
