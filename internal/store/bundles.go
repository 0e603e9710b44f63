package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
)

const bundleColumns = `id, org_id, description, scope, window_days, window_start, window_end, token_hash, password_hash,
	created_by, created_at, expires_at, revoked_at, locked_at, failed_attempts, build_state, build_error, sha256, size,
	artifacts, identity, issuer, access_count, last_access_at`

func scanBundle(row interface{ Scan(...any) error }) (*sentinel.Bundle, error) {
	var b sentinel.Bundle
	var scope, artifacts string
	var ws, we, created, expires int64
	var revoked, locked, last sql.NullInt64
	err := row.Scan(&b.ID, &b.OrgID, &b.Description, &scope, &b.WindowDays, &ws, &we, &b.TokenHash, &b.PasswordHash,
		&b.CreatedBy, &created, &expires, &revoked, &locked, &b.FailedAttempts, &b.BuildState, &b.BuildError, &b.SHA256, &b.Size,
		&artifacts, &b.Identity, &b.Issuer, &b.AccessCount, &last)
	if err != nil {
		return nil, err
	}
	if scope != "" {
		b.Scope = strings.Split(scope, ",")
	}
	if err := json.Unmarshal([]byte(artifacts), &b.Artifacts); err != nil {
		return nil, fmt.Errorf("bundle %s artifacts: %w", b.ID, err)
	}
	b.WindowStart, b.WindowEnd = FromMS(ws), FromMS(we)
	b.CreatedAt, b.ExpiresAt = FromMS(created), FromMS(expires)
	b.RevokedAt, b.LockedAt, b.LastAccessAt = nullMS(revoked), nullMS(locked), nullMS(last)
	return &b, nil
}

// CreateBundle stores a new bundle in the building state. CreatedAt is the
// transaction's time when zero. Errors: ECONFLICT (id or token reused).
func (tx *Tx) CreateBundle(ctx context.Context, b *sentinel.Bundle) error {
	if b.CreatedAt.IsZero() {
		b.CreatedAt = tx.Now()
	}
	if b.BuildState == "" {
		b.BuildState = sentinel.BundleBuilding
	}
	_, err := tx.Exec(ctx, `INSERT INTO bundles (id, org_id, description, scope, window_days, window_start, window_end,
		token_hash, password_hash, created_by, created_at, expires_at, build_state)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		b.ID, b.OrgID, b.Description, strings.Join(b.Scope, ","), b.WindowDays, MS(b.WindowStart), MS(b.WindowEnd),
		b.TokenHash, b.PasswordHash, b.CreatedBy, MS(b.CreatedAt), MS(b.ExpiresAt), b.BuildState)
	if err != nil {
		return fmt.Errorf("create bundle: %w", err)
	}
	return nil
}

// FindBundle returns an organization's bundle. Another organization's id is
// ENOTFOUND.
func (db *DB) FindBundle(ctx context.Context, orgID, id string) (*sentinel.Bundle, error) {
	b, err := scanBundle(db.QueryRow(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE id = $1 AND org_id = $2`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("bundle")
	}
	return b, err
}

