package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agent"
	"github.com/sentinel-sca/sentinel/internal/intel"
	"github.com/sentinel-sca/sentinel/internal/report"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// ciUpdate is -update (rewrite the expected files inside the scripts). It
// is registered only if another test file of this package has not done so.
var ciUpdate = ciUpdateFlag()

func ciUpdateFlag() func() bool {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
	return func() bool {
		f := flag.Lookup("update")
		return f != nil && f.Value.String() == "true"
	}
}

// Real advisories, the real KEV catalog and endoflife.date files, kept by
// the intel package's tests (see ../intel/testdata/SOURCES.md).
const (
	ciOSVDir  = "../intel/testdata/osv"
	ciKEVFile = "../intel/testdata/kev/known_exploited_vulnerabilities.json"
	ciEOLDir  = "../intel/testdata/eol"
)

// ciSnapshotBytes is an offline intel snapshot of the test intel, as
// sentineld intel export would write it, built once per test binary.
var ciSnapshotBytes = sync.OnceValues(func() ([]byte, error) {
	ctx := context.Background()
	advs, _, err := intel.LoadDir(ctx, ciOSVDir)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(ciKEVFile)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	kev, err := intel.DecodeKEV(f)
	if err != nil {
		return nil, err
	}
	eol, _, err := intel.LoadEOLDir(ctx, ciEOLDir)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := intel.WriteSnapshot(&buf, &intel.Snapshot{Created: time.Now().UTC(), Advisories: advs, KEV: kev, EOL: eol}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
})

// ciMustSnapshot writes the snapshot into a temporary directory of tb and
// returns its path.
func ciMustSnapshot(tb testing.TB) string {
	tb.Helper()
	data, err := ciSnapshotBytes()
	if err != nil {
		tb.Fatal(err)
	}
	name := filepath.Join(tb.TempDir(), "intel.zip")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return name
}

// ciService starts a real sentineld on 127.0.0.1:0 with the test intel and
// three organizations: acme (keys: sca:read, sca:submit only, revoked),
// busy (every scan slot held by the test; the cap waits 300 ms) and metered
// (scans meter at 0). It returns the script environment.
func ciService(t *testing.T) map[string]string {
	t.Helper()
	ctx := context.Background()
	s := servertest.Start(t)
	servertest.SyncIntel(t, s)
	s.Cap.Wait = 300 * time.Millisecond

	key := func(org string, scopes ...string) (*sentinel.APIKey, string) {
		k, full, err := server.CreateKey(ctx, s.DB, org, "ci-test", scopes)
		if err != nil {
			t.Fatal(err)
		}
		return k, full
	}
	var orgs = map[string]*sentinel.Organization{}
	for _, slug := range []string{"acme", "busy", "metered"} {
		o, err := server.CreateOrg(ctx, s.DB, slug, "")
		if err != nil {
			t.Fatal(err)
		}
		orgs[slug] = o
	}
	env := map[string]string{"SENTINEL_SERVER": s.APIURL()}
	_, env["KEY"] = key("acme", sentinel.ScopeSCARead)
	_, env["KEY_SUBMIT_ONLY"] = key("acme", sentinel.ScopeSCASubmit)
	_, env["KEY_BUSY"] = key("busy", sentinel.ScopeSCARead)
	_, env["KEY_METERED"] = key("metered", sentinel.ScopeSCARead)

	// A revoked key, revoked through the API as an operator would.
	_, admin := key("acme", sentinel.ScopeAdmin)
	victim, full := key("acme", sentinel.ScopeSCARead)
	req, _ := http.NewRequest("DELETE", s.APIURL()+"/v1/api-keys/"+victim.ID, nil)
	req.Header.Set("Authorization", "ApiKey "+admin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	env["KEY_REVOKED"] = full

	// Every slot of "busy" is held for the whole test.
	for i := 0; i < s.Cap.Max; i++ {
		slot, err := s.Cap.Acquire(ctx, orgs["busy"].ID)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { slot.Release(context.Background()) })
	}
	zero := 0
	if err := server.SetMeter(ctx, s.DB, "metered", sentinel.MeterScans, &zero); err != nil {
		t.Fatal(err)
	}

	// A port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	env["CLOSED"] = "http://" + ln.Addr().String()
	ln.Close()
	return env
}

// TestCIScripts runs testdata/ci/*.txtar: each script drives sentinel ci
// in-process against the real service above or offline, and checks the
// exit code with "exit N".
func TestCIScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a service and imports intel; skipped with -short")
	}
	env := ciService(t)
	env["INTELDB"] = ciMustSnapshot(t)
	trees, err := filepath.Abs("testdata/ci/trees")
	if err != nil {
		t.Fatal(err)
	}
	env["TREES"] = trees
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/ci",
		UpdateScripts: ciUpdate(),
		Setup: func(e *testscript.Env) error {
			for k, v := range env {
				e.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"sentinel": ciRunScript,
			"exit":     ciExitScript,
		},
	})
}

