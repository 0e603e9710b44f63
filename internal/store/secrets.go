package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// Secrets (migration 0012). The value of a secret lives only in
// value_sealed, encrypted by the caller with the master key, and is read
// only by SealedSecret and SecretForUpdate, for the verifier; every other
// read leaves it out.

const secretColumns = `id, org_id, fingerprint, local_fingerprint, rule_id, provider, redacted, file, line, col, commit_id, commit_date,
	host, root, asset_id, finding_id, verifiable, status, identity, verify_reason, verified_at, verify_attempts,
	value_sealed IS NOT NULL, first_seen, last_seen, updated_at`

func scanSecret(row interface{ Scan(...any) error }) (*sentinel.Secret, error) {
	var s sentinel.Secret
	var verified sql.NullInt64
	var first, last, updated int64
	err := row.Scan(&s.ID, &s.OrgID, &s.Fingerprint, &s.LocalFingerprint, &s.RuleID, &s.Provider, &s.Redacted,
		&s.Location.File, &s.Location.Line, &s.Location.Column, &s.Location.Commit, &s.Location.CommitDate,
		&s.Host, &s.Root, &s.AssetID, &s.FindingID, &s.Verifiable, &s.Status, &s.Identity, &s.VerifyReason, &verified,
		&s.VerifyAttempts, &s.ValueHeld, &first, &last, &updated)
	if err != nil {
		return nil, err
	}
	s.VerifiedAt = nullMS(verified)
	s.FirstSeen, s.LastSeen, s.UpdatedAt = FromMS(first), FromMS(last), FromMS(updated)
	return &s, nil
}

// CreateSecret inserts a new secret with its sealed value (nil for none).
// A second secret with the same fingerprint in the organization is
// ECONFLICT.
func (tx *Tx) CreateSecret(ctx context.Context, s *sentinel.Secret, sealed []byte) error {
	if s.ID == "" {
		s.ID = sentinel.NewID(sentinel.PrefixSecret)
	}
	s.UpdatedAt = tx.Now()
	s.ValueHeld = sealed != nil
	var v any
	if sealed != nil {
		v = sealed
	}
	_, err := tx.Exec(ctx, `INSERT INTO secrets (id, org_id, fingerprint, local_fingerprint, rule_id, provider, redacted, file, line, col,
		commit_id, commit_date, host, root, asset_id, finding_id, verifiable, status, identity, verify_reason, verified_at, verify_attempts,
		value_sealed, first_seen, last_seen, updated_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26)`,
		s.ID, s.OrgID, s.Fingerprint, s.LocalFingerprint, s.RuleID, s.Provider, s.Redacted, s.Location.File, s.Location.Line,
		s.Location.Column, s.Location.Commit, s.Location.CommitDate, s.Host, s.Root, s.AssetID, s.FindingID, s.Verifiable, s.Status,
		s.Identity, s.VerifyReason, msPtr(s.VerifiedAt), s.VerifyAttempts, v, MS(s.FirstSeen), MS(s.LastSeen), MS(s.UpdatedAt))
	if err != nil {
		return fmt.Errorf("create secret: %w", err)
	}
	return nil
}

// SecretByFingerprint returns the organization's secret with the
// fingerprint, inside the transaction. Errors: ENOTFOUND.
func (tx *Tx) SecretByFingerprint(ctx context.Context, orgID, fingerprint string) (*sentinel.Secret, error) {
	s, err := scanSecret(tx.QueryRow(ctx, `SELECT `+secretColumns+` FROM secrets WHERE org_id = $1 AND fingerprint = $2`, orgID, fingerprint))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("secret")
	}
	return s, err
}

// TouchSecret moves a known secret's last sighting to the transaction's
// time.
func (tx *Tx) TouchSecret(ctx context.Context, orgID, id string) error {
	_, err := tx.Exec(ctx, `UPDATE secrets SET last_seen = $3, updated_at = $3 WHERE org_id = $1 AND id = $2`, orgID, id, MS(tx.Now()))
	if err != nil {
		return fmt.Errorf("touch secret: %w", err)
	}
	return nil
}

// SecretForUpdate reads a secret and its sealed value (nil when the value
// is no longer held) inside the transaction, locking the row on
// PostgreSQL. Errors: ENOTFOUND.
func (tx *Tx) SecretForUpdate(ctx context.Context, orgID, id string) (*sentinel.Secret, []byte, error) {
	q := `SELECT ` + secretColumns + `, value_sealed FROM secrets WHERE org_id = $1 AND id = $2`
	if tx.Engine() == Postgres {
		q += ` FOR UPDATE`
	}
	return scanSealed(tx.QueryRow(ctx, q, orgID, id))
}

