package secrets_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAgentSafeImports keeps package secrets fit for the agent binary: no
// server package, database driver, Redis, Prometheus or huma among its
// dependencies.
func TestAgentSafeImports(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/sentinel-sca/sentinel/internal/secrets").CombinedOutput()
	if err != nil {
		t.Skipf("go list: %v\n%s", err, out)
	}
	forbidden := []string{
		"github.com/sentinel-sca/sentinel/internal/server", "github.com/sentinel-sca/sentinel/internal/store",
		"github.com/sentinel-sca/sentinel/internal/httpapi", "github.com/sentinel-sca/sentinel/internal/agentapi",
		"github.com/sentinel-sca/sentinel/internal/secrets/verify",
		"github.com/jackc/pgx", "modernc.org/sqlite", "github.com/redis/", "github.com/prometheus/", "github.com/danielgtaylor/huma",
		"github.com/aws/",
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if strings.HasPrefix(pkg, f) {
				t.Errorf("package secrets depends on %s", pkg)
			}
		}
	}
}
