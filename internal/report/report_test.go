package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intel"
	"github.com/sentinel-sca/sentinel/internal/report"
	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// Real advisories and the real KEV catalog, kept by the intel package's
// tests (see ../intel/testdata/SOURCES.md).
const (
	osvDir  = "../intel/testdata/osv"
	kevFile = "../intel/testdata/kev/known_exploited_vulnerabilities.json"
	eolDir  = "../intel/testdata/eol"
)

// fixedNow pins end-of-life decisions and the CycloneDX timestamp.
var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

var loadIndex = sync.OnceValues(func() (*intel.Index, error) {
	ctx := context.Background()
	advs, _, err := intel.LoadDir(ctx, osvDir)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(kevFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	kev, err := intel.DecodeKEV(f)
	if err != nil {
		return nil, err
	}
	eol, _, err := intel.LoadEOLDir(ctx, eolDir)
	if err != nil {
		return nil, err
	}
	return intel.NewIndex(advs, kev, eol, intel.Options{Now: func() time.Time { return fixedNow }}), nil
})

// mustIndex is the real index over the committed intel test data.
func mustIndex(tb testing.TB) *intel.Index {
	tb.Helper()
	idx, err := loadIndex()
	if err != nil {
		tb.Fatal(err)
	}
	return idx
}

// components of a small made-up project: a KEV component (tomcat 9.0.30,
// Ghostcat), Drupal 8.5.0 (Drupalgeddon 2, KEV), two vulnerable Python
// packages without KEV, a clean one and an unpinned one.
func components() []sentinel.Component {
	return []sentinel.Component{
		{Purl: "pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30", Ecosystem: "Maven", Name: "org.apache.tomcat.embed:tomcat-embed-core", Version: "9.0.30", Locations: []string{"api/pom.xml"}},
		{Purl: "pkg:composer/drupal/core@8.5.0", Ecosystem: "Packagist", Name: "drupal/core", Version: "8.5.0", Locations: []string{"site/composer.lock"}},
		{Purl: "pkg:pypi/django@1.2", Ecosystem: "PyPI", Name: "django", Version: "1.2", Locations: []string{"requirements.txt", "tools/requirements.txt"}},
		{Purl: "pkg:pypi/selenium@4.13.0", Ecosystem: "PyPI", Name: "selenium", Version: "4.13.0", Locations: []string{"requirements.txt"}},
		{Purl: "pkg:pypi/requests@2.31.0", Ecosystem: "PyPI", Name: "requests", Version: "2.31.0", Locations: []string{"requirements.txt"}},
		{Purl: "pkg:pypi/flask", Ecosystem: "PyPI", Name: "flask", Locations: []string{"requirements.txt"}},
	}
}

// results matches the components with a version, as the agent does.
func results(tb testing.TB, comps []sentinel.Component) []sentinel.MatchResult {
	tb.Helper()
	var purls []string
	for _, c := range comps {
		if c.Version != "" {
			purls = append(purls, c.Purl)
		}
	}
	return mustIndex(tb).MatchBatch(purls)
}

func input(tb testing.TB, comps []sentinel.Component) report.Input {
	return report.Input{
		Root: "testdata/project", Project: "project", Host: "ci-runner", ToolVersion: "test",
		Intel:      report.Intel{Mode: "offline", Source: "intel.zip"},
		Components: comps, Results: results(tb, comps),
		Skipped: []sbom.FileError{{Path: "broken/package-lock.json", Extractor: "javascript/packagelockjson", Reason: "unexpected end of JSON input"}},
	}
}

// suppressions: an ignore entry for one django advisory by alias and a VEX
// not_affected for selenium's.
func suppressions(tb testing.TB) *report.Suppressions {
	tb.Helper()
	ign, warn, err := report.ParseIgnore([]byte(`ignore:
  - id: CVE-2010-3082
    package: django
    reason: only the admin site uses the affected template tag, and it is disabled
    expires: 2027-06-30
`), ".sentinel-ignore.yaml", fixedNow)
	if err != nil || len(warn) != 0 {
		tb.Fatalf("ParseIgnore: %v %v", err, warn)
	}
	vex, err := report.ParseOpenVEX([]byte(`{
  "@context": "https://openvex.dev/ns/v0.2.0",
  "@id": "https://example.com/vex/1",
  "author": "security@example.com",
  "timestamp": "2026-11-01T00:00:00Z",
  "version": 1,
  "statements": [{
    "vulnerability": {"name": "CVE-2023-5590"},
    "products": [{"@id": "pkg:pypi/selenium@4.13.0"}],
    "status": "not_affected",
    "justification": "vulnerable_code_not_in_execute_path",
    "impact_statement": "the Selenium manager is never started on the build hosts"
  }]
}`), "selenium.openvex.json", 0)
	if err != nil {
		tb.Fatal(err)
	}
	return &report.Suppressions{Ignore: ign, VEX: vex}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func write(t *testing.T, f report.Format, r *report.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := report.Write(&buf, f, r, report.Options{URIPrefix: "services/shop", Now: func() time.Time { return fixedNow }}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGolden: one report, four formats, compared with testdata/golden.
func TestGolden(t *testing.T) {
	r := report.New(input(t, components()), suppressions(t))
	for _, tc := range []struct {
		name   string
		format report.Format
	}{
		{"report.txt", report.FormatTable},
		{"report.json", report.FormatJSON},
		{"report.sarif", report.FormatSARIF},
		{"report.cdx.json", report.FormatCycloneDX},
	} {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, tc.name, write(t, tc.format, r))
		})
	}
}

func TestVerdictAndSummary(t *testing.T) {
	r := report.New(input(t, components()), suppressions(t))
	if r.Verdict != sentinel.VerdictKEV || r.ExitCode != 70 {
		t.Errorf("verdict %s %d, want kev 70", r.Verdict, r.ExitCode)
	}
	want := report.Summary{Components: 5, Vulnerable: 3, KEV: 2, Advisories: 11, Suppressed: 2, Unversioned: 1, EndOfLife: r.Summary.EndOfLife}
	if diff := cmp.Diff(want, r.Summary); diff != "" {
		t.Errorf("summary mismatch (-want +got):\n%s", diff)
	}
	// Known-exploited first, then by severity.
	if f := r.Findings[0]; !f.Advisory.KEV {
		t.Errorf("first finding %s is not KEV", f.Advisory.ID)
	}
	seenNonKEV := false
	for _, f := range r.Findings {
		if !f.Advisory.KEV {
			seenNonKEV = true
		} else if seenNonKEV {
			t.Errorf("KEV finding %s after a non-KEV one", f.Advisory.ID)
		}
	}
}

// TestVerdictAgreesWithService: without suppressions, the report decides
// exactly as the service's sentinel.DecideGate on the same results, for every
// subset of the components (the three verdicts occur).
func TestVerdictAgreesWithService(t *testing.T) {
	all := components()
	seen := map[int]bool{}
	for mask := 0; mask < 1<<len(all); mask++ {
		var comps []sentinel.Component
		for i, c := range all {
			if mask&(1<<i) != 0 {
				comps = append(comps, c)
			}
		}
		in := input(t, comps)
		r := report.New(in, nil)
		verdict, sum := sentinel.DecideGate(in.Results)
		code := verdict.ExitCode()
		got := sentinel.GateSummary{Components: r.Summary.Components, Vulnerable: r.Summary.Vulnerable, KEV: r.Summary.KEV, Advisories: r.Summary.Advisories}
		if verdict != r.Verdict || code != r.ExitCode || sum != got {
			t.Fatalf("mask %b: report %s %d %+v, service %s %d %+v", mask, r.Verdict, r.ExitCode, got, verdict, code, sum)
		}
		seen[code] = true
	}
	if !seen[70] || !seen[71] || !seen[72] {
		t.Errorf("verdicts seen %v, want 70, 71 and 72", seen)
	}
}

// TestSuppressionChangesVerdict: ignoring every KEV advisory turns 70 into
// 71; a VEX for the rest turns it into 72; an expired entry changes nothing.
func TestSuppressionChangesVerdict(t *testing.T) {
	comps := components()[:4] // tomcat, drupal, django, selenium
	in := input(t, comps)
	if r := report.New(in, nil); r.ExitCode != 70 {
		t.Fatalf("without suppressions: %d, want 70", r.ExitCode)
	}
	var ignore strings.Builder
	ignore.WriteString("ignore:\n")
	var kevIDs []string
	for _, f := range report.New(in, nil).Findings {
		if f.Advisory.KEV {
			kevIDs = append(kevIDs, f.Advisory.ID)
			ignore.WriteString("  - id: " + f.Advisory.ID + "\n    purl: " + purlNoVersion(f.Purl) + "\n    reason: compensating WAF rule R-17\n    expires: 2027-01-31\n")
		}
	}
	ign, _, err := report.ParseIgnore([]byte(ignore.String()), "ign.yaml", fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	r := report.New(in, &report.Suppressions{Ignore: ign})
	if r.ExitCode != 71 || r.Summary.KEV != 0 || r.Summary.Suppressed != len(kevIDs) {
		t.Errorf("KEV ignored: exit %d summary %+v, want 71 with %d suppressed", r.ExitCode, r.Summary, len(kevIDs))
	}
	// The same file a year later: every entry expired, warned, 70 again.
	ign, warn, err := report.ParseIgnore([]byte(ignore.String()), "ign.yaml", fixedNow.AddDate(1, 0, 0))
	if err != nil || len(ign) != 0 || len(warn) != len(kevIDs) {
		t.Fatalf("expired: %d active, %d warnings, %v", len(ign), len(warn), err)
	}
	if r := report.New(in, &report.Suppressions{Ignore: ign}); r.ExitCode != 70 {
		t.Errorf("expired entries: exit %d, want 70", r.ExitCode)
	}
	// VEX "fixed" for every remaining finding (by product purl without
	// version) on top of the ignore entries gives 72.
	ign, _, _ = report.ParseIgnore([]byte(ignore.String()), "ign.yaml", fixedNow)
	var stmts []string
	for _, f := range report.New(in, nil).Findings {
		if !f.Advisory.KEV {
			stmts = append(stmts, `{"vulnerability":"`+f.Advisory.ID+`","products":["`+purlNoVersion(f.Purl)+`"],"status":"fixed"}`)
		}
	}
	vex, err := report.ParseOpenVEX([]byte(`{"@context":"https://openvex.dev/ns/v0.0.1","statements":[`+strings.Join(stmts, ",")+`]}`), "v.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := report.New(in, &report.Suppressions{Ignore: ign, VEX: vex}); r.ExitCode != 72 || r.Summary.Advisories != 0 {
		t.Errorf("all suppressed: exit %d %+v, want 72", r.ExitCode, r.Summary)
	}
}

func purlNoVersion(p string) string {
	if i := strings.LastIndex(p, "@"); i > 0 {
		return p[:i]
	}
	return p
}

func TestIgnoreFileErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"no_reason", "ignore:\n  - id: CVE-1\n    expires: 2027-01-01\n", "f.yaml:2: missing reason"},
		{"no_expiry", "ignore:\n  - id: CVE-1\n    reason: x\n", "missing expires"},
		{"no_id", "ignore:\n  - reason: x\n    expires: 2027-01-01\n", "missing id"},
		{"bad_date", "ignore:\n  - id: CVE-1\n    reason: x\n    expires: next year\n", `expires "next year"`},
		{"unknown_field", "ignore:\n  - id: CVE-1\n    reason: x\n    expires: 2027-01-01\n    until: 2028-01-01\n", "field until not found"},
		{"bad_purl", "ignore:\n  - id: CVE-1\n    purl: nope\n    reason: x\n    expires: 2027-01-01\n", `purl "nope"`},
		{"not_yaml", "ignore: [", "invalid ignore file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := report.ParseIgnore([]byte(tc.yaml), "f.yaml", fixedNow)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errorsIs(err, report.ErrInvalidIgnore) {
				t.Errorf("ParseIgnore(%q) = %v, want an ErrInvalidIgnore containing %q", tc.yaml, err, tc.want)
			}
		})
	}
	// Empty file, RFC 3339 expiry, and expiry on the last day.
	if ign, _, err := report.ParseIgnore(nil, "f.yaml", fixedNow); err != nil || len(ign) != 0 {
		t.Errorf("empty file: %v %v", ign, err)
	}
	ign, warn, err := report.ParseIgnore([]byte("ignore:\n  - id: a\n    reason: r\n    expires: 2026-11-21\n  - id: b\n    reason: r\n    expires: 2026-11-21T11:00:00Z\n"), "f.yaml", fixedNow)
	if err != nil || len(ign) != 1 || ign[0].ID != "a" || len(warn) != 1 || !strings.Contains(warn[0], "f.yaml:5") {
		t.Errorf("expiry edge: %+v %v %v", ign, warn, err)
	}
}

