package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sentinel-sca/sentinel"
)

const iocColumns = `id, org_id, ecosystem, name, name_key, versions, reason, severity, reference, malicious, status, created_by,
	created_at, applied_at, archived_at`

func scanIOC(row interface{ Scan(...any) error }) (*sentinel.IOC, error) {
	var i sentinel.IOC
	var created int64
	var applied, archived sql.NullInt64
	if err := row.Scan(&i.ID, &i.OrgID, &i.Ecosystem, &i.Name, &i.NameKey, &i.Versions, &i.Reason, &i.Severity, &i.Reference,
		&i.Malicious, &i.Status, &i.CreatedBy, &created, &applied, &archived); err != nil {
		return nil, err
	}
	i.CreatedAt, i.AppliedAt, i.ArchivedAt = FromMS(created), nullMS(applied), nullMS(archived)
	return &i, nil
}

// CreateIOC stores a new indicator as a draft. Errors: ENOTFOUND
// (organization).
func (tx *Tx) CreateIOC(ctx context.Context, i *sentinel.IOC) error {
	i.CreatedAt = tx.Now()
	if i.Status == "" {
		i.Status = sentinel.IOCDraft
	}
	_, err := tx.Exec(ctx, `INSERT INTO iocs (id, org_id, ecosystem, name, name_key, versions, reason, severity, reference, malicious, status, created_by, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		i.ID, i.OrgID, i.Ecosystem, i.Name, i.NameKey, i.Versions, i.Reason, i.Severity, i.Reference, i.Malicious, i.Status, i.CreatedBy, MS(i.CreatedAt))
	if err != nil {
		return fmt.Errorf("create indicator: %w", err)
	}
	return nil
}

// FindIOC returns an organization's indicator. Errors: ENOTFOUND.
func (db *DB) FindIOC(ctx context.Context, orgID, id string) (*sentinel.IOC, error) {
	i, err := scanIOC(db.QueryRow(ctx, `SELECT `+iocColumns+` FROM iocs WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("indicator")
	}
	return i, err
}

// FindIOCs returns an organization's indicators, newest first, optionally
// of one status. Errors: EINVALID (cursor).
func (db *DB) FindIOCs(ctx context.Context, orgID, status string, page sentinel.Page) ([]*sentinel.IOC, string, error) {
	c, ok, err := parseCursor(page.Cursor)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		c.n = 1 << 62
	}
	limit := pageLimit(page, 50)
	rows, err := db.Query(ctx, `SELECT `+iocColumns+` FROM iocs WHERE org_id = $1 AND ($2 = '' OR status = $2)
		AND (created_at < $3 OR (created_at = $3 AND id < $4)) ORDER BY created_at DESC, id DESC LIMIT $5`,
		orgID, status, c.n, c.id, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("find indicators: %w", err)
	}
	out, err := scanRows(rows, scanIOC)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(i *sentinel.IOC) cursor { return cursor{n: MS(i.CreatedAt), id: i.ID} })
	return out, next, nil
}

// AppliedIOCs returns an organization's applied indicators: those every
// submission and scan is matched against.
func (db *DB) AppliedIOCs(ctx context.Context, orgID string) ([]*sentinel.IOC, error) {
	rows, err := db.Query(ctx, `SELECT `+iocColumns+` FROM iocs WHERE org_id = $1 AND status = $2 ORDER BY id`, orgID, sentinel.IOCApplied)
	if err != nil {
		return nil, fmt.Errorf("applied indicators: %w", err)
	}
	return scanRows(rows, scanIOC)
}

// SetIOCStatus moves an indicator to applied or archived and returns it.
// It reports false (no change) when it already was. Errors: ENOTFOUND,
// ECONFLICT (an archived indicator cannot be applied again).
func (tx *Tx) SetIOCStatus(ctx context.Context, orgID, id, status string) (*sentinel.IOC, bool, error) {
	i, err := scanIOC(tx.QueryRow(ctx, `SELECT `+iocColumns+` FROM iocs WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, notFound("indicator")
	}
	if err != nil {
		return nil, false, err
	}
	if i.Status == status {
		return i, false, nil
	}
	if i.Status == sentinel.IOCArchived {
		return nil, false, sentinel.Errorf(sentinel.ECONFLICT, "indicator %s is archived; define a new one", id)
	}
	now := tx.Now()
	col := "applied_at"
	if status == sentinel.IOCArchived {
		col = "archived_at"
		i.ArchivedAt = &now
	} else {
		i.AppliedAt = &now
	}
	if _, err := tx.Exec(ctx, `UPDATE iocs SET status = $3, `+col+` = $4 WHERE org_id = $1 AND id = $2`, orgID, id, status, MS(now)); err != nil {
		return nil, false, fmt.Errorf("indicator status: %w", err)
	}
	i.Status = status
	return i, true, nil
}

// FindingsOfAdvisory returns an organization's findings of one advisory
// or indicator id, in any status.
func (db *DB) FindingsOfAdvisory(ctx context.Context, orgID, advisoryID string) ([]*sentinel.Finding, error) {
	rows, err := db.Query(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id
		WHERE f.org_id = $1 AND f.advisory_id = $2 ORDER BY f.id`, orgID, advisoryID)
	if err != nil {
		return nil, fmt.Errorf("findings of %s: %w", advisoryID, err)
	}
	return scanFindings(rows)
}
