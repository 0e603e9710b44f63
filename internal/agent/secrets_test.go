package agent_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/agent"
)

// TestSecretsCommand runs sentinel secrets on a clean tree and on one with
// a planted token: the exit codes, the outputs (never the value), the
// ignore file, the key, and the usage errors.
func TestSecretsCommand(t *testing.T) {
	home := t.TempDir()
	env := []string{"SENTINEL_HOME=" + home}
	clean := t.TempDir()
	if err := os.WriteFile(filepath.Join(clean, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	leaky := t.TempDir()
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	value := "ghp_SNTL" + hex.EncodeToString(b) // made when the test runs, never kept in the repository
	if err := os.WriteFile(filepath.Join(leaky, "release.env"), []byte("GITHUB_TOKEN="+value+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	if out, errOut, code := run(env, "secrets", clean); code != 0 || !strings.Contains(out, "No secrets found") {
		t.Errorf("clean tree: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code := run(env, "secrets", leaky)
	if code != agent.ExitSecretsFound || !strings.Contains(out, "github-pat") || !strings.Contains(out, "release.env:1") ||
		strings.Contains(out+errOut, value) {
		t.Errorf("planted token: exit %d, want %d\n%s%s", code, agent.ExitSecretsFound, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "secrets.key")); err != nil {
		t.Errorf("no fingerprint key in SENTINEL_HOME: %v", err)
	}

	// JSON to a file, with a key from the environment.
	report := filepath.Join(t.TempDir(), "report.json")
	keyEnv := append(env, "SENTINEL_SECRETS_KEY="+strings.Repeat("ab", 32))
	if _, errOut, code := run(keyEnv, "secrets", "--format", "json", "-o", report, leaky); code != agent.ExitSecretsFound {
		t.Fatalf("json: exit %d\n%s", code, errOut)
	}
	data, err := os.ReadFile(report)
	if err != nil || strings.Contains(string(data), value) {
		t.Fatalf("report: %v (or it holds the value)", err)
	}
	var r struct {
		Detections []struct {
			Fingerprint string `json:"fingerprint"`
		} `json:"detections"`
	}
	if err := json.Unmarshal(data, &r); err != nil || len(r.Detections) != 1 {
		t.Fatalf("report: %v %s", err, data)
	}

	// Accepted in the ignore file (by fingerprint, under the same key): clean.
	ignore := "ignore:\n  - fingerprint: " + r.Detections[0].Fingerprint + "\n    reason: revoked, history rewrite pending\n    expires: 2099-12-31\n"
	if err := os.WriteFile(filepath.Join(leaky, ".sentinel-secrets-ignore.yaml"), []byte(ignore), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := run(keyEnv, "secrets", leaky); code != 0 || !strings.Contains(out, "Suppressed by the ignore file") {
		t.Errorf("accepted secret: exit %d\n%s%s", code, out, errOut)
	}
	// Under another key the fingerprint differs: found again.
	if _, _, code := run(env, "secrets", leaky); code != agent.ExitSecretsFound {
		t.Errorf("ignore entry under another key: exit %d", code)
	}

	for _, tc := range []struct {
		name string
		env  []string
		args []string
		code int
		want string
	}{
		{"bad_format", env, []string{"secrets", "--format", "sarif", clean}, 2, "--format"},
		{"bad_exclude", env, []string{"secrets", "--exclude", "[", clean}, 2, "not a valid glob"},
		{"bad_key", append(env, "SENTINEL_SECRETS_KEY=xyz"), []string{"secrets", clean}, 2, "SENTINEL_SECRETS_KEY"},
		{"submit_needs_key", env, []string{"secrets", "--submit", leaky}, 2, "secrets:submit"},
		{"submit_needs_enrollment", append(env, "SENTINEL_API_KEY=k"), []string{"secrets", "--submit", "--ignore", filepath.Join(clean, "none.yaml"), leaky}, 2, "none.yaml"},
		{"two_dirs", env, []string{"secrets", clean, leaky}, 2, "usage"},
		{"missing_dir", env, []string{"secrets", filepath.Join(clean, "nope")}, 1, "nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := run(tc.env, tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("sentinel %q: exit %d, want %d; output %q, want it to contain %q", tc.args, code, tc.code, out+errOut, tc.want)
			}
		})
	}
	// Not enrolled: the scan's result stands, the submission fails.
	if err := os.Remove(filepath.Join(leaky, ".sentinel-secrets-ignore.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(append(env, "SENTINEL_API_KEY=k"), "secrets", "--submit", leaky); code != 1 || !strings.Contains(errOut, "not enrolled") {
		t.Errorf("submit without enrollment: exit %d\n%s", code, errOut)
	}
}