func errorsIs(err, target error) bool {
	for e := err; e != nil; {
		if e == target {
			return true
		}
		u, ok := e.(interface{ Unwrap() []error })
		if ok {
			for _, x := range u.Unwrap() {
				if errorsIs(x, target) {
					return true
				}
			}
			return false
		}
		w, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = w.Unwrap()
	}
	return false
}

func TestOpenVEX(t *testing.T) {
	comps := components()[3:4] // selenium 4.13.0, PYSEC-2023-206 / CVE-2023-5590
	in := input(t, comps)
	doc := func(stmts string) string {
		return `{"@context":"https://openvex.dev/ns/v0.2.0","timestamp":"2026-01-01T00:00:00Z","statements":[` + stmts + `]}`
	}
	for _, tc := range []struct {
		name, doc string
		want      int
	}{
		{"not_affected_by_alias", doc(`{"vulnerability":{"name":"CVE-2023-5590"},"products":[{"@id":"pkg:pypi/selenium@4.13.0"}],"status":"not_affected","justification":"vulnerable_code_not_present"}`), 72},
		{"by_identifiers_purl", doc(`{"vulnerability":{"name":"PYSEC-2023-206"},"products":[{"@id":"urn:x","identifiers":{"purl":"pkg:pypi/Selenium"}}],"status":"fixed"}`), 72},
		{"subcomponent", doc(`{"vulnerability":{"name":"X","aliases":["CVE-2023-5590"]},"products":[{"@id":"pkg:github/acme/app","subcomponents":[{"@id":"pkg:pypi/selenium@4.13.0"}]}],"status":"not_affected","impact_statement":"never imported"}`), 72},
		{"other_version", doc(`{"vulnerability":{"name":"CVE-2023-5590"},"products":[{"@id":"pkg:pypi/selenium@4.12.0"}],"status":"fixed"}`), 71},
		{"affected", doc(`{"vulnerability":{"name":"CVE-2023-5590"},"products":[{"@id":"pkg:pypi/selenium@4.13.0"}],"status":"affected"}`), 71},
		{"under_investigation", doc(`{"vulnerability":{"name":"CVE-2023-5590"},"products":[{"@id":"pkg:pypi/selenium@4.13.0"}],"status":"under_investigation"}`), 71},
		{"later_affected_wins", doc(`{"vulnerability":{"name":"CVE-2023-5590"},"products":["pkg:pypi/selenium"],"status":"not_affected","justification":"component_not_present","timestamp":"2026-02-01T00:00:00Z"},
			{"vulnerability":{"name":"CVE-2023-5590"},"products":["pkg:pypi/selenium"],"status":"affected","timestamp":"2026-03-01T00:00:00Z"}`), 71},
		{"later_not_affected_wins", doc(`{"vulnerability":{"name":"CVE-2023-5590"},"products":["pkg:pypi/selenium"],"status":"affected","timestamp":"2026-02-01T00:00:00Z"},
			{"vulnerability":{"name":"CVE-2023-5590"},"products":["pkg:pypi/selenium"],"status":"not_affected","justification":"component_not_present","timestamp":"2026-03-01T00:00:00Z"}`), 72},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vex, err := report.ParseOpenVEX([]byte(tc.doc), "v.json", 0)
			if err != nil {
				t.Fatal(err)
			}
			r := report.New(in, &report.Suppressions{VEX: vex})
			if r.ExitCode != tc.want {
				t.Errorf("exit %d, want %d (%+v)", r.ExitCode, tc.want, r.Findings)
			}
		})
	}
	for _, tc := range []struct{ name, doc, want string }{
		{"not_json", `{`, "invalid OpenVEX"},
		{"no_context", `{"statements":[]}`, "@context"},
		{"bad_status", doc(`{"vulnerability":"CVE-1","products":["pkg:pypi/a"],"status":"wontfix"}`), `unknown status "wontfix"`},
		{"no_justification", doc(`{"vulnerability":"CVE-1","products":["pkg:pypi/a"],"status":"not_affected"}`), "justification"},
		{"no_purl_product", doc(`{"vulnerability":"CVE-1","products":["sha256:abc"],"status":"fixed"}`), "no product"},
		{"no_vulnerability", doc(`{"vulnerability":{},"products":["pkg:pypi/a"],"status":"fixed"}`), "vulnerability without a name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := report.ParseOpenVEX([]byte(tc.doc), "v.json", 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errorsIs(err, report.ErrInvalidVEX) {
				t.Errorf("ParseOpenVEX = %v, want an ErrInvalidVEX containing %q", err, tc.want)
			}
		})
	}
}

