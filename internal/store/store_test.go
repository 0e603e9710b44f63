package store_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
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

// TestDocumentBodies: a submission's original bytes are stored compressed
// and read back exactly; a body stored raw (before compression) reads as
// it is; a damaged one is an error, on both engines.
func TestDocumentBodies(t *testing.T) {
	for _, e := range []struct {
		name string
		open func(*testing.T) *store.DB
	}{{"sqlite", openSQLite}, {"postgres", openPostgres}} {
		t.Run(e.name, func(t *testing.T) {
			ctx := context.Background()
			db := e.open(t)
			org := storetest.MustOrg(t, db, "docs")
			var b strings.Builder
			b.WriteString(`{"bomFormat":"CycloneDX","specVersion":"1.5","components":[`)
			for i := range 2000 {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"type":"library","name":"pkg-%d","version":"1.%d.0","purl":"pkg:npm/pkg-%d@1.%d.0"}`, i, i%13, i, i%13)
			}
			b.WriteString("]}")
			body := []byte(b.String())
			s := storetest.MustSubmission(t, db, org, "web-1", body)
			length := `length(body)`
			if db.Engine == store.Postgres {
				length = `octet_length(body)`
			}
			var stored int
			if err := db.QueryRow(ctx, `SELECT `+length+` FROM sbom_documents WHERE submission_id = $1`, s.ID).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			if stored*5 > len(body) {
				t.Errorf("stored %d bytes of a %d byte document, want it compressed", stored, len(body))
			}
			got, err := db.SubmissionBody(ctx, org.ID, s.ID)
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("SubmissionBody: %d bytes, %v; want the %d original bytes", len(got), err, len(body))
			}

			raw := []byte(`{"bomFormat":"CycloneDX","specVersion":"1.4"}`)
			if _, err := db.Exec(ctx, `UPDATE sbom_documents SET body = $1 WHERE submission_id = $2`, raw, s.ID); err != nil {
				t.Fatal(err)
			}
			if got, err := db.SubmissionBody(ctx, org.ID, s.ID); err != nil || !bytes.Equal(got, raw) {
				t.Errorf("a body stored raw: %q, %v", got, err)
			}
			damaged := []byte("\x28\xb5\x2f\xfd not a zstd frame")
			if _, err := db.Exec(ctx, `UPDATE sbom_documents SET body = $1 WHERE submission_id = $2`, damaged, s.ID); err != nil {
				t.Fatal(err)
			}
			if got, err := db.SubmissionBody(ctx, org.ID, s.ID); err == nil {
				t.Errorf("a damaged body read as %q without an error", got)
			}
		})
	}
}
