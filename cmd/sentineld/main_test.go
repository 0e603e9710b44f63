package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
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
func TestServeDemo(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() {
		done <- Main(ctx, []string{"serve", "--demo", "--data", dir, "--addr", "127.0.0.1:0", "--agent-addr", "127.0.0.1:0", "--share-addr", "127.0.0.1:0"},
			pw, io.Discard, func(string) string { return "" })
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var api, key string
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
	if st := get(t, api+"/v1/meters", key); st != 200 {
		t.Errorf("demo key on %s: %d", api, st)
	}
	cancel()
	go func() {
		for range lines {
		}
	}()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d after shutdown", code)
		}
	case <-time.After(20 * time.Second):
		t.Error("serve did not shut down within 20 s")
	}
}
