package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Bundle build states.
const (
	BundleBuilding = "building" // the durable build job has not finished
	BundleReady    = "ready"    // the zip is stored and can be downloaded
	BundleFailed   = "failed"   // the build gave up; BuildError says why
)

// Bundle share statuses, as the list operation reports them. They are
// derived, not stored: revoked wins over locked, locked over expired.
const (
	BundleActive  = "active"
	BundleExpired = "expired"
	BundleRevoked = "revoked"
	BundleLocked  = "locked"
)

// BundleArtifact is one signed file of a built bundle, as the share page
// lists it.
type BundleArtifact struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// Bundle is an Evidence Bundle and its share. The share token and the
// password are never stored: only the token's SHA-256 and the password's
// argon2id hash (PHC string).
type Bundle struct {
	ID             string
	OrgID          string
	Description    string
	Scope          []string
	WindowDays     int
	WindowStart    time.Time
	WindowEnd      time.Time
	TokenHash      []byte
	PasswordHash   string
	CreatedBy      string
	CreatedAt      time.Time
	ExpiresAt      time.Time
	RevokedAt      *time.Time
	LockedAt       *time.Time
	FailedAttempts int
	BuildState     string
	BuildError     string
	SHA256         string // of the whole zip, once built
	Size           int64  // of the whole zip, once built
	Artifacts      []BundleArtifact
	Identity       string // the signing identity of the built bundle
	Issuer         string // the OIDC issuer of the built bundle
	AccessCount    int
	LastAccessAt   *time.Time
}

// Status returns the share's status at now: revoked, locked, expired or
// active.
func (b *Bundle) Status(now time.Time) string {
	switch {
	case b.RevokedAt != nil:
		return BundleRevoked
	case b.LockedAt != nil:
		return BundleLocked
	case !now.Before(b.ExpiresAt):
		return BundleExpired
	}
	return BundleActive
}

const bundleColumns = `id, org_id, description, scope, window_days, window_start, window_end, token_hash, password_hash,
	created_by, created_at, expires_at, revoked_at, locked_at, failed_attempts, build_state, build_error, sha256, size,
	artifacts, identity, issuer, access_count, last_access_at`

