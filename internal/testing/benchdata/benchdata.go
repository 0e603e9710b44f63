// Package benchdata fills a store with a large synthetic inventory for the
// benchmarks: submissions from many hosts, each listing components drawn
// from a few popular packages and a long tail, with the sightings index,
// each host's live source and its asset; optionally findings. The rows are
// written with bulk SQL (one INSERT ... SELECT over a counter per table),
// so that millions of rows take seconds or minutes rather than millions of
// inserts.
//
// The data is deterministic: component k of submission s is package
// Shape.Package(s, k) at version Shape.Version(s, k), and the SQL computes
// the same formulas, so a benchmark can predict what it will find.
//
// Seeded SQLite data directories can be kept between runs (Cached): a
// benchmark then copies the seeded files instead of seeding again.
package benchdata

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/store"
)

// Shape is the size and spread of a synthetic inventory. Submission s
// comes from host "host-" + (s % Hosts), at start + s * Step; the newest
// submission of each host is its live source. Packages are npm's "lib-N":
// N < Popular are popular (PopularPerSub of each submission's components),
// the others the tail.
type Shape struct {
	Subs, PerSub, Hosts int
	Popular, Tail       int
	PopularPerSub       int
	// Versions is how many versions each package has: 1.0.0 to 1.(Versions-1).0.
	Versions int
	// Step is the time between two submissions.
	Step time.Duration
}

// Search1M is the inventory of the search and page benchmarks: 1,000,000
// component occurrences, 10,000 submissions of 100 components from 1,000
// hosts, 30 of each submission's components from 300 popular packages and
// 70 from a tail of 50,000, over a year (a submission every 50 minutes).
var Search1M = Shape{Subs: 10_000, PerSub: 100, Hosts: 1_000, Popular: 300, Tail: 50_000, PopularPerSub: 30, Versions: 5,
	Step: 50 * time.Minute}

// Watch5M is the inventory of the watch benchmark: 10,000 live SBOMs (one
// per host) of 500 components, 5,000,000 occurrences; 150 of each SBOM's
// components from 300 popular packages (each popular package is on about
// half the hosts), 350 from a tail of 50,000.
var Watch5M = Shape{Subs: 10_000, PerSub: 500, Hosts: 10_000, Popular: 300, Tail: 50_000, PopularPerSub: 150, Versions: 5,
	Step: time.Minute}

// Rows is the number of inventory rows of the shape.
func (sh Shape) Rows() int { return sh.Subs * sh.PerSub }

// Package returns the package number of component k of submission s.
// Within one submission the packages are distinct (the multipliers are
// prime to the counts).
func (sh Shape) Package(s, k int) int {
	x := s*sh.PerSub + k
	if k < sh.PopularPerSub {
		return (x * 7919) % sh.Popular
	}
	return sh.Popular + (x*104729)%sh.Tail
}

// Version returns the minor version of component k of submission s: a
// package's versions vary from one submission to the next.
func (sh Shape) Version(s, k int) int { return (s*3 + s*sh.PerSub + k) % sh.Versions }

// Name is package p's name; Purl its purl at minor version v.
func Name(p int) string    { return "lib-" + strconv.Itoa(p) }
func Purl(p, v int) string { return fmt.Sprintf("pkg:npm/lib-%d@1.%d.0", p, v) }

// Host is host h's name, AssetID its asset's id (SeedInventory creates
// it), and SubmissionID submission s's id.
func Host(h int) string         { return "host-" + strconv.Itoa(h) }
func AssetID(h int) string      { return "ast_bench" + strconv.Itoa(h) }
func SubmissionID(s int) string { return "sub_bench" + strconv.Itoa(s) }

// counter is a CTE n(x) counting from 0 to max - 1 as BIGINT (products of
// the formulas overflow 32 bits).
func counter(engine string, max int) string {
	if engine == store.Postgres {
		return fmt.Sprintf(`WITH n(x) AS (SELECT CAST(g AS BIGINT) FROM generate_series(0, %d) g) `, max-1)
	}
	return fmt.Sprintf(`WITH RECURSIVE n(x) AS (SELECT CAST(0 AS BIGINT) UNION ALL SELECT x + 1 FROM n WHERE x < %d) `, max-1)
}

