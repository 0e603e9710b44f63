package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/feedtest"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

func sentineld(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), args, &out, &errOut, func(k string) string { return env[k] })
	return code, out.String(), errOut.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func get(t *testing.T, url, key string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "ApiKey "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestAdminWhileServing runs the admin commands against the embedded store
// of a running service, as an operator would, and uses what they print.
func TestAdminWhileServing(t *testing.T) {
	dir := t.TempDir()
	s := servertest.Start(t, func(c *server.Config) { c.DataDir = dir })
	env := map[string]string{"SENTINEL_DATA": dir} // the environment names the store, as flags would

	if code, _, errOut := sentineld(t, env, "admin", "create-org", "--slug", "acme", "--name", "Acme Corp"); code != 0 {
		t.Fatalf("create-org: %d %s", code, errOut)
	}
	code, out, errOut := sentineld(t, env, "admin", "create-key", "--org", "acme", "--scopes", "sca:read,admin", "--name", "ci")
	if code != 0 {
		t.Fatalf("create-key: %d %s", code, errOut)
	}
	key := lastLine(out)
	if !strings.HasPrefix(key, "sntl_") || strings.Contains(key, " ") {
		t.Fatalf("the key must be alone on the last line: %q", out)
	}
	if st := get(t, s.APIURL()+"/v1/api-keys", key); st != 200 {
		t.Errorf("the printed key does not work: %d", st)
	}
	code, out, _ = sentineld(t, env, "admin", "create-enrollment-token", "--org", "acme")
	if code != 0 || !strings.HasPrefix(lastLine(out), "sntl_enr_") {
		t.Errorf("create-enrollment-token: %d %q", code, out)
	}
	if code, _, errOut := sentineld(t, env, "admin", "set-meter", "--org", "acme", "--meter", "scans", "--limit", "100"); code != 0 {
		t.Errorf("set-meter: %d %s", code, errOut)
	}
	if code, out, _ := sentineld(t, env, "admin", "list-orgs"); code != 0 || !strings.Contains(out, "acme") {
		t.Errorf("list-orgs: %d %q", code, out)
	}
	// Intel imported from the command line reaches the running service.
	src := servertest.IntelSources()
	code, out, errOut = sentineld(t, env, "intel", "sync", "--osv", src.OSV[0], "--kev", src.KEV, "--eol", src.EOL)
	if code != 0 || !strings.Contains(out, "sync 1:") || !strings.Contains(errOut, "intel: writing") {
		t.Errorf("intel sync: %d\n%s\n%s", code, out, errOut)
	}
	if code, out, _ := sentineld(t, env, "intel", "status"); code != 0 || !strings.Contains(out, "KEV entries: 1364") {
		t.Errorf("intel status: %d %q", code, out)
	}

	// The signing root, for recipients to pin: the command and the API agree.
	code, out, errOut = sentineld(t, env, "admin", "signing-root")
	fp := lastLine(out)
	if code != 0 || !strings.Contains(out, "BEGIN CERTIFICATE") || !strings.HasPrefix(fp, "sha256:") {
		t.Errorf("signing-root: %d %q %s", code, out, errOut)
	}
	req, _ := http.NewRequest("GET", s.APIURL()+"/v1/sca/signing-root", nil)
	req.Header.Set("Authorization", "ApiKey "+key)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		var root struct{ Fingerprint string }
		_ = json.NewDecoder(resp.Body).Decode(&root)
		resp.Body.Close()
		if "sha256:"+root.Fingerprint != fp {
			t.Errorf("GET /v1/sca/signing-root fingerprint %q, the command printed %q", root.Fingerprint, fp)
		}
	}
	if code, out, _ := sentineld(t, env, "admin", "--help"); code != 0 || !strings.Contains(out, "create-org") {
		t.Errorf("admin --help: %d %q", code, out)
	}

	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "no command"},
		{[]string{"bogus"}, 2, "unknown command"},
		{[]string{"admin", "create-key", "--org", "acme"}, 2, "--scopes are required"},
		{[]string{"admin", "create-key", "--org", "acme", "--scopes", "root"}, 2, "unknown scope"},
		{[]string{"admin", "create-key", "--org", "nope", "--scopes", "sca:read"}, 1, "not found"},
		{[]string{"admin", "create-org", "--slug", "acme"}, 1, "already exists"},
		{[]string{"admin", "set-meter", "--org", "acme", "--meter", "scans", "--limit", "-3"}, 2, "whole number"},
		{[]string{"intel", "sync"}, 2, "--osv"},
	} {
		code, _, errOut := sentineld(t, env, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("sentineld %v: exit %d %q, want %d containing %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

// TestServeDemo runs the README's first command: the service comes up on
// the embedded store and prints a key with every scope on its last line.
// Started again, it prints a new key and the first one stops working.
func TestServeDemo(t *testing.T) {
	dir := t.TempDir()
	api, first := serveDemo(t, dir)
	if st := get(t, api+"/v1/meters", first); st != 200 {
		t.Errorf("demo key on %s: %d", api, st)
	}
	api, second := serveDemo(t, dir)
	if st := get(t, api+"/v1/meters", second); st != 200 {
		t.Errorf("second demo key: %d", st)
	}
	if st := get(t, api+"/v1/meters", first); st != 401 {
		t.Errorf("the first demo key still works after a second start: %d", st)
	}
}

// serveDemo runs serve --demo on dir until the test ends, and returns the
// API URL and the key it printed.
func serveDemo(t *testing.T, dir string, flags ...string) (string, string) {
	t.Helper()
	api, key, _ := serveDemoOut(t, dir, flags...)
	return api, key
}

// serveDemoOut is serveDemo that also returns what serve printed before
// the key.
func serveDemoOut(t *testing.T, dir string, flags ...string) (string, string, string) {
	t.Helper()
	if len(flags) == 0 {
		flags = []string{"--intel-feeds", "off"}
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() {
		done <- Main(ctx, append([]string{"serve", "--demo", "--data", dir, "--addr", "127.0.0.1:0", "--agent-addr", "127.0.0.1:0", "--share-addr", "127.0.0.1:0"}, flags...),
			pw, io.Discard, func(string) string { return "" })
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var api, key string
	var printed strings.Builder
	deadline := time.After(30 * time.Second)
	lines := make(chan string)
	go func() {
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for key == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("serve exited before printing a key")
			}
			printed.WriteString(l + "\n")
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "API:"); ok {
				api = strings.TrimSpace(v)
			}
			if strings.HasPrefix(l, "sntl_") {
				key = l
			}
		case <-deadline:
			t.Fatal("no key printed within 30 s")
		}
	}
	go func() {
		for range lines {
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exited %d after shutdown", code)
			}
		case <-time.After(20 * time.Second):
			t.Error("serve did not shut down within 20 s")
		}
	})
	return api, key, printed.String()
}