// FindBundleByID returns a bundle of any organization, for the build job.
// Errors: ENOTFOUND.
func (db *DB) FindBundleByID(ctx context.Context, id string) (*sentinel.Bundle, error) {
	b, err := scanBundle(db.QueryRow(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("bundle")
	}
	return b, err
}

// FindBundleByTokenHash returns the bundle whose share token hashes to
// hash. Errors: ENOTFOUND.
func (db *DB) FindBundleByTokenHash(ctx context.Context, hash []byte) (*sentinel.Bundle, error) {
	b, err := scanBundle(db.QueryRow(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE token_hash = $1`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("bundle")
	}
	return b, err
}

// FindBundleTx re-reads a bundle inside a write transaction, so that checks
// and the writes that follow them see the same row.
func (tx *Tx) FindBundleTx(ctx context.Context, id string) (*sentinel.Bundle, error) {
	b, err := scanBundle(tx.QueryRow(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("bundle")
	}
	return b, err
}

// ListBundles returns an organization's bundles, newest first.
func (db *DB) ListBundles(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.Bundle, string, error) {
	limit := pageLimit(page, 50)
	c, ok, err := parseCursor(page.Cursor)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		c.n = 1 << 62
	}
	rows, err := db.Query(ctx, `SELECT `+bundleColumns+` FROM bundles
		WHERE org_id = $1 AND (created_at < $2 OR (created_at = $2 AND id < $3))
		ORDER BY created_at DESC, id DESC LIMIT $4`, orgID, c.n, c.id, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("list bundles: %w", err)
	}
	out, err := scanRows(rows, scanBundle)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(b *sentinel.Bundle) cursor { return cursor{n: MS(b.CreatedAt), id: b.ID} })
	return out, next, nil
}

// RevokeBundle ends a share at once and drops its sessions. It reports
// whether the bundle changed (false when it was already revoked). Another
// organization's id is ENOTFOUND.
func (tx *Tx) RevokeBundle(ctx context.Context, orgID, id string) (*sentinel.Bundle, bool, error) {
	res, err := tx.Exec(ctx, `UPDATE bundles SET revoked_at = $3 WHERE id = $1 AND org_id = $2 AND revoked_at IS NULL`, id, orgID, MS(tx.Now()))
	if err != nil {
		return nil, false, fmt.Errorf("revoke bundle: %w", err)
	}
	n, _ := res.RowsAffected()
	b, err := tx.FindBundleTx(ctx, id)
	if err != nil || b.OrgID != orgID {
		return nil, false, notFound("bundle")
	}
	if _, err := tx.Exec(ctx, `DELETE FROM bundle_sessions WHERE bundle_id = $1`, id); err != nil {
		return nil, false, err
	}
	return b, n > 0, nil
}

// ReserveBundlePassword counts a password attempt before it is checked,
// so that attempts made at once are counted before any of them is judged:
// it reports false, counting nothing, when the share is locked or limit
// attempts are counted already (some may still be in progress).
func (tx *Tx) ReserveBundlePassword(ctx context.Context, id string, limit int) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE bundles SET failed_attempts = failed_attempts + 1
		WHERE id = $1 AND locked_at IS NULL AND failed_attempts < $2`, id, limit)
	if err != nil {
		return false, fmt.Errorf("count password attempt: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReleaseBundlePassword uncounts a reserved attempt whose password was
// right.
func (tx *Tx) ReleaseBundlePassword(ctx context.Context, id string) error {
	_, err := tx.Exec(ctx, `UPDATE bundles SET failed_attempts = failed_attempts - 1 WHERE id = $1 AND failed_attempts > 0`, id)
	return err
}

// FailBundlePassword settles a reserved attempt whose password was wrong:
// the share locks when limit wrong attempts are counted. It returns the
// count and whether the share is locked.
func (tx *Tx) FailBundlePassword(ctx context.Context, id string, limit int) (int, bool, error) {
	_, err := tx.Exec(ctx, `UPDATE bundles SET
		locked_at = CASE WHEN locked_at IS NULL AND failed_attempts >= $2 THEN $3 ELSE locked_at END
		WHERE id = $1`, id, limit, MS(tx.Now()))
	if err != nil {
		return 0, false, fmt.Errorf("count failed password: %w", err)
	}
	var n int
	var locked sql.NullInt64
	if err := tx.QueryRow(ctx, `SELECT failed_attempts, locked_at FROM bundles WHERE id = $1`, id).Scan(&n, &locked); err != nil {
		return 0, false, err
	}
	return n, locked.Valid, nil
}

// RecordBundleAccess appends an attempt to the share's log. A successful
// access (success true) also counts toward access_count and last access.
func (tx *Tx) RecordBundleAccess(ctx context.Context, bundleID string, a sentinel.BundleAccess, success bool) error {
	if a.At.IsZero() {
		a.At = tx.Now()
	}
	if len(a.UserAgent) > 512 {
		a.UserAgent = a.UserAgent[:512]
	}
	_, err := tx.Exec(ctx, `INSERT INTO bundle_access (bundle_id, at, addr, user_agent, outcome) VALUES ($1, $2, $3, $4, $5)`,
		bundleID, MS(a.At), a.Addr, a.UserAgent, a.Outcome)
	if err != nil {
		return fmt.Errorf("record bundle access: %w", err)
	}
	if success {
		if _, err := tx.Exec(ctx, `UPDATE bundles SET access_count = access_count + 1, last_access_at = $2 WHERE id = $1`, bundleID, MS(a.At)); err != nil {
			return fmt.Errorf("record bundle access: %w", err)
		}
	}
	return nil
}

// BundleAccessLog returns a share's access log, oldest first.
func (db *DB) BundleAccessLog(ctx context.Context, bundleID string, page sentinel.Page) ([]*sentinel.BundleAccess, string, error) {
	c, _, err := parseCursor(page.Cursor)
	if err != nil {
		return nil, "", err
	}
	limit := pageLimit(page, 1<<30)
	rows, err := db.Query(ctx, `SELECT id, at, addr, user_agent, outcome FROM bundle_access
		WHERE bundle_id = $1 AND id > $2 ORDER BY id LIMIT $3`, bundleID, c.n, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("bundle access log: %w", err)
	}
	defer rows.Close()
	var out []*sentinel.BundleAccess
	for rows.Next() {
		var a sentinel.BundleAccess
		var at int64
		if err := rows.Scan(&a.ID, &at, &a.Addr, &a.UserAgent, &a.Outcome); err != nil {
			return nil, "", err
		}
		a.At = FromMS(at)
		out = append(out, &a)
	}
	if err := rows.Err(); err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(a *sentinel.BundleAccess) cursor { return cursor{n: a.ID} })
	return out, next, nil
}

// CreateBundleSession stores a recipient session by the SHA-256 of its
// cookie value.
func (tx *Tx) CreateBundleSession(ctx context.Context, hash []byte, bundleID string, expires time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO bundle_sessions (hash, bundle_id, expires_at) VALUES ($1, $2, $3)`, hash, bundleID, MS(expires))
	if err != nil {
		return fmt.Errorf("create bundle session: %w", err)
	}
	// Sweep this share's expired sessions while we are here.
	_, err = tx.Exec(ctx, `DELETE FROM bundle_sessions WHERE bundle_id = $1 AND expires_at < $2`, bundleID, MS(tx.Now()))
	return err
}

// BundleSession returns the bundle id of a live session (expires after
// now). Errors: ENOTFOUND.
func (db *DB) BundleSession(ctx context.Context, hash []byte, now time.Time) (string, error) {
	var id string
	err := db.QueryRow(ctx, `SELECT bundle_id FROM bundle_sessions WHERE hash = $1 AND expires_at > $2`, hash, MS(now)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFound("session")
	}
	return id, err
}

// ResetBundleBuild drops the chunks of an earlier, interrupted attempt so
// a retried build starts clean.
func (db *DB) ResetBundleBuild(ctx context.Context, id string) error {
	_, err := db.Exec(ctx, `DELETE FROM bundle_chunks WHERE bundle_id = $1`, id)
	return err
}

// PutBundleChunk stores one chunk of a bundle's zip in a transaction of its
// own, so that a large bundle never sits in one transaction or in memory.
func (db *DB) PutBundleChunk(ctx context.Context, id string, seq int, data []byte) error {
	_, err := db.Exec(ctx, `INSERT INTO bundle_chunks (bundle_id, seq, data) VALUES ($1, $2, $3)`, id, seq, data)
	if err != nil {
		return fmt.Errorf("store bundle chunk %d: %w", seq, err)
	}
	return nil
}

// BundleChunk returns chunk seq of a bundle's zip, or ENOTFOUND past the
// last one.
func (db *DB) BundleChunk(ctx context.Context, id string, seq int) ([]byte, error) {
	var data []byte
	err := db.QueryRow(ctx, `SELECT data FROM bundle_chunks WHERE bundle_id = $1 AND seq = $2`, id, seq).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("chunk")
	}
	return data, err
}

// FinishBundleBuild marks a bundle ready with its zip's digest and size and
// its artifact list.
func (tx *Tx) FinishBundleBuild(ctx context.Context, b *sentinel.Bundle) error {
	arts, err := json.Marshal(b.Artifacts)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE bundles SET build_state = $2, build_error = '', sha256 = $3, size = $4, artifacts = $5,
		identity = $6, issuer = $7 WHERE id = $1`, b.ID, sentinel.BundleReady, b.SHA256, b.Size, string(arts), b.Identity, b.Issuer)
	if err != nil {
		return fmt.Errorf("finish bundle build: %w", err)
	}
	return nil
}

// FailBundleBuild marks a bundle's build as failed for good.
func (db *DB) FailBundleBuild(ctx context.Context, id, reason string) error {
	if len(reason) > 1000 {
		reason = reason[:1000]
	}
	_, err := db.Exec(ctx, `UPDATE bundles SET build_state = $2, build_error = $3 WHERE id = $1`, id, sentinel.BundleFailed, reason)
	return err
}

// SigningCA returns the deployment's signing CA: its certificates (PEM)
// and its private keys sealed with the master key. Errors: ENOTFOUND before
// the first start created one.
func (db *DB) SigningCA(ctx context.Context) (certs string, sealedKeys []byte, err error) {
	err = db.QueryRow(ctx, `SELECT certificates, keys_sealed FROM signing_ca WHERE id = 1`).Scan(&certs, &sealedKeys)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, notFound("signing CA")
	}
	return certs, sealedKeys, err
}

// PutSigningCA stores the signing CA unless one exists already (two
// replicas starting at once); it reports whether this one was stored.
func (tx *Tx) PutSigningCA(ctx context.Context, certs string, sealedKeys []byte) (bool, error) {
	res, err := tx.Exec(ctx, `INSERT INTO signing_ca (id, certificates, keys_sealed, created_at) VALUES (1, $1, $2, $3)
		ON CONFLICT (id) DO NOTHING`, certs, sealedKeys, MS(tx.Now()))
	if err != nil {
		return false, fmt.Errorf("store signing CA: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
