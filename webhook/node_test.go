package webhook_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/webhook"
)

// repoRoot walks up from the test's working directory (the package
// directory) to the directory holding go.mod.
func repoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test's working directory")
		}
		dir = parent
	}
}

// mustNode returns the path of node, or skips the test when it is missing,
// except in CI (CI=true), where a missing node fails the test.
func mustNode(tb testing.TB) string {
	tb.Helper()
	return testenv.Tool(tb, "node", "install Node.js 20+ to check docs/webhooks/verify.mjs")
}

// TestNodeReferenceVerifier holds docs/webhooks/verify.mjs to the same
// answers as VerifyAt, for headers and bodies produced by SignatureHeader.
func TestNodeReferenceVerifier(t *testing.T) {
	node := mustNode(t)
	script := filepath.Join(repoRoot(t), "docs", "webhooks", "verify.mjs")

	ts := strconv.FormatInt(t0.Unix(), 10)
	sig := webhook.Sign(secret, t0, body)
	tests := []struct {
		name      string
		secret    string
		header    string
		body      []byte
		now       time.Time
		tolerance int
		wantValid bool
	}{
		{"valid", secret, webhook.SignatureHeader(t0, body, secret), body, t0, 300, true},
		{"valid_binary_body", secret, webhook.SignatureHeader(t0, []byte("\x00\xff\r\n\xc3"), secret), []byte("\x00\xff\r\n\xc3"), t0, 300, true},
		{"valid_empty_body", secret, webhook.SignatureHeader(t0, nil, secret), nil, t0, 300, true},
		{"rotation_second_matches", secret, webhook.SignatureHeader(t0, body, oldSecret, secret), body, t0, 300, true},
		{"whitespace_and_unknown_keys", secret, " t=" + ts + " , v2=zz ,\tv1=" + sig + " ", body, t0, 300, true},
		{"edge_late", secret, webhook.SignatureHeader(t0, body, secret), body, t0.Add(300 * time.Second), 300, true},
		{"edge_early", secret, webhook.SignatureHeader(t0, body, secret), body, t0.Add(-300 * time.Second), 300, true},
		{"non_ascii_secret", "whsec_é✓", webhook.SignatureHeader(t0, body, "whsec_é✓"), body, t0, 300, true},

		{"tampered_body", secret, webhook.SignatureHeader(t0, body, secret), append(append([]byte(nil), body...), '\n'), t0, 300, false},
		{"wrong_secret", "whsec_other", webhook.SignatureHeader(t0, body, secret), body, t0, 300, false},
		{"stale", secret, webhook.SignatureHeader(t0, body, secret), body, t0.Add(301 * time.Second), 300, false},
		{"future", secret, webhook.SignatureHeader(t0, body, secret), body, t0.Add(-301 * time.Second), 300, false},
		{"short_tolerance", secret, webhook.SignatureHeader(t0, body, secret), body, t0.Add(11 * time.Second), 10, false},
		{"uppercase_hex", secret, "t=" + ts + ",v1=" + strings.ToUpper(sig), body, t0, 300, false},
		{"missing_t", secret, "v1=" + sig, body, t0, 300, false},
		{"non_numeric_t", secret, "t=x" + ts + ",v1=" + sig, body, t0, 300, false},
		{"leading_zero_t", secret, "t=0" + ts + ",v1=" + sig, body, t0, 300, false},
		{"duplicate_t", secret, "t=" + ts + ",t=" + ts + ",v1=" + sig, body, t0, 300, false},
		{"no_v1", secret, "t=" + ts, body, t0, 300, false},
		{"empty_header", secret, "", body, t0, 300, false},
		{"not_pairs", secret, "t=" + ts + ";v1=" + sig, body, t0, 300, false},
		{"truncated_sig", secret, "t=" + ts + ",v1=" + sig[:60], body, t0, 300, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			goErr := webhook.VerifyAt(tt.secret, tt.header, tt.body, time.Duration(tt.tolerance)*time.Second, tt.now)
			if (goErr == nil) != tt.wantValid {
				t.Fatalf("VerifyAt = %v, want valid=%v", goErr, tt.wantValid)
			}
			cmd := exec.Command(node, script,
				"--secret", tt.secret,
				"--header", tt.header,
				"--tolerance", strconv.Itoa(tt.tolerance),
				"--now", strconv.FormatInt(tt.now.Unix(), 10))
			cmd.Stdin = bytes.NewReader(tt.body)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			switch {
			case err == nil:
				if !tt.wantValid {
					t.Errorf("verify.mjs exited 0 for an invalid delivery; Go said: %v", goErr)
				}
			case errors.As(err, &exit) && exit.ExitCode() == 1:
				if tt.wantValid {
					t.Errorf("verify.mjs exited 1 for a valid delivery: %s", stderr.String())
				}
				if !strings.HasPrefix(stderr.String(), "invalid: ") {
					t.Errorf("verify.mjs stderr = %q, want a reason starting with \"invalid: \"", stderr.String())
				}
			default:
				t.Fatalf("running verify.mjs: %v (stderr %q)", err, stderr.String())
			}
		})
	}
}

// TestNodeReferenceVerifier_SecretFromEnv checks the CLI's environment
// variable, which keeps the secret out of the process list, and that the
// default tolerance applies against the real clock.
func TestNodeReferenceVerifier_SecretFromEnv(t *testing.T) {
	node := mustNode(t)
	script := filepath.Join(repoRoot(t), "docs", "webhooks", "verify.mjs")
	cmd := exec.Command(node, script, "--header", webhook.SignatureHeader(time.Now(), body, secret))
	cmd.Env = append(os.Environ(), "SENTINEL_WEBHOOK_SECRET="+secret)
	cmd.Stdin = bytes.NewReader(body)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("verify.mjs with the secret from the environment: %v\n%s", err, out)
	}
}
