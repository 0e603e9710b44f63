package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// backup copies the embedded store while the service runs.
func backup(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg := server.DefaultConfig()
	fs := newFlagSet("backup", stderr)
	storeFlags(fs, &cfg)
	out := fs.String("o", "", "the backup file to write (required; must not exist)")
	if err := parse(fs, args, getenv); err != nil {
		return err
	}
	if *out == "" {
		return usageErr("name the backup file: sentineld backup -o sentinel-%s.db", time.Now().Format("20060102"))
	}
	if cfg.Database != "" {
		return usageErr("sentineld backup copies the embedded store; back PostgreSQL up with pg_dump or base backups (docs/operations.md)")
	}
	if _, err := os.Stat(cfg.DSN()); err != nil {
		return fmt.Errorf("no embedded store at %s: %w (pass --data DIR)", cfg.DSN(), err)
	}
	db, err := store.Open(ctx, cfg.DSN())
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	fmt.Fprintf(stderr, "backing up %s (the service may keep running)\n", cfg.DSN())
	if err := db.Backup(ctx, *out); err != nil {
		return err
	}
	fi, _ := os.Stat(*out)
	fmt.Fprintf(stdout, "backup written to %s (%d bytes, checked) in %v\n", *out, fi.Size(), time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(stdout, "keep the master key with it, apart from it: %s\n", masterKeyWhere(cfg, getenv))
	return nil
}

func masterKeyWhere(cfg server.Config, getenv func(string) string) string {
	if getenv("SENTINEL_MASTER_KEY") != "" {
		return "SENTINEL_MASTER_KEY (this backup cannot decrypt webhook secrets and signing keys without it)"
	}
	return filepath.Join(cfg.DataDir, "master.key") + " (this backup cannot decrypt webhook secrets and signing keys without it)"
}

// restore puts a backup in place of the embedded store; the service must
// be stopped.
func restore(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg := server.DefaultConfig()
	fs := newFlagSet("restore", stderr)
	storeFlags(fs, &cfg)
	from := fs.String("from", "", "the backup file (from sentineld backup)")
	replace := fs.Bool("replace", false, "replace an existing store (kept beside it as sentinel.db.before-restore)")
	if err := parse(fs, args, getenv); err != nil {
		return err
	}
	if *from == "" {
		return usageErr("name the backup: sentineld restore --from FILE [--data DIR] [--replace]")
	}
	if cfg.Database != "" {
		return usageErr("sentineld restore writes the embedded store; restore PostgreSQL with pg_restore (docs/operations.md)")
	}
	version, err := store.Restore(ctx, *from, cfg.DSN(), *replace)
	if err != nil {
		return err
	}
	// Opening applies the migrations a newer release added since the backup.
	db, err := store.Open(ctx, cfg.DSN())
	if err != nil {
		return fmt.Errorf("the restored store does not open: %w", err)
	}
	db.Close()
	fmt.Fprintf(stdout, "restored %s to %s (schema version %d)\n", *from, cfg.DSN(), version)
	if !strings.Contains(masterKeyWhere(cfg, getenv), "SENTINEL_MASTER_KEY") {
		if _, err := os.Stat(filepath.Join(cfg.DataDir, "master.key")); err != nil {
			fmt.Fprintf(stdout, "put the master key of the backed-up service at %s (or set SENTINEL_MASTER_KEY) before sentineld serve\n", filepath.Join(cfg.DataDir, "master.key"))
		}
	}
	return nil
}
