package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sentinel-sca/sentinel"
)

const scanColumns = `id, org_id, asset_id, target, status, error, scheduled, detections, findings, stats, slot, created_by,
	created_at, started_at, finished_at`

func scanScan(row interface{ Scan(...any) error }) (*sentinel.Scan, error) {
	var s sentinel.Scan
	var detections, stats, slot, createdBy string
	var created int64
	var started, finished sql.NullInt64
	if err := row.Scan(&s.ID, &s.OrgID, &s.AssetID, &s.Target, &s.Status, &s.Error, &s.Scheduled, &detections, &s.Findings,
		&stats, &slot, &createdBy, &created, &started, &finished); err != nil {
		return nil, err
	}
	s.Detections = []sentinel.Detection{}
	if err := json.Unmarshal([]byte(detections), &s.Detections); err != nil {
		return nil, fmt.Errorf("scan %s detections: %w", s.ID, err)
	}
	if stats != "" {
		s.Stats = &sentinel.ScanStats{}
		if err := json.Unmarshal([]byte(stats), s.Stats); err != nil {
			return nil, fmt.Errorf("scan %s stats: %w", s.ID, err)
		}
	}
	s.Slot = slot
	s.CreatedAt, s.StartedAt, s.FinishedAt = FromMS(created), nullMS(started), nullMS(finished)
	return &s, nil
}

// CreateScan stores a new scan in the queued state. Errors: ENOTFOUND
// (organization or asset).
func (tx *Tx) CreateScan(ctx context.Context, s *sentinel.Scan) error {
	s.CreatedAt = tx.Now()
	if s.Status == "" {
		s.Status = sentinel.ScanQueued
	}
	if s.Detections == nil {
		s.Detections = []sentinel.Detection{}
	}
	_, err := tx.Exec(ctx, `INSERT INTO scans (id, org_id, asset_id, target, status, scheduled, slot, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		s.ID, s.OrgID, s.AssetID, s.Target, s.Status, s.Scheduled, s.Slot, MS(s.CreatedAt))
	if err != nil {
		return fmt.Errorf("create scan: %w", err)
	}
	return nil
}

// FindScan returns an organization's scan. Errors: ENOTFOUND (also for
// another organization's).
func (db *DB) FindScan(ctx context.Context, orgID, id string) (*sentinel.Scan, error) {
	s, err := scanScan(db.QueryRow(ctx, `SELECT `+scanColumns+` FROM scans WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("scan")
	}
	return s, err
}

// FindScanByID returns a scan of any organization (for the worker that
// runs it). Errors: ENOTFOUND.
func (db *DB) FindScanByID(ctx context.Context, id string) (*sentinel.Scan, error) {
	s, err := scanScan(db.QueryRow(ctx, `SELECT `+scanColumns+` FROM scans WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("scan")
	}
	return s, err
}

// ScanStatus returns a scan's status, of any organization (for the worker
// watching for a cancellation). Errors: ENOTFOUND.
func (db *DB) ScanStatus(ctx context.Context, id string) (string, error) {
	var st string
	err := db.QueryRow(ctx, `SELECT status FROM scans WHERE id = $1`, id).Scan(&st)
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFound("scan")
	}
	return st, err
}

// FindScanTx reads a scan inside the transaction, of any organization.
func (tx *Tx) FindScanTx(ctx context.Context, id string) (*sentinel.Scan, error) {
	s, err := scanScan(tx.QueryRow(ctx, `SELECT `+scanColumns+` FROM scans WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("scan")
	}
	return s, err
}

// FindScans returns an organization's scans, newest first. Errors:
// EINVALID (cursor).
func (db *DB) FindScans(ctx context.Context, f sentinel.ScanFilter) ([]*sentinel.Scan, string, error) {
	c, ok, err := parseCursor(f.Page.Cursor)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		c.n = 1 << 62
	}
	limit := pageLimit(f.Page, 50)
	rows, err := db.Query(ctx, `SELECT `+scanColumns+` FROM scans
		WHERE org_id = $1 AND (created_at < $2 OR (created_at = $2 AND id < $3))
		AND ($4 = '' OR asset_id = $4) AND ($5 = '' OR status = $5)
		ORDER BY created_at DESC, id DESC LIMIT $6`, f.OrgID, c.n, c.id, f.AssetID, f.Status, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("find scans: %w", err)
	}
	out, err := scanRows(rows, scanScan)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(s *sentinel.Scan) cursor { return cursor{n: MS(s.CreatedAt), id: s.ID} })
	return out, next, nil
}

