package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

const assetColumns = `id, org_id, name, kind, criticality, first_seen, last_seen,
	target, schedule, next_scan_at, state, disappeared_at, verify_token, verified_at, verified_by`

func scanAsset(row interface{ Scan(...any) error }) (*sentinel.Asset, error) {
	var a sentinel.Asset
	var first, last int64
	var next, gone, verified sql.NullInt64
	if err := row.Scan(&a.ID, &a.OrgID, &a.Name, &a.Kind, &a.Criticality, &first, &last,
		&a.Target, &a.Schedule, &next, &a.State, &gone, &a.VerifyToken, &verified, &a.VerifiedBy); err != nil {
		return nil, err
	}
	a.FirstSeen, a.LastSeen = FromMS(first), FromMS(last)
	a.NextScanAt, a.DisappearedAt, a.VerifiedAt = nullMS(next), nullMS(gone), nullMS(verified)
	return &a, nil
}

// UpsertAsset returns the organization's asset with the name, creating it
// (first seen now) or moving its last sighting to now. created reports a
// new asset.
func (tx *Tx) UpsertAsset(ctx context.Context, orgID, name, kind string) (*sentinel.Asset, bool, error) {
	a, err := scanAsset(tx.QueryRow(ctx, `SELECT `+assetColumns+` FROM assets WHERE org_id = $1 AND name = $2`, orgID, name))
	if err == nil {
		a.LastSeen = tx.Now()
		_, err = tx.Exec(ctx, `UPDATE assets SET last_seen = $2 WHERE id = $1`, a.ID, MS(tx.Now()))
		return a, false, err
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, false, fmt.Errorf("find asset: %w", err)
	}
	a = &sentinel.Asset{ID: sentinel.NewID(sentinel.PrefixAsset), OrgID: orgID, Name: name, Kind: kind,
		Criticality: sentinel.CriticalityMedium, FirstSeen: tx.Now(), LastSeen: tx.Now(), State: sentinel.AssetActive}
	if err := tx.insertAsset(ctx, a); err != nil {
		return nil, false, err
	}
	return a, true, nil
}

func (tx *Tx) insertAsset(ctx context.Context, a *sentinel.Asset) error {
	if a.VerifyToken == "" {
		a.VerifyToken = "sentinel-verification=" + seal.Token(16)
	}
	if a.State == "" {
		a.State = sentinel.AssetActive
	}
	_, err := tx.Exec(ctx, `INSERT INTO assets (id, org_id, name, kind, criticality, first_seen, last_seen, target, schedule, next_scan_at, state, verify_token)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		a.ID, a.OrgID, a.Name, a.Kind, a.Criticality, MS(a.FirstSeen), MS(a.LastSeen), a.Target, a.Schedule, msPtr(a.NextScanAt),
		a.State, a.VerifyToken)
	if err != nil {
		return fmt.Errorf("create asset: %w", err)
	}
	return nil
}

// EnsureSite returns the organization's site asset named name (its
// origin), creating it with target, criticality and schedule when it is
// new (created reports that). An existing asset of another kind with that
// name is ECONFLICT.
func (tx *Tx) EnsureSite(ctx context.Context, orgID, name, target, criticality, schedule string) (*sentinel.Asset, bool, error) {
	a, err := scanAsset(tx.QueryRow(ctx, `SELECT `+assetColumns+` FROM assets WHERE org_id = $1 AND name = $2`, orgID, name))
	if err == nil {
		if a.Kind != sentinel.AssetSite {
			return nil, false, sentinel.Errorf(sentinel.ECONFLICT, "%s is already an asset of kind %s", name, a.Kind)
		}
		return a, false, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, false, fmt.Errorf("find asset: %w", err)
	}
	now := tx.Now()
	a = &sentinel.Asset{ID: sentinel.NewID(sentinel.PrefixAsset), OrgID: orgID, Name: name, Kind: sentinel.AssetSite,
		Criticality: criticality, FirstSeen: now, LastSeen: now, Target: target, Schedule: schedule}
	if iv := sentinel.ScheduleInterval(schedule); iv > 0 {
		next := now.Add(iv)
		a.NextScanAt = &next
	}
	if err := tx.insertAsset(ctx, a); err != nil {
		return nil, false, err
	}
	return a, true, nil
}

// FindAssetByID returns an organization's asset. Errors: ENOTFOUND.
func (db *DB) FindAssetByID(ctx context.Context, orgID, id string) (*sentinel.Asset, error) {
	a, err := scanAsset(db.QueryRow(ctx, `SELECT `+assetColumns+` FROM assets WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("asset")
	}
	return a, err
}

