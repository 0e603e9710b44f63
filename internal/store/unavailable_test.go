package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/testing/pgtest"
)

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestUnreachableIsUnavailable checks that every way the store is used
// reports a PostgreSQL that cannot be reached as EUNAVAILABLE (503), not
// as an internal error (500).
func TestUnreachableIsUnavailable(t *testing.T) {
	db, err := open("postgres://postgres@" + closedPort(t) + "/x?sslmode=disable&connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var n int
	checks := map[string]error{
		"QueryRow": db.QueryRow(ctx, `SELECT 1`).Scan(&n),
		"InTx":     db.InTx(ctx, func(*Tx) error { return nil }),
	}
	_, checks["Exec"] = db.Exec(ctx, `SELECT 1`)
	_, checks["Query"] = db.Query(ctx, `SELECT 1`)
	_, checks["FindOrgByID"] = db.FindOrgByID(ctx, "org_x")
	for name, err := range checks {
		if code := sentinel.ErrorCode(err); code != sentinel.EUNAVAILABLE {
			t.Errorf("%s: code %q (%v), want %q", name, code, err, sentinel.EUNAVAILABLE)
		}
	}
}

// TestTerminatedConnectionIsUnavailable ends the store's own server
// connection (as a PostgreSQL restart does) and checks that the failure
// is EUNAVAILABLE, and that the store works again on its next call.
func TestTerminatedConnectionIsUnavailable(t *testing.T) {
	db, err := open(pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	db.w.SetMaxOpenConns(1)
	var pid int
	if err := db.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	err = db.QueryRow(ctx, `SELECT pg_terminate_backend(pg_backend_pid())`).Scan(new(bool))
	if code := sentinel.ErrorCode(err); code != sentinel.EUNAVAILABLE {
		t.Fatalf("terminated connection: code %q (%v), want %q", code, err, sentinel.EUNAVAILABLE)
	}
	if err := db.QueryRow(ctx, `SELECT 1`).Scan(new(int)); err != nil {
		t.Fatalf("after the connection ended: %v", err)
	}
}

// TestUnavailableKeepsOtherErrors checks what is not unavailability.
func TestUnavailableKeepsOtherErrors(t *testing.T) {
	for _, err := range []error{nil, sql.ErrNoRows, context.Canceled, context.DeadlineExceeded,
		fmt.Errorf("x: %w", context.DeadlineExceeded), &pgconn.PgError{Code: "23505"}, &pgconn.PgError{Code: "42P01"},
		errors.New("syntax")} {
		if Unavailable(err) {
			t.Errorf("Unavailable(%v) = true", err)
		}
	}
	for _, err := range []error{&pgconn.PgError{Code: "57P01"}, &pgconn.PgError{Code: "08006"}, &pgconn.PgError{Code: "57P03"},
		&net.OpError{Op: "dial", Err: errors.New("connection refused")}} {
		if !Unavailable(err) {
			t.Errorf("Unavailable(%v) = false", err)
		}
		if got := sentinel.ErrorCode(translate(err)); got != sentinel.EUNAVAILABLE {
			t.Errorf("translate(%v): code %q", err, got)
		}
	}
	if got := sentinel.ErrorCode(translate(&pgconn.PgError{Code: "23505"})); got != sentinel.ECONFLICT {
		t.Errorf("unique violation: code %q", got)
	}
}
