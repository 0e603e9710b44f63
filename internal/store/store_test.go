package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/store/storetest"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
)

func openSQLite(t *testing.T) *store.DB {
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "sentinel.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func openPostgres(t *testing.T) *store.DB {
	db, err := store.Open(context.Background(), pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestSQLite(t *testing.T)   { storetest.Run(t, openSQLite) }
func TestPostgres(t *testing.T) { storetest.Run(t, openPostgres) }

// TestMigrations checks numbering and that both engines have the same set.
func TestMigrations(t *testing.T) {
	s, err := store.Migrations(store.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	p, err := store.Migrations(store.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != len(p) {
		t.Fatalf("sqlite has %d migrations, postgres %d", len(s), len(p))
	}
	for i := range s {
		if s[i].Name != p[i].Name {
			t.Errorf("migration %d: sqlite %s, postgres %s", i+1, s[i].Name, p[i].Name)
		}
	}
}

// TestMigrateTwice checks that migrating an up-to-date store is a no-op.
func TestMigrateTwice(t *testing.T) {
	for name, open := range map[string]func(*testing.T) *store.DB{"sqlite": openSQLite, "postgres": openPostgres} {
		t.Run(name, func(t *testing.T) {
			db := open(t)
			if err := db.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPostgresDocumentCompression: the original bytes of submissions are
// compressed with LZ4 on a server that has it (as this one does: Debian's
// PostgreSQL is built with LZ4).
func TestPostgresDocumentCompression(t *testing.T) {
	db := openPostgres(t)
	var method string
	if err := db.QueryRow(context.Background(), `SELECT attcompression::text FROM pg_attribute
		WHERE attrelid = 'sbom_documents'::regclass AND attname = 'body'`).Scan(&method); err != nil {
		t.Fatal(err)
	}
	if method != "l" {
		t.Errorf("sbom_documents.body compression %q, want l (LZ4)", method)
	}
}
