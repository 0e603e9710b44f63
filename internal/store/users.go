package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// The portal's operator accounts, their sessions and the sign-in throttle
// (migration 0011).

const userColumns = `id, org_id, email, name, role, status, password_hash, setup_hash, setup_expires_at, password_set_at,
	last_sign_in_at, created_by, created_at, updated_at`

func scanUser(row interface{ Scan(...any) error }) (*sentinel.User, error) {
	var u sentinel.User
	var setupExp, pwSet, lastSignIn sql.NullInt64
	var created, updated int64
	err := row.Scan(&u.ID, &u.OrgID, &u.Email, &u.Name, &u.Role, &u.Status, &u.PasswordHash, &u.SetupHash, &setupExp, &pwSet,
		&lastSignIn, &u.CreatedBy, &created, &updated)
	if err != nil {
		return nil, err
	}
	u.SetupExpiresAt, u.PasswordSetAt, u.LastSignInAt = nullMS(setupExp), nullMS(pwSet), nullMS(lastSignIn)
	u.CreatedAt, u.UpdatedAt = FromMS(created), FromMS(updated)
	return &u, nil
}

func userResult(u *sentinel.User, err error) (*sentinel.User, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("user")
	}
	return u, err
}

// CreateUser stores a new user (its id, email, role and set-up link are
// the caller's). Errors: ECONFLICT (the email is taken in the
// organization).
func (tx *Tx) CreateUser(ctx context.Context, u *sentinel.User) error {
	u.CreatedAt, u.UpdatedAt = tx.Now(), tx.Now()
	if u.Status == "" {
		u.Status = sentinel.UserActive
	}
	_, err := tx.Exec(ctx, `INSERT INTO users (id, org_id, email, name, role, status, password_hash, setup_hash, setup_expires_at,
		created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		u.ID, u.OrgID, u.Email, u.Name, u.Role, u.Status, u.PasswordHash, u.SetupHash, msPtr(u.SetupExpiresAt),
		u.CreatedBy, MS(u.CreatedAt), MS(u.UpdatedAt))
	if IsConflict(err) {
		return sentinel.InvalidField("email", "a user with the email %s already exists in this organization", u.Email)
	}
	if err != nil {
		return fmt.Errorf("create user: %w", err)
	}
	return nil
}

// FindUser returns an organization's user. Errors: ENOTFOUND (also for
// another organization's user).
func (db *DB) FindUser(ctx context.Context, orgID, id string) (*sentinel.User, error) {
	return userResult(scanUser(db.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE org_id = $1 AND id = $2`, orgID, id)))
}

// FindUserTx reads an organization's user inside the transaction.
// Errors: ENOTFOUND.
func (tx *Tx) FindUserTx(ctx context.Context, orgID, id string) (*sentinel.User, error) {
	return userResult(scanUser(tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE org_id = $1 AND id = $2`, orgID, id)))
}

// FindUserByEmail returns the organization's user with the (normalised)
// email. Errors: ENOTFOUND.
func (db *DB) FindUserByEmail(ctx context.Context, orgID, email string) (*sentinel.User, error) {
	return userResult(scanUser(db.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE org_id = $1 AND email = $2`, orgID, email)))
}

