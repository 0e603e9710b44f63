package edge

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// This file holds what Sentinel knows about the OWASP Core Rule Set (CRS 3.3
// as Debian ships it, and CRS 4) and about a few attacks well enough to say
// which component they target. Everything here is a table: read it to know
// exactly when an observation correlates by technology.

// modsecSeverity maps ModSecurity's severity names (and their numbers,
// which older rules use) onto Severity.
func modsecSeverity(s string) Severity {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "EMERGENCY", "ALERT", "CRITICAL", "0", "1", "2":
		return SeverityCritical
	case "ERROR", "3":
		return SeverityHigh
	case "WARNING", "4":
		return SeverityMedium
	case "NOTICE", "5":
		return SeverityLow
	case "INFO", "DEBUG", "6", "7":
		return SeverityInfo
	}
	return ""
}

// attackTags maps CRS attack tags to an attack class and the CWE of that
// class. The CWE is the weakness the attack tries to exploit; a tag with
// no single weakness (protocol violations, scanners, the anomaly
// evaluation's attack-generic) has none.
var attackTags = map[string]struct {
	class string
	cwe   string
}{
	"attack-sqli":               {"sqli", "CWE-89"},
	"attack-xss":                {"xss", "CWE-79"},
	"attack-rce":                {"rce", "CWE-78"},
	"attack-lfi":                {"lfi", "CWE-22"},
	"attack-rfi":                {"rfi", "CWE-98"},
	"attack-injection-php":      {"php", "CWE-94"},
	"attack-injection-java":     {"java", "CWE-94"},
	"attack-injection-generic":  {"injection", "CWE-94"},
	"attack-fixation":           {"session-fixation", "CWE-384"},
	"attack-session-fixation":   {"session-fixation", "CWE-384"},
	"attack-disclosure":         {"disclosure", "CWE-200"},
	"attack-protocol":           {"protocol", ""},
	"attack-multipart-header":   {"protocol", ""},
	"attack-dos":                {"dos", ""},
	"attack-reputation-scanner": {"scanner", ""},
	"attack-reputation-ip":      {"reputation", ""},
}

// techFromTag returns the technology a CRS language-*, platform-* or
// application-* tag names ("java" for language-java), or "" for the
// catch-all "multi" and for other tags.
func techFromTag(tag string) string {
	for _, p := range []string{"language-", "platform-", "application-"} {
		if rest, ok := strings.CutPrefix(tag, p); ok && rest != "multi" && rest != "" {
			return rest
		}
	}
	return ""
}

// evaluationRule reports whether a CRS rule id is one of the anomaly
// scoring and correlation rules (949xxx, 959xxx, 980xxx), which repeat
// what other rules found rather than describe the attack.
func evaluationRule(id string) bool {
	return len(id) == 6 && (strings.HasPrefix(id, "949") || strings.HasPrefix(id, "959") || strings.HasPrefix(id, "980"))
}

// A signature is a known attack Sentinel can recognise in an observation
// and attribute to a component. An observation matches a signature when
// any of: a matching rule id is among its rules, one of the signature's
// CVEs is among the CVEs it names, or the payload test finds the attack in
// its request (path, query, user agent, matched data, and for WAF logs the
// request headers).
//
// Packages are versionless purls; "*" as the namespace matches any (an OS
// package of any distribution). The table is deliberately short: each
// entry names an exploit specific to a component, never a class of attack
// (an SQL injection says nothing about which package is injectable).
type signature struct {
	name    string
	ruleIDs []string
	cves    []string
	// payload tests the request's text, lower-cased and percent-decoded
	// (see requestText).
	payload  func(text string) bool
	packages []string
	// patterns are packages, parsed once.
	patterns []pkgID
}

