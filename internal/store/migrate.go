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
	want := 1
	for _, m := range ms {
		for reservedMigrations[want] && m.Version != want {
			want++
		}
		if m.Version != want {
			return nil, fmt.Errorf("migration %s/%s: expected version %04d", engine, m.Name, want)
		}
		want++
	}
	return ms, nil
}

// SchemaVersion is the version of the engine's newest migration (0 when
// the migrations cannot be read): the schema this build writes. It is not
// the number of migrations, since reserved versions may be missing.
func SchemaVersion(engine string) int {
	ms, err := Migrations(engine)
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].Version
}

// reservedMigrations are version numbers handed to work on another branch
// that has not merged yet: a branch that merges before it may skip them.
// Once the reserved migration lands, its entry changes nothing and can go.
var reservedMigrations = map[int]bool{
	// 11 was the portal's (0011_portal.sql), now landed.
}

// Migrate applies pending migrations, each in its own transaction, and
// records them in schema_migrations. Several processes may call it at once:
// on PostgreSQL an advisory lock serialises them; SQLite's single writer does.
func (db *DB) Migrate(ctx context.Context) error {
	ms, err := Migrations(db.Engine)
	if err != nil {
		return err
	}
	// What is applied already is read without the write lock: a store
	// that is up to date (a backup taken while the service writes, a
	// replica starting) then waits for no writer at all. Each pending
	// migration is checked again inside its own transaction.
	applied := map[int]bool{}
	if rows, err := db.r.QueryContext(ctx, `SELECT version FROM schema_migrations`); err == nil {
		for rows.Next() {
			var v int
			if rows.Scan(&v) == nil {
				applied[v] = true
			}
		}
		rows.Close()
	}
	if len(applied) == 0 {
		if _, err := db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
	}
	for _, m := range ms {
		if applied[m.Version] {
			continue
		}
		err := db.InTx(ctx, func(tx *Tx) error {
			if tx.Engine() == Postgres {
				if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7460001, hashtext(current_schema()))`); err != nil {
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
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, m.Version, m.Name, MS(tx.Now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("migrate %s: %w", db.Engine, err)
		}
	}
	return nil
}
