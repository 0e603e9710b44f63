package iocs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/iocs"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/internal/watch"
)

type env struct {
	t   *testing.T
	s   *server.Server
	org *sentinel.Organization
	key string
}

func newEnv(t *testing.T) *env {
	ctx := context.Background()
	s := servertest.Start(t)
	servertest.SyncIntel(t, s)
	org, err := server.CreateOrg(ctx, s.DB, "acme", "")
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := server.CreateKey(ctx, s.DB, "acme", "t", sentinel.AllScopes)
	if err != nil {
		t.Fatal(err)
	}
	return &env{t: t, s: s, org: org, key: key}
}

func (e *env) call(method, path, body string, out any) int {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.s.APIURL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "ApiKey "+e.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
	}
	return resp.StatusCode
}

// submit ingests an SBOM of the purls for host and waits until its
// findings are reconciled.
func (e *env) submit(host string, purls ...string) {
	e.t.Helper()
	var comps []string
	for i, p := range purls {
		comps = append(comps, fmt.Sprintf(`{"type":"library","bom-ref":"c%d","name":"c%d","version":"1","purl":%q}`, i, i, p))
	}
	doc := `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[` + strings.Join(comps, ",") + `]}`
	if _, err := e.s.Inventory.Ingest(context.Background(), e.org, "key_test", host, "", []byte(doc)); err != nil {
		e.t.Fatal(err)
	}
	e.s.Jobs.Notify()
	testenv.WaitFor(e.t, 30*time.Second, "the submission's findings", func() bool {
		n, _ := e.s.DB.CountJobs(context.Background(), watch.JobReconcile, sentinel.JobAvailable)
		m, _ := e.s.DB.CountJobs(context.Background(), watch.JobReconcile, sentinel.JobRunning)
		return n == 0 && m == 0
	})
}

func (e *env) findings(query string) []sentinel.Finding {
	e.t.Helper()
	var fs struct{ Data []sentinel.Finding }
	e.call("GET", "/v1/findings?"+query, "", &fs)
	return fs.Data
}

func (e *env) eventCount() int {
	es, _ := e.s.DB.FindEvents(context.Background(), sentinel.EventFilter{OrgID: e.org.ID, Limit: 100000})
	return len(es)
}

