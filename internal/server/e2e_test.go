package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agent"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/webhook"
)

// TestEndToEnd follows one component from a lockfile to an operator's
// tools, through the real service on loopback: intel is imported; a
// webhook is registered; an agent enrolls with a one-time token and
// submits the SBOM of a tree with Tomcat 9.0.30 (Ghostcat, CVE-2020-1938,
// in CISA KEV) over mutual TLS; the inventory finds it; a known-exploited
// finding appears; the webhook receives finding.created, signed.
func TestEndToEnd(t *testing.T) {
	ctx := context.Background()
	// The receiver is on 127.0.0.1: private targets are allowed here.
	s := servertest.Start(t, func(c *server.Config) { c.AllowPrivateTargets = true })
	servertest.SyncIntel(t, s)
	if _, err := server.CreateOrg(ctx, s.DB, "acme", "Acme Corp"); err != nil {
		t.Fatal(err)
	}
	admin := mustKey(t, s, "acme", sentinel.AllScopes)
	submitKey := mustKey(t, s, "acme", []string{sentinel.ScopeSCASubmit})

	api := func(method, path, body string, out any) int {
		t.Helper()
		req, _ := http.NewRequest(method, s.APIURL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "ApiKey "+admin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if out != nil {
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s %s: %v: %s", method, path, err, b)
			}
		}
		return resp.StatusCode
	}

	// The operator's receiver.
	var mu sync.Mutex
	var received []webhook.Event
	var secret string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if err := webhook.Verify(secret, r.Header.Get("Service-Signature"), body, 5*time.Minute); err != nil {
			t.Errorf("delivery signature: %v", err)
			w.WriteHeader(401)
			return
		}
		var e webhook.Event
		_ = json.Unmarshal(body, &e)
		if r.Header.Get("Service-Event") != e.Type || r.Header.Get("Service-Delivery") == "" {
			t.Errorf("delivery headers %v for %s", r.Header, e.Type)
		}
		received = append(received, e)
	}))
	defer recv.Close()
	var wh struct {
		ID, Secret string
	}
	mu.Lock()
	if code := api("POST", "/v1/webhooks", `{"url":"`+recv.URL+`","events":["finding.*","sbom.*"],"description":"siem"}`, &wh); code != 201 {
		t.Fatalf("register webhook: %d", code)
	}
	secret = wh.Secret
	mu.Unlock()

	// The agent enrolls and submits.
	var tok struct{ Token string }
	if code := api("POST", "/v1/agent/enrollment-tokens", `{}`, &tok); code != 201 {
		t.Fatalf("enrollment token: %d", code)
	}
	env := []string{"SENTINEL_HOME=" + t.TempDir(), "SENTINEL_API_KEY=" + submitKey, "SENTINEL_SERVER=" + s.APIURL()}
	runAgent := func(args ...string) {
		t.Helper()
		var out, errOut bytes.Buffer
		c := &agent.Command{Args: args, Stdout: &out, Stderr: &errOut, Env: env, Hostname: func() (string, error) { return "build-7", nil }}
		if code := agent.Main(ctx, c); code != 0 {
			t.Fatalf("sentinel %v: exit %d\n%s\n%s", args, code, out.String(), errOut.String())
		}
	}
	runAgent("enroll", "--agent-server", s.AgentURL(), "--token", tok.Token)
	runAgent("sbom", "--submit", "testdata/e2e")

	// The inventory knows where Tomcat runs, and that it is known-exploited.
	var hit struct {
		Matches   int      `json:"matches"`
		Hosts     []string `json:"hosts"`
		KEV       bool     `json:"kev"`
		FirstSeen string   `json:"first_seen"`
	}
	if code := api("GET", "/api/v1/inventory/components/search?name=org.apache.tomcat.embed:tomcat-embed-core&version=9.0.30", "", &hit); code != 200 ||
		hit.Matches < 1 || len(hit.Hosts) != 1 || hit.Hosts[0] != "build-7" || !hit.KEV || len(hit.FirstSeen) != len("2006-01-02T15:04Z") {
		t.Errorf("inventory search: %d %+v", code, hit)
	}
	// The same by its artifactId alone, as CycloneDX names it, and by purl.
	for _, q := range []string{"name=tomcat-embed-core&version=9.0.30", "name=" + url.QueryEscape("pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30")} {
		var again struct {
			Matches int      `json:"matches"`
			Hosts   []string `json:"hosts"`
			KEV     bool     `json:"kev"`
		}
		if code := api("GET", "/api/v1/inventory/components/search?"+q, "", &again); code != 200 || again.Matches != hit.Matches || !slices.Equal(again.Hosts, hit.Hosts) || !again.KEV {
			t.Errorf("inventory search %s: %d %+v, want %+v", q, code, again, hit)
		}
	}

	// A known-exploited finding appears, and the webhook hears of it.
	deadline := time.Now().Add(30 * time.Second)
	var fs struct{ Data []sentinel.Finding }
	for {
		api("GET", "/v1/findings?kev=true", "", &fs)
		mu.Lock()
		var created bool
		for _, e := range received {
			created = created || e.Type == sentinel.EventFindingCreated
		}
		mu.Unlock()
		if len(fs.Data) >= 2 && created { // Ghostcat and HTTP/2 Rapid Reset, both in KEV
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no KEV finding delivered: findings %+v, events %+v", fs.Data, received)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var f sentinel.Finding
	for _, x := range fs.Data {
		if x.AdvisoryID == "GHSA-c9hw-wf7x-jp9j" {
			f = x
		}
	}
	if f.AdvisoryID != "GHSA-c9hw-wf7x-jp9j" || f.Band != "critical" || f.AssetName != "build-7" || f.NearestFix != "9.0.31" ||
		f.Category != "vulnerable_component" || f.Status != "open" {
		t.Errorf("finding: %+v", f)
	}
	mu.Lock()
	defer mu.Unlock()
	var types []string
	for _, e := range received {
		types = append(types, e.Type)
		if e.Organization != "acme" || !strings.HasPrefix(e.ID, "evt_") {
			t.Errorf("envelope %+v", e)
		}
	}
	if !strings.Contains(strings.Join(types, ","), sentinel.EventSBOMSubmitted) {
		t.Errorf("no sbom.submitted delivered: %v", types)
	}
}
