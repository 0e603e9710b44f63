package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/sentinel-sca/sentinel"
)

var slugPattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)

// ValidSlug reports whether s can name an organization: lowercase letters,
// digits and inner hyphens, 1 to 63 characters.
func ValidSlug(s string) bool { return slugPattern.MatchString(s) }

// CreateOrg creates an organization. Errors: EINVALID (slug), ECONFLICT
// (slug taken).
func (tx *Tx) CreateOrg(ctx context.Context, slug, name string) (*sentinel.Organization, error) {
	if !ValidSlug(slug) {
		return nil, sentinel.InvalidField("slug", "slug %q must be 1-63 lowercase letters, digits or inner hyphens", slug)
	}
	if name == "" {
		name = slug
	}
	o := &sentinel.Organization{
		ID: sentinel.NewID(sentinel.PrefixOrg), Slug: slug, Name: name,
		Catalog: "nist-800-53", SharePeriod: 7 * 24 * time.Hour, CreatedAt: tx.Now(),
	}
	_, err := tx.Exec(ctx, `INSERT INTO organizations (id, slug, name, catalog, share_period_ms, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		o.ID, o.Slug, o.Name, o.Catalog, o.SharePeriod.Milliseconds(), MS(o.CreatedAt))
	if IsConflict(err) {
		return nil, sentinel.Errorf(sentinel.ECONFLICT, "organization %q already exists", slug)
	}
	if err != nil {
		return nil, fmt.Errorf("create organization %q: %w", slug, err)
	}
	return o, nil
}

const orgColumns = `id, slug, name, catalog, share_period_ms, created_at, require_verified_targets`

func scanOrg(row interface{ Scan(...any) error }) (*sentinel.Organization, error) {
	var o sentinel.Organization
	var period, created int64
	if err := row.Scan(&o.ID, &o.Slug, &o.Name, &o.Catalog, &period, &created, &o.RequireVerifiedTargets); err != nil {
		return nil, err
	}
	o.SharePeriod = time.Duration(period) * time.Millisecond
	o.CreatedAt = FromMS(created)
	return &o, nil
}

// FindOrgBySlug returns the organization with the slug. Errors: ENOTFOUND.
func (db *DB) FindOrgBySlug(ctx context.Context, slug string) (*sentinel.Organization, error) {
	o, err := scanOrg(db.QueryRow(ctx, `SELECT `+orgColumns+` FROM organizations WHERE slug = $1`, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("organization")
	}
	return o, err
}

// FindOrgByID returns the organization with the id. Errors: ENOTFOUND.
func (db *DB) FindOrgByID(ctx context.Context, id string) (*sentinel.Organization, error) {
	o, err := scanOrg(db.QueryRow(ctx, `SELECT `+orgColumns+` FROM organizations WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("organization")
	}
	return o, err
}

// ListOrgs returns every organization, oldest first.
func (db *DB) ListOrgs(ctx context.Context) ([]*sentinel.Organization, error) {
	rows, err := db.Query(ctx, `SELECT `+orgColumns+` FROM organizations ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	return scanRows(rows, scanOrg)
}

// Catalogs are the compliance catalogs an organization can choose as primary.
var Catalogs = []string{"nist-800-53", "pci-dss-4", "iso-27001-2022"}

// UpdateOrg changes an organization's settings. Errors: EINVALID, ENOTFOUND.
func (tx *Tx) UpdateOrg(ctx context.Context, id string, u sentinel.OrgUpdate) error {
	if u.SharePeriod != nil && (*u.SharePeriod < time.Hour || *u.SharePeriod > 30*24*time.Hour) {
		return sentinel.InvalidField("share_period", "the share period must be between 1 hour and 30 days")
	}
	if u.Catalog != nil {
		ok := false
		for _, c := range Catalogs {
			ok = ok || c == *u.Catalog
		}
		if !ok {
			return sentinel.InvalidField("catalog", "unknown catalog %q", *u.Catalog)
		}
	}
	res, err := tx.Exec(ctx, `UPDATE organizations SET
		name = COALESCE($2, name), catalog = COALESCE($3, catalog), share_period_ms = COALESCE($4, share_period_ms),
		require_verified_targets = COALESCE($5, require_verified_targets)
		WHERE id = $1`, id, u.Name, u.Catalog, durMS(u.SharePeriod), u.RequireVerifiedTargets)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound("organization")
	}
	return nil
}

func durMS(d *time.Duration) *int64 {
	if d == nil {
		return nil
	}
	v := d.Milliseconds()
	return &v
}