// SealedSecret reads a secret and its sealed value (nil when the value is
// no longer held), for the verifier. Errors: ENOTFOUND.
func (db *DB) SealedSecret(ctx context.Context, orgID, id string) (*sentinel.Secret, []byte, error) {
	return scanSealed(db.QueryRow(ctx, `SELECT `+secretColumns+`, value_sealed FROM secrets WHERE org_id = $1 AND id = $2`, orgID, id))
}

func scanSealed(row *Row) (*sentinel.Secret, []byte, error) {
	var sealed []byte
	s, err := scanSecret(withSealed{row, &sealed})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFound("secret")
	}
	if err != nil {
		return nil, nil, err
	}
	return s, sealed, nil
}

// withSealed scans secretColumns and the sealed value after them.
type withSealed struct {
	row    *Row
	sealed *[]byte
}

func (w withSealed) Scan(dest ...any) error { return w.row.Scan(append(dest, w.sealed)...) }

// SaveSecretVerification writes a secret's verification state (status,
// identity, reason, verified_at, attempts). With dropValue the sealed
// value is deleted.
func (tx *Tx) SaveSecretVerification(ctx context.Context, s *sentinel.Secret, dropValue bool) error {
	s.UpdatedAt = tx.Now()
	q := `UPDATE secrets SET status = $3, identity = $4, verify_reason = $5, verified_at = $6, verify_attempts = $7, updated_at = $8`
	if dropValue {
		q += `, value_sealed = NULL`
		s.ValueHeld = false
	}
	_, err := tx.Exec(ctx, q+` WHERE org_id = $1 AND id = $2`, s.OrgID, s.ID, s.Status, s.Identity, s.VerifyReason,
		msPtr(s.VerifiedAt), s.VerifyAttempts, MS(s.UpdatedAt))
	if err != nil {
		return fmt.Errorf("save secret verification: %w", err)
	}
	return nil
}

// FindSecret returns an organization's secret. Errors: ENOTFOUND.
func (db *DB) FindSecret(ctx context.Context, orgID, id string) (*sentinel.Secret, error) {
	s, err := scanSecret(db.QueryRow(ctx, `SELECT `+secretColumns+` FROM secrets WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("secret")
	}
	return s, err
}

// FindSecrets returns an organization's secrets in id order, a page at a
// time (default 50). Errors: EINVALID (cursor).
func (db *DB) FindSecrets(ctx context.Context, f sentinel.SecretFilter) ([]*sentinel.Secret, string, error) {
	c, _, err := parseCursor(f.Page.Cursor)
	if err != nil {
		return nil, "", err
	}
	where := []string{"org_id = $1", "id > $2"}
	args := []any{f.OrgID, c.id}
	add := func(col, v string) {
		if v != "" {
			args = append(args, v)
			where = append(where, fmt.Sprintf("%s = $%d", col, len(args)))
		}
	}
	add("status", f.Status)
	add("provider", f.Provider)
	add("host", f.Host)
	limit := pageLimit(f.Page, 50)
	args = append(args, limit+1)
	rows, err := db.Query(ctx, `SELECT `+secretColumns+` FROM secrets WHERE `+strings.Join(where, " AND ")+
		fmt.Sprintf(` ORDER BY id LIMIT $%d`, len(args)), args...)
	if err != nil {
		return nil, "", fmt.Errorf("find secrets: %w", err)
	}
	out, err := scanRows(rows, scanSecret)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(s *sentinel.Secret) cursor { return cursor{id: s.ID} })
	return out, next, nil
}

// SecretFingerprintKey returns the sealed fingerprint key of that name, or
// ENOTFOUND.
func (db *DB) SecretFingerprintKey(ctx context.Context, name string) ([]byte, error) {
	var k []byte
	err := db.QueryRow(ctx, `SELECT key_sealed FROM secret_fingerprint_keys WHERE name = $1`, name).Scan(&k)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("fingerprint key")
	}
	return k, err
}

// CreateSecretFingerprintKey stores a sealed fingerprint key unless one of
// that name exists, and returns the stored one either way: of replicas
// starting at once, the first one's key wins.
func (db *DB) CreateSecretFingerprintKey(ctx context.Context, name string, sealed []byte) ([]byte, error) {
	var out []byte
	err := db.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO secret_fingerprint_keys (name, key_sealed, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (name) DO NOTHING`, name, sealed, MS(tx.Now())); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT key_sealed FROM secret_fingerprint_keys WHERE name = $1`, name).Scan(&out)
	})
	if err != nil {
		return nil, fmt.Errorf("create fingerprint key: %w", err)
	}
	return out, nil
}
