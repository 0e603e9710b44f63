// Package edge reads observations of adversary traffic from an edge network
// or a web application firewall and decides which open findings they are
// relevant to, and how much they raise those findings' risk. It is service
// side and pure logic: no store, no clock, no network; the caller stores
// the correlation state and emits the events.
//
// # Observations
//
// Two inputs give one type, Observation (time, target host, path, method,
// source address, rule id and message, CVE and CWE ids, tags, action,
// severity):
//
//   - DecodeBatch reads Sentinel's own JSON format, {"observations": [...]},
//     strictly: unknown fields, wrong types, missing required fields and
//     out-of-range values are reported per observation (index and field)
//     in a *BatchError.
//   - ModSecReader and ParseModSecEntry read the ModSecurity v2 JSON audit
//     log (SecAuditLogFormat JSON, one object per line) as Debian's
//     libapache2-mod-security2 2.9 writes it with the OWASP Core Rule Set.
//     testdata/modsec holds a real one, made by TestModSecLive from a real
//     Apache; the README there says how. One transaction is one
//     observation, with every rule that matched in Rules and the most
//     telling one (an attack rule before protocol, reputation and anomaly
//     scoring rules) as RuleID.
//
// Both derive the same fields from the rules (crs.go): CVE and CWE ids
// written in messages, matched data and tags (CRS 3.3 names a few CVEs in
// its messages: Shellshock, Struts, WebLogic), a CWE per attack class
// (attack-sqli is CWE-89, attack-xss CWE-79, attack-rce CWE-78, attack-lfi
// CWE-22, attack-rfi CWE-98, code injection CWE-94, session fixation
// CWE-384), the attack classes, the technology hints of the language-*,
// platform-* and application-* tags, and the known attacks ("signatures")
// the request matches.
//
// # Correlation
//
// Correlate (or a Correlator, built once per asset) says which of the
// asset's open findings an observation is relevant to, with every reason:
//
//   - cve: the observation names the finding's advisory id or an alias, or
//     matches a known attack on it (a Log4Shell payload and a finding for
//     CVE-2021-44228);
//   - technology: it matches a known attack on the finding's component
//     (Log4Shell and any finding on log4j-core);
//   - path: the request went to where the component is served: a
//     WordPress plugin's or theme's directory (/wp-content/plugins/<slug>/,
//     from a pkg:composer/wpackagist-plugin/<slug> purl or from a location
//     inside that directory), a Drupal contributed module's, or a URL of
//     the component from an external scan.
//
// Technology is matched conservatively, through a table of known attacks,
// each specific to a component (signatures in crs.go): Log4Shell
// (CRS 4's 944150-944152, or a JNDI lookup anywhere in the request, since
// CRS 3.3 has no Log4Shell rule and misses it in headers), Spring4Shell,
// Spring Cloud Function SpEL, Struts OGNL, the Struts REST plugin's
// XStream flaw, Shellshock, node-serialize, Drupalgeddon 2 and PHPUnit's
// eval-stdin.php. An attack class alone never correlates: SQL injection
// traffic says nothing about which of a PHP site's packages is
// injectable, and a language-php or platform-* tag only says what the
// attacker guessed. Those are kept on the observation as hints.
//
// # Risk amplification and windows
//
// Policy.Apply turns a match into a decision: a new risk score (+10 for a
// blocked attempt, +20 for a request that reached the application, at
// most 100, once per finding per 24-hour window), whether to emit
// edge.correlation_match (once per window; again only when traffic that
// was blocked gets through), the count of matching requests in the window,
// whether the score went up a band (finding.escalated), and the State the
// caller stores for the next observation. Repeated traffic is counted,
// not re-alerted. NewMatchEvent builds the event's data, which carries the
// path but never the query, headers or matched data: an attacker's
// request can carry anything, credentials included.
package edge
