package edge

import (
	"regexp"
	"slices"
	"strings"
	"time"
)

// Action is what the edge did with the request.
type Action string

// Actions. The distinction that matters for risk is whether the request
// reached the application: a blocked request did not; a detected one (a
// rule matched, but the WAF only logged it: DetectionOnly mode, or an
// anomaly score under the blocking threshold) and an allowed one did.
const (
	ActionBlocked  Action = "blocked"
	ActionDetected Action = "detected"
	ActionAllowed  Action = "allowed"
)

// Reached reports whether a request with this action reached the
// application behind the edge.
func (a Action) Reached() bool { return a == ActionDetected || a == ActionAllowed }

func (a Action) valid() bool {
	return a == ActionBlocked || a == ActionDetected || a == ActionAllowed
}

// Severity is an observation's severity, on the finding scale.
type Severity string

// Severities. ModSecurity's syslog levels map onto them: EMERGENCY, ALERT
// and CRITICAL are critical, ERROR high, WARNING medium, NOTICE low, INFO
// and DEBUG info.
const (
	SeverityCritical Severity = "critical"
	SeverityHigh     Severity = "high"
	SeverityMedium   Severity = "medium"
	SeverityLow      Severity = "low"
	SeverityInfo     Severity = "info"
)

func (s Severity) rank() int {
	switch s {
	case SeverityCritical:
		return 5
	case SeverityHigh:
		return 4
	case SeverityMedium:
		return 3
	case SeverityLow:
		return 2
	case SeverityInfo:
		return 1
	}
	return 0
}

func (s Severity) valid() bool { return s.rank() > 0 }

// Observation is one request of adversary traffic as an edge network or a
// WAF saw it, whatever the input format.
type Observation struct {
	// Time is when the edge saw the request, in UTC.
	Time time.Time `json:"time"`
	// Host is the targeted host name, lower case, without a port.
	Host string `json:"host"`
	// Path is the request path as sent (percent-encoded), without the
	// query; Query is the query string without "?".
	Path  string `json:"path"`
	Query string `json:"query,omitempty"`
	// Method is the request method, upper case.
	Method string `json:"method,omitempty"`
	// Source is the client address (IPv4 or IPv6) as the edge saw it.
	Source string `json:"source"`
	// UserAgent is the request's User-Agent, if the input has it.
	UserAgent string `json:"user_agent,omitempty"`
	// Status is the response status the client got, 0 when unknown.
	Status int `json:"status,omitempty"`
	// RuleID and Message are the rule or signature that best describes
	// the request: for a WAF log with several matching rules, the most
	// severe attack rule (see Rules for all of them).
	RuleID  string `json:"rule_id,omitempty"`
	Message string `json:"message,omitempty"`
	// Rules are every rule that matched, in the order the WAF logged them.
	Rules []RuleMatch `json:"rules,omitempty"`
	// CVEs and CWEs are the vulnerability and weakness ids the input names
	// or the rules imply (see the package comment), upper case, sorted.
	CVEs []string `json:"cves,omitempty"`
	CWEs []string `json:"cwes,omitempty"`
	// Tags are the rules' tags, deduplicated, in order of appearance.
	Tags     []string `json:"tags,omitempty"`
	Action   Action   `json:"action"`
	Severity Severity `json:"severity,omitempty"`
	// Attacks are the attack classes the tags name (sqli, xss, rce, lfi,
	// rfi, php, java, nodejs, protocol, ...), sorted.
	Attacks []string `json:"attacks,omitempty"`
	// Technologies are the platform and language hints of the tags
	// (java, php, unix, windows, iis, ...), sorted. Hints only: they never
	// correlate on their own.
	Technologies []string `json:"technologies,omitempty"`
	// Signatures name the known attacks the mapping table recognised
	// ("log4shell", "shellshock", ...), sorted; see crs.go.
	Signatures []string `json:"signatures,omitempty"`
	// Packages are the components those known attacks target, as purls
	// without version ("pkg:maven/org.apache.logging.log4j/log4j-core").
	Packages []string `json:"packages,omitempty"`
	// Producer names the sensor ("ModSecurity for Apache/2.9.7;
	// OWASP_CRS/3.3.4", or the batch's own).
	Producer string `json:"producer,omitempty"`
	// TransactionID is the sensor's id of the request, if any.
	TransactionID string `json:"transaction_id,omitempty"`
}

// RuleMatch is one rule that matched a request.
type RuleMatch struct {
	ID       string   `json:"id"`
	Message  string   `json:"message,omitempty"`
	Severity Severity `json:"severity,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	// Data is the rule's matched data, truncated to maxData bytes.
	Data string `json:"data,omitempty"`
}

// Field limits. The documented JSON format refuses longer values; the
// ModSecurity reader truncates them, since a WAF log is what it is.
const (
	maxHost      = 253
	maxPath      = 4096
	maxQuery     = 4096
	maxUserAgent = 1024
	maxMessage   = 1024
	maxData      = 1024
	maxRuleID    = 64
	maxTag       = 128
	maxTags      = 64
	maxRules     = 64
	maxIDs       = 64
)

var (
	cveRE = regexp.MustCompile(`(?i)\bCVE-(\d{4})-(\d{4,7})\b`)
	cweRE = regexp.MustCompile(`(?i)\bCWE-(\d{1,5})\b`)
)

// findCVEs returns the CVE ids in s, upper case.
func findCVEs(s string) []string {
	if !containsID(s, "cve") {
		return nil
	}
	var out []string
	for _, m := range cveRE.FindAllStringSubmatch(s, maxIDs) {
		out = append(out, "CVE-"+m[1]+"-"+m[2])
	}
	return out
}

// findCWEs returns the CWE ids in s, upper case.
func findCWEs(s string) []string {
	if !containsID(s, "cwe") {
		return nil
	}
	var out []string
	for _, m := range cweRE.FindAllStringSubmatch(s, maxIDs) {
		out = append(out, "CWE-"+strings.TrimLeft(m[1], "0"))
	}
	return out
}

// sortedSet returns the distinct non-empty values of s, sorted.
func sortedSet(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := slices.Clone(s)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// truncate cuts s to at most n bytes at a UTF-8 boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// normalizeHost lower-cases a Host header value and removes its port and
// a trailing dot.
func normalizeHost(h string) string {
	h = strings.TrimSpace(strings.ToLower(h))
	if strings.HasPrefix(h, "[") { // [::1]:443
		if i := strings.IndexByte(h, ']'); i > 0 {
			return h[1:i]
		}
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 && strings.Count(h, ":") == 1 {
		h = h[:i]
	}
	return strings.TrimSuffix(h, ".")
}

// containsID reports whether s may hold an id with prefix (a lower-case
// "cve" or "cwe"): the prefix in any case, then "-". It looks only at the
// dashes, so that the regular expressions behind it run on text that can
// match, and allocates nothing.
func containsID(s, prefix string) bool {
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '-')
		if j < 0 {
			return false
		}
		j += i
		if j >= len(prefix) && strings.EqualFold(s[j-len(prefix):j], prefix) {
			return true
		}
		i = j + 1
	}
}

// plausibleTime reports whether t, in UTC, falls in the years 1970 to
// 9999: an observation's time is stored, compared and written as JSON
// (which refuses years outside 0 to 9999), and no edge saw traffic before
// 1970.
func plausibleTime(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 1970 && y <= 9999
}
