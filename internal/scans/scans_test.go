package scans_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// npmFile returns a real npm distributable kept in internal/scan/testdata
// (see its SOURCES.md).
func npmFile(t *testing.T, path string) []byte {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "scan", "testdata", "npm", path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// site serves a small shop on loopback that loads real jQuery 1.12.4 and
// Bootstrap 3.3.7 files. Its listener can be closed and opened again on
// the same address, so the site can disappear and come back.
type site struct {
	t    *testing.T
	addr string
	srv  *httptest.Server
	h    http.Handler
}

func newSite(t *testing.T) *site {
	jq, bs := npmFile(t, "jquery/1.12.4/jquery.min.js"), npmFile(t, "bootstrap/3.3.7/bootstrap.min.js")
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" && r.URL.Path != "/products" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Server", "Apache/2.4.41 (Ubuntu)")
		fmt.Fprint(w, `<!doctype html><html><head><title>Shop</title>
<script src="/static/js/jquery.min.js"></script><script src="/static/js/bootstrap.min.js"></script></head>
<body><a href="/products">Products</a></body></html>`)
	})
	mux.HandleFunc("/static/js/jquery.min.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		w.Write(jq)
	})
	mux.HandleFunc("/static/js/bootstrap.min.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/javascript")
		w.Write(bs)
	})
	s := &site{t: t, h: mux}
	s.start("127.0.0.1:0")
	t.Cleanup(func() { s.srv.Close() })
	return s
}

func (s *site) start(addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: s.h}}
	s.srv.Start()
}

func (s *site) url() string { return "http://" + s.addr + "/" }

// hang serves pages that answer only when the test ends: a scan of it runs
// until it is canceled or times out.
func hang(t *testing.T) string {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.URL + "/"
}

type env struct {
	t   *testing.T
	s   *server.Server
	org *sentinel.Organization
	key string
}

