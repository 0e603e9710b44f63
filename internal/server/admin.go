package server

import (
	"context"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/keys"
	"github.com/sentinel-sca/sentinel/internal/portal"
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
		if k, full, err = keys.Create(ctx, tx, o.ID, name, scopes, AdminActor.KeyID); err != nil {
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
// every scope, for the quick start; the demo keys of earlier starts are
// revoked, so that one all-scope demo key is valid at a time.
func EnsureDemo(ctx context.Context, db *store.DB) (*sentinel.Organization, string, error) {
	o, err := db.FindOrgBySlug(ctx, "demo")
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		o, err = CreateOrg(ctx, db, "demo", "Demo Organization")
	}
	if err != nil {
		return nil, "", err
	}
	old, _, err := db.ListAPIKeys(ctx, o.ID, sentinel.Page{Limit: 500})
	if err != nil {
		return nil, "", err
	}
	err = db.InTx(ctx, func(tx *store.Tx) error {
		for _, k := range old {
			if k.Name != "demo" || k.RevokedAt != nil {
				continue
			}
			if _, err := tx.RevokeAPIKey(ctx, o.ID, k.ID); err != nil {
				return err
			}
			if err := tx.Audit(ctx, o.ID, AdminActor, "api_key.revoke", k.ID, map[string]any{"reason": "replaced by a new demo key"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	_, full, err := CreateKey(ctx, db, "demo", "demo", sentinel.AllScopes)
	return o, full, err
}

// CreateUser creates a portal user of an organization from the admin
// command line and returns it with its one-time set-up link under
// publicURL (the portal's address as users reach it).
func CreateUser(ctx context.Context, db *store.DB, slug, email, name, role, publicURL string) (*sentinel.User, string, error) {
	o, err := db.FindOrgBySlug(ctx, slug)
	if err != nil {
		return nil, "", err
	}
	var u *sentinel.User
	var token string
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		if u, token, err = portal.NewUser(ctx, tx, o.ID, email, name, role, AdminActor.KeyID); err != nil {
			return err
		}
		return tx.Audit(ctx, o.ID, AdminActor, "user.create", u.ID, map[string]any{"email": u.Email, "role": u.Role})
	})
	if err != nil {
		return nil, "", err
	}
	return u, portal.SetupLink(publicURL, token), nil
}

// UserSetupLink gives an existing user a new one-time set-up link from
// the admin command line (a forgotten password, the only admin locked
// out); the previous link stops working.
func UserSetupLink(ctx context.Context, db *store.DB, slug, email, publicURL string) (*sentinel.User, string, error) {
	o, err := db.FindOrgBySlug(ctx, slug)
	if err != nil {
		return nil, "", err
	}
	u, err := db.FindUserByEmail(ctx, o.ID, sentinel.NormalizeEmail(email))
	if err != nil {
		return nil, "", err
	}
	var token string
	err = db.InTx(ctx, func(tx *store.Tx) (err error) {
		if token, _, err = portal.NewSetupLink(ctx, tx, o.ID, u.ID); err != nil {
			return err
		}
		return tx.Audit(ctx, o.ID, AdminActor, "user.setup_link", u.ID, nil)
	})
	if err != nil {
		return nil, "", err
	}
	return u, portal.SetupLink(publicURL, token), nil
}
