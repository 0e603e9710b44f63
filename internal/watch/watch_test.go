package watch_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/internal/watch"
)

const (
	advA  = "GHSA-269q-hmxg-m83q" // io.netty:netty-codec-http, CVE-2021-21290, fixed in 4.1.77.Final
	advB  = "GHSA-5mcr-gq6c-3hq2" // the same issue, aliasing A
	cveA  = "CVE-2021-21290"
	netty = "pkg:maven/io.netty/netty-codec-http@4.1.50.Final"
)

// record reads a real advisory of testdata as JSON to edit.
func record(t *testing.T, id string) map[string]any {
	t.Helper()
	return readJSON(t, filepath.Join("testdata", id+".json"))
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// withoutFix drops the fixed events of every range.
func withoutFix(m map[string]any) map[string]any {
	for _, a := range m["affected"].([]any) {
		for _, r := range a.(map[string]any)["ranges"].([]any) {
			var kept []any
			for _, e := range r.(map[string]any)["events"].([]any) {
				if _, ok := e.(map[string]any)["fixed"]; !ok {
					kept = append(kept, e)
				}
			}
			r.(map[string]any)["events"] = kept
		}
	}
	return m
}

// stage writes records into a fresh OSV directory, each modified at a
// later time than the stage before.
func stage(t *testing.T, n int, recs ...map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	for _, m := range recs {
		m["modified"] = time.Date(2026, 11, 1+n, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
		b, _ := json.Marshal(m)
		if err := os.WriteFile(filepath.Join(dir, m["id"].(string)+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// kevWith writes the real KEV catalog kept in internal/intel/testdata,
// with extra CVEs listed.
func kevWith(t *testing.T, cves ...string) string {
	t.Helper()
	var cat map[string]any
	b, err := os.ReadFile(servertest.IntelSources().KEV)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cat); err != nil {
		t.Fatal(err)
	}
	vs := cat["vulnerabilities"].([]any)
	for _, c := range cves {
		vs = append(vs, map[string]any{"cveID": c, "vendorProject": "Netty", "product": "Netty", "vulnerabilityName": "test listing",
			"dateAdded": "2026-11-20", "shortDescription": "", "requiredAction": "", "dueDate": "2026-12-11", "knownRansomwareCampaignUse": "Unknown", "notes": "", "cwes": []any{}})
	}
	cat["vulnerabilities"], cat["count"] = vs, len(vs)
	out, _ := json.Marshal(cat)
	p := filepath.Join(t.TempDir(), "kev.json")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

type env struct {
	t     *testing.T
	s     *server.Server
	org   *sentinel.Organization
	syncs int
}

// engines runs a test on SQLite and on PostgreSQL: the watch's writes go
// through each engine's own bulk path.
func engines(t *testing.T, test func(t *testing.T, e *env)) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dsn := ""
			if engine == "postgres" {
				dsn = pgtest.DSN(t)
			}
			test(t, newEnv(t, dsn))
		})
	}
}

func newEnv(t *testing.T, dsn string) *env {
	ctx := context.Background()
	s := servertest.Start(t, func(c *server.Config) {
		if dsn != "" {
			c.Database, c.MasterKey = dsn, strings.Repeat("0", 64)
		}
	})
	org, err := server.CreateOrg(ctx, s.DB, "acme", "")
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, s: s, org: org}
}

// sync runs an intel sync as `sentineld intel sync` would, and waits for
// the watch job it enqueued to finish.
func (e *env) sync(src intelsvc.Sources) {
	e.t.Helper()
	if _, err := e.s.Intel.Sync(context.Background(), src, nil); err != nil {
		e.t.Fatal(err)
	}
	e.syncs++
	e.s.Jobs.Notify()
	testenv.WaitFor(e.t, 30*time.Second, "the sync's watch job", func() bool {
		n, _ := e.s.DB.CountJobs(context.Background(), watch.JobWatchSync, sentinel.JobCompleted)
		return n == e.syncs
	})
}

func (e *env) submit(host string, purls ...string) {
	e.t.Helper()
	var comps []map[string]any
	for i, p := range purls {
		comps = append(comps, map[string]any{"type": "library", "bom-ref": p, "name": "c" + string(rune('a'+i)), "version": "1", "purl": p})
	}
	doc, _ := json.Marshal(map[string]any{"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1, "components": comps})
	if _, err := e.s.Inventory.Ingest(context.Background(), e.org, "key_test", host, "", doc); err != nil {
		e.t.Fatal(err)
	}
	testenv.WaitFor(e.t, 30*time.Second, "the submission's reconcile", func() bool {
		n, _ := e.s.DB.CountJobs(context.Background(), watch.JobReconcile, sentinel.JobCompleted)
		m, _ := e.s.DB.CountJobs(context.Background(), watch.JobReconcile, sentinel.JobAvailable)
		k, _ := e.s.DB.CountJobs(context.Background(), watch.JobReconcile, sentinel.JobRunning)
		return n > 0 && m == 0 && k == 0
	})
}

func (e *env) events(typ string) []*sentinel.Event {
	e.t.Helper()
	es, err := e.s.DB.FindEvents(context.Background(), sentinel.EventFilter{OrgID: e.org.ID, Type: typ, Limit: 1000})
	if err != nil {
		e.t.Fatal(err)
	}
	return es
}

func (e *env) allEvents() int {
	es, _ := e.s.DB.FindEvents(context.Background(), sentinel.EventFilter{OrgID: e.org.ID, Limit: 100000})
	return len(es)
}

func (e *env) findings() []*sentinel.Finding {
	e.t.Helper()
	fs, _, err := e.s.DB.FindFindings(context.Background(), sentinel.FindingFilter{OrgID: e.org.ID})
	if err != nil {
		e.t.Fatal(err)
	}
	return fs
}

// reasons returns the change reasons of the newest sbom.intel_match.
func reasons(t *testing.T, ev *sentinel.Event) []string {
	var d struct {
		Changes []struct{ Reason string } `json:"changes"`
	}
	if err := json.Unmarshal(ev.Data, &d); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range d.Changes {
		out = append(out, c.Reason)
	}
	return out
}

// TestWatchAlertsOncePerRealChange walks one advisory through the changes
// the watch must re-alert on, and the ones it must not, with a real
// record: each meaningful change alerts exactly once, an unchanged sync
// alerts nothing, and the withdrawal resolves the finding.
func TestWatchAlertsOncePerRealChange(t *testing.T) { engines(t, testWatchAlertsOncePerRealChange) }

func testWatchAlertsOncePerRealChange(t *testing.T, e *env) {
	kev := servertest.IntelSources().KEV

	// Intel without A; an SBOM with the affected netty.
	other := readJSON(t, filepath.Join(servertest.IntelSources().OSV[0], "Maven", "GHSA-2268-98wh-qfhf.json"))
	e.sync(intelsvc.Sources{OSV: []string{stage(t, 0, other)}, KEV: kev})
	e.submit("app-1", netty, "pkg:npm/left-pad@1.3.0")
	if fs := e.findings(); len(fs) != 0 {
		t.Fatalf("findings before A: %+v", fs)
	}

	// 1. A arrives (without a fix yet): one finding, one alert.
	a := withoutFix(record(t, advA))
	e.sync(intelsvc.Sources{OSV: []string{stage(t, 1, a)}, KEV: kev})
	fs := e.findings()
	if len(fs) != 1 || fs[0].AdvisoryID != advA || fs[0].Purl != netty || fs[0].NearestFix != "" || fs[0].KEV {
		t.Fatalf("after A: %+v", fs)
	}
	if m := e.events(sentinel.EventSBOMIntelMatch); len(m) != 1 {
		t.Fatalf("sbom.intel_match after A: %d, want 1", len(m))
	} else if r := reasons(t, m[0]); len(r) != 1 || r[0] != "new_advisory" {
		t.Errorf("alert reasons %v", r)
	}
	if c := e.events(sentinel.EventFindingCreated); len(c) != 1 {
		t.Errorf("finding.created: %d", len(c))
	}

	// 2. The same data again: nothing at all.
	before := e.allEvents()
	e.sync(intelsvc.Sources{OSV: []string{stage(t, 1, withoutFix(record(t, advA)))}, KEV: kev})
	if n := e.allEvents(); n != before {
		t.Errorf("an unchanged sync emitted %d events", n-before)
	}

	// 3. The KEV catalog lists A's CVE: exactly one re-alert (the listing
	// also lifts the finding's band: it says so in the same alert).
	e.sync(intelsvc.Sources{KEV: kevWith(t, cveA)})
	m := e.events(sentinel.EventSBOMIntelMatch)
	if len(m) != 2 || !slices.Contains(reasons(t, m[0]), "kev_listed") {
		t.Fatalf("after the KEV listing: %d alerts, newest %v", len(m), reasons(t, m[0]))
	}
	if fs := e.findings(); !fs[0].KEV || fs[0].Band != sentinel.BandCritical {
		t.Errorf("finding after the KEV listing: %+v", fs[0])
	}
	e.sync(intelsvc.Sources{KEV: kevWith(t, cveA)})
	if n := len(e.events(sentinel.EventSBOMIntelMatch)); n != 2 {
		t.Errorf("the same KEV catalog again re-alerted: %d alerts", n)
	}

	// 4. A's severity rises: one re-alert.
	raised := withoutFix(record(t, advA))
	raised["database_specific"].(map[string]any)["severity"] = "HIGH"
	raised["severity"] = []any{map[string]any{"type": "CVSS_V3", "score": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N"}}
	e.sync(intelsvc.Sources{OSV: []string{stage(t, 4, raised)}})
	m = e.events(sentinel.EventSBOMIntelMatch)
	if len(m) != 3 || !slices.Equal(reasons(t, m[0]), []string{"severity_raised"}) {
		t.Fatalf("after the severity rise: %d alerts, newest %v", len(m), reasons(t, m[0]))
	}

	// 5. A fix is published: one re-alert.
	fixed := record(t, advA)
	fixed["database_specific"].(map[string]any)["severity"] = "HIGH"
	fixed["severity"] = raised["severity"]
	e.sync(intelsvc.Sources{OSV: []string{stage(t, 5, fixed)}})
	m = e.events(sentinel.EventSBOMIntelMatch)
	if len(m) != 4 || !slices.Equal(reasons(t, m[0]), []string{"fix_available"}) {
		t.Fatalf("after the fix: %d alerts, newest %v", len(m), reasons(t, m[0]))
	}
	if fs := e.findings(); fs[0].NearestFix != "4.1.77.Final" {
		t.Errorf("nearest fix %q", fs[0].NearestFix)
	}

	// 6. A is withdrawn: the finding is resolved, saying why.
	withdrawn := record(t, advA)
	withdrawn["withdrawn"] = time.Date(2026, 11, 7, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
	e.sync(intelsvc.Sources{OSV: []string{stage(t, 6, withdrawn)}})
	fs = e.findings()
	if fs[0].Status != sentinel.StatusResolved || fs[0].StatusReason != "the advisory was withdrawn" {
		t.Errorf("after the withdrawal: %+v", fs[0])
	}

	// One watch job per sync, whoever made it.
	if n, _ := e.s.DB.CountJobs(context.Background(), watch.JobWatchSync, ""); n != e.syncs {
		t.Errorf("%d watch jobs for %d syncs", n, e.syncs)
	}
}

// TestAliasesMakeOneFinding: two real records of one issue (each names the
// other as an alias) on one package make one finding and one alert, which
// keeps its id when a later sync brings the records again.
func TestAliasesMakeOneFinding(t *testing.T) { engines(t, testAliasesMakeOneFinding) }

func testAliasesMakeOneFinding(t *testing.T, e *env) {
	e.submit("app-1", netty)
	e.sync(intelsvc.Sources{OSV: []string{stage(t, 1, record(t, advA), record(t, advB))}, KEV: servertest.IntelSources().KEV})
	fs := e.findings()
	if len(fs) != 1 || fs[0].AdvisoryID != advA || !slices.Contains(fs[0].Aliases, advB) || !slices.Contains(fs[0].Aliases, cveA) {
		t.Fatalf("findings of an alias pair: %+v", fs)
	}
	if m := e.events(sentinel.EventSBOMIntelMatch); len(m) != 1 {
		t.Errorf("%d alerts for one issue", len(m))
	}
	if c := e.events(sentinel.EventFindingCreated); len(c) != 1 {
		t.Errorf("%d finding.created for one issue", len(c))
	}
}
