package edge

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// FindingRef is what correlation needs to know of one open finding of the
// targeted asset.
type FindingRef struct {
	ID      string `json:"id"`
	AssetID string `json:"asset_id"`
	// AdvisoryID and Aliases name the vulnerability (OSV id, CVE, GHSA).
	AdvisoryID string   `json:"advisory_id"`
	Aliases    []string `json:"aliases,omitempty"`
	// Purl is the vulnerable component, with or without its version.
	Purl string `json:"purl"`
	CWE  string `json:"cwe,omitempty"`
	// Locations are where the component was found: manifest and file paths
	// from an SBOM, and URLs from an external scan's evidence.
	Locations   []string `json:"locations,omitempty"`
	RiskScore   int      `json:"risk_score"`
	Criticality string   `json:"criticality,omitempty"`
}

// ReasonKind says why an observation is relevant to a finding.
type ReasonKind string

// Reasons, strongest first.
const (
	// ReasonCVE: the observation names the finding's vulnerability (its
	// advisory id or an alias), or matches a known attack on it.
	ReasonCVE ReasonKind = "cve"
	// ReasonTechnology: the observation matches a known attack (see the
	// signature table in crs.go) on the finding's component.
	ReasonTechnology ReasonKind = "technology"
	// ReasonPath: the request went to where the component is served.
	ReasonPath ReasonKind = "path"
)

// Reason is one reason an observation is relevant to a finding.
type Reason struct {
	Kind ReasonKind `json:"kind"`
	// Value is what matched: a vulnerability id, a package, a path.
	Value string `json:"value"`
	// Detail says it in a sentence.
	Detail string `json:"detail"`
}

// Match is a finding an observation is relevant to, and why.
type Match struct {
	FindingID string   `json:"finding_id"`
	AssetID   string   `json:"asset_id"`
	Reasons   []Reason `json:"reasons"`
}

// Correlator matches observations against the open findings of one asset.
// Build it once per asset and call Match for each observation; it is safe
// for concurrent use.
type Correlator struct {
	findings []prepared
}

type prepared struct {
	ref   FindingRef
	ids   map[string]bool // advisory id and aliases, upper case
	pkg   *pkgID
	roots []string // web path roots, lower case, ending in "/"
	files []string // exact web paths, lower case
}

type pkgID struct{ typ, namespace, name string }

func parsePkg(s string) *pkgID {
	u, err := purl.Parse(s)
	if err != nil {
		return nil
	}
	return &pkgID{typ: strings.ToLower(u.Type), namespace: strings.ToLower(u.Namespace), name: strings.ToLower(u.Name)}
}

// covers reports whether a signature's package pattern (namespace "*"
// for any) names the finding's package.
func (pattern *pkgID) covers(p *pkgID) bool {
	return pattern.typ == p.typ && pattern.name == p.name && (pattern.namespace == "*" || pattern.namespace == p.namespace)
}

// NewCorrelator prepares findings for matching.
func NewCorrelator(findings []FindingRef) *Correlator {
	c := &Correlator{findings: make([]prepared, 0, len(findings))}
	for _, f := range findings {
		p := prepared{ref: f, ids: map[string]bool{}}
		for _, id := range append([]string{f.AdvisoryID}, f.Aliases...) {
			if id = strings.ToUpper(strings.TrimSpace(id)); id != "" {
				p.ids[id] = true
			}
		}
		p.pkg = parsePkg(f.Purl)
		p.roots = append(p.roots, purlRoots(p.pkg)...)
		for _, loc := range f.Locations {
			r, file := locationPaths(loc)
			p.roots = append(p.roots, r...)
			if file != "" {
				p.files = append(p.files, file)
			}
		}
		p.roots = sortedSet(p.roots)
		p.files = sortedSet(p.files)
		c.findings = append(c.findings, p)
	}
	return c
}

// Correlate is NewCorrelator(findings).Match(o), for one observation.
func Correlate(o *Observation, findings []FindingRef) []Match {
	return NewCorrelator(findings).Match(o)
}

