package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// TestBackupRestore backs the embedded store up while a writer keeps
// writing, restores it into a new data directory, and serves from it: the
// key made before the backup works, and everything written before the
// backup began is there. Damaged, foreign and newer backups are refused.
func TestBackupRestore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := servertest.Start(t, func(c *server.Config) { c.DataDir = dir })
	env := map[string]string{"SENTINEL_DATA": dir}
	if code, _, errOut := sentineld(t, env, "admin", "create-org", "--slug", "acme"); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut := sentineld(t, env, "admin", "create-key", "--org", "acme", "--scopes", "*")
	if code != 0 {
		t.Fatal(errOut)
	}
	key := lastLine(out)

	// A writer creates organizations while the backup runs.
	var written atomic.Int64
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if _, err := server.CreateOrg(ctx, s.DB, fmt.Sprintf("busy-%d", i), "busy"); err != nil {
				done <- err
				return
			}
			written.Add(1)
		}
	}()
	testenv.WaitFor(t, 10*time.Second, "the writer to start", func() bool { return written.Load() >= 20 })
	before := written.Load()
	backupFile := filepath.Join(t.TempDir(), "b", "sentinel-backup.db")
	code, out, errOut = sentineld(t, env, "backup", "-o", backupFile)
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if code != 0 || !strings.Contains(out, "backup written to") || !strings.Contains(out, "master.key") {
		t.Fatalf("backup: %d %s %s", code, out, errOut)
	}
	if fi, err := os.Stat(backupFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("backup file: %v %v", fi, err)
	}
	if code, _, errOut := sentineld(t, env, "backup", "-o", backupFile); code == 0 || !strings.Contains(errOut, "exists") {
		t.Errorf("backup over an existing file: %d %s", code, errOut)
	}

	// Restore into a fresh directory, with the master key, and serve.
	dir2 := t.TempDir()
	key2, _ := os.ReadFile(filepath.Join(dir, "master.key"))
	env2 := map[string]string{"SENTINEL_DATA": dir2}
	code, out, errOut = sentineld(t, env2, "restore", "--from", backupFile)
	if code != 0 || !strings.Contains(out, "restored") || !strings.Contains(out, "master key") {
		t.Fatalf("restore: %d %s %s", code, out, errOut)
	}
	if code, _, errOut := sentineld(t, env2, "restore", "--from", backupFile); code == 0 || !strings.Contains(errOut, "--replace") {
		t.Errorf("restore over a store without --replace: %d %s", code, errOut)
	}
	if code, _, errOut := sentineld(t, env2, "restore", "--from", backupFile, "--replace"); code != 0 {
		t.Errorf("restore --replace: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir2, "sentinel.db.before-restore")); err != nil {
		t.Errorf("the replaced store was not kept: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir2, "master.key"), key2, 0o600); err != nil {
		t.Fatal(err)
	}
	s2 := servertest.Start(t, func(c *server.Config) { c.DataDir = dir2 })
	if st := get(t, s2.APIURL()+"/v1/api-keys", key); st != 200 {
		t.Errorf("the key made before the backup, on the restored store: %d", st)
	}
	orgs, err := s2.DB.ListOrgs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(orgs)) < before+1 {
		t.Errorf("restored %d organizations; %d existed when the backup began", len(orgs), before+1)
	}

	// What is not a whole, known backup is refused before anything moves.
	bad := filepath.Join(t.TempDir(), "bad.db")
	b, _ := os.ReadFile(backupFile)
	for name, data := range map[string][]byte{
		"not SQLite": []byte("hello, this is not a database at all"),
		"damaged":    append(append([]byte{}, b[:len(b)/2]...), make([]byte, len(b)/2)...),
	} {
		_ = os.WriteFile(bad, data, 0o600)
		if code, _, errOut := sentineld(t, map[string]string{"SENTINEL_DATA": t.TempDir()}, "restore", "--from", bad); code == 0 {
			t.Errorf("%s backup restored: %s", name, errOut)
		}
	}
	newer := filepath.Join(t.TempDir(), "newer.db")
	_ = os.WriteFile(newer, b, 0o600)
	c, _ := sql.Open("sqlite", newer)
	if _, err := c.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 0)`); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if code, _, errOut := sentineld(t, map[string]string{"SENTINEL_DATA": t.TempDir()}, "restore", "--from", newer); code == 0 || !strings.Contains(errOut, "newer than this sentineld") {
		t.Errorf("a backup from a newer release: %d %s", code, errOut)
	}
	if code, _, errOut := sentineld(t, map[string]string{"SENTINEL_DATABASE_URL": "postgres://x@127.0.0.1/y"}, "backup", "-o", "x.db"); code != 2 || !strings.Contains(errOut, "pg_dump") {
		t.Errorf("backup on PostgreSQL: %d %s", code, errOut)
	}
}