// ciRunScript runs the agent in-process with the script's SENTINEL_*
// variables and records its exit code in $EXIT; it never fails by itself.
func ciRunScript(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("use: sentinel ...; exit N")
	}
	var envv []string
	for _, k := range []string{"SENTINEL_SERVER", "SENTINEL_API_KEY", "HOME"} {
		if v := ts.Getenv(k); v != "" {
			envv = append(envv, k+"="+v)
		}
	}
	cmd := &agent.Command{Args: args, Stdout: ts.Stdout(), Stderr: ts.Stderr(), Env: envv,
		Hostname: func() (string, error) { return "ci-runner", nil },
		Sleep:    func(context.Context, time.Duration) error { return nil }}
	code := agent.Main(context.Background(), cmd)
	ts.Setenv("EXIT", strconv.Itoa(code))
}

// ciExitScript checks the last sentinel exit code: exit 70.
func ciExitScript(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: exit N")
	}
	if got := ts.Getenv("EXIT"); got != args[0] {
		ts.Fatalf("sentinel exited %s, want %s", got, args[0])
	}
}

// ciRun runs sentinel in-process and returns its exit code and output.
func ciRun(t testing.TB, env []string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := &agent.Command{Args: args, Stdout: &stdout, Stderr: &stderr, Env: env,
		Hostname: func() (string, error) { return "ci-runner", nil }}
	return agent.Main(context.Background(), cmd), stdout.String(), stderr.String()
}

