package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/webhook"
)

// syncBuffer is a bytes.Buffer safe to read while the command writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestWebhooksListen registers a webhook on a real service pointing at
// sentinel webhooks listen, sends the test event, and reads it back; a
// forged delivery is refused.
func TestWebhooksListen(t *testing.T) {
	ctx := context.Background()
	s := servertest.Start(t, func(c *server.Config) { c.AllowPrivateTargets = true })
	if _, err := server.CreateOrg(ctx, s.DB, "acme", ""); err != nil {
		t.Fatal(err)
	}
	_, key, err := server.CreateKey(ctx, s.DB, "acme", "hooks", []string{sentinel.ScopeWebhooksWrite})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	call := func(method, path, body string) map[string]any {
		req, _ := http.NewRequest(method, s.APIURL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "ApiKey "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, out)
		}
		return out
	}
	hook := call("POST", "/v1/webhooks", `{"url":"http://`+addr+`/","events":["*"],"description":"listen test"}`)

	lctx, cancel := context.WithCancel(ctx)
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		c := &Command{Args: []string{"webhooks", "listen", "--addr", addr}, Stdout: &stdout, Stderr: &stderr,
			Env: []string{"SENTINEL_WEBHOOK_SECRET=" + hook["secret"].(string)}}
		done <- c.Run(lctx)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("listen: %v", err)
		}
	})
	testenv.WaitFor(t, 10*time.Second, "the listener", func() bool { return strings.Contains(stderr.String(), "listening on") })

	call("POST", "/webhooks/"+hook["id"].(string)+"/test", "")
	testenv.WaitFor(t, 30*time.Second, "the test event on stdout", func() bool { return strings.Contains(stdout.String(), `"type":"webhook.test"`) })
	var e webhook.Event
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdout.String())), &e); err != nil || e.Organization != "acme" || !strings.HasPrefix(e.ID, "evt_") {
		t.Errorf("printed event %q: %v", stdout.String(), err)
	}

	// A delivery signed with another secret is refused and reported.
	body := []byte(`{"id":"evt_forged","type":"finding.created","created_at":"2026-11-23T00:00:00Z","organization":"acme","data":{}}`)
	req, _ := http.NewRequest("POST", "http://"+addr+"/", bytes.NewReader(body))
	req.Header.Set("Service-Event", "finding.created")
	req.Header.Set("Service-Signature", webhook.SignatureHeader(time.Now(), body, "whsec_not_the_secret"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.Contains(stderr.String(), "refused a delivery") || strings.Contains(stdout.String(), "evt_forged") {
		t.Errorf("forged delivery: %d, stderr %q", resp.StatusCode, stderr.String())
	}
}