// Match returns the findings o is relevant to, in the order given, each
// with every reason that applies. An observation whose only link to a
// finding is an attack class (SQL injection traffic, a finding about an
// injectable package) or a technology hint (a language-php tag, a
// Composer package) matches nothing: see the package comment.
func (c *Correlator) Match(o *Observation) []Match {
	var sigs []*signature
	for _, name := range o.Signatures {
		for i := range signatures {
			if signatures[i].name == name {
				sigs = append(sigs, &signatures[i])
			}
		}
	}
	reqPaths := requestPaths(o.Path)
	var out []Match
	for i := range c.findings {
		f := &c.findings[i]
		var reasons []Reason
		for _, id := range o.CVEs {
			if f.ids[id] {
				reasons = append(reasons, Reason{Kind: ReasonCVE, Value: id,
					Detail: "the request names " + id + ", the finding's vulnerability"})
			}
		}
		for _, sig := range sigs {
			for _, id := range sig.cves {
				if f.ids[id] && !slices.Contains(o.CVEs, id) {
					reasons = append(reasons, Reason{Kind: ReasonCVE, Value: id,
						Detail: "the request matches the " + sig.name + " attack on " + id + ", the finding's vulnerability"})
				}
			}
		}
		if f.pkg != nil {
			for _, sig := range sigs {
				for j := range sig.patterns {
					if sig.patterns[j].covers(f.pkg) {
						p := sig.packages[j]
						reasons = append(reasons, Reason{Kind: ReasonTechnology, Value: p,
							Detail: "the request matches the " + sig.name + " attack, which targets " + p})
						break
					}
				}
			}
		}
		if r, ok := f.pathReason(reqPaths); ok {
			reasons = append(reasons, r)
		}
		if len(reasons) > 0 {
			out = append(out, Match{FindingID: f.ref.ID, AssetID: f.ref.AssetID, Reasons: reasons})
		}
	}
	return out
}

func (f *prepared) pathReason(reqPaths []string) (Reason, bool) {
	for _, rp := range reqPaths {
		for _, root := range f.roots {
			if strings.HasPrefix(rp, root) || rp+"/" == root {
				return Reason{Kind: ReasonPath, Value: root,
					Detail: "the request went to " + root + ", where the component is served"}, true
			}
		}
		for _, file := range f.files {
			if rp == file {
				return Reason{Kind: ReasonPath, Value: file,
					Detail: "the request went to " + file + ", a file of the component"}, true
			}
		}
	}
	return Reason{}, false
}

// requestPaths returns the forms of a request path to compare with
// component paths, lower case: percent-decoded as the attacker wrote it,
// and with dot segments resolved as the server routes it. Both count: a
// traversal out of a plugin's directory was still aimed at the plugin.
func requestPaths(p string) []string {
	if p == "" {
		return nil
	}
	dec := p
	if u, err := url.PathUnescape(p); err == nil {
		dec = u
	}
	dec = strings.ToLower(dec)
	clean := path.Clean("/" + dec)
	if strings.HasSuffix(dec, "/") && clean != "/" {
		clean += "/"
	}
	if clean == dec {
		return []string{dec}
	}
	return []string{dec, clean}
}

// wellKnownRoot finds the directory of a plugin, theme or module in a path
// (a URL's or a file's): WordPress plugins and themes, Drupal modules and
// themes. The directory, not the whole site, is where the component lives.
var wellKnownRoot = regexp.MustCompile(`(?i)/(wp-content/(?:plugins|themes|mu-plugins)/[a-z0-9._-]+/|(?:sites/all/|web/)?(?:modules|themes)/contrib/[a-z0-9_]+/)`)

