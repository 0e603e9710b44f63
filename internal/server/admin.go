package server

import (
	"context"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// AdminActor is the audit actor of admin commands run on the server's host.
var AdminActor = sentinel.Actor{KeyID: "admin-cli"}

// CreateOrg creates an organization from the admin command line.
func CreateOrg(ctx context.Context, db *store.DB, slug, name string) (*sentinel.Organization, error) {
	var o *sentinel.Organization
	err := db.InTx(ctx, func(tx *store.Tx) (err error) {
		if o, err = tx.CreateOrg(ctx, slug, name); err != nil {
			return err
		}
		return tx.Audit(ctx, o.ID, AdminActor, "organization.create", o.ID, map[string]any{"slug": slug})
	})
	return o, err
}

// CreateKey creates an API key from the admin command line and returns its
// record and full text.
func CreateKey(ctx context.Context, db *store.DB, slug, name string, scopes []string) (*sentinel.APIKey, string, error) {
	o, err := db.FindOrgBySlug(ctx, slug)
	if err != nil {
		return nil, "", err
	}
	var k *sentinel.APIKey
	var full string
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		if k, full, err = httpapi.CreateKey(ctx, tx, o.ID, name, scopes, AdminActor.KeyID); err != nil {
			return err
		}
		return tx.Audit(ctx, o.ID, AdminActor, "api_key.create", k.ID, map[string]any{"scopes": scopes, "name": name})
	})
	return k, full, err
}

// SetMeter sets or removes (limit nil) an organization's monthly limit.
func SetMeter(ctx context.Context, db *store.DB, slug, meter string, limit *int) error {
	o, err := db.FindOrgBySlug(ctx, slug)
	if err != nil {
		return err
	}
	return db.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.SetMeterLimit(ctx, o.ID, meter, limit); err != nil {
			return err
		}
		return tx.Audit(ctx, o.ID, AdminActor, "meter.set", meter, map[string]any{"limit": limit})
	})
}

// EnsureDemo creates the "demo" organization if needed and a new key with
// every scope, for the quick start.
func EnsureDemo(ctx context.Context, db *store.DB) (*sentinel.Organization, string, error) {
	o, err := db.FindOrgBySlug(ctx, "demo")
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		o, err = CreateOrg(ctx, db, "demo", "Demo Organization")
	}
	if err != nil {
		return nil, "", err
	}
	_, full, err := CreateKey(ctx, db, "demo", "demo", sentinel.AllScopes)
	return o, full, err
}