func newEnv(t *testing.T, edit func(*server.Config)) *env {
	ctx := context.Background()
	s := servertest.Start(t, func(c *server.Config) {
		c.AllowPrivateTargets = true
		c.ScanTimeout = 30 * time.Second
		if edit != nil {
			edit(c)
		}
	})
	src := servertest.IntelSources()
	_, file, _, _ := runtime.Caller(0)
	src.OSV = append(src.OSV, filepath.Join(filepath.Dir(file), "..", "scan", "testdata", "osv"))
	if _, err := s.Intel.Sync(ctx, src, nil); err != nil {
		t.Fatal(err)
	}
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

// call makes an API request and decodes the JSON answer into out.
func (e *env) call(method, path, body string, out any) (int, http.Header) {
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
	return resp.StatusCode, resp.Header
}

func (e *env) create(target string) sentinel.Scan {
	e.t.Helper()
	var sc sentinel.Scan
	if code, _ := e.call("POST", "/v1/scans", `{"target":"`+target+`"}`, &sc); code != http.StatusCreated {
		e.t.Fatalf("POST /v1/scans: %d %+v", code, sc)
	}
	return sc
}

// wait polls a scan until it reaches a final state.
func (e *env) wait(id string) sentinel.Scan {
	e.t.Helper()
	var sc sentinel.Scan
	testenv.WaitFor(e.t, 60*time.Second, "scan "+id+" to end", func() bool {
		e.call("GET", "/v1/scans/"+id, "", &sc)
		return sc.Status == sentinel.ScanCompleted || sc.Status == sentinel.ScanFailed || sc.Status == sentinel.ScanCanceled
	})
	return sc
}

// events returns the organization's events of a type, oldest first.
func (e *env) events(typ string) []map[string]any {
	e.t.Helper()
	es, err := e.s.DB.FindEvents(context.Background(), sentinel.EventFilter{OrgID: e.org.ID, Type: typ, Limit: 1000})
	if err != nil {
		e.t.Fatal(err)
	}
	var out []map[string]any
	for i := len(es) - 1; i >= 0; i-- {
		var d map[string]any
		if err := json.Unmarshal(es[i].Data, &d); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// TestScanLifecycle scans a loopback site serving real jQuery 1.12.4 and
// Bootstrap 3.3.7 through the real service: the scan is queued, runs and
// completes; its detections carry versions, purls and hash evidence; they
// become findings (jQuery's CVE-2020-11023 is known-exploited) with that
// evidence and enter the inventory with the site as host; every event
// carries its data. Then the site goes away (asset.disappeared) and comes
// back (asset.reappeared).
func TestScanLifecycle(t *testing.T) {
	e := newEnv(t, nil)
	st := newSite(t)

	sc := e.create(st.url())
	if sc.Status != sentinel.ScanQueued || !strings.HasPrefix(sc.ID, "scan_") || sc.Target != st.url() || sc.CreatedAt.IsZero() ||
		!strings.HasPrefix(sc.AssetID, "ast_") {
		t.Fatalf("created scan %+v", sc)
	}
	sc = e.wait(sc.ID)
	if sc.Status != sentinel.ScanCompleted || sc.StartedAt == nil || sc.FinishedAt == nil || sc.Stats == nil || !sc.Stats.Reachable {
		t.Fatalf("scan %+v", sc)
	}
	byName := map[string]sentinel.Detection{}
	for _, d := range sc.Detections {
		byName[d.Name+" "+d.Version] = d
	}
	jq, ok := byName["jQuery 1.12.4"]
	if !ok || jq.Purl != "pkg:npm/jquery@1.12.4" || jq.Confidence != sentinel.ConfidenceHash ||
		!slices.ContainsFunc(jq.Evidence, func(ev sentinel.DetectionEvidence) bool { return ev.Kind == sentinel.EvidenceHash }) {
		t.Errorf("jQuery detection %+v in %+v", jq, sc.Detections)
	}
	if _, ok := byName["Bootstrap 3.3.7"]; !ok {
		t.Errorf("no Bootstrap 3.3.7 in %+v", sc.Detections)
	}
	if sc.Findings == 0 {
		t.Errorf("scan found no findings: %+v", sc)
	}

	// Findings, with the scan's evidence.
	var fs struct{ Data []sentinel.Finding }
	e.call("GET", "/v1/findings?asset="+sc.AssetID, "", &fs)
	var kev bool
	for _, f := range fs.Data {
		if f.Source != "scan" || f.Category != sentinel.CategoryVulnerableComponent || len(f.Evidence) == 0 || f.Evidence[0].Source != sc.ID {
			t.Errorf("finding %+v", f)
		}
		if f.Purl == "pkg:npm/jquery@1.12.4" && f.KEV {
			kev = true
		}
	}
	if len(fs.Data) != sc.Findings || !kev {
		t.Errorf("%d findings (scan says %d), known-exploited jQuery finding: %v", len(fs.Data), sc.Findings, kev)
	}
	// Ubuntu's Apache 2.4.41: matched at the upstream version, and its
	// findings say the distribution may have backported the fix.
	if d := byName["Apache HTTP Server 2.4.41"]; d.Distribution != "Ubuntu" {
		t.Errorf("Apache detection %+v", d)
	}
	apache := 0
	for _, f := range fs.Data {
		if f.Purl == "pkg:bitnami/apache@2.4.41" {
			apache++
			if !slices.ContainsFunc(f.Evidence, func(ev sentinel.FindingEvidence) bool {
				return ev.Kind == sentinel.EvidenceHeader && strings.Contains(ev.Detail, "Ubuntu's build: it may have backported the fix")
			}) {
				t.Errorf("Apache finding evidence %+v", f.Evidence)
			}
		}
	}
	if apache == 0 {
		t.Errorf("no finding for Ubuntu's Apache 2.4.41 among %d", len(fs.Data))
	}

	// The inventory: the site is where jQuery runs.
	var hit struct {
		Matches int      `json:"matches"`
		Hosts   []string `json:"hosts"`
		KEV     bool     `json:"kev"`
	}
	e.call("GET", "/api/v1/inventory/components/search?name=jquery&version=1.12.4", "", &hit)
	siteName := "http://" + st.addr
	if hit.Matches != 1 || !slices.Contains(hit.Hosts, siteName) || !hit.KEV {
		t.Errorf("inventory search: %+v, want host %s", hit, siteName)
	}

	// The asset.
	var asset struct {
		sentinel.Asset
		Components []struct{ Name, Version, Purl string }
		Scans      []sentinel.Scan
	}
	if code, _ := e.call("GET", "/v1/assets/"+sc.AssetID, "", &asset); code != 200 || asset.Kind != sentinel.AssetSite ||
		asset.Name != siteName || asset.State != sentinel.AssetActive || len(asset.Components) != len(sc.Detections) || len(asset.Scans) != 1 {
		t.Errorf("asset: %d %+v", code, asset)
	}

	// Events and their data.
	for _, typ := range []string{sentinel.EventScanQueued, sentinel.EventScanStarted, sentinel.EventScanCompleted} {
		es := e.events(typ)
		if len(es) != 1 || es[0]["scan_id"] != sc.ID || es[0]["asset_id"] != sc.AssetID || es[0]["target"] != st.url() {
			t.Errorf("%s events: %v", typ, es)
		}
	}
	done := e.events(sentinel.EventScanCompleted)[0]
	if done["findings"] != float64(sc.Findings) || done["detections"] != float64(len(sc.Detections)) || done["reachable"] != true {
		t.Errorf("scan.completed data %v", done)
	}
	if fa := e.events(sentinel.EventAssetFirstSeen); len(fa) != 1 || fa[0]["asset_id"] != sc.AssetID || fa[0]["kind"] != "site" {
		t.Errorf("asset.first_seen events %v", fa)
	}

	// The site goes away: the next scan completes unreachable, the asset
	// disappears, and its findings stay as they are.
	addr := st.addr
	st.srv.Close()
	gone := e.wait(e.create(st.url()).ID)
	if gone.Status != sentinel.ScanCompleted || gone.Stats == nil || gone.Stats.Reachable || gone.Stats.Unreachable == "" {
		t.Fatalf("scan of a closed site: %+v", gone)
	}
	for _, c := range e.events(sentinel.EventScanCompleted) {
		if _, isList := c["truncated"].([]any); !isList || c["reachable"] == nil {
			t.Errorf("scan.completed of %v: truncated %v (want a list, never null), reachable %v", c["scan_id"], c["truncated"], c["reachable"])
		}
	}
	if d := e.events(sentinel.EventAssetDisappeared); len(d) != 1 || d[0]["asset_id"] != sc.AssetID || d[0]["scan_id"] != gone.ID {
		t.Errorf("asset.disappeared events %v", d)
	}
	e.call("GET", "/v1/assets/"+sc.AssetID, "", &asset)
	if asset.State != sentinel.AssetDisappeared || asset.DisappearedAt == nil {
		t.Errorf("asset after disappearing: %+v", asset.Asset)
	}
	var open struct{ Data []sentinel.Finding }
	e.call("GET", "/v1/findings?status=open&asset="+sc.AssetID, "", &open)
	if len(open.Data) != len(fs.Data) {
		t.Errorf("an unreachable scan changed the findings: %d open, had %d", len(open.Data), len(fs.Data))
	}

	// And comes back.
	st.start(addr)
	back := e.wait(e.create(st.url()).ID)
	if back.Status != sentinel.ScanCompleted || !back.Stats.Reachable {
		t.Fatalf("scan of the returned site: %+v", back)
	}
	if r := e.events(sentinel.EventAssetReappeared); len(r) != 1 || r[0]["asset_id"] != sc.AssetID || r[0]["scan_id"] != back.ID {
		t.Errorf("asset.reappeared events %v", r)
	}
	var list struct {
		Data       []sentinel.Scan `json:"data"`
		NextCursor string          `json:"next_cursor"`
	}
	e.call("GET", "/v1/scans?asset="+sc.AssetID+"&limit=2", "", &list)
	if len(list.Data) != 2 || list.Data[0].ID != back.ID || list.NextCursor == "" {
		t.Errorf("scan list page: %+v", list)
	}
}

// TestCancelAndHardTimeout covers the two other ends: an operator cancels
// a running scan (scan.canceled, its slot freed at once), and a scan that
// outlives the hard time limit fails (scan.failed, reason timeout).
func TestCancelAndHardTimeout(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.ScanHardTimeout = 2 * time.Second })
	target := hang(t)

	sc := e.create(target)
	testenv.WaitFor(t, 30*time.Second, "the scan to run", func() bool {
		var x sentinel.Scan
		e.call("GET", "/v1/scans/"+sc.ID, "", &x)
		return x.Status == sentinel.ScanRunning
	})
	var canceled sentinel.Scan
	if code, _ := e.call("POST", "/v1/scans/"+sc.ID+"/cancel", "", &canceled); code != 200 || canceled.Status != sentinel.ScanCanceled {
		t.Fatalf("cancel: %d %+v", code, canceled)
	}
	if n, _ := e.s.Cap.InUse(context.Background(), e.org.ID); n != 0 {
		t.Errorf("%d slots held after the cancel", n)
	}
	if code, _ := e.call("POST", "/v1/scans/"+sc.ID+"/cancel", "", nil); code != http.StatusConflict {
		t.Errorf("second cancel: %d, want 409", code)
	}
	if c := e.events(sentinel.EventScanCanceled); len(c) != 1 || c[0]["scan_id"] != sc.ID {
		t.Errorf("scan.canceled events %v", c)
	}
	if got := e.wait(sc.ID); got.Status != sentinel.ScanCanceled {
		t.Errorf("canceled scan ended %s", got.Status)
	}

	slow := e.wait(e.create(target).ID)
	if slow.Status != sentinel.ScanFailed || !strings.Contains(slow.Error, "hard time limit") {
		t.Fatalf("scan past the hard limit: %+v", slow)
	}
	if f := e.events(sentinel.EventScanFailed); len(f) != 1 || f[0]["scan_id"] != slow.ID || f[0]["reason"] != "timeout" || f[0]["error"] == "" {
		t.Errorf("scan.failed events %v", f)
	}
	testenv.WaitFor(t, 10*time.Second, "the slot to be freed", func() bool {
		n, _ := e.s.Cap.InUse(context.Background(), e.org.ID)
		return n == 0
	})
}

// TestScanCap holds the organization's 12 slots with scans of a site that
// never answers: a 13th POST waits and gets 201 when a slot opens within
// the wait, and 429 scan_capacity with Retry-After when none does. An
// exhausted scans meter is 403 metered.
func TestScanCap(t *testing.T) {
	e := newEnv(t, nil)
	e.s.Cap.Wait = 3 * time.Second
	target := hang(t)
	var held []sentinel.Scan
	for range 12 {
		held = append(held, e.create(target))
	}

	// The 13th waits; a cancel frees a slot within the wait.
	type answer struct {
		code int
		sc   sentinel.Scan
		at   time.Time
	}
	got := make(chan answer, 1)
	go func() {
		var sc sentinel.Scan
		code, _ := e.call("POST", "/scans", `{"target":"`+target+`"}`, &sc)
		got <- answer{code, sc, time.Now()}
	}()
	// Give the 13th time to reach the cap; if it does not wait there, it
	// answers before the cancel below and the check after fails.
	time.Sleep(500 * time.Millisecond)
	freed := time.Now()
	e.call("POST", "/v1/scans/"+held[0].ID+"/cancel", "", nil)
	a := <-got
	if a.code != http.StatusCreated || a.sc.Status != sentinel.ScanQueued {
		t.Fatalf("13th scan after a slot opened: %d %+v", a.code, a.sc)
	}
	if a.at.Before(freed) {
		t.Errorf("the 13th scan was accepted before a slot opened")
	}

	// Nothing opens: 429 after the wait.
	var body struct{ Error string }
	code, h := e.call("POST", "/v1/scans", `{"target":"`+target+`"}`, &body)
	if code != http.StatusTooManyRequests || body.Error != "scan_capacity" || h.Get("Retry-After") == "" {
		t.Errorf("14th scan: %d %+v Retry-After %q", code, body, h.Get("Retry-After"))
	}

	// The monthly meter.
	limit := 0
	if err := server.SetMeter(context.Background(), e.s.DB, "acme", sentinel.MeterScans, &limit); err != nil {
		t.Fatal(err)
	}
	code, _ = e.call("POST", "/v1/scans", `{"target":"`+target+`"}`, &body)
	if code != http.StatusForbidden || body.Error != "metered" {
		t.Errorf("scan with an exhausted meter: %d %+v", code, body)
	}
}

// TestTargetsRefused: without --allow-private-targets a loopback target is
// refused before anything is queued; malformed targets are 400; an
// organization that requires proof of control is refused until the site
// publishes its token, then scanned.
func TestTargetsRefused(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.AllowPrivateTargets = false })
	for _, target := range []string{"http://127.0.0.1:9/", "http://169.254.169.254/latest/meta-data/", "ftp://example.com/", "not a url",
		"https://user:pw@example.com/", ""} {
		var body struct{ Error, Field string }
		if code, _ := e.call("POST", "/v1/scans", fmt.Sprintf(`{"target":%q}`, target), &body); code != 400 || body.Field != "target" {
			t.Errorf("target %q: %d %+v", target, code, body)
		}
	}
	var list struct{ Data []sentinel.Scan }
	if e.call("GET", "/v1/scans", "", &list); len(list.Data) != 0 {
		t.Errorf("refused targets queued scans: %+v", list.Data)
	}
}

