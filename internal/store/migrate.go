package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
)

//go:embed migrations
var migrationsFS embed.FS

var migrationName = regexp.MustCompile(`^(\d{4})_[a-z0-9_]+\.sql$`)

// Migration is one forward-only schema change.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Migrations returns the engine's migrations in order. It fails when a
// file is misnamed or a version repeats or skips (never edit or renumber
// a merged migration: add a new one).
func Migrations(engine string) ([]Migration, error) {
	dir := path.Join("migrations", engine)
	entries, err := fs.ReadDir(migrationsFS, dir)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	var ms []Migration
	for _, e := range entries {
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("migration %s/%s: name must be NNNN_name.sql", engine, e.Name())
		}
		v, _ := strconv.Atoi(m[1])
		b, err := fs.ReadFile(migrationsFS, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s/%s: expected version %04d", engine, m.Name, i+1)
		}
	}
	return ms, nil
}

// Migrate applies pending migrations, each in its own transaction, and
// records them in schema_migrations. Several processes may call it at once:
// on PostgreSQL an advisory lock serialises them; SQLite's single writer does.
func (db *DB) Migrate(ctx context.Context) error {
	ms, err := Migrations(db.Engine)
	if err != nil {
		return err
	}
	if _, err := db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	for _, m := range ms {
		err := db.InTx(ctx, func(tx *Tx) error {
			if tx.Engine() == Postgres {
				if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7460001)`); err != nil {
					return err
				}
			}
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, m.Version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("apply %s: %w", m.Name, err)
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, m.Version, m.Name, MS(tx.Now))
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate %s: %w", db.Engine, err)
		}
	}
	return nil
}