// TestCIFormats: the SARIF output is valid against the official SARIF 2.1.0
// schema, the CycloneDX output is valid CycloneDX 1.5 with the
// vulnerabilities, and the JSON output is the report.
func TestCIFormats(t *testing.T) {
	db := ciMustSnapshot(t)
	dir := t.TempDir()
	tree := "testdata/ci/trees/kev"

	code, _, stderr := ciRun(t, nil, "ci", "--sca", "--offline-db", db, "--format", "sarif", "-o", filepath.Join(dir, "out.sarif"), tree)
	if code != 70 || !strings.Contains(stderr, "GHSA-c9hw-wf7x-jp9j") {
		t.Fatalf("sarif run: exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	ciValidateSARIF(t, data)
	if !bytes.Contains(data, []byte(`"uri": "testdata/ci/trees/kev/pom.xml"`)) {
		t.Errorf("SARIF locations are not relative to the working directory:\n%.2000s", data)
	}

	code, stdout, _ := ciRun(t, nil, "ci", "--sca", "--offline-db", db, "--format", "cyclonedx", tree)
	if code != 70 {
		t.Fatalf("cyclonedx run: exit %d", code)
	}
	if err := validation.Validate([]byte(stdout)); err != nil {
		t.Error(err)
	}
	for _, want := range []string{`"bom-ref": "pkg:composer/drupal/core@8.5.0"`, `"id": "DRUPAL-CORE-2018-002"`, `"name": "sentinel:kev"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("CycloneDX output lacks %s", want)
		}
	}

	code, stdout, _ = ciRun(t, nil, "ci", "--sca", "--offline-db", db, "--format", "json", tree)
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if code != 70 || r.ExitCode != 70 || r.Verdict != "kev" || r.Summary.KEV != 2 || r.Intel.Mode != "offline" || r.Project != "com.example:shop-api" {
		t.Errorf("json run: exit %d, report %s %d %+v %+v", code, r.Verdict, r.ExitCode, r.Summary, r.Intel)
	}
}

var ciSARIFSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	f, err := os.Open("../report/testdata/sarif-schema-2.1.0.json")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(report.SARIFSchema, doc); err != nil {
		return nil, err
	}
	return c.Compile(report.SARIFSchema)
})

func ciValidateSARIF(t *testing.T, data []byte) {
	t.Helper()
	sch, err := ciSARIFSchema()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("not valid SARIF 2.1.0: %v", err)
	}
}

// TestCIRetry: 429 rate_limited is retried with the specification's policy
// (Retry-After, then doubling, with up to 50% jitter, at most 5 attempts);
// scan_capacity is not retried.
func TestCIRetry(t *testing.T) {
	for _, tc := range []struct {
		name      string
		failures  int    // 429s before a 200
		code      string // the 429's error
		want      int    // exit code
		attempts  int32
		minDelays []time.Duration
	}{
		{"rate_limited_then_ok", 2, "rate_limited", 72, 3, []time.Duration{20 * time.Second, 40 * time.Second}},
		{"rate_limited_gives_up", 9, "rate_limited", 3, 5, []time.Duration{20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second}},
		{"edge_429_without_body", 1, "", 72, 2, []time.Duration{20 * time.Second}},
		{"scan_capacity_not_retried", 9, "scan_capacity", 77, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var attempts atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v1/sca/gate" || r.Header.Get("Authorization") != "ApiKey k" {
					http.Error(w, "bad request", 400)
					return
				}
				var req struct{ Purls []string }
				_ = json.NewDecoder(r.Body).Decode(&req)
				if int(attempts.Add(1)) <= tc.failures {
					w.Header().Set("Retry-After", "20")
					w.WriteHeader(429)
					if tc.code != "" {
						fmt.Fprintf(w, `{"error":%q,"message":"slow down"}`, tc.code)
					}
					return
				}
				res := make([]map[string]any, len(req.Purls))
				for i, p := range req.Purls {
					res[i] = map[string]any{"purl": p, "matches": []any{}}
				}
				json.NewEncoder(w).Encode(map[string]any{"verdict": "ok", "exit_code": 72, "results": res})
			}))
			defer srv.Close()
			var delays []time.Duration
			var stderr bytes.Buffer
			cmd := &agent.Command{Args: []string{"ci", "--sca", "testdata/ci/trees/clean"}, Stderr: &stderr,
				Env:      []string{"SENTINEL_SERVER=" + srv.URL, "SENTINEL_API_KEY=k"},
				Hostname: func() (string, error) { return "h", nil },
				Sleep: func(_ context.Context, d time.Duration) error {
					delays = append(delays, d)
					return nil
				}}
			if got := agent.Main(context.Background(), cmd); got != tc.want {
				t.Errorf("exit %d, want %d\n%s", got, tc.want, stderr.String())
			}
			if got := attempts.Load(); got != tc.attempts {
				t.Errorf("%d attempts, want %d", got, tc.attempts)
			}
			if len(delays) != len(tc.minDelays) {
				t.Fatalf("delays %v, want %d", delays, len(tc.minDelays))
			}
			for i, d := range delays {
				if lo, hi := tc.minDelays[i], tc.minDelays[i]*3/2; d < lo || d > hi {
					t.Errorf("delay %d = %s, want in [%s, %s]", i, d, lo, hi)
				}
			}
		})
	}
}

// TestCIContextCanceled: a cancelled job is an error, never 72.
func TestCIContextCanceled(t *testing.T) {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // a service that never answers
		case <-r.Context().Done():
		case <-done:
		}
	}))
	defer srv.Close()
	defer close(done)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	cmd := &agent.Command{Args: []string{"ci", "--sca", "testdata/ci/trees/clean"},
		Env: []string{"SENTINEL_SERVER=" + srv.URL, "SENTINEL_API_KEY=k"}, Hostname: func() (string, error) { return "h", nil }}
	if got := agent.Main(ctx, cmd); got == 72 || got == 0 {
		t.Errorf("cancelled run exited %d", got)
	}
}

// BenchmarkCIOffline: sentinel ci --sca --offline-db over every lockfile
// case of internal/sbom/testdata/lockfiles, end to end in-process (reading
// the snapshot, building the index, walking, extracting, matching, the
// table on stderr).
func BenchmarkCIOffline(b *testing.B) {
	db := ciMustSnapshot(b)
	var code int
	var stderr string
	for b.Loop() {
		code, _, stderr = ciRun(b, nil, "ci", "--sca", "--offline-db", db, "../sbom/testdata/lockfiles")
	}
	if code != 70 && code != 71 && code != 72 {
		b.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	b.Logf("exit %d; %s", code, strings.Join(lines[max(0, len(lines)-2):], " / "))
}

// BenchmarkCIOfflineSmall is the fixed cost of an offline run (reading the
// snapshot and building the index) on a three-component tree.
func BenchmarkCIOfflineSmall(b *testing.B) {
	db := ciMustSnapshot(b)
	for b.Loop() {
		if code, _, stderr := ciRun(b, nil, "ci", "--sca", "--offline-db", db, "testdata/ci/trees/clean"); code != 72 {
			b.Fatalf("exit %d\n%s", code, stderr)
		}
	}
}