// SeedInventory writes the shape's submissions (from start), inventory
// rows, sightings, live sources and host assets for the organization.
func SeedInventory(tb testing.TB, db *store.DB, orgID string, sh Shape, start time.Time) {
	tb.Helper()
	t0 := time.Now()
	ctx := context.Background()
	exec := func(what, q string, args ...any) {
		tb.Helper()
		if _, err := db.Exec(ctx, q, args...); err != nil {
			tb.Fatalf("seed %s: %v", what, err)
		}
	}
	at := start.UnixMilli()
	step := sh.Step.Milliseconds()
	d := func(n int) string { return strconv.Itoa(n) }
	exec("submissions", counter(db.Engine, sh.Subs)+`INSERT INTO sbom_submissions (id, org_id, host, asset, spec_version, component_count,
		indexed_count, size, sha256, created_at) SELECT 'sub_bench' || x, $1, 'host-' || (x % `+d(sh.Hosts)+`), '', '1.5', `+d(sh.PerSub)+`,
		`+d(sh.PerSub)+`, 1000, '00', CAST($2 AS BIGINT) + x * `+strconv.FormatInt(step, 10)+` FROM n`, orgID, at)
	// Chunks of 1,000,000 rows keep each statement's memory bounded.
	const chunk = 1_000_000
	for lo := 0; lo < sh.Rows(); lo += chunk {
		n := min(chunk, sh.Rows()-lo)
		exec("inventory", counter(db.Engine, n)+`INSERT INTO inventory (org_id, submission_id, host, purl, ecosystem, name, version,
			first_seen, last_seen)
			SELECT $1, 'sub_bench' || s, 'host-' || (s % `+d(sh.Hosts)+`), 'pkg:npm/lib-' || p || '@1.' || v || '.0', 'npm',
				'lib-' || p, '1.' || v || '.0', CAST($2 AS BIGINT) + s * `+strconv.FormatInt(step, 10)+`, CAST($2 AS BIGINT) + s * `+strconv.FormatInt(step, 10)+`
			FROM (SELECT x / `+d(sh.PerSub)+` AS s, (x / `+d(sh.PerSub)+` * 3 + x) % `+d(sh.Versions)+` AS v,
				CASE WHEN x % `+d(sh.PerSub)+` < `+d(sh.PopularPerSub)+` THEN (x * 7919) % `+d(sh.Popular)+`
				ELSE `+d(sh.Popular)+` + (x * 104729) % `+d(sh.Tail)+` END AS p
				FROM (SELECT x + `+d(lo)+` AS x FROM n) m) t`, orgID, at)
	}
	exec("sightings", `INSERT INTO inventory_sightings (org_id, host, ecosystem, name, version, purl, first_seen, last_seen, occurrences,
		last_submission_id) SELECT org_id, host, ecosystem, name, version, MIN(purl), MIN(first_seen), MAX(last_seen), COUNT(*), MAX(submission_id)
		FROM inventory WHERE org_id = $1 GROUP BY org_id, host, ecosystem, name, version`, orgID)
	// Submission s is the newest of its host when no later one is: s >=
	// Subs - Hosts.
	exec("live sources", `INSERT INTO inventory_live (org_id, host, source_id, kind, created_at)
		SELECT org_id, host, id, 'sbom', created_at FROM sbom_submissions
		WHERE org_id = $1 AND created_at >= CAST($2 AS BIGINT)`, orgID, at+int64(max(sh.Subs-sh.Hosts, 0))*step)
	exec("assets", counter(db.Engine, sh.Hosts)+`INSERT INTO assets (id, org_id, name, kind, criticality, first_seen, last_seen)
		SELECT 'ast_bench' || x, $1, 'host-' || x, 'host', 'medium', $2, $2 FROM n`, orgID, at)
	if db.Engine == store.Postgres {
		// What autovacuum does after a bulk load: statistics, and the
		// visibility map that allows index-only scans. (SQLite keeps no
		// statistics unless asked, and the service never asks.)
		exec("analyze", `VACUUM ANALYZE`)
	}
	var inv int
	_ = db.QueryRow(ctx, `SELECT COUNT(*) FROM inventory WHERE org_id = $1`, orgID).Scan(&inv)
	tb.Logf("%s: %d inventory rows seeded in %v", db.Engine, inv, time.Since(t0).Round(time.Second))
}

// Findings is a spread of findings over an organization's hosts, first
// seen over a year: 60% open, 10% accepted, 25% resolved, 5% false
// positives; 2% known-exploited; 30% with one of Owners owners. Finding x
// is on host x % Hosts, about pkg:npm/lib-(x % 5000)@1.0.0, advisory
// GHSA-bench-x.
type Findings struct {
	N, Hosts, Owners int
}

const dayMillis = 86_400_000