// ActiveScan returns the asset's queued or running scan, or ENOTFOUND.
func (tx *Tx) ActiveScan(ctx context.Context, assetID string) (*sentinel.Scan, error) {
	s, err := scanScan(tx.QueryRow(ctx, `SELECT `+scanColumns+` FROM scans WHERE asset_id = $1 AND status IN ($2, $3)
		ORDER BY created_at DESC LIMIT 1`, assetID, sentinel.ScanQueued, sentinel.ScanRunning))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("scan")
	}
	return s, err
}

// StartScan moves a queued scan to running. It reports false, changing
// nothing, when the scan is no longer queued (canceled meanwhile, or
// started by an earlier attempt: a scan already running is restarted by
// the caller without a second transition).
func (tx *Tx) StartScan(ctx context.Context, id string) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE scans SET status = $2, started_at = $3 WHERE id = $1 AND status = $4`,
		id, sentinel.ScanRunning, MS(tx.Now()), sentinel.ScanQueued)
	if err != nil {
		return false, fmt.Errorf("start scan: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// FinishScan records a running scan's outcome: status (completed or
// failed), its error, detections, findings count and statistics. It
// reports false, changing nothing, when the scan is no longer running
// (canceled meanwhile).
func (tx *Tx) FinishScan(ctx context.Context, s *sentinel.Scan) (bool, error) {
	det, err := json.Marshal(s.Detections)
	if err != nil {
		return false, err
	}
	if s.Detections == nil {
		det = []byte("[]")
	}
	stats := ""
	if s.Stats != nil {
		b, err := json.Marshal(s.Stats)
		if err != nil {
			return false, err
		}
		stats = string(b)
	}
	now := tx.Now()
	res, err := tx.Exec(ctx, `UPDATE scans SET status = $2, error = $3, detections = $4, findings = $5, stats = $6, finished_at = $7
		WHERE id = $1 AND status = $8`, s.ID, s.Status, s.Error, string(det), s.Findings, stats, MS(now), sentinel.ScanRunning)
	if err != nil {
		return false, fmt.Errorf("finish scan: %w", err)
	}
	n, err := res.RowsAffected()
	if n == 1 {
		s.FinishedAt = &now
	}
	return n == 1, err
}

// CancelScan cancels an organization's queued or running scan. It returns
// the scan; ECONFLICT when it has already ended, ENOTFOUND when there is
// no such scan.
func (tx *Tx) CancelScan(ctx context.Context, orgID, id string) (*sentinel.Scan, error) {
	s, err := scanScan(tx.QueryRow(ctx, `SELECT `+scanColumns+` FROM scans WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("scan")
	}
	if err != nil {
		return nil, err
	}
	if s.Status != sentinel.ScanQueued && s.Status != sentinel.ScanRunning {
		return nil, sentinel.Errorf(sentinel.ECONFLICT, "scan %s has already ended (%s)", id, s.Status)
	}
	now := tx.Now()
	res, err := tx.Exec(ctx, `UPDATE scans SET status = $3, finished_at = $4 WHERE org_id = $1 AND id = $2 AND status = $5`,
		orgID, id, sentinel.ScanCanceled, MS(now), s.Status)
	if err != nil {
		return nil, fmt.Errorf("cancel scan: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, sentinel.Errorf(sentinel.ECONFLICT, "scan %s changed state meanwhile; look again", id)
	}
	s.Status, s.FinishedAt = sentinel.ScanCanceled, &now
	return s, nil
}

// LatestScans returns each site asset's newest completed scan of an
// organization whose site was reachable: the live detections.
func (db *DB) LatestScans(ctx context.Context, orgID string) ([]*sentinel.Scan, error) {
	rows, err := db.Query(ctx, `SELECT `+scanColumns+` FROM scans s WHERE s.org_id = $1 AND s.id = (
			SELECT s2.id FROM scans s2 WHERE s2.asset_id = s.asset_id AND s2.status = $2
			ORDER BY s2.created_at DESC, s2.id DESC LIMIT 1)
		ORDER BY s.asset_id`, orgID, sentinel.ScanCompleted)
	if err != nil {
		return nil, fmt.Errorf("latest scans: %w", err)
	}
	return scanRows(rows, scanScan)
}
