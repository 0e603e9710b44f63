package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// CreateWebhook stores a new registration. Errors: ECONFLICT (the
// organization has MaxWebhooksPerOrg webhooks), ENOTFOUND (organization).
func (tx *Tx) CreateWebhook(ctx context.Context, w *sentinel.Webhook) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM webhooks WHERE org_id = $1`, w.OrgID).Scan(&n); err != nil {
		return fmt.Errorf("count webhooks: %w", err)
	}
	if n >= sentinel.MaxWebhooksPerOrg {
		return sentinel.Errorf(sentinel.ECONFLICT, "an organization can register at most %d webhooks; delete one first", sentinel.MaxWebhooksPerOrg)
	}
	ev, err := json.Marshal(w.Events)
	if err != nil {
		return err
	}
	w.CreatedAt, w.UpdatedAt = tx.Now(), tx.Now()
	_, err = tx.Exec(ctx, `INSERT INTO webhooks (id, org_id, url, description, events, active, secret, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
		w.ID, w.OrgID, w.URL, w.Description, string(ev), w.Active, w.Secret, MS(tx.Now()))
	if err != nil {
		return fmt.Errorf("create webhook: %w", err)
	}
	return nil
}

const webhookColumns = `id, org_id, url, description, events, active, secret, prev_secret, prev_secret_until, created_at, updated_at`

func scanWebhook(row interface{ Scan(...any) error }) (*sentinel.Webhook, error) {
	var w sentinel.Webhook
	var events string
	var until sql.NullInt64
	var created, updated int64
	if err := row.Scan(&w.ID, &w.OrgID, &w.URL, &w.Description, &events, &w.Active, &w.Secret, &w.PrevSecret, &until, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(events), &w.Events); err != nil {
		return nil, fmt.Errorf("webhook %s events: %w", w.ID, err)
	}
	w.PrevSecretUntil = nullMS(until)
	w.CreatedAt, w.UpdatedAt = FromMS(created), FromMS(updated)
	return &w, nil
}

// FindWebhook returns an organization's webhook. Errors: ENOTFOUND (also
// for another organization's webhook).
func (db *DB) FindWebhook(ctx context.Context, orgID, id string) (*sentinel.Webhook, error) {
	w, err := scanWebhook(db.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("webhook")
	}
	return w, err
}

// FindWebhook is FindWebhook inside the transaction.
func (tx *Tx) FindWebhook(ctx context.Context, orgID, id string) (*sentinel.Webhook, error) {
	w, err := scanWebhook(tx.QueryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("webhook")
	}
	return w, err
}

// ListWebhooks returns an organization's webhooks in id order.
func (db *DB) ListWebhooks(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.Webhook, string, error) {
	c, _, err := parseCursor(page.Cursor)
	if err != nil {
		return nil, "", err
	}
	limit := pageLimit(page, 50)
	rows, err := db.Query(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
		orgID, c.id, limit+1)
	if err != nil {
		return nil, "", fmt.Errorf("list webhooks: %w", err)
	}
	out, err := scanRows(rows, scanWebhook)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(w *sentinel.Webhook) cursor { return cursor{id: w.ID} })
	return out, next, nil
}

// UpdateWebhook changes a webhook and returns it as updated. Deactivating
// a webhook fails its unfinished deliveries (they stay visible and can be
// redelivered by hand after it is active again). Errors: ENOTFOUND.
func (tx *Tx) UpdateWebhook(ctx context.Context, orgID, id string, u sentinel.WebhookUpdate) (*sentinel.Webhook, error) {
	var events *string
	if u.Events != nil {
		b, err := json.Marshal(*u.Events)
		if err != nil {
			return nil, err
		}
		s := string(b)
		events = &s
	}
	res, err := tx.Exec(ctx, `UPDATE webhooks SET url = COALESCE($3, url), events = COALESCE($4, events),
		description = COALESCE($5, description), active = COALESCE($6, active), updated_at = $7
		WHERE org_id = $1 AND id = $2`, orgID, id, u.URL, events, u.Description, u.Active, MS(tx.Now()))
	if err != nil {
		return nil, fmt.Errorf("update webhook: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, notFound("webhook")
	}
	if u.Active != nil && !*u.Active {
		if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET state = $2, last_error = $3, lease_until = 0, updated_at = $4
			WHERE webhook_id = $1 AND state IN ($5, $6)`,
			id, sentinel.DeliveryFailed, "webhook deactivated", MS(tx.Now()), sentinel.DeliveryPending, sentinel.DeliveryWaiting); err != nil {
			return nil, fmt.Errorf("fail deliveries of deactivated webhook: %w", err)
		}
	}
	return tx.FindWebhook(ctx, orgID, id)
}

// DeleteWebhook deletes a webhook and its deliveries; an attempt in flight
// finishes but is not recorded. Errors: ENOTFOUND.
func (tx *Tx) DeleteWebhook(ctx context.Context, orgID, id string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM webhook_deliveries WHERE org_id = $1 AND webhook_id = $2`, orgID, id); err != nil {
		return fmt.Errorf("delete deliveries: %w", err)
	}
	res, err := tx.Exec(ctx, `DELETE FROM webhooks WHERE org_id = $1 AND id = $2`, orgID, id)
	if err != nil {
		return fmt.Errorf("delete webhook: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound("webhook")
	}
	return nil
}

// RotateWebhookSecret makes sealed the webhook's secret; the current one
// becomes the previous secret, still used to sign until prevUntil. A
// previous secret from an earlier rotation is dropped. Errors: ENOTFOUND.
func (tx *Tx) RotateWebhookSecret(ctx context.Context, orgID, id string, sealed []byte, prevUntil time.Time) (*sentinel.Webhook, error) {
	res, err := tx.Exec(ctx, `UPDATE webhooks SET prev_secret = secret, prev_secret_until = $3, secret = $4, updated_at = $5
		WHERE org_id = $1 AND id = $2`, orgID, id, MS(prevUntil), sealed, MS(tx.Now()))
	if err != nil {
		return nil, fmt.Errorf("rotate webhook secret: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, notFound("webhook")
	}
	return tx.FindWebhook(ctx, orgID, id)
}
