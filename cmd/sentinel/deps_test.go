package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// forbidden are packages the agent must not link: the service's packages
// (store, HTTP API, assembly, and the features behind them), database/sql
// and its drivers, Redis, Prometheus and huma. Each entry also forbids the
// packages below it, except those in allowed.
var forbidden = []string{
	"github.com/sentinel-sca/sentinel/internal/store",
	"github.com/sentinel-sca/sentinel/internal/httpapi",
	"github.com/sentinel-sca/sentinel/internal/server",
	"github.com/sentinel-sca/sentinel/internal/intelsvc",
	"github.com/sentinel-sca/sentinel/internal/agents",
	"github.com/sentinel-sca/sentinel/internal/inventory",
	"github.com/sentinel-sca/sentinel/internal/keys",
	"github.com/sentinel-sca/sentinel/internal/org",
	"github.com/sentinel-sca/sentinel/internal/watch",
	"github.com/sentinel-sca/sentinel/internal/finding",
	"github.com/sentinel-sca/sentinel/internal/webhooks",
	"github.com/sentinel-sca/sentinel/internal/webhookd",
	"github.com/sentinel-sca/sentinel/internal/share",
	"github.com/sentinel-sca/sentinel/internal/jobs",
	"github.com/sentinel-sca/sentinel/internal/secrets/intake",
	"github.com/sentinel-sca/sentinel/internal/secrets/verify",
	"github.com/sentinel-sca/sentinel/internal/edgesvc",
	"github.com/sentinel-sca/sentinel/internal/edge",
	"database/sql",
	"github.com/jackc/pgx",
	"github.com/lib/pq",
	"modernc.org/sqlite",
	"github.com/mattn/go-sqlite3",
	"github.com/redis/go-redis",
	"github.com/go-redis/redis",
	"github.com/prometheus",
	"github.com/danielgtaylor/huma",
}

// allowed are packages below a forbidden path that the agent may link:
// what the agent and the service both speak, and the interfaces of
// database/sql/driver, which github.com/google/uuid implements.
var allowed = []string{
	"github.com/sentinel-sca/sentinel/internal/agents/wire",
	"database/sql/driver",
}

// viaOSPackages are the packages through which the agent may reach SQLite
// and database/sql: RHEL 9, Fedora and their kin keep the RPM database in
// SQLite, and the agent reads it, read-only, to list OS packages. A
// forbidden package that is still reachable with these left out comes from
// somewhere else, and fails the test.
var viaOSPackages = []string{
	"github.com/google/osv-scalibr/extractor/filesystem/os/rpm",
	"github.com/erikvarga/go-rpmdb/pkg/sqlite3",
}

// sqliteFamily are the forbidden entries viaOSPackages may bring.
var sqliteFamily = []string{"database/sql", "modernc.org/sqlite"}

// isForbidden reports whether pkg is a forbidden path or below one, and
// which.
func isForbidden(pkg string) (string, bool) {
	if slices.Contains(allowed, pkg) {
		return "", false
	}
	for _, f := range forbidden {
		if pkg == f || strings.HasPrefix(pkg, f+"/") {
			return f, true
		}
	}
	return "", false
}

// TestAgentDoesNotLinkTheService keeps the agent binary small: it fails
// when cmd/sentinel reaches any forbidden package, and names the import
// chain that brought it in.
func TestAgentDoesNotLinkTheService(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the go command is needed to list the agent's dependencies: %v", err)
		}
		t.Skipf("no go command in PATH: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", ".").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list -deps: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list -deps: %v", err)
	}
	imports := map[string][]string{} // package -> its imports
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imps, _ := strings.Cut(line, ":")
		imports[pkg] = strings.Fields(imps)
		pkgs = append(pkgs, pkg)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list -deps listed %d packages; want the agent's dependencies:\n%s", len(pkgs), out)
	}
	// What the agent reaches when the RPM database readers are left out.
	without := reachable(imports, viaOSPackages)
	reported := map[string]bool{} // one error per forbidden entry
	for _, pkg := range pkgs {
		f, bad := isForbidden(pkg)
		if bad && slices.Contains(sqliteFamily, f) && !without[pkg] {
			continue // only through the RPM database reader
		}
		if bad && !reported[f] {
			reported[f] = true
			t.Errorf("cmd/sentinel links %s (forbidden: %s), through %s", pkg, f, strings.Join(importChain(imports, pkg), " -> "))
		}
	}
}

// reachable returns the packages reachable from the main package without
// passing through any of skip.
func reachable(imports map[string][]string, skip []string) map[string]bool {
	const main = "github.com/sentinel-sca/sentinel/cmd/sentinel"
	seen := map[string]bool{main: true}
	queue := []string{main}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range imports[p] {
			if !seen[q] && !slices.Contains(skip, q) {
				seen[q] = true
				queue = append(queue, q)
			}
		}
	}
	return seen
}

// importChain returns a shortest import path from the main package to pkg.
func importChain(imports map[string][]string, pkg string) []string {
	const main = "github.com/sentinel-sca/sentinel/cmd/sentinel"
	prev := map[string]string{main: ""}
	queue := []string{main}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == pkg {
			var chain []string
			for ; p != ""; p = prev[p] {
				chain = append([]string{p}, chain...)
			}
			return chain
		}
		for _, imp := range imports[p] {
			if _, seen := prev[imp]; !seen {
				prev[imp] = p
				queue = append(queue, imp)
			}
		}
	}
	return []string{pkg}
}

func TestIsForbidden(t *testing.T) {
	for _, tc := range []struct {
		pkg  string
		want bool
	}{
		{"github.com/sentinel-sca/sentinel/internal/store", true},
		{"github.com/sentinel-sca/sentinel/internal/store/storetest", true},
		{"github.com/sentinel-sca/sentinel/internal/storefront", false},
		{"github.com/sentinel-sca/sentinel/internal/evidence/verify", false},
		{"github.com/sentinel-sca/sentinel/internal/agents", true},
		{"github.com/sentinel-sca/sentinel/internal/agents/wire", false},
		{"github.com/sentinel-sca/sentinel/internal/organizer", false},
		{"database/sql", true},
		{"database/sql/driver", false},
		{"github.com/jackc/pgx/v5/pgconn", true},
		{"modernc.org/sqlite/lib", true},
		{"github.com/prometheus/client_golang/prometheus", true},
		{"github.com/danielgtaylor/huma/v2", true},
		{"github.com/redis/go-redis/v9", true},
	} {
		if _, got := isForbidden(tc.pkg); got != tc.want {
			t.Errorf("isForbidden(%q) = %v, want %v", tc.pkg, got, tc.want)
		}
	}
}
