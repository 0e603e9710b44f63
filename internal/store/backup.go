package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sentinel-sca/sentinel"
)

// Backup writes a consistent copy of the embedded store to path while the
// service runs: SQLite's VACUUM INTO reads one snapshot (writers go on) and
// writes a compact database. path must not exist. PostgreSQL is backed up
// with its own tools (pg_dump, base backups), not here.
func (db *DB) Backup(ctx context.Context, path string) error {
	if db.Engine != SQLite {
		return sentinel.Errorf(sentinel.EINVALID, "sentineld backup copies the embedded store; back PostgreSQL up with pg_dump or your base backups (see docs/operations.md)")
	}
	if _, err := os.Stat(path); err == nil {
		return sentinel.Errorf(sentinel.ECONFLICT, "%s exists; name a new file", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	// VACUUM INTO reads through a read connection: one snapshot, no lock
	// held against the writer beyond SQLite's own.
	if _, err := db.r.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		os.Remove(path)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return err
	}
	return CheckBackup(ctx, path)
}

// CheckBackup opens a backup read-only and checks that it is a whole
// SQLite database holding a Sentinel store this build can open: the
// integrity check passes and its schema is not newer than this build's.
func CheckBackup(ctx context.Context, path string) error {
	_, err := backupVersion(ctx, path)
	return err
}

func backupVersion(ctx context.Context, path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	head := make([]byte, 16)
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || string(head) != "SQLite format 3\x00" {
		return 0, sentinel.Errorf(sentinel.EINVALID, "%s is not a SQLite database (a backup made by sentineld backup)", path)
	}
	c, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=query_only(1)")
	if err != nil {
		return 0, err
	}
	defer c.Close()
	var ok string
	if err := c.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		return 0, sentinel.Errorf(sentinel.EINVALID, "%s fails SQLite's integrity check (%s %v): it is damaged", path, ok, err)
	}
	var version int
	if err := c.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&version); err != nil {
		return 0, sentinel.Errorf(sentinel.EINVALID, "%s holds no Sentinel store: %v", path, err)
	}
	if latest := SchemaVersion(SQLite); version > latest {
		return 0, sentinel.Errorf(sentinel.EINVALID, "%s is at schema version %d, newer than this sentineld (%d): restore it with the release that made it", path, version, latest)
	}
	return version, nil
}

// Restore puts a backup in place as the embedded store at dst, which no
// service may be using. An existing store is refused unless replace is
// set; then it is kept beside as dst+".before-restore". The copy is
// written next to dst and renamed over it, so dst is never half-written.
// Migrations newer than the backup run when the store is next opened.
func Restore(ctx context.Context, backup, dst string, replace bool) (version int, err error) {
	version, err = backupVersion(ctx, backup)
	if err != nil {
		return 0, err
	}
	if _, err := os.Stat(dst); err == nil && !replace {
		return 0, sentinel.Errorf(sentinel.ECONFLICT, "a store exists at %s: stop sentineld and pass --replace to put the backup in its place", dst)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return 0, err
	}
	tmp := dst + ".restoring"
	if err := copyFile(backup, tmp); err != nil {
		os.Remove(tmp)
		return 0, err
	}
	if _, err := os.Stat(dst); err == nil {
		// The old store and its write-ahead log go aside together.
		for _, sfx := range []string{"", "-wal", "-shm"} {
			if err := os.Rename(dst+sfx, dst+".before-restore"+sfx); err != nil && !errors.Is(err, os.ErrNotExist) {
				os.Remove(tmp)
				return 0, err
			}
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		return 0, err
	}
	return version, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