// TestOwnershipVerification: with require_verified_targets on, a site is
// scanned only after it publishes the asset's token at the well-known URL.
func TestOwnershipVerification(t *testing.T) {
	e := newEnv(t, nil)
	var token sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/sentinel-verification.txt" {
			if v, ok := token.Load("t"); ok {
				fmt.Fprintln(w, v)
				return
			}
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "<html><body>hello</body></html>")
	}))
	defer srv.Close()
	if code, _ := e.call("PATCH", "/v1/organization", `{"require_verified_targets":true}`, nil); code != 200 {
		t.Fatalf("PATCH /v1/organization: %d", code)
	}
	var asset struct {
		sentinel.Asset
		Verification struct{ Token, HTTPURL string } `json:"verification"`
	}
	if code, _ := e.call("POST", "/v1/assets", `{"target":"`+srv.URL+`/","schedule":"off"}`, &asset); code != 201 || asset.Verification.Token == "" {
		t.Fatalf("POST /v1/assets: %d %+v", code, asset)
	}
	var body struct{ Error, Message string }
	if code, _ := e.call("POST", "/v1/scans", `{"target":"`+srv.URL+`/"}`, &body); code != 403 || !strings.Contains(body.Message, asset.Verification.Token) {
		t.Fatalf("scan of an unverified site: %d %+v", code, body)
	}
	if code, _ := e.call("POST", "/v1/assets/"+asset.ID+"/verify", "", &body); code != 400 {
		t.Errorf("verify without the token published: %d %+v", code, body)
	}
	token.Store("t", asset.Verification.Token)
	var verified struct {
		sentinel.Asset
		Verification struct{ Verified bool } `json:"verification"`
	}
	if code, _ := e.call("POST", "/v1/assets/"+asset.ID+"/verify", "", &verified); code != 200 || !verified.Verification.Verified || verified.VerifiedBy != "http" {
		t.Fatalf("verify: %d %+v", code, verified)
	}
	if sc := e.wait(e.create(srv.URL + "/").ID); sc.Status != sentinel.ScanCompleted {
		t.Errorf("scan of the verified site: %+v", sc)
	}
}