// locationPaths returns the web roots and the exact web file a location
// gives. Any location inside a well-known plugin or module directory gives
// that directory (an agent's file path /var/www/html/wp-content/plugins/x/
// readme.txt gives /wp-content/plugins/x/); an http(s) URL also gives its
// path, as a root when it ends in "/", else as a file.
func locationPaths(loc string) (roots []string, file string) {
	p := loc
	isURL := strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://")
	if isURL {
		u, err := url.Parse(loc)
		if err != nil {
			return nil, ""
		}
		p = u.EscapedPath()
		if d, err := url.PathUnescape(p); err == nil {
			p = d
		}
	}
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	if m := wellKnownRoot.FindStringSubmatch(p); m != nil {
		roots = append(roots, "/"+m[1])
		if strings.Contains(m[1], "contrib/") {
			// Drupal serves contributed modules from /modules/contrib/
			// or /sites/all/modules/, whatever the file layout.
			name := path.Base(strings.TrimSuffix(m[1], "/"))
			kind := "modules"
			if strings.Contains(m[1], "themes/") {
				kind = "themes"
			}
			roots = append(roots, "/"+kind+"/contrib/"+name+"/", "/sites/all/"+kind+"/contrib/"+name+"/")
		}
	}
	if isURL && p != "" && p != "/" {
		if strings.HasSuffix(p, "/") {
			roots = append(roots, p)
		} else {
			file = p
		}
	}
	return roots, file
}

// purlRoots returns the web roots a component's purl implies: WordPress
// plugins and themes as WPackagist names them in Composer
// (pkg:composer/wpackagist-plugin/<slug>), and Drupal's contributed
// modules (pkg:composer/drupal/<module>).
func purlRoots(p *pkgID) []string {
	if p == nil || p.typ != "composer" {
		return nil
	}
	switch p.namespace {
	case "wpackagist-plugin":
		return []string{"/wp-content/plugins/" + p.name + "/"}
	case "wpackagist-muplugin":
		return []string{"/wp-content/mu-plugins/" + p.name + "/"}
	case "wpackagist-theme":
		return []string{"/wp-content/themes/" + p.name + "/"}
	case "drupal":
		switch p.name {
		case "core", "drupal", "recommended-project", "core-recommended", "legacy-project":
			return nil
		}
		return []string{"/modules/contrib/" + p.name + "/", "/sites/all/modules/" + p.name + "/", "/sites/all/modules/contrib/" + p.name + "/"}
	}
	return nil
}

// Policy says how edge traffic raises a finding's risk.
//
// Each window (24 hours by default) in which traffic matches a finding
// raises its risk score once: by Blocked points when every matching
// request in the window was blocked (an attempt, stopped), by Reached
// points when one reached the application (detected without blocking, or
// allowed), capped at Cap. Further matching requests in the same window
// are counted, not alerted; the one exception is a request that reaches
// the application after only blocked ones: it is alerted, and raises the
// score by the difference. The next matching request after the window
// closes opens a new window and raises the score again.
type Policy struct {
	Window  time.Duration
	Blocked int
	Reached int
	Cap     int
}

// DefaultPolicy: a 24-hour window, +10 for a blocked attempt, +20 for a
// request that reached the application, at most 100.
var DefaultPolicy = Policy{Window: 24 * time.Hour, Blocked: 10, Reached: 20, Cap: 100}

// State is the correlation state of one finding, which the caller stores
// between observations (as JSON, or in columns).
type State struct {
	// WindowStart is the time of the observation that opened the window.
	WindowStart time.Time `json:"window_start"`
	// Count is the number of matching observations in the window.
	Count int `json:"count"`
	// Reached is true once a request in the window reached the
	// application.
	Reached bool `json:"reached"`
	// LastSeen is the latest observation time.
	LastSeen time.Time `json:"last_seen"`
	// Total counts matching observations over all windows.
	Total int `json:"total"`
}

// Decision is what to do with one matching observation.
type Decision struct {
	// Emit is true when the caller sends edge.correlation_match (and
	// applies RiskScore); false when the observation is only counted.
	Emit bool
	// Count is the number of matching observations in the current
	// window, this one included.
	Count int
	// State replaces the stored state.
	State State
	// PreviousRiskScore is the score given; RiskScore the new one (equal
	// when Emit is false or the score was already at the cap).
	PreviousRiskScore int
	RiskScore         int
	// Escalated is true when RiskScore is in a higher band than
	// PreviousRiskScore: the caller also emits finding.escalated.
	Escalated bool
}