// sarifSchema is the official OASIS SARIF 2.1.0 schema (errata01),
// committed in testdata (see testdata/SOURCES.md).
var sarifSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(report.SARIFSchema, doc); err != nil {
		return nil, err
	}
	return c.Compile(report.SARIFSchema)
})

func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	sch, err := sarifSchema()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("SARIF output is not valid SARIF 2.1.0: %v", err)
	}
}

// TestSARIFSchema validates the SARIF output against the official schema,
// for a report with findings and suppressions and for an empty one, and
// checks that the validator does reject a broken document.
func TestSARIFSchema(t *testing.T) {
	full := write(t, report.FormatSARIF, report.New(input(t, components()), suppressions(t)))
	validateSARIF(t, full)
	validateSARIF(t, write(t, report.FormatSARIF, report.New(input(t, components()[4:5]), nil)))

	var doc map[string]any
	if err := json.Unmarshal(full, &doc); err != nil {
		t.Fatal(err)
	}
	doc["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)["level"] = "fatal"
	broken, _ := json.Marshal(doc)
	sch, _ := sarifSchema()
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(broken))
	if sch.Validate(inst) == nil {
		t.Error("the schema accepted a result with level \"fatal\"")
	}
	// GitHub reads security-severity from the rule and needs a location on
	// every result.
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						Properties map[string]any `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				Locations    []any `json:"locations"`
				Suppressions []any `json:"suppressions"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(full, &log); err != nil {
		t.Fatal(err)
	}
	suppressed := 0
	for _, r := range log.Runs[0].Results {
		if len(r.Locations) == 0 {
			t.Error("a result without a location")
		}
		if len(r.Suppressions) > 0 {
			suppressed++
		}
	}
	if suppressed != 2 {
		t.Errorf("%d suppressed results, want 2", suppressed)
	}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if _, ok := r.Properties["security-severity"].(string); !ok {
			t.Errorf("rule without security-severity: %v", r.Properties)
		}
	}
}