// post sends a JSON body with the key and returns the status and body.
func post(t *testing.T, url, key, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Authorization", "ApiKey "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeDefaultIntel: a service with no intel says so, is not ready and
// answers matches 503 instead of "no matches"; with the feeds on (here a
// loopback site with the published layout) it syncs at start by itself,
// becomes ready, and its answers say how old the intel is.
func TestServeDefaultIntel(t *testing.T) {
	const purl = `{"purls":["pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30"]}`
	ready := func(api string) (int, string) {
		resp, err := http.Get(api + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	api, key, printed := serveDemoOut(t, t.TempDir(), "--intel-feeds", "off")
	if !strings.Contains(printed, "no advisories, and the feeds are off") {
		t.Errorf("serve with no intel and feeds off printed:\n%s", printed)
	}
	if st, body := ready(api); st != 503 || !strings.Contains(body, "sentineld intel sync") {
		t.Errorf("/readyz with no advisories: %d %s", st, body)
	}
	if st, body := post(t, api+"/v1/sca/match", key, purl); st != 503 || !strings.Contains(body, "no advisories are loaded") {
		t.Errorf("match with no advisories: %d %s", st, body)
	}

	site := feedtest.Start(t, "Maven")
	api, key, printed = serveDemoOut(t, t.TempDir(), "--intel-osv-base", site.URL+"/osv", "--intel-ecosystems", "Maven",
		"--intel-kev-url", site.URL+"/kev.json", "--intel-eol-url", site.URL+"/eol")
	if !strings.Contains(printed, "the first sync from the published feeds runs now") {
		t.Errorf("serve with feeds printed:\n%s", printed)
	}
	testenv.WaitFor(t, 60*time.Second, "/readyz after the first feed sync", func() bool {
		st, _ := ready(api)
		return st == 200
	})
	if _, body := ready(api); !strings.Contains(body, `"advisories":57`) {
		t.Errorf("/readyz says nothing of the intel: %s", body)
	}
	st, body := post(t, api+"/v1/sca/match", key, purl)
	var mr sentinel.MatchResponse
	if err := json.Unmarshal([]byte(body), &mr); st != 200 || err != nil || mr.Intel == nil || mr.Intel.SyncedAt == nil || mr.Intel.Stale ||
		mr.Intel.KEV != 1364 || len(mr.Results) != 1 || len(mr.Results[0].Matches) == 0 {
		t.Errorf("match after the feed sync: %d %s", st, body)
	}
}

// TestCreateUser makes a portal user from the command line: the set-up
// link is alone on the last line and opens the set-up page of the
// running service; user-setup-link replaces it.
func TestCreateUser(t *testing.T) {
	dir := t.TempDir()
	s := servertest.Start(t, func(c *server.Config) { c.DataDir = dir })
	env := map[string]string{"SENTINEL_DATA": dir}
	if code, _, errOut := sentineld(t, env, "admin", "create-org", "--slug", "acme"); code != 0 {
		t.Fatalf("create-org: %d %s", code, errOut)
	}
	if code, _, errOut := sentineld(t, env, "admin", "create-user", "--org", "acme", "--email", "ana@acme.example"); code != 2 {
		t.Errorf("without --role: %d %s", code, errOut)
	}
	if code, _, _ := sentineld(t, env, "admin", "create-user", "--org", "acme", "--email", "ana@acme.example", "--role", "owner"); code != 2 {
		t.Errorf("unknown role: %d", code)
	}
	code, out, errOut := sentineld(t, env, "admin", "create-user", "--org", "acme", "--email", "ana@acme.example", "--role", "admin",
		"--public-url", s.APIURL())
	if code != 0 {
		t.Fatalf("create-user: %d %s", code, errOut)
	}
	link := lastLine(out)
	if !strings.HasPrefix(link, s.APIURL()+"/setup/") || strings.Contains(link, " ") {
		t.Fatalf("the set-up link must be alone on the last line: %q", out)
	}
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the printed link: %d", resp.StatusCode)
	}
	if code, _, _ := sentineld(t, env, "admin", "create-user", "--org", "acme", "--email", "ana@acme.example", "--role", "viewer"); code != 1 {
		t.Errorf("the same email again: %d", code)
	}
	code, out, errOut = sentineld(t, env, "admin", "user-setup-link", "--org", "acme", "--email", "ANA@acme.example", "--public-url", s.APIURL())
	if code != 0 || lastLine(out) == link || !strings.Contains(lastLine(out), "/setup/") {
		t.Fatalf("user-setup-link: %d %q %s", code, out, errOut)
	}
	resp, err = http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("the replaced link: %d", resp.StatusCode)
	}
}
