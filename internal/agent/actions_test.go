package agent_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/intel"
)

// TestCIGitHubActions: a workflow running tj-actions/changed-files at a
// tag of the compromised releases (CVE-2025-30066, in the real CISA
// catalog) fails the offline gate as known-exploited (70); pinned to the
// fixed release, it passes (72). The advisory has the shape of
// GHSA-mrrh-fwg8-r2c3.
func TestCIGitHubActions(t *testing.T) {
	rec, err := intel.DecodeAdvisory([]byte(`{"id":"GHSA-mrrh-fwg8-r2c3","aliases":["CVE-2025-30066"],"modified":"2025-03-20T00:00:00Z",` +
		`"summary":"tj-actions changed-files through 45.0.7 allows remote attackers to discover secrets by reading actions logs",` +
		`"affected":[{"package":{"ecosystem":"GitHub Actions","name":"tj-actions/changed-files"},` +
		`"ranges":[{"type":"ECOSYSTEM","events":[{"introduced":"0"},{"fixed":"46.0.1"}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(ciKEVFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kev, err := intel.DecodeKEV(f)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := intel.WriteSnapshot(&buf, &intel.Snapshot{Created: time.Now().UTC(), Advisories: []*intel.Advisory{rec}, KEV: kev}); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "intel.zip")
	if err := os.WriteFile(db, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		uses string
		code int
	}{
		{"tj-actions/changed-files@v45", 70},
		{"tj-actions/changed-files@48f7a9c1b0c7a5e3d2f1e0d9c8b7a6f5e4d3c2b1 # v45.0.7", 70},
		{"tj-actions/changed-files@v46.0.1", 72},
	} {
		tree := t.TempDir()
		wf := filepath.Join(tree, ".github", "workflows", "ci.yml")
		if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
			t.Fatal(err)
		}
		doc := "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: " + c.uses + "\n"
		if err := os.WriteFile(wf, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := ciRun(t, []string{"SENTINEL_HOME=" + t.TempDir()}, "ci", "--sca", "--offline-db", db, tree)
		if code != c.code {
			t.Errorf("uses: %s: exit %d, want %d\n%s", c.uses, code, c.code, stderr)
		}
		if c.code == 70 && !strings.Contains(stderr, "tj-actions/changed-files") {
			t.Errorf("uses: %s: the table does not name the action:\n%s", c.uses, stderr)
		}
	}
}