// SeedFindings writes the findings, as of now.
func SeedFindings(tb testing.TB, db *store.DB, orgID string, f Findings, now time.Time) {
	tb.Helper()
	kev := "x % 50 = 0"
	d := strconv.Itoa
	_, err := db.Exec(context.Background(), counter(db.Engine, f.N)+`INSERT INTO findings (id, org_id, asset_id, purl, advisory_id, category, cwe, summary, aliases,
		severity, cvss_score, kev, kev_date_added, fixed_versions, nearest_fix, risk_score, band, sla_due_at, status, owner, compliance,
		source, first_seen, last_seen, resolved_at, updated_at, evidence)
		SELECT 'fnd_' || (1000000 + x), $1, 'ast_bench' || (x % `+d(f.Hosts)+`), 'pkg:npm/lib-' || (x % 5000) || '@1.0.0',
			'GHSA-bench-' || x, 'vulnerable_component', 'CWE-1395', 'A vulnerability in lib-' || (x % 5000), '[]',
			CASE WHEN risk >= 90 THEN 'critical' WHEN risk >= 70 THEN 'high' WHEN risk >= 40 THEN 'medium' ELSE 'low' END, risk / 10.0,
			`+kev+`, '', '["1.0.1"]', '1.0.1', risk,
			CASE WHEN risk >= 90 THEN 'critical' WHEN risk >= 70 THEN 'high' WHEN risk >= 40 THEN 'medium' ELSE 'low' END,
			first + CASE WHEN risk >= 90 THEN 3 WHEN risk >= 70 THEN 7 WHEN risk >= 40 THEN 30 ELSE 90 END * CAST(`+d(dayMillis)+` AS BIGINT),
			CASE WHEN x % 20 < 12 THEN 'open' WHEN x % 20 < 14 THEN 'accepted' WHEN x % 20 < 19 THEN 'resolved' ELSE 'false_positive' END,
			CASE WHEN x % 10 < 3 THEN 'team-' || (x % `+d(f.Owners)+`) ELSE '' END, '[]', 'sbom', first, first,
			CASE WHEN x % 20 >= 14 AND x % 20 < 19 THEN first + (x % 10) * 3600000 END, first, '[]'
		FROM (SELECT x, CASE WHEN `+kev+` THEN 95 ELSE (x * 37) % 100 END AS risk,
			CAST($2 AS BIGINT) - (x % 365) * `+d(dayMillis)+` - (x % 1000) * 60000 AS first FROM n) t`, orgID, now.UnixMilli())
	if err != nil {
		tb.Fatalf("seed findings: %v", err)
	}
	if db.Engine == store.Postgres {
		if _, err = db.Exec(context.Background(), `VACUUM ANALYZE findings`); err != nil {
			tb.Fatalf("analyze: %v", err)
		}
	}
}

// generation numbers the formulas of this package: change it with them,
// so that no cached data of older formulas is used.
const generation = 2

// Cached returns a data directory holding what seed writes into an empty
// one, copied from a cache kept under the temp dir (one entry per key and
// schema version, and generation of the formulas) so that later runs skip
// the seeding. seed must leave the directory closed (every database handle
// on it closed). Set SENTINEL_BENCH_NOCACHE=1 to seed afresh.
func Cached(tb testing.TB, key string, seed func(dir string)) string {
	tb.Helper()
	dir := tb.TempDir()
	cache := filepath.Join(os.TempDir(), "sentinel-benchdata", fmt.Sprintf("%s-g%d-v%d", key, generation, store.SchemaVersion(store.SQLite)))
	if os.Getenv("SENTINEL_BENCH_NOCACHE") == "" {
		if _, err := os.Stat(filepath.Join(cache, "complete")); err == nil {
			t0 := time.Now()
			if err := copyDir(cache, dir); err != nil {
				tb.Fatalf("copy cached bench data: %v", err)
			}
			tb.Logf("bench data %s copied from %s in %v", key, cache, time.Since(t0).Round(time.Millisecond))
			return dir
		}
	}
	seed(dir)
	if os.Getenv("SENTINEL_BENCH_NOCACHE") != "" {
		return dir
	}
	// Fill a fresh entry, then mark it complete: a run stopped halfway
	// leaves no entry that looks whole.
	_ = os.RemoveAll(cache)
	if err := copyDir(dir, cache); err != nil {
		tb.Logf("cache bench data: %v", err)
		_ = os.RemoveAll(cache)
		return dir
	}
	if err := os.WriteFile(filepath.Join(cache, "complete"), nil, 0o600); err != nil {
		tb.Logf("cache bench data: %v", err)
	}
	return dir
}

// copyDir copies the regular files of src into dst (created if missing),
// except the completion mark.
func copyDir(src, dst string) error {
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	es, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range es {
		if !e.Type().IsRegular() || e.Name() == "complete" {
			continue
		}
		if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