// TestScheduledScan registers a site with an hourly schedule; when it is
// due, the scheduler starts a scan marked scheduled and moves the next one
// an hour on. Running the scheduler again at once starts nothing more.
func TestScheduledScan(t *testing.T) {
	e := newEnv(t, nil)
	st := newSite(t)
	var asset sentinel.Asset
	if code, _ := e.call("POST", "/v1/assets", `{"target":"`+st.url()+`","schedule":"hourly","criticality":"high"}`, &asset); code != 201 ||
		asset.Schedule != "hourly" || asset.NextScanAt == nil || asset.Criticality != "high" {
		t.Fatalf("POST /v1/assets: %d %+v", code, asset)
	}
	ctx := context.Background()
	if _, err := e.s.DB.Exec(ctx, `UPDATE assets SET next_scan_at = 1 WHERE id = $1`, asset.ID); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := e.s.Scans.ScheduleJob(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	var list struct{ Data []sentinel.Scan }
	e.call("GET", "/v1/scans?asset="+asset.ID, "", &list)
	if len(list.Data) != 1 || !list.Data[0].Scheduled {
		t.Fatalf("scheduled scans: %+v", list.Data)
	}
	if sc := e.wait(list.Data[0].ID); sc.Status != sentinel.ScanCompleted {
		t.Errorf("scheduled scan: %+v", sc)
	}
	var after sentinel.Asset
	e.call("GET", "/v1/assets/"+asset.ID, "", &after)
	if after.NextScanAt == nil || time.Until(*after.NextScanAt) < 50*time.Minute {
		t.Errorf("next scheduled scan at %v", after.NextScanAt)
	}
	// Turned off, it is never due.
	var off sentinel.Asset
	if code, _ := e.call("PATCH", "/v1/assets/"+asset.ID, `{"schedule":"off"}`, &off); code != 200 || off.NextScanAt != nil {
		t.Errorf("schedule off: %d %+v", code, off)
	}
}