// TestIndicatorLifecycle defines an indicator for lodash 4.17.20, dry-runs
// it (nothing is written), applies it (a finding per host, with the
// indicator as evidence), applies it again (nothing new), sees a later
// submission matched by the standing indicator, gates a build on it, and
// archives it (its findings are resolved and it matches nothing more).
func TestIndicatorLifecycle(t *testing.T) {
	e := newEnv(t)
	e.submit("web-1", "pkg:npm/lodash@4.17.20", "pkg:npm/left-pad@1.3.0")
	e.submit("web-2", "pkg:npm/lodash@4.17.20")
	e.submit("web-3", "pkg:npm/lodash@4.17.21")

	var ioc sentinel.IOC
	if code := e.call("POST", "/v1/sca/iocs", `{"ecosystem":"npm","name":"lodash","versions":"=4.17.20","reason":"compromised build","severity":"high","reference":"https://example.com/advisory"}`, &ioc); code != 201 ||
		!strings.HasPrefix(ioc.ID, "ioc_") || ioc.Status != sentinel.IOCDraft {
		t.Fatalf("define: %d %+v", code, ioc)
	}
	for _, bad := range []string{
		`{"ecosystem":"nope","name":"x","versions":"*","reason":"r","severity":"high"}`,
		`{"ecosystem":"npm","name":"x","versions":">=banana","reason":"r","severity":"high"}`,
		`{"ecosystem":"npm","name":"x","versions":"*","reason":"r","severity":"urgent"}`,
		`{"ecosystem":"npm","name":"","versions":"*","reason":"r","severity":"high"}`,
		`{"ecosystem":"npm","name":"x","versions":[],"reason":"r","severity":"high"}`,
		`{"ecosystem":"npm","name":"x","versions":["1.0.0",""],"reason":"r","severity":"high"}`,
		`{"ecosystem":"npm","name":"x","versions":{"v":"1"},"reason":"r","severity":"high"}`,
		`{"ecosystem":"npm","name":"x","versions":[1],"reason":"r","severity":"high"}`,
	} {
		var body struct{ Error, Field string }
		if code := e.call("POST", "/v1/sca/iocs", bad, &body); code != 400 || body.Field == "" {
			t.Errorf("define %s: %d %+v", bad, code, body)
		}
	}

	// versions may also be an array of versions (or expressions), each
	// an alternative.
	var listed sentinel.IOC
	if code := e.call("POST", "/v1/sca/iocs", `{"ecosystem":"npm","name":"left-pad","versions":["1.0.0"," 1.0.1 ",">=2.0.0, <2.1.0"],"reason":"r","severity":"low"}`, &listed); code != 201 ||
		listed.Versions != "1.0.0 || 1.0.1 || >=2.0.0, <2.1.0" {
		t.Errorf("define with a versions array: %d %+v", code, listed)
	}

	before, findingsBefore := e.eventCount(), len(e.findings(""))
	var dry iocs.Preview
	if code := e.call("POST", "/v1/sca/iocs/"+ioc.ID+"/dry-run", "", &dry); code != 200 {
		t.Fatalf("dry run: %d", code)
	}
	if dry.Components != 2 || dry.WouldCreate != 2 || dry.AlreadyOpen != 0 || dry.ByVersion["4.17.20"] != 2 ||
		!slices.Equal(dry.Hosts, []string{"web-1", "web-2"}) || len(dry.Submissions) != 2 {
		t.Errorf("dry run: %+v", dry)
	}
	if e.eventCount() != before || len(e.findings("")) != findingsBefore {
		t.Errorf("the dry run wrote something")
	}
	var got sentinel.IOC
	if e.call("GET", "/v1/sca/iocs/"+ioc.ID, "", &got); got.Status != sentinel.IOCDraft {
		t.Errorf("the dry run changed the indicator: %+v", got)
	}

	var applied iocs.Preview
	if code := e.call("POST", "/v1/sca/iocs/"+ioc.ID+"/apply", "", &applied); code != 200 || applied.Created != 2 || applied.IOC.Status != sentinel.IOCApplied {
		t.Fatalf("apply: %d %+v", code, applied)
	}
	fs := e.findings("advisory=" + ioc.ID)
	if len(fs) != 2 {
		t.Fatalf("findings of the indicator: %+v", fs)
	}
	for _, f := range fs {
		if f.Category != sentinel.CategoryVulnerableComponent || f.Severity != "high" || f.Status != sentinel.StatusOpen ||
			!slices.ContainsFunc(f.Evidence, func(ev sentinel.FindingEvidence) bool { return ev.Kind == "ioc" && ev.Source == ioc.ID }) {
			t.Errorf("indicator finding %+v", f)
		}
	}
	created := e.eventCount()
	var again iocs.Preview
	if e.call("POST", "/v1/sca/iocs/"+ioc.ID+"/apply", "", &again); again.Created != 0 || again.AlreadyOpen != 2 || e.eventCount() != created {
		t.Errorf("second apply: %+v, %d new events", again, e.eventCount()-created)
	}

	// It stands: a later submission with the version gets a finding.
	e.submit("web-4", "pkg:npm/lodash@4.17.20")
	if fs := e.findings("advisory=" + ioc.ID); len(fs) != 3 {
		t.Errorf("after a later submission: %d indicator findings", len(fs))
	}

	// The gate fails on it, naming the indicator.
	var gate sentinel.GateResponse
	e.call("POST", "/v1/sca/gate", `{"purls":["pkg:npm/lodash@4.17.20","pkg:npm/lodash@4.17.21"]}`, &gate)
	if gate.ExitCode != 71 || !slices.ContainsFunc(gate.Results[0].Matches, func(m sentinel.AdvisoryMatch) bool { return m.ID == ioc.ID && m.Indicator }) {
		t.Errorf("gate on the indicator: %+v", gate)
	}

	// Archived, it resolves its findings and stands no more.
	var archived sentinel.IOC
	if code := e.call("POST", "/v1/sca/iocs/"+ioc.ID+"/archive", "", &archived); code != 200 || archived.Status != sentinel.IOCArchived {
		t.Fatalf("archive: %d %+v", code, archived)
	}
	for _, f := range e.findings("advisory=" + ioc.ID) {
		if f.Status != sentinel.StatusResolved || f.StatusReason != "the indicator was archived" {
			t.Errorf("after archiving: %+v", f)
		}
	}
	e.submit("web-5", "pkg:npm/lodash@4.17.20")
	if fs := e.findings("advisory=" + ioc.ID + "&status=open"); len(fs) != 0 {
		t.Errorf("an archived indicator matched: %+v", fs)
	}
	if code := e.call("POST", "/v1/sca/iocs/"+ioc.ID+"/apply", "", nil); code != http.StatusConflict {
		t.Errorf("apply after archive: %d, want 409", code)
	}
	var list struct{ Data []sentinel.IOC }
	if e.call("GET", "/v1/sca/iocs?status=archived", "", &list); len(list.Data) != 1 {
		t.Errorf("archived indicators: %+v", list.Data)
	}
}

// TestMaliciousPackage: a real OSV MAL- record is an indicator by nature:
// its listed version becomes a critical finding marked malicious, and the
// gate fails on it.
func TestMaliciousPackage(t *testing.T) {
	e := newEnv(t)
	const mal = "pkg:npm/02-echo@0.0.7" // MAL-2025-191025 lists 0.0.7 only
	e.submit("build-1", mal, "pkg:npm/02-echo@0.0.8")
	fs := e.findings("")
	if len(fs) != 1 || fs[0].AdvisoryID != "MAL-2025-191025" || !fs[0].Malicious || fs[0].Severity != "critical" || fs[0].Band != sentinel.BandCritical {
		t.Fatalf("malicious package findings: %+v", fs)
	}
	var gate sentinel.GateResponse
	e.call("POST", "/v1/sca/gate", `{"purls":["`+mal+`"]}`, &gate)
	if gate.ExitCode != 71 || len(gate.Results[0].Matches) != 1 || !gate.Results[0].Matches[0].Malicious {
		t.Errorf("gate on a malicious package: %+v", gate)
	}
}
