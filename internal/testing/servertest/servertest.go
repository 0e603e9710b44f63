// Package servertest starts a real sentineld in the test process: SQLite
// in a temp dir, every listener on 127.0.0.1:0, closed when the test ends.
// End-to-end tests in any package drive it over real HTTP and TLS.
package servertest

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/server"
)

// Open opens a server without listening; edit adjusts the config.
func Open(tb testing.TB, edit ...func(*server.Config)) *server.Server {
	tb.Helper()
	cfg := server.DefaultConfig()
	cfg.DataDir = tb.TempDir()
	cfg.Addr, cfg.AgentAddr, cfg.ShareAddr = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"
	for _, e := range edit {
		e(&cfg)
	}
	s, err := server.Open(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// Start opens a server and starts its listeners and workers.
func Start(tb testing.TB, edit ...func(*server.Config)) *server.Server {
	tb.Helper()
	s := Open(tb, edit...)
	if err := s.Start(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return s
}

// IntelSources names the real intel kept in internal/intel/testdata (OSV
// records, the CISA KEV catalog, endoflife.date files; see its SOURCES.md).
func IntelSources() intelsvc.Sources {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "intel", "testdata")
	return intelsvc.Sources{OSV: []string{filepath.Join(dir, "osv")},
		KEV: filepath.Join(dir, "kev", "known_exploited_vulnerabilities.json"), EOL: filepath.Join(dir, "eol")}
}

// SyncIntel imports IntelSources into the server.
func SyncIntel(tb testing.TB, s *server.Server) {
	tb.Helper()
	if _, err := s.Intel.Sync(context.Background(), IntelSources(), nil); err != nil {
		tb.Fatal(err)
	}
}
