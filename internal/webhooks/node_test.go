package webhooks_test

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
)

// repoRoot is the module root, two directories above this package.
func repoRoot(tb testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// TestNodeVerifierAcceptsRealDelivery runs the Node reference verifier,
// docs/webhooks/verify.mjs, on a delivery that sentineld really sent and a
// receiver captured: headers and raw body as they came over the wire. A
// tampered copy must fail. Without node the test skips, except in CI.
func TestNodeVerifierAcceptsRealDelivery(t *testing.T) {
	node := testenv.Tool(t, "node", "install Node.js 20+ to run this test")
	s, key := startServer(t, true)
	rcv := &capture{}
	hook := httptest.NewServer(rcv)
	defer hook.Close()
	var created webhooks.WithSecret
	if code := call(t, s.APIURL(), key, "POST", "/v1/webhooks", map[string]any{"url": hook.URL, "events": []string{"*"}}, &created); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if code := call(t, s.APIURL(), key, "POST", "/v1/webhooks/"+created.ID+"/test", nil, nil); code != 202 {
		t.Fatalf("test: %d", code)
	}
	d := rcv.wait(t, 1)[0]

	script := filepath.Join(repoRoot(t), "docs", "webhooks", "verify.mjs")
	run := func(body []byte) error {
		cmd := exec.Command(node, script, "--header", d.Signature, "--tolerance", "300")
		cmd.Env = append(os.Environ(), "SENTINEL_WEBHOOK_SECRET="+created.Secret)
		cmd.Stdin = bytes.NewReader(body)
		out, err := cmd.CombinedOutput()
		if err != nil {
			return errors.New(string(out))
		}
		return nil
	}
	if err := run(d.Body); err != nil {
		t.Errorf("verify.mjs rejected a real delivery: %v\nheader %s\nbody %s", err, d.Signature, d.Body)
	}
	if err := run(append(bytes.Clone(d.Body), ' ')); err == nil {
		t.Error("verify.mjs accepted a tampered body")
	}
}
