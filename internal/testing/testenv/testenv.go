// Package testenv is what tests share about their environment: the tools
// some of them need (skipped on a developer's machine when missing, failed
// under CI=true, where .ci/run installs them), a store on each engine, and
// waiting for a condition without sleeping a fixed time.
package testenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
)

// Required reports whether a missing tool or service fails a test rather
// than skips it: under CI, nothing is skipped silently.
func Required() bool { return os.Getenv("CI") == "true" }

// Missing ends the test because something it needs is not here: a failure
// under CI, a skip elsewhere. msg says what is missing and how to get it.
func Missing(tb testing.TB, msg string) {
	tb.Helper()
	if Required() {
		tb.Fatal(msg)
	}
	tb.Skip("skipped: " + msg)
}

// Tool returns the path of a program on PATH, or ends the test (Missing)
// with hint saying how to install it.
func Tool(tb testing.TB, name, hint string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, name+" not found on PATH ("+hint+")")
	}
	return p
}

// Cosign returns the real cosign v3.1.3: $SENTINEL_COSIGN, else the copy
// .ci/run caches in ~/.cache/sentinel/bin.
func Cosign(tb testing.TB) string {
	tb.Helper()
	p := os.Getenv("SENTINEL_COSIGN")
	if p == "" {
		home, _ := os.UserHomeDir()
		p = filepath.Join(home, ".cache", "sentinel", "bin", "cosign")
	}
	if _, err := os.Stat(p); err != nil {
		Missing(tb, "cosign not found at "+p+" (set SENTINEL_COSIGN, or go install github.com/sigstore/cosign/v3/cmd/cosign@v3.1.3)")
	}
	return p
}

// Chromium returns a headless-capable Chromium: $SENTINEL_CHROMIUM, else
// chromium or chromium-browser on PATH.
func Chromium(tb testing.TB) string {
	tb.Helper()
	for _, p := range []string{os.Getenv("SENTINEL_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if p == "" {
			continue
		}
		if _, err := exec.LookPath(p); err == nil {
			return p
		}
	}
	Missing(tb, "chromium not found (apt-get install -y chromium, or set SENTINEL_CHROMIUM)")
	return ""
}

// WaitFor polls cond every 20 ms until it holds, failing the test when
// timeout passes first.
func WaitFor(tb testing.TB, timeout time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// DSNs names a fresh store on each engine: a SQLite file in a temporary
// directory, and a PostgreSQL schema of its own (pgtest).
func DSNs(tb testing.TB) map[string]string {
	tb.Helper()
	return map[string]string{"sqlite": filepath.Join(tb.TempDir(), "s.db"), "postgres": pgtest.DSN(tb)}
}

// Open opens (and migrates) the store named by dsn, closed when the test
// ends.
func Open(tb testing.TB, dsn string) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// Stores returns, for each engine, a function that opens a fresh store on
// it. The PostgreSQL one is only reached when called, so a test that
// skips PostgreSQL locally still runs on SQLite.
func Stores(tb testing.TB) map[string]func() *store.DB {
	return map[string]func() *store.DB{
		"sqlite":   func() *store.DB { return Open(tb, filepath.Join(tb.TempDir(), "s.db")) },
		"postgres": func() *store.DB { return Open(tb, pgtest.DSN(tb)) },
	}
}
