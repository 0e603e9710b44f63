package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// ServerCAName names the deployment's agent server CA in agent_cas.
const ServerCAName = "server"

// CreateAgentCA stores a CA unless one of that name exists, and returns the
// stored one either way: when two replicas create the server CA at once,
// both end up with the same. Errors: ENOTFOUND (organization).
func (db *DB) CreateAgentCA(ctx context.Context, ca *sentinel.AgentCA) (*sentinel.AgentCA, error) {
	err := db.InTx(ctx, func(tx *Tx) error {
		var org any
		if ca.OrgID != "" {
			org = ca.OrgID
		}
		_, err := tx.Exec(ctx, `INSERT INTO agent_cas (name, org_id, cert, key_sealed, ski, fingerprint, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (name) DO NOTHING`,
			ca.Name, org, ca.Cert, ca.KeySealed, ca.SKI, ca.Fingerprint, MS(tx.Now()))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("create agent ca %q: %w", ca.Name, err)
	}
	return db.FindAgentCA(ctx, ca.Name)
}

const agentCAColumns = `name, COALESCE(org_id, ''), cert, key_sealed, ski, fingerprint, created_at`

func scanAgentCA(row interface{ Scan(...any) error }) (*sentinel.AgentCA, error) {
	var ca sentinel.AgentCA
	var created int64
	if err := row.Scan(&ca.Name, &ca.OrgID, &ca.Cert, &ca.KeySealed, &ca.SKI, &ca.Fingerprint, &created); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, notFound("agent certificate authority")
		}
		return nil, err
	}
	ca.CreatedAt = FromMS(created)
	return &ca, nil
}

// FindAgentCA returns the CA with the name. Errors: ENOTFOUND.
func (db *DB) FindAgentCA(ctx context.Context, name string) (*sentinel.AgentCA, error) {
	return scanAgentCA(db.QueryRow(ctx, `SELECT `+agentCAColumns+` FROM agent_cas WHERE name = $1`, name))
}

// FindOrgAgentCABySKI returns the organization agent CA whose subject key id
// is ski (hex). The server CA is never returned: it does not vouch for
// agents. Errors: ENOTFOUND.
func (db *DB) FindOrgAgentCABySKI(ctx context.Context, ski string) (*sentinel.AgentCA, error) {
	return scanAgentCA(db.QueryRow(ctx, `SELECT `+agentCAColumns+` FROM agent_cas WHERE ski = $1 AND org_id IS NOT NULL`, ski))
}

// CreateEnrollmentToken stores a token; CreatedAt is the transaction's time
// and ExpiresAt, when zero, CreatedAt + ttl. Errors: ENOTFOUND (organization).
func (tx *Tx) CreateEnrollmentToken(ctx context.Context, t *sentinel.EnrollmentToken, ttl time.Duration) error {
	t.CreatedAt = tx.Now()
	if t.ExpiresAt.IsZero() {
		t.ExpiresAt = tx.Now().Add(ttl)
	}
	_, err := tx.Exec(ctx, `INSERT INTO enrollment_tokens (id, org_id, hash, created_by, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, t.ID, t.OrgID, t.Hash, t.CreatedBy, MS(t.CreatedAt), MS(t.ExpiresAt))
	if err != nil {
		return fmt.Errorf("create enrollment token: %w", err)
	}
	return nil
}

// UseEnrollmentToken consumes the token with the hash for agentID, once:
// of two concurrent uses exactly one succeeds. It returns the token's
// organization. Errors: EUNAUTHORIZED (sentinel.ErrTokenInvalid).
func (tx *Tx) UseEnrollmentToken(ctx context.Context, hash []byte, agentID string) (*sentinel.EnrollmentToken, error) {
	var t sentinel.EnrollmentToken
	var created, expires int64
	err := tx.QueryRow(ctx, `UPDATE enrollment_tokens SET used_at = $2, agent_id = $3
		WHERE hash = $1 AND used_at IS NULL AND expires_at > $2
		RETURNING id, org_id, created_by, created_at, expires_at`, hash, MS(tx.Now()), agentID).
		Scan(&t.ID, &t.OrgID, &t.CreatedBy, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, sentinel.ErrTokenInvalid
	}
	if err != nil {
		return nil, fmt.Errorf("use enrollment token: %w", translate(err))
	}
	t.CreatedAt, t.ExpiresAt = FromMS(created), FromMS(expires)
	now := tx.Now()
	t.UsedAt, t.AgentID = &now, agentID
	return &t, nil
}

// CreateAgent records an issued client certificate. Errors: ENOTFOUND
// (organization), ECONFLICT (serial).
func (tx *Tx) CreateAgent(ctx context.Context, a *sentinel.Agent) error {
	a.CreatedAt = tx.Now()
	_, err := tx.Exec(ctx, `INSERT INTO agents (id, org_id, host, serial, fingerprint, token_id, addr, not_after, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		a.ID, a.OrgID, a.Host, a.Serial, a.Fingerprint, a.TokenID, a.Addr, MS(a.NotAfter), MS(a.CreatedAt))
	if err != nil {
		return fmt.Errorf("create agent: %w", err)
	}
	return nil
}

// FindAgentBySerial returns an organization's agent by certificate serial
// (hex). Errors: ENOTFOUND (also for another organization's agent).
func (db *DB) FindAgentBySerial(ctx context.Context, orgID, serial string) (*sentinel.Agent, error) {
	a, err := scanAgent(db.QueryRow(ctx, `SELECT `+agentColumns+` FROM agents WHERE org_id = $1 AND serial = $2`, orgID, serial))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("agent")
	}
	if err != nil {
		return nil, fmt.Errorf("find agent: %w", err)
	}
	return a, nil
}