var signatures = parsePatterns([]signature{
	{
		// CRS 4 rules 944150 (PL1), 944151 (PL2), 944152 (PL4). CRS 3.3.4
		// has no Log4Shell rule: it catches ${jndi:...} in arguments only
		// as 932130 (Unix shell expression) and not at all in a header,
		// hence the payload test, which also undoes the usual lookup
		// obfuscations (${lower:j}, ${::-n}, ${env:X:-d}, ...).
		name:     "log4shell",
		ruleIDs:  []string{"944150", "944151", "944152"},
		cves:     []string{"CVE-2021-44228", "CVE-2021-45046"},
		payload:  jndiLookup,
		packages: []string{"pkg:maven/org.apache.logging.log4j/log4j-core"},
	},
	{
		// Spring4Shell: binding class.module.classLoader.* parameters.
		name:     "spring4shell",
		cves:     []string{"CVE-2022-22965"},
		payload:  contains("class.module.classloader"),
		packages: []string{"pkg:maven/org.springframework/spring-beans", "pkg:maven/org.springframework/spring-webmvc", "pkg:maven/org.springframework/spring-webflux"},
	},
	{
		// Spring Cloud Function SpEL injection through a routing header.
		name:     "spring-cloud-function-spel",
		cves:     []string{"CVE-2022-22963"},
		payload:  contains("spring.cloud.function.routing-expression"),
		packages: []string{"pkg:maven/org.springframework.cloud/spring-cloud-function-context"},
	},
	{
		// Apache Struts 2 OGNL injection (the Content-Type exploit of
		// CVE-2017-5638 and its relatives): OGNL's member-access or
		// context objects in a request.
		name:     "struts-ognl",
		cves:     []string{"CVE-2017-5638", "CVE-2018-11776"},
		payload:  ognl,
		packages: []string{"pkg:maven/org.apache.struts/struts2-core"},
	},
	{
		// The Struts REST plugin's XStream deserialization; CRS 944110
		// names this CVE in its message for any Java process spawn.
		name:     "struts-rest-xstream",
		cves:     []string{"CVE-2017-9805"},
		packages: []string{"pkg:maven/org.apache.struts/struts2-rest-plugin"},
	},
	{
		// Shellshock: CRS 932170 and 932171 ("() {" at the start of a
		// header or argument).
		name:     "shellshock",
		ruleIDs:  []string{"932170", "932171"},
		cves:     []string{"CVE-2014-6271", "CVE-2014-7169"},
		payload:  func(s string) bool { return strings.Contains(s, "() {") },
		packages: []string{"pkg:deb/*/bash", "pkg:rpm/*/bash", "pkg:apk/*/bash"},
	},
	{
		// node-serialize's function marker (CRS 934100 matches it among
		// other Node.js patterns, so the rule id alone is not enough).
		name:     "node-serialize",
		cves:     []string{"CVE-2017-5941"},
		payload:  contains("_$$nd_func$$_"),
		packages: []string{"pkg:npm/node-serialize"},
	},
	{
		// Drupalgeddon 2: Form API render arrays in request parameters.
		name:     "drupalgeddon2",
		cves:     []string{"CVE-2018-7600"},
		payload:  drupalRenderArray,
		packages: []string{"pkg:composer/drupal/core", "pkg:composer/drupal/drupal"},
	},
	{
		// PHPUnit's eval-stdin.php left reachable under vendor/: one of
		// the most probed paths on the Internet.
		name:     "phpunit-eval-stdin",
		cves:     []string{"CVE-2017-9841"},
		payload:  contains("/phpunit/src/util/php/eval-stdin.php"),
		packages: []string{"pkg:composer/phpunit/phpunit"},
	},
})

// parsePatterns parses each signature's packages into patterns.
func parsePatterns(sigs []signature) []signature {
	for i := range sigs {
		for _, p := range sigs[i].packages {
			sigs[i].patterns = append(sigs[i].patterns, parsePattern(p))
		}
	}
	return sigs
}

// parsePattern reads "pkg:type/namespace/name" or "pkg:type/name" (the
// table's own, plain purls, where namespace may be "*").
func parsePattern(p string) pkgID {
	parts := strings.Split(strings.TrimPrefix(p, "pkg:"), "/")
	id := pkgID{typ: parts[0], name: parts[len(parts)-1]}
	if len(parts) > 2 {
		id.namespace = strings.Join(parts[1:len(parts)-1], "/")
	}
	return id
}

func contains(needle string) func(string) bool {
	return func(s string) bool { return strings.Contains(s, needle) }
}

// lookupWrapper matches one Log4j lookup that only wraps a literal:
// ${lower:x}, ${upper:x}, ${::-x}, ${env:NAME:-x}, ${date:'x'} and the like.
var lookupWrapper = regexp.MustCompile(`\$\{(?:lower:|upper:|::-|date:'?|[a-z0-9]+:[^:{}$]*:-)([^${}']*)'?\}`)

