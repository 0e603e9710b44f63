package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// CreateAPIKey stores a key record. The caller made the secret and passes
// only its hash. Errors: ENOTFOUND (organization).
func (tx *Tx) CreateAPIKey(ctx context.Context, k *sentinel.APIKey) error {
	k.CreatedAt = tx.Now()
	_, err := tx.Exec(ctx, `INSERT INTO api_keys (id, org_id, name, prefix, hash, scopes, created_by, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		k.ID, k.OrgID, k.Name, k.Prefix, k.Hash, strings.Join(k.Scopes, ","), k.CreatedBy, MS(k.CreatedAt))
	if err != nil {
		return fmt.Errorf("create api key: %w", err)
	}
	return nil
}

const keyColumns = `k.id, k.org_id, k.name, k.prefix, k.hash, k.scopes, k.created_by, k.created_at, k.last_used_at, k.revoked_at`

func scanKey(row interface{ Scan(...any) error }, extra ...any) (*sentinel.APIKey, error) {
	var k sentinel.APIKey
	var scopes string
	var created int64
	var used, revoked sql.NullInt64
	dest := append([]any{&k.ID, &k.OrgID, &k.Name, &k.Prefix, &k.Hash, &scopes, &k.CreatedBy, &created, &used, &revoked}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	k.Scopes = strings.Split(scopes, ",")
	k.CreatedAt = FromMS(created)
	k.LastUsedAt = nullMS(used)
	k.RevokedAt = nullMS(revoked)
	return &k, nil
}

// HashKey returns the stored hash of an API key's full text.
func HashKey(key string) []byte {
	h := sha256.Sum256([]byte(key))
	return h[:]
}

// FindAPIKeyByHash returns the key with the hash and its organization's
// slug, revoked or not (the caller decides). Errors: ENOTFOUND.
func (db *DB) FindAPIKeyByHash(ctx context.Context, hash []byte) (*sentinel.APIKey, string, error) {
	var slug string
	k, err := scanKey(db.QueryRow(ctx, `SELECT `+keyColumns+`, o.slug FROM api_keys k JOIN organizations o ON o.id = k.org_id WHERE k.hash = $1`, hash), &slug)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", notFound("api key")
	}
	if err != nil {
		return nil, "", fmt.Errorf("find api key: %w", err)
	}
	return k, slug, nil
}

// ListAPIKeys returns an organization's keys in id order.
func (db *DB) ListAPIKeys(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.APIKey, string, error) {
	c, _, err := parseCursor(page.Cursor)
	if err != nil {
		return nil, "", err
	}
	limit := pageLimit(page, 50)
	rows, err := db.Query(ctx, `SELECT `+keyColumns+` FROM api_keys k WHERE k.org_id = $1 AND k.id > $2 ORDER BY k.id LIMIT $3`,
		orgID, c.id, limit+1)
	if err != nil {
		return nil, "", err
	}
	out, err := scanRows(rows, func(r interface{ Scan(...any) error }) (*sentinel.APIKey, error) { return scanKey(r) })
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(k *sentinel.APIKey) cursor { return cursor{id: k.ID} })
	return out, next, nil
}

// RevokeAPIKey revokes an organization's key. Revoking twice is not an
// error. Errors: ENOTFOUND (also for another organization's key).
func (tx *Tx) RevokeAPIKey(ctx context.Context, orgID, id string) (*sentinel.APIKey, error) {
	_, err := tx.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3) WHERE org_id = $1 AND id = $2`, orgID, id, MS(tx.Now()))
	if err != nil {
		return nil, err
	}
	k, err := scanKey(tx.QueryRow(ctx, `SELECT `+keyColumns+` FROM api_keys k WHERE k.org_id = $1 AND k.id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("api key")
	}
	return k, err
}

// TouchAPIKey records that a key was used. It is best effort and cheap:
// it writes at most once a minute per key.
func (db *DB) TouchAPIKey(ctx context.Context, id string) error {
	now := MS(db.Now())
	_, err := db.Exec(ctx, `UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`, id, now, now-60_000)
	return err
}