func scanBundle(row interface{ Scan(...any) error }) (*Bundle, error) {
	var b Bundle
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
func (tx *Tx) CreateBundle(ctx context.Context, b *Bundle) error {
	if b.CreatedAt.IsZero() {
		b.CreatedAt = tx.Now
	}
	if b.BuildState == "" {
		b.BuildState = BundleBuilding
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
func (db *DB) FindBundle(ctx context.Context, orgID, id string) (*Bundle, error) {
	b, err := scanBundle(db.QueryRow(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE id = $1 AND org_id = $2`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("bundle")
	}
	return b, err
}

// FindBundleByID returns a bundle of any organization, for the build job.
// Errors: ENOTFOUND.
func (db *DB) FindBundleByID(ctx context.Context, id string) (*Bundle, error) {
	b, err := scanBundle(db.QueryRow(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("bundle")
	}
	return b, err
}

// FindBundleByTokenHash returns the bundle whose share token hashes to
// hash. Errors: ENOTFOUND.
func (db *DB) FindBundleByTokenHash(ctx context.Context, hash []byte) (*Bundle, error) {
	b, err := scanBundle(db.QueryRow(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE token_hash = $1`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("bundle")
	}
	return b, err
}

// FindBundleTx re-reads a bundle inside a write transaction, so that checks
// and the writes that follow them see the same row.
func (tx *Tx) FindBundleTx(ctx context.Context, id string) (*Bundle, error) {
	b, err := scanBundle(tx.QueryRow(ctx, `SELECT `+bundleColumns+` FROM bundles WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("bundle")
	}
	return b, err
}

// ListBundles returns an organization's bundles, newest first. The cursor
// is the last item's "<created_at ms>_<id>".
func (db *DB) ListBundles(ctx context.Context, orgID string, page Page) ([]*Bundle, string, error) {
	limit := page.Limit
	if limit <= 0 {
		limit = 50
	}
	before, beforeID := int64(1<<62), ""
	if page.Cursor != "" {
		ms, id, ok := strings.Cut(page.Cursor, "_")
		v, err := strconv.ParseInt(ms, 10, 64)
		if !ok || err != nil {
			return nil, "", sentinel.InvalidField("cursor", "cursor is not valid")
		}
		before, beforeID = v, id
	}
	rows, err := db.Query(ctx, `SELECT `+bundleColumns+` FROM bundles
		WHERE org_id = $1 AND (created_at < $2 OR (created_at = $2 AND id < $3))
		ORDER BY created_at DESC, id DESC LIMIT $4`, orgID, before, beforeID, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("list bundles: %w", err)
	}
	out, err := scanRows(rows, scanBundle)
	if err != nil {
		return nil, "", err
	}
	out, next := TrimPage(out, limit, func(b *Bundle) string { return strconv.FormatInt(MS(b.CreatedAt), 10) + "_" + b.ID })
	return out, next, nil
}

// RevokeBundle ends a share at once and drops its sessions. It reports
// whether the bundle changed (false when it was already revoked). Another
// organization's id is ENOTFOUND.
func (tx *Tx) RevokeBundle(ctx context.Context, orgID, id string) (*Bundle, bool, error) {
	res, err := tx.Exec(ctx, `UPDATE bundles SET revoked_at = $3 WHERE id = $1 AND org_id = $2 AND revoked_at IS NULL`, id, orgID, MS(tx.Now))
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

// FailBundlePassword counts one wrong password and locks the share when
// the count reaches limit. It returns the new count and whether the share
// is locked now. Concurrent wrong attempts each count: the increment is one
// statement.
func (tx *Tx) FailBundlePassword(ctx context.Context, id string, limit int) (int, bool, error) {
	_, err := tx.Exec(ctx, `UPDATE bundles SET failed_attempts = failed_attempts + 1,
		locked_at = CASE WHEN locked_at IS NULL AND failed_attempts + 1 >= $2 THEN $3 ELSE locked_at END
		WHERE id = $1`, id, limit, MS(tx.Now))
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

// Access outcomes in a share's log.
const (
	AccessOpened          = "opened"            // the password page was shown
	AccessPasswordOK      = "password_accepted" // a session started
	AccessPasswordWrong   = "password_rejected"
	AccessLockedNow       = "locked"           // the wrong password that locked the share
	AccessRefusedLocked   = "refused_locked"   // any attempt on a locked share
	AccessRefusedExpired  = "refused_expired"  // any attempt after expires_at
	AccessRefusedRevoked  = "refused_revoked"  // any attempt after revocation
	AccessRefusedBadForm  = "refused_bad_form" // the form's anti-forgery token did not match
	AccessDownload        = "downloaded"
	AccessRefusedNotReady = "refused_not_ready" // download before the build finished
)

// BundleAccess is one entry of a share's access log.
type BundleAccess struct {
	ID        int64     `json:"id"`
	At        time.Time `json:"at"`
	Addr      string    `json:"address"`
	UserAgent string    `json:"user_agent"`
	Outcome   string    `json:"outcome"`
}

// RecordBundleAccess appends an attempt to the share's log. A successful
// access (success true) also counts toward access_count and last access.
func (tx *Tx) RecordBundleAccess(ctx context.Context, bundleID string, a BundleAccess, success bool) error {
	if a.At.IsZero() {
		a.At = tx.Now
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

// BundleAccessLog returns a share's access log, oldest first. The cursor is
// the last entry's id.
func (db *DB) BundleAccessLog(ctx context.Context, bundleID string, page Page) ([]*BundleAccess, string, error) {
	after := int64(0)
	if page.Cursor != "" {
		v, err := strconv.ParseInt(page.Cursor, 10, 64)
		if err != nil {
			return nil, "", sentinel.InvalidField("cursor", "cursor is not valid")
		}
		after = v
	}
	limit := page.Limit
	if limit <= 0 {
		limit = 1 << 30
	}
	rows, err := db.Query(ctx, `SELECT id, at, addr, user_agent, outcome FROM bundle_access
		WHERE bundle_id = $1 AND id > $2 ORDER BY id LIMIT $3`, bundleID, after, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("bundle access log: %w", err)
	}
	defer rows.Close()
	var out []*BundleAccess
	for rows.Next() {
		var a BundleAccess
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
	out, next := TrimPage(out, limit, func(a *BundleAccess) string { return strconv.FormatInt(a.ID, 10) })
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
	_, err = tx.Exec(ctx, `DELETE FROM bundle_sessions WHERE bundle_id = $1 AND expires_at < $2`, bundleID, MS(tx.Now))
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
func (tx *Tx) FinishBundleBuild(ctx context.Context, b *Bundle) error {
	arts, err := json.Marshal(b.Artifacts)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `UPDATE bundles SET build_state = $2, build_error = '', sha256 = $3, size = $4, artifacts = $5,
		identity = $6, issuer = $7 WHERE id = $1`, b.ID, BundleReady, b.SHA256, b.Size, string(arts), b.Identity, b.Issuer)
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
	_, err := db.Exec(ctx, `UPDATE bundles SET build_state = $2, build_error = $3 WHERE id = $1`, id, BundleFailed, reason)
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
		ON CONFLICT (id) DO NOTHING`, certs, sealedKeys, MS(tx.Now))
	if err != nil {
		return false, fmt.Errorf("store signing CA: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// The read side an Evidence Bundle is built from (evidence.Source). Each
// method streams rows to fn one at a time, so that a bundle of a million
// components never sits in memory; fn's error stops the stream and is
// returned. They read the agent's tables (migration 0004: sbom_submissions,
// sbom_documents, inventory; 0007: inventory_edges), the findings (0005)
// and the audit log.

// EvidenceSubmission is one SBOM submission with the agent's original bytes.
type EvidenceSubmission struct {
	ID         string // "sub_..."
	Host       string
	ReceivedAt time.Time
	Original   []byte // exactly what the agent sent
}

// EvidenceComponent is one current component of the inventory on one asset.
type EvidenceComponent struct {
	Purl      string
	Name      string
	Version   string
	Type      string // CycloneDX component type; "" means library
	Ecosystem string
	Asset     string   // host, repository or asset where it was found
	DependsOn []string // purls, where a dependency graph is known
}

// EvidenceChange is one component drift event.
type EvidenceChange struct {
	At           time.Time
	Change       string // "added", "removed" or "changed"
	Purl         string
	Name         string
	FromVersion  string
	ToVersion    string
	Asset        string
	SubmissionID string
}

// EvidenceFinding is one finding tied to a component.
type EvidenceFinding struct {
	ID           string // "fnd_..."
	Status       string // "open", "accepted", ...
	Category     string // "vulnerable_component"
	AdvisoryID   string
	Aliases      []string
	Purl         string
	Component    string // name
	Version      string
	Asset        string
	Severity     string // the risk band: critical, high, medium, low
	RiskScore    int
	KEV          bool
	CWE          string
	FixedVersion string
	Compliance   []string // control references of the primary catalog
	CreatedAt    time.Time
	SLADueAt     *time.Time
	// AcceptedReason and AcceptedUntil are set for accepted findings.
	AcceptedReason string
	AcceptedUntil  *time.Time
}

// byteOrder is the collation that sorts text by bytes on each engine.
func (db *DB) byteOrder() string {
	if db.Engine == Postgres {
		return ` COLLATE "C"`
	}
	return "" // SQLite's default BINARY collation
}

// EvidenceSubmissions streams an organization's submissions received in
// [since, until) with their original bytes, oldest first.
func (db *DB) EvidenceSubmissions(ctx context.Context, orgID string, since, until time.Time, fn func(*EvidenceSubmission) error) error {
	// Ids first, then one body at a time: no cursor stays open while fn
	// signs and stores, and only one document is in memory.
	rows, err := db.Query(ctx, `SELECT id, host, created_at FROM sbom_submissions
		WHERE org_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at, id`, orgID, MS(since), MS(until))
	if err != nil {
		return fmt.Errorf("evidence submissions: %w", err)
	}
	var subs []EvidenceSubmission
	for rows.Next() {
		var s EvidenceSubmission
		var at int64
		if err := rows.Scan(&s.ID, &s.Host, &at); err != nil {
			rows.Close()
			return err
		}
		s.ReceivedAt = FromMS(at)
		subs = append(subs, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range subs {
		s := subs[i]
		if s.Original, err = db.SubmissionBody(ctx, orgID, s.ID); err != nil {
			return err
		}
		if err := fn(&s); err != nil {
			return err
		}
	}
	return nil
}

// EvidenceComponents streams an organization's current components: those
// of each host's latest submission, ordered by purl in byte order, then by
// host; the same purl comes once per host. DependsOn holds the purls the
// component depends on in that submission's dependency graph (migration
// 0007), deduplicated and sorted in byte order; nil when it has none. Each
// row's edges are one range of the edges' primary key, read with the row:
// nothing accumulates across rows.
func (db *DB) EvidenceComponents(ctx context.Context, orgID string, fn func(*EvidenceComponent) error) error {
	// The edges travel as a JSON array of purls per row (any byte a purl
	// may hold survives the encoding); the aggregate is the one per-engine
	// difference. SQLite's json_group_array gives '[]' over no rows.
	deps := `json_group_array(e.to_purl)`
	if db.Engine == Postgres {
		deps = `COALESCE(json_agg(e.to_purl)::text, '[]')`
	}
	rows, err := db.Query(ctx, `SELECT i.purl, i.ecosystem, i.name, i.version, i.host,
			(SELECT `+deps+` FROM inventory_edges e
				WHERE e.submission_id = i.submission_id AND e.from_purl = i.purl AND e.org_id = i.org_id)
		FROM inventory i
		WHERE i.org_id = $1 AND i.purl <> '' AND i.submission_id IN (
			SELECT s.id FROM sbom_submissions s WHERE s.org_id = $1 AND NOT EXISTS (
				SELECT 1 FROM sbom_submissions t WHERE t.org_id = s.org_id AND t.host = s.host
				AND (t.created_at > s.created_at OR (t.created_at = s.created_at AND t.id > s.id))))
		ORDER BY i.purl`+db.byteOrder()+`, i.host`+db.byteOrder(), orgID)
	if err != nil {
		return fmt.Errorf("evidence components: %w", err)
	}
	defer rows.Close()
	var c EvidenceComponent
	var dependsOn []byte
	for rows.Next() {
		c = EvidenceComponent{}
		if err := rows.Scan(&c.Purl, &c.Ecosystem, &c.Name, &c.Version, &c.Asset, &dependsOn); err != nil {
			return err
		}
		if c.DependsOn, err = jsonStrings(dependsOn); err != nil {
			return fmt.Errorf("evidence components: dependencies of %s: %w", c.Purl, err)
		}
		slices.Sort(c.DependsOn)
		c.DependsOn = slices.Compact(c.DependsOn)
		if _, name, version, err := purl.ToEcosystem(c.Purl); err == nil {
			c.Name = name // the ecosystem's spelling, not the lower-cased search key
			if c.Version == "" {
				c.Version = version
			}
		}
		if err := fn(&c); err != nil {
			return err
		}
	}
	return rows.Err()
}

// jsonStrings decodes a JSON array of strings as the engines' aggregates
// write it ('["a","b"]', '["a", "b"]', '[]'): nil when empty. Without a
// backslash no string holds an escape, so none holds a quote, and the
// strings are the text between successive quotes; this saves
// encoding/json's cost on the million rows of a large inventory.
// Otherwise encoding/json decodes it.
func jsonStrings(b []byte) ([]string, error) {
	if bytes.IndexByte(b, '\\') >= 0 {
		var out []string
		err := json.Unmarshal(b, &out)
		return out, err
	}
	var out []string
	for {
		i := bytes.IndexByte(b, '"')
		if i < 0 {
			return out, nil
		}
		j := bytes.IndexByte(b[i+1:], '"')
		if j < 0 {
			return nil, errors.New("unterminated string in a JSON array")
		}
		out = append(out, string(b[i+1:i+1+j]))
		b = b[i+2+j:]
	}
}

// EvidenceChanges streams an organization's component drift in [since,
// until), host by host and oldest first within a host: each submission in
// the window is compared with the host's previous one (before the window
// too). A package whose version differs is "changed"; one only in the
// newer submission "added"; only in the older "removed". A host's first
// submission ever reports all its components as added.
func (db *DB) EvidenceChanges(ctx context.Context, orgID string, since, until time.Time, fn func(*EvidenceChange) error) error {
	rows, err := db.Query(ctx, `SELECT id, host, created_at FROM sbom_submissions
		WHERE org_id = $1 AND created_at < $2 ORDER BY host, created_at, id`, orgID, MS(until))
	if err != nil {
		return fmt.Errorf("evidence changes: %w", err)
	}
	type sub struct {
		id, host string
		at       time.Time
	}
	var subs []sub
	for rows.Next() {
		var s sub
		var at int64
		if err := rows.Scan(&s.id, &s.host, &at); err != nil {
			rows.Close()
			return err
		}
		s.at = FromMS(at)
		subs = append(subs, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	type pkg struct{ eco, name string }
	load := func(id string) (map[pkg]InventoryItem, error) {
		items, err := db.SubmissionItems(ctx, orgID, id)
		if err != nil {
			return nil, err
		}
		m := make(map[pkg]InventoryItem, len(items))
		for _, it := range items {
			m[pkg{it.Ecosystem, it.Name}] = it
		}
		return m, nil
	}
	var prev map[pkg]InventoryItem
	var prevID, prevHost string
	for _, s := range subs {
		if s.host != prevHost {
			prev, prevID, prevHost = nil, "", s.host
		}
		if s.at.Before(since) {
			prevID = s.id // a baseline; loaded only if the window needs it
			prev = nil
			continue
		}
		if prev == nil && prevID != "" {
			if prev, err = load(prevID); err != nil {
				return err
			}
		}
		cur, err := load(s.id)
		if err != nil {
			return err
		}
		var out []EvidenceChange
		for k, it := range cur {
			old, ok := prev[k]
			switch {
			case !ok:
				out = append(out, EvidenceChange{Change: "added", Purl: it.Purl, Name: it.Name, ToVersion: it.Version})
			case old.Version != it.Version:
				out = append(out, EvidenceChange{Change: "changed", Purl: it.Purl, Name: it.Name, FromVersion: old.Version, ToVersion: it.Version})
			}
		}
		for k, it := range prev {
			if _, ok := cur[k]; !ok {
				out = append(out, EvidenceChange{Change: "removed", Purl: it.Purl, Name: it.Name, FromVersion: it.Version})
			}
		}
		sort.Slice(out, func(a, b int) bool {
			if out[a].Name != out[b].Name {
				return out[a].Name < out[b].Name
			}
			return out[a].Change < out[b].Change
		})
		for j := range out {
			out[j].At, out[j].Asset, out[j].SubmissionID = s.at, s.host, s.id
			if err := fn(&out[j]); err != nil {
				return err
			}
		}
		prev, prevID = cur, s.id
	}
	return nil
}

// EvidenceFindings streams an organization's findings whose status is one
// of statuses, ordered by id, a page at a time.
func (db *DB) EvidenceFindings(ctx context.Context, orgID string, statuses []string, fn func(*EvidenceFinding) error) error {
	page := Page{Limit: 1000}
	for {
		fs, next, err := db.FindFindings(ctx, FindingFilter{OrgID: orgID, Status: statuses, Page: page})
		if err != nil {
			return err
		}
		for _, f := range fs {
			ef := EvidenceFinding{
				ID: f.ID, Status: f.Status, Category: f.Category, AdvisoryID: f.AdvisoryID, Aliases: f.Aliases,
				Purl: f.Purl, Asset: f.AssetName, Severity: f.Band, RiskScore: f.RiskScore, KEV: f.KEV, CWE: f.CWE,
				FixedVersion: f.NearestFix, Compliance: f.Compliance, CreatedAt: f.FirstSeen,
			}
			if ef.Asset == "" {
				ef.Asset = f.AssetID
			}
			if !f.SLADueAt.IsZero() {
				due := f.SLADueAt
				ef.SLADueAt = &due
			}
			if f.Status == sentinel.StatusAccepted {
				ef.AcceptedReason, ef.AcceptedUntil = f.StatusReason, f.AcceptedUntil
			}
			if _, name, version, err := purl.ToEcosystem(f.Purl); err == nil {
				ef.Component, ef.Version = name, version
			}
			if err := fn(&ef); err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		page.Cursor = next
	}
}

// EvidenceAudit streams an organization's audit entries in [since, until),
// oldest first, a page at a time.
func (db *DB) EvidenceAudit(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.AuditEntry) error) error {
	page := Page{Limit: 1000}
	for {
		es, next, err := db.FindAuditEntries(ctx, AuditFilter{OrgID: orgID, Since: since, Until: until, Page: page})
		if err != nil {
			return err
		}
		for _, e := range es {
			if err := fn(e); err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		page.Cursor = next
	}
}