// TestCycloneDX: the enriched SBOM is valid CycloneDX 1.5 and carries the
// vulnerabilities, with the suppressed ones analysed.
func TestCycloneDX(t *testing.T) {
	data := write(t, report.FormatCycloneDX, report.New(input(t, components()), suppressions(t)))
	if err := validation.Validate(data); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"id": "GHSA-c9hw-wf7x-jp9j"`, `"state": "not_affected"`, `"justification": "code_not_reachable"`, `"name": "sentinel:suppressed"`, `"value": "pkg:pypi/django@1.2=ignore"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("CycloneDX output lacks %s", want)
		}
	}
	// An empty run is still valid.
	if err := validation.Validate(write(t, report.FormatCycloneDX, report.New(report.Input{Root: "."}, nil))); err != nil {
		t.Error(err)
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range report.Formats {
		if got, err := report.ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if _, err := report.ParseFormat("xml"); err == nil {
		t.Error("ParseFormat(xml) succeeded")
	}
}

// TestTableSourcePackage: a distribution's binary package matched through
// its source package shows the source version beside its own, so that a
// fix of the source (2.38.1-5+deb12u4) is not read as a downgrade of the
// binary's epoch-carrying version.
func TestTableSourcePackage(t *testing.T) {
	p := "pkg:deb/debian/bsdutils@1:2.38.1-5%2Bdeb12u3?arch=amd64&distro=debian-12&source=util-linux&source_version=2.38.1-5%2Bdeb12u3"
	comps := []sentinel.Component{{Purl: p, Ecosystem: "Debian:12", Name: "bsdutils", Version: "1:2.38.1-5+deb12u3", Locations: []string{"var/lib/dpkg/status"}}}
	in := report.Input{Root: "/", Project: "host", Intel: report.Intel{Mode: "offline", Source: "intel.zip"}, Components: comps,
		Results: []sentinel.MatchResult{{Purl: p, Matches: []sentinel.AdvisoryMatch{{ID: "DSA-5650-1", Severity: "high",
			FixedVersions: []string{"2.38.1-5+deb12u4"}, NearestFix: "2.38.1-5+deb12u4"}}}}}
	out := string(write(t, report.FormatTable, report.New(in, nil)))
	if !strings.Contains(out, "bsdutils  1:2.38.1-5+deb12u3 (util-linux 2.38.1-5+deb12u3)  2.38.1-5+deb12u4") {
		t.Errorf("table:\n%s", out)
	}
}