// FindUserBySetupHash returns the user whose set-up link has the token
// hash, when the link has not expired at now. Errors: ENOTFOUND.
func (db *DB) FindUserBySetupHash(ctx context.Context, hash []byte, now time.Time) (*sentinel.User, error) {
	return userResult(scanUser(db.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE setup_hash = $1 AND setup_expires_at > $2`, hash, MS(now))))
}

// ListUsers returns an organization's users in id order.
func (db *DB) ListUsers(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.User, string, error) {
	c, _, err := parseCursor(page.Cursor)
	if err != nil {
		return nil, "", err
	}
	limit := pageLimit(page, 50)
	rows, err := db.Query(ctx, `SELECT `+userColumns+` FROM users WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3`, orgID, c.id, limit+1)
	if err != nil {
		return nil, "", err
	}
	out, err := scanRows(rows, scanUser)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(u *sentinel.User) cursor { return cursor{id: u.ID} })
	return out, next, nil
}

// UpdateUser changes a user's name, role or status and returns it.
// Errors: ENOTFOUND.
func (tx *Tx) UpdateUser(ctx context.Context, orgID, id string, u sentinel.UserUpdate) (*sentinel.User, error) {
	res, err := tx.Exec(ctx, `UPDATE users SET name = COALESCE($3, name), role = COALESCE($4, role), status = COALESCE($5, status),
		updated_at = $6 WHERE org_id = $1 AND id = $2`, orgID, id, u.Name, u.Role, u.Status, MS(tx.Now()))
	if err != nil {
		return nil, fmt.Errorf("update user %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, notFound("user")
	}
	return tx.FindUserTx(ctx, orgID, id)
}

// SetUserSetup replaces a user's pending set-up link (hash nil: none).
// Errors: ENOTFOUND.
func (tx *Tx) SetUserSetup(ctx context.Context, orgID, id string, hash []byte, expires *time.Time) error {
	res, err := tx.Exec(ctx, `UPDATE users SET setup_hash = $3, setup_expires_at = $4, updated_at = $5 WHERE org_id = $1 AND id = $2`,
		orgID, id, hash, msPtr(expires), MS(tx.Now()))
	if err != nil {
		return fmt.Errorf("set user setup %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound("user")
	}
	return nil
}

// UseUserSetup sets the password of the user whose set-up link has the
// token hash and consumes the link, in one statement: a link works once
// even when two requests race. It returns the user. Errors: ENOTFOUND (no
// such link, used or expired).
func (tx *Tx) UseUserSetup(ctx context.Context, hash []byte, passwordHash string) (*sentinel.User, error) {
	now := MS(tx.Now())
	var orgID, id string
	err := tx.QueryRow(ctx, `UPDATE users SET password_hash = $2, password_set_at = $3, setup_hash = NULL, setup_expires_at = NULL,
		updated_at = $3 WHERE setup_hash = $1 AND setup_expires_at > $3 RETURNING org_id, id`, hash, passwordHash, now).Scan(&orgID, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("set-up link")
	}
	if err != nil {
		return nil, fmt.Errorf("use set-up link: %w", err)
	}
	return tx.FindUserTx(ctx, orgID, id)
}

// CountActiveAdmins returns how many active admins an organization has,
// inside the transaction (the last one may not be demoted or disabled).
// On PostgreSQL the admins' rows stay locked until the transaction ends,
// so that two admins demoting each other at once cannot both succeed (one
// waits, or deadlocks and is retried, and then counts again).
func (tx *Tx) CountActiveAdmins(ctx context.Context, orgID string) (int, error) {
	q := `SELECT id FROM users WHERE org_id = $1 AND role = $2 AND status = $3`
	if tx.Engine() == Postgres {
		q += ` FOR UPDATE`
	}
	rows, err := tx.Query(ctx, q, orgID, sentinel.RoleAdmin, sentinel.UserActive)
	if err != nil {
		return 0, err
	}
	ids, err := scanRows(rows, func(r interface{ Scan(...any) error }) (string, error) {
		var id string
		return id, r.Scan(&id)
	})
	return len(ids), err
}

// RecordSignIn notes a user's successful sign-in.
func (tx *Tx) RecordSignIn(ctx context.Context, id string) error {
	_, err := tx.Exec(ctx, `UPDATE users SET last_sign_in_at = $2 WHERE id = $1`, id, MS(tx.Now()))
	return err
}

// CreatePortalSession stores a session under the hash of its cookie.
func (tx *Tx) CreatePortalSession(ctx context.Context, hash []byte, s *sentinel.PortalSession) error {
	s.CreatedAt, s.LastSeenAt = tx.Now(), tx.Now()
	_, err := tx.Exec(ctx, `INSERT INTO portal_sessions (hash, user_id, org_id, csrf, addr, user_agent, created_at, last_seen_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, hash, s.UserID, s.OrgID, s.CSRF, s.Addr, s.UserAgent,
		MS(s.CreatedAt), MS(s.LastSeenAt), MS(s.ExpiresAt))
	if err != nil {
		return fmt.Errorf("create portal session: %w", err)
	}
	return nil
}

// DeletePortalSession ends one session (no error when there is none).
func (tx *Tx) DeletePortalSession(ctx context.Context, hash []byte) error {
	_, err := tx.Exec(ctx, `DELETE FROM portal_sessions WHERE hash = $1`, hash)
	return err
}

// DeleteUserSessions ends every session of a user and returns how many.
func (tx *Tx) DeleteUserSessions(ctx context.Context, userID string) (int64, error) {
	res, err := tx.Exec(ctx, `DELETE FROM portal_sessions WHERE user_id = $1`, userID)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// FindPortalSession returns the live session with the cookie hash and its
// user: the session must be within its absolute expiry and have been seen
// within idle of now, and the user must be active. Errors: ENOTFOUND.
func (db *DB) FindPortalSession(ctx context.Context, hash []byte, now time.Time, idle time.Duration) (*sentinel.PortalSession, *sentinel.User, error) {
	var s sentinel.PortalSession
	var created, seen, expires int64
	prefix := rowPrefix{&s.UserID, &s.OrgID, &s.CSRF, &s.Addr, &s.UserAgent, &created, &seen, &expires}
	u, err := scanUser(prefix.wrap(db.QueryRow(ctx, `SELECT s.user_id, s.org_id, s.csrf, s.addr, s.user_agent, s.created_at, s.last_seen_at, s.expires_at,
		u.id, u.org_id, u.email, u.name, u.role, u.status, u.password_hash, u.setup_hash, u.setup_expires_at, u.password_set_at,
		u.last_sign_in_at, u.created_by, u.created_at, u.updated_at
		FROM portal_sessions s JOIN users u ON u.id = s.user_id
		WHERE s.hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $3 AND u.status = $4 AND u.org_id = s.org_id`,
		hash, MS(now), MS(now.Add(-idle)), sentinel.UserActive)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, notFound("session")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("find portal session: %w", err)
	}
	s.CreatedAt, s.LastSeenAt, s.ExpiresAt = FromMS(created), FromMS(seen), FromMS(expires)
	return &s, u, nil
}

// rowPrefix scans a row whose first columns go to dest and the rest to the
// wrapped scanner's own destinations.
type rowPrefix []any

func (p rowPrefix) wrap(row interface{ Scan(...any) error }) interface{ Scan(...any) error } {
	return scanFunc(func(dest ...any) error { return row.Scan(append(append([]any{}, p...), dest...)...) })
}

type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// TouchPortalSession moves a session's last activity to now, at most once
// a minute (it is written on page views, so it stays cheap).
func (db *DB) TouchPortalSession(ctx context.Context, hash []byte) error {
	now := MS(db.Now())
	_, err := db.Exec(ctx, `UPDATE portal_sessions SET last_seen_at = $2 WHERE hash = $1 AND last_seen_at < $3`, hash, now, now-60_000)
	return err
}

// PurgePortal deletes sessions that ended before before (by either
// expiry, given the idle timeout) and throttle rows no longer counting or
// locking anything, and returns how many rows went.
func (db *DB) PurgePortal(ctx context.Context, before time.Time, idle, window time.Duration) (int64, error) {
	b := MS(before)
	res, err := db.Exec(ctx, `DELETE FROM portal_sessions WHERE expires_at < $1 OR last_seen_at < $2`, b, b-idle.Milliseconds())
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	res, err = db.Exec(ctx, `DELETE FROM signin_throttle WHERE window_start < $1 AND (locked_until IS NULL OR locked_until < $2)`,
		b-window.Milliseconds(), b)
	if err != nil {
		return n, err
	}
	m, _ := res.RowsAffected()
	return n + m, nil
}

// SignInLockedUntil returns the latest time until which any of keys is
// locked out, or nil when none is locked at now.
func (db *DB) SignInLockedUntil(ctx context.Context, keys []string, now time.Time) (*time.Time, error) {
	var until sql.NullInt64
	for _, k := range keys {
		var v sql.NullInt64
		err := db.QueryRow(ctx, `SELECT locked_until FROM signin_throttle WHERE key = $1 AND locked_until > $2`, k, MS(now)).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if v.Valid && (!until.Valid || v.Int64 > until.Int64) {
			until = v
		}
	}
	return nullMS(until), nil
}

// FailSignIn counts a failed sign-in against key: failures within window
// of the first one add up, and the limit-th locks the key for lockout. It
// returns the key's state after the failure.
func (tx *Tx) FailSignIn(ctx context.Context, key string, limit int, window, lockout time.Duration) (*sentinel.SignInThrottle, error) {
	now := MS(tx.Now())
	var failures int
	var start int64
	var locked sql.NullInt64
	// One statement, so that concurrent failures on several replicas all
	// count: a new key or an expired window starts at 1.
	err := tx.QueryRow(ctx, `INSERT INTO signin_throttle (key, failures, window_start, locked_until) VALUES ($1, 1, $2, NULL)
		ON CONFLICT (key) DO UPDATE SET
			failures = CASE WHEN signin_throttle.window_start < $3 THEN 1 ELSE signin_throttle.failures + 1 END,
			window_start = CASE WHEN signin_throttle.window_start < $3 THEN $2 ELSE signin_throttle.window_start END
		RETURNING failures, window_start, locked_until`, key, now, now-window.Milliseconds()).Scan(&failures, &start, &locked)
	if err != nil {
		return nil, fmt.Errorf("count failed sign-in: %w", err)
	}
	if failures >= limit {
		until := now + lockout.Milliseconds()
		if _, err := tx.Exec(ctx, `UPDATE signin_throttle SET locked_until = $2, failures = 0, window_start = $3 WHERE key = $1`,
			key, until, now); err != nil {
			return nil, err
		}
		locked = sql.NullInt64{Int64: until, Valid: true}
	}
	return &sentinel.SignInThrottle{Key: key, Failures: failures, WindowStart: FromMS(start), LockedUntil: nullMS(locked)}, nil
}

// ClearSignIn forgets a key's failures (after a successful sign-in).
func (tx *Tx) ClearSignIn(ctx context.Context, key string) error {
	_, err := tx.Exec(ctx, `DELETE FROM signin_throttle WHERE key = $1 AND (locked_until IS NULL OR locked_until < $2)`, key, MS(tx.Now()))
	return err
}
