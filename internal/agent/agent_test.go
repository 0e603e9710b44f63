package agent_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/agent"
)

func run(env []string, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	c := &agent.Command{Args: args, Stdout: &out, Stderr: &errb, Env: env,
		Hostname: func() (string, error) { return "h", nil }}
	code := agent.Main(context.Background(), c)
	return out.String(), errb.String(), code
}

func TestCommandLine(t *testing.T) {
	home := t.TempDir()
	env := []string{"SENTINEL_HOME=" + home}
	tests := []struct {
		name string
		env  []string
		args []string
		code int
		want string // in stdout+stderr
	}{
		{"no_command", env, nil, 2, "usage: sentinel"},
		{"unknown", env, []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"help", env, []string{"help"}, 0, "enroll"},
		{"version", env, []string{"version"}, 0, "sentinel dev"},
		{"enroll_needs_token", env, []string{"enroll", "--agent-server", "https://127.0.0.1:1"}, 2, "--token is required"},
		// --server is the API URL, never the agent listener: enrollment
		// asks for --agent-server.
		{"enroll_needs_agent_server", env, []string{"enroll", "--server", "https://127.0.0.1:1", "--token", "sntl_enr_x"}, 2, "--agent-server is required"},
		{"enroll_bad_token", env, []string{"enroll", "--agent-server", "https://127.0.0.1:1", "--token", "nope"}, 2, "malformed enrollment token"},
		{"enroll_plain_http", env, []string{"enroll", "--agent-server", "http://127.0.0.1:1", "--token", "sntl_enr_" + strings.Repeat("A", 43) + "." + strings.Repeat("A", 43)}, 2, "must be an https:// URL"},
		{"enroll_token_from_env", append(env, "SENTINEL_ENROLL_TOKEN=bad"), []string{"enroll", "--agent-server", "https://x:1"}, 2, "malformed enrollment token"},
		{"submit_needs_file", env, []string{"submit"}, 2, "usage: sentinel submit"},
		{"submit_needs_key", env, []string{"submit", "agent_test.go"}, 2, "SENTINEL_API_KEY"},
		{"submit_flags_after_file", env, []string{"submit", "agent_test.go", "--api-key", "k"}, 1, "not enrolled"},
		{"submit_key_from_env", append(env, "SENTINEL_API_KEY=k"), []string{"submit", "agent_test.go"}, 1, "not enrolled"},
		{"submit_missing_file", env, []string{"submit", "--api-key", "k", "nope.json"}, 1, "no such file"},
		{"no_home", nil, []string{"submit", "--api-key", "k", "agent_test.go"}, 2, "set SENTINEL_HOME"},
		{"kinds_unknown", env, []string{"sbom", "--kinds", "languages,jars", "."}, 2, "want all, or a comma-separated list of languages, os and binaries"},
		// Built software only: the real archives beside sbom's tests.
		{"kinds_binaries", env, []string{"sbom", "--kinds", "os,binaries", "-o", "-", "../sbom/testdata/binaries"}, 0, "pkg:maven/org.slf4j/slf4j-api@1.7.32"},
		{"xdg_home", []string{"XDG_CONFIG_HOME=" + home}, []string{"submit", "--api-key", "k", "agent_test.go"}, 1, home + "/sentinel/config.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := run(tc.env, tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("sentinel %q: exit %d, want %d; output %q, want it to contain %q", tc.args, code, tc.code, out+errOut, tc.want)
			}
		})
	}
}

type codeErr int

func (c codeErr) Error() string { return "x" }
func (c codeErr) ExitCode() int { return int(c) }

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0}, {errors.New("boom"), 1}, {codeErr(70), 70}, {errors.Join(errors.New("x"), codeErr(78)), 78},
	} {
		if got := agent.ExitCode(tc.err); got != tc.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestScanNotesGrouped: notes of one kind (here, go.mod files without a
// toolchain directive) print once in full, then as a count with a few
// paths; notes of another kind print on their own.
func TestScanNotesGrouped(t *testing.T) {
	dir := t.TempDir()
	for _, m := range []string{"a", "b", "c", "d", "e"} {
		mustWriteFile(t, filepath.Join(dir, m, "go.mod"), "module example.com/"+m+"\n\ngo 1.21\n")
	}
	_, stderr, code := run([]string{"SENTINEL_HOME=" + t.TempDir()}, "sbom", "-o", "-", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "no toolchain directive"); n != 1 {
		t.Errorf("the toolchain note printed %d times, want once:\n%s", n, stderr)
	}
	if !strings.Contains(stderr, "sentinel: note: a/go.mod: go/gomod: no toolchain directive: go 1.21 is the minimum Go version") ||
		!strings.Contains(stderr, "sentinel: note: the same for 4 more files (b/go.mod, c/go.mod, d/go.mod and 1 more)") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

func mustWriteFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