// Apply decides on one observation at time at, with action, matching a
// finding whose correlation state is prev (nil for none) and whose risk
// score is risk. Pass the observation's time, not the clock's, so that a
// batch replayed late is counted in the windows it happened in. An
// observation older than the current window is counted there and never
// alerted.
func (p Policy) Apply(prev *State, at time.Time, action Action, risk int) Decision {
	p = p.withDefaults()
	at = at.UTC()
	d := Decision{PreviousRiskScore: risk, RiskScore: risk}
	reached := action.Reached()
	switch {
	case prev == nil || !at.Before(prev.WindowStart.Add(p.Window)):
		d.State = State{WindowStart: at, Count: 1, Reached: reached, LastSeen: at}
		if prev != nil {
			d.State.Total = prev.Total
		}
		d.Emit = true
		if reached {
			d.RiskScore = risk + p.Reached
		} else {
			d.RiskScore = risk + p.Blocked
		}
	default:
		d.State = *prev
		d.State.Count++
		if at.After(d.State.LastSeen) {
			d.State.LastSeen = at
		}
		if reached && !prev.Reached && !at.Before(prev.WindowStart) {
			d.State.Reached = true
			d.Emit = true
			d.RiskScore = risk + p.Reached - p.Blocked
		}
	}
	d.State.Total++
	d.Count = d.State.Count
	d.RiskScore = min(max(d.RiskScore, risk), max(p.Cap, risk))
	d.Escalated = sentinel.BandRank(sentinel.Band(d.RiskScore)) > sentinel.BandRank(sentinel.Band(risk))
	return d
}

func (p Policy) withDefaults() Policy {
	if p.Window <= 0 {
		p.Window = DefaultPolicy.Window
	}
	if p.Cap <= 0 {
		p.Cap = DefaultPolicy.Cap
	}
	return p
}

// MatchEvent is the data of the edge.correlation_match event, which the
// specification leaves to Sentinel. It carries what a consumer needs to
// act (the finding, the traffic, why they are linked, the risk change) and
// no request content beyond the path: no query, headers or matched data,
// which can carry anything an attacker sent, credentials included.
type MatchEvent struct {
	FindingID         string           `json:"finding_id"`
	AssetID           string           `json:"asset_id"`
	Observation       ObservationBrief `json:"observation"`
	Reasons           []Reason         `json:"reasons"`
	Count             int              `json:"count"`
	WindowStart       time.Time        `json:"window_start"`
	WindowHours       int              `json:"window_hours"`
	RiskScore         int              `json:"risk_score"`
	PreviousRiskScore int              `json:"previous_risk_score"`
}

// ObservationBrief is the part of an observation an event carries.
type ObservationBrief struct {
	Time       time.Time `json:"time"`
	Host       string    `json:"host"`
	Path       string    `json:"path"`
	Method     string    `json:"method,omitempty"`
	Source     string    `json:"source"`
	RuleID     string    `json:"rule_id,omitempty"`
	Message    string    `json:"message,omitempty"`
	CVEs       []string  `json:"cves,omitempty"`
	Signatures []string  `json:"signatures,omitempty"`
	Action     Action    `json:"action"`
	Severity   Severity  `json:"severity,omitempty"`
}

// NewMatchEvent builds the event data for an emitted decision.
func NewMatchEvent(o *Observation, m Match, d Decision, p Policy) MatchEvent {
	p = p.withDefaults()
	return MatchEvent{
		FindingID: m.FindingID,
		AssetID:   m.AssetID,
		Observation: ObservationBrief{
			Time: o.Time, Host: o.Host, Path: o.Path, Method: o.Method, Source: o.Source,
			RuleID: o.RuleID, Message: o.Message, CVEs: o.CVEs, Signatures: o.Signatures,
			Action: o.Action, Severity: o.Severity,
		},
		Reasons:           m.Reasons,
		Count:             d.Count,
		WindowStart:       d.State.WindowStart,
		WindowHours:       int(p.Window / time.Hour),
		RiskScore:         d.RiskScore,
		PreviousRiskScore: d.PreviousRiskScore,
	}
}