// PeekEnrollmentToken returns the organization of the usable (unused,
// unexpired) token with the hash, without consuming it: enrollment issues
// the certificate first and consumes the token with UseEnrollmentToken in
// the transaction that records the agent. Errors: EUNAUTHORIZED
// (sentinel.ErrTokenInvalid).
func (db *DB) PeekEnrollmentToken(ctx context.Context, hash []byte) (orgID string, err error) {
	err = db.QueryRow(ctx, `SELECT org_id FROM enrollment_tokens WHERE hash = $1 AND used_at IS NULL AND expires_at > $2`,
		hash, MS(db.Now())).Scan(&orgID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", sentinel.ErrTokenInvalid
	}
	if err != nil {
		return "", fmt.Errorf("find enrollment token: %w", err)
	}
	return orgID, nil
}

const agentColumns = `id, org_id, host, serial, fingerprint, token_id, addr, not_after, created_at, revoked_at`

func scanAgent(row interface{ Scan(...any) error }) (*sentinel.Agent, error) {
	var a sentinel.Agent
	var notAfter, created int64
	var revoked sql.NullInt64
	if err := row.Scan(&a.ID, &a.OrgID, &a.Host, &a.Serial, &a.Fingerprint, &a.TokenID, &a.Addr, &notAfter, &created, &revoked); err != nil {
		return nil, err
	}
	a.NotAfter, a.CreatedAt, a.RevokedAt = FromMS(notAfter), FromMS(created), nullMS(revoked)
	return &a, nil
}

// ListAgents returns an organization's enrolled agents, by id.
func (db *DB) ListAgents(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.Agent, string, error) {
	c, _, err := parseCursor(page.Cursor)
	if err != nil {
		return nil, "", err
	}
	limit := pageLimit(page, 50)
	rows, err := db.Query(ctx, `SELECT `+agentColumns+` FROM agents WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
		orgID, c.id, limit+1)
	if err != nil {
		return nil, "", err
	}
	out, err := scanRows(rows, scanAgent)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(a *sentinel.Agent) cursor { return cursor{id: a.ID} })
	return out, next, nil
}

// RevokeAgent revokes an organization's agent: its certificate is refused
// in the TLS handshake from then on. Revoking twice is not an error.
// Errors: ENOTFOUND (also for another organization's agent).
func (tx *Tx) RevokeAgent(ctx context.Context, orgID, id string) (*sentinel.Agent, error) {
	if _, err := tx.Exec(ctx, `UPDATE agents SET revoked_at = COALESCE(revoked_at, $3) WHERE org_id = $1 AND id = $2`, orgID, id, MS(tx.Now())); err != nil {
		return nil, fmt.Errorf("revoke agent: %w", err)
	}
	a, err := scanAgent(tx.QueryRow(ctx, `SELECT `+agentColumns+` FROM agents WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("agent")
	}
	return a, err
}

// AgentRevoked reports whether the organization's certificate with the
// serial (hex) belongs to a revoked agent. An unknown serial is not
// revoked.
func (db *DB) AgentRevoked(ctx context.Context, orgID, serial string) (bool, error) {
	var revoked sql.NullInt64
	err := db.QueryRow(ctx, `SELECT revoked_at FROM agents WHERE org_id = $1 AND serial = $2`, orgID, serial).Scan(&revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check agent revocation: %w", err)
	}
	return revoked.Valid, nil
}
