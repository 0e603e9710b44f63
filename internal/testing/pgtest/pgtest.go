// Package pgtest gives tests a real, empty PostgreSQL database.
//
// Each call creates a schema of its own in the database named by
// SENTINEL_TEST_PG_DSN (default: the machine's local server,
// postgres://postgres@127.0.0.1:5432/test) and returns a DSN whose
// search_path points at it; the schema is dropped when the test ends.
// Schemas are much cheaper than databases, so every test gets a clean one.
//
// When the server cannot be reached the test is skipped with a pointer to
// docs/postgres.md, unless CI=true or SENTINEL_TEST_PG=required: then it
// fails. CI never skips PostgreSQL silently.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // "pgx" driver
)

// DefaultDSN is used when SENTINEL_TEST_PG_DSN is unset.
const DefaultDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Required reports whether tests must fail rather than skip without PostgreSQL.
func Required() bool {
	return os.Getenv("CI") == "true" || os.Getenv("SENTINEL_TEST_PG") == "required"
}

// BaseDSN returns the configured server DSN.
func BaseDSN() string {
	if v := os.Getenv("SENTINEL_TEST_PG_DSN"); v != "" {
		return v
	}
	return DefaultDSN
}

// DSN returns the DSN of a fresh schema for this test.
func DSN(tb testing.TB) string {
	tb.Helper()
	base := BaseDSN()
	db, err := sql.Open("pgx", base)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = db.PingContext(ctx)
		cancel()
	}
	if err != nil {
		if db != nil {
			db.Close()
		}
		if Required() {
			tb.Fatalf("PostgreSQL at %s is required (CI=true or SENTINEL_TEST_PG=required) but unreachable: %v", base, err)
		}
		tb.Skipf("PostgreSQL unreachable at %s (%v); see docs/postgres.md to run these tests", base, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	if _, err := db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		db.Close()
		tb.Fatalf("create schema: %v", err)
	}
	tb.Cleanup(func() {
		_, _ = db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		db.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("parse %s: %v", base, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