// FindAssetByID is FindAssetByID inside the transaction.
func (tx *Tx) FindAssetByID(ctx context.Context, orgID, id string) (*sentinel.Asset, error) {
	a, err := scanAsset(tx.QueryRow(ctx, `SELECT `+assetColumns+` FROM assets WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("asset")
	}
	return a, err
}

// ListAssets returns an organization's assets by name.
func (db *DB) ListAssets(ctx context.Context, orgID string) ([]*sentinel.Asset, error) {
	rows, err := db.Query(ctx, `SELECT `+assetColumns+` FROM assets WHERE org_id = $1 ORDER BY name`, orgID)
	if err != nil {
		return nil, err
	}
	return scanRows(rows, scanAsset)
}

// FindAssets returns an organization's assets in id order, a page at a
// time. Errors: EINVALID (cursor).
func (db *DB) FindAssets(ctx context.Context, f sentinel.AssetFilter) ([]*sentinel.Asset, string, error) {
	c, _, err := parseCursor(f.Page.Cursor)
	if err != nil {
		return nil, "", err
	}
	limit := pageLimit(f.Page, 50)
	rows, err := db.Query(ctx, `SELECT `+assetColumns+` FROM assets WHERE org_id = $1 AND id > $2
		AND ($3 = '' OR kind = $3) AND ($4 = '' OR state = $4) AND ($5 = '' OR name = $5)
		ORDER BY id LIMIT $6`, f.OrgID, c.id, f.Kind, f.State, f.Name, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("find assets: %w", err)
	}
	out, err := scanRows(rows, scanAsset)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(a *sentinel.Asset) cursor { return cursor{id: a.ID} })
	return out, next, nil
}

// UpdateAsset changes an asset's criticality, schedule or target. A new
// schedule moves the next scheduled scan to now plus its interval (none
// for "off"). Errors: ENOTFOUND, EINVALID.
func (tx *Tx) UpdateAsset(ctx context.Context, orgID, id string, u sentinel.AssetUpdate) (*sentinel.Asset, error) {
	a, err := tx.FindAssetByID(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	if u.Criticality != nil {
		if !sentinel.ValidCriticality(*u.Criticality) {
			return nil, sentinel.InvalidField("criticality", "criticality must be low, medium, high or critical")
		}
		a.Criticality = *u.Criticality
	}
	if u.Target != nil {
		a.Target = *u.Target
	}
	if u.Schedule != nil && *u.Schedule != a.Schedule {
		a.Schedule = *u.Schedule
		a.NextScanAt = nil
		if iv := sentinel.ScheduleInterval(a.Schedule); iv > 0 {
			next := tx.Now().Add(iv)
			a.NextScanAt = &next
		}
	}
	_, err = tx.Exec(ctx, `UPDATE assets SET criticality = $3, schedule = $4, next_scan_at = $5, target = $6 WHERE org_id = $1 AND id = $2`,
		orgID, id, a.Criticality, a.Schedule, msPtr(a.NextScanAt), a.Target)
	if err != nil {
		return nil, fmt.Errorf("update asset: %w", err)
	}
	return a, nil
}

// SetAssetCriticality changes how much an asset matters to risk scores.
func (tx *Tx) SetAssetCriticality(ctx context.Context, orgID, id, criticality string) error {
	_, err := tx.UpdateAsset(ctx, orgID, id, sentinel.AssetUpdate{Criticality: &criticality})
	return err
}

// MarkAssetVerified records that the organization proved it controls the
// site, by method ("http" or "dns").
func (tx *Tx) MarkAssetVerified(ctx context.Context, orgID, id, method string) (*sentinel.Asset, error) {
	if _, err := tx.Exec(ctx, `UPDATE assets SET verified_at = $3, verified_by = $4 WHERE org_id = $1 AND id = $2`,
		orgID, id, MS(tx.Now()), method); err != nil {
		return nil, fmt.Errorf("verify asset: %w", err)
	}
	return tx.FindAssetByID(ctx, orgID, id)
}

// SetAssetReachable records what a scan learnt about a site: reachable or
// not. It reports the transition, if any: "disappeared" when an active
// asset was not reached, "reappeared" when a disappeared one was; "" when
// the state stays. A reachable site's last sighting moves to now.
func (tx *Tx) SetAssetReachable(ctx context.Context, orgID, id string, reachable bool) (string, *sentinel.Asset, error) {
	a, err := tx.FindAssetByID(ctx, orgID, id)
	if err != nil {
		return "", nil, err
	}
	now := tx.Now()
	switch {
	case reachable && a.State == sentinel.AssetDisappeared:
		_, err = tx.Exec(ctx, `UPDATE assets SET state = $2, disappeared_at = NULL, last_seen = $3 WHERE id = $1`, id, sentinel.AssetActive, MS(now))
		prev := a.DisappearedAt
		a.State, a.DisappearedAt, a.LastSeen = sentinel.AssetActive, prev, now
		return "reappeared", a, err
	case reachable:
		a.LastSeen = now
		_, err = tx.Exec(ctx, `UPDATE assets SET last_seen = $2 WHERE id = $1`, id, MS(now))
		return "", a, err
	case a.State == sentinel.AssetActive:
		_, err = tx.Exec(ctx, `UPDATE assets SET state = $2, disappeared_at = $3 WHERE id = $1`, id, sentinel.AssetDisappeared, MS(now))
		a.State, a.DisappearedAt = sentinel.AssetDisappeared, &now
		return "disappeared", a, err
	}
	return "", a, nil
}

// DueAssets returns up to limit site assets, of every organization, whose
// next scheduled scan is due at now.
func (db *DB) DueAssets(ctx context.Context, now time.Time, limit int) ([]*sentinel.Asset, error) {
	rows, err := db.Query(ctx, `SELECT `+assetColumns+` FROM assets WHERE next_scan_at IS NOT NULL AND next_scan_at <= $1
		ORDER BY next_scan_at LIMIT $2`, MS(now), limit)
	if err != nil {
		return nil, fmt.Errorf("due assets: %w", err)
	}
	return scanRows(rows, scanAsset)
}

// ScheduleNextScan moves an asset's next scheduled scan to at, but only if
// it is still due at due: of two replicas looking at once, one wins
// (reported by the bool).
func (tx *Tx) ScheduleNextScan(ctx context.Context, id string, due, at time.Time) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE assets SET next_scan_at = $3 WHERE id = $1 AND next_scan_at = $2`, id, MS(due), MS(at))
	if err != nil {
		return false, fmt.Errorf("schedule next scan: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