// jndiLookup reports whether s holds a Log4j JNDI lookup, after undoing
// the lookups that only wrap a literal.
func jndiLookup(s string) bool {
	if strings.Contains(s, "${jndi:") {
		return true
	}
	if !strings.Contains(s, "${") {
		return false
	}
	for range 8 {
		t := lookupWrapper.ReplaceAllString(s, "$1")
		if t == s {
			return false
		}
		if strings.Contains(t, "${jndi:") {
			return true
		}
		s = t
	}
	return false
}

func ognl(s string) bool {
	return strings.Contains(s, "#_memberaccess") || strings.Contains(s, "@ognl.ognlcontext") ||
		(strings.Contains(s, "%{(#") && strings.Contains(s, "multipart/form-data"))
}

func drupalRenderArray(s string) bool {
	return strings.Contains(s, "[#post_render]") || strings.Contains(s, "[#pre_render]") ||
		strings.Contains(s, "[#lazy_builder]") || strings.Contains(s, "element_parents=account/mail/#value")
}

// unescape percent-decodes s, keeping s when it is not valid
// percent-encoding (a payload need not be).
func unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// enrich fills the derived fields of o from its rules, tags, messages and
// request: CVEs and CWEs named anywhere, attack classes, technology hints,
// recognised signatures and the packages they target. headers is more
// request text to look for signatures in (a WAF log's request headers,
// newline-separated); it is not kept.
func enrich(o *Observation, headers []byte) {
	var text []string
	cves, cwes := o.CVEs, o.CWEs
	tags := o.Tags
	text = append(text, o.Message)
	for _, r := range o.Rules {
		text = append(text, r.Message, r.Data)
		for _, t := range r.Tags {
			if len(tags) < maxTags && !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	o.Tags = tags
	for _, s := range text {
		cves = append(cves, findCVEs(s)...)
		cwes = append(cwes, findCWEs(s)...)
	}
	for _, s := range tags {
		cves = append(cves, findCVEs(s)...)
		cwes = append(cwes, findCWEs(s)...)
	}
	var attacks, techs []string
	for _, t := range tags {
		lt := strings.ToLower(t)
		if a, ok := attackTags[lt]; ok {
			attacks = append(attacks, a.class)
			if a.cwe != "" {
				cwes = append(cwes, a.cwe)
			}
		}
		if tech := techFromTag(lt); tech != "" {
			techs = append(techs, tech)
		}
	}
	o.CVEs, o.CWEs = sortedSet(cves), sortedSet(cwes)
	o.Attacks, o.Technologies = sortedSet(attacks), sortedSet(techs)

	request := requestText(o, headers)
	var sigs, pkgs []string
	for i := range signatures {
		sig := &signatures[i]
		if sig.matches(o, request) {
			sigs = append(sigs, sig.name)
			pkgs = append(pkgs, sig.packages...)
		}
	}
	o.Signatures, o.Packages = sortedSet(sigs), sortedSet(pkgs)
}

// requestText returns the request as the signatures look at it: path,
// query, user agent, the headers (for a WAF log) and every rule's matched
// data, lower-cased (ASCII only: signatures are ASCII), then the same
// percent-decoded when it holds a "%". A payload is found in whichever
// form holds it.
func requestText(o *Observation, headers []byte) []string {
	n := len(o.Path) + len(o.Query) + len(o.UserAgent) + len(headers) + 4
	for _, r := range o.Rules {
		n += len(r.Data) + 1
	}
	b := make([]byte, 0, n)
	for _, s := range []string{o.Path, o.Query, o.UserAgent} {
		b = append(b, s...)
		b = append(b, '\n')
	}
	b = append(b, headers...)
	for _, r := range o.Rules {
		b = append(b, r.Data...)
		b = append(b, '\n')
	}
	hasPercent := false
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		} else if c == '%' {
			hasPercent = true
		}
	}
	lower := string(b)
	if !hasPercent {
		return []string{lower}
	}
	var dec strings.Builder
	for line := range strings.SplitSeq(lower, "\n") {
		dec.WriteString(unescape(line))
		dec.WriteByte('\n')
	}
	return []string{lower, dec.String()}
}

func (sig *signature) matches(o *Observation, request []string) bool {
	for _, id := range sig.ruleIDs {
		if o.RuleID == id || slices.ContainsFunc(o.Rules, func(r RuleMatch) bool { return r.ID == id }) {
			return true
		}
	}
	for _, c := range sig.cves {
		for _, oc := range o.CVEs {
			if c == oc {
				return true
			}
		}
	}
	if sig.payload != nil {
		for _, s := range request {
			if sig.payload(s) {
				return true
			}
		}
	}
	return false
}
