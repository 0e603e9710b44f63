package store

import (
	"context"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
)

func validMeter(m string) bool {
	for _, x := range sentinel.Meters {
		if x == m {
			return true
		}
	}
	return false
}

// SetMeterLimit sets an organization's monthly limit for a meter; nil
// removes it (unmetered). Errors: EINVALID.
func (tx *Tx) SetMeterLimit(ctx context.Context, orgID, meter string, limit *int) error {
	if !validMeter(meter) {
		return sentinel.InvalidField("meter", "unknown meter %q; meters: %v", meter, sentinel.Meters)
	}
	if limit == nil {
		_, err := tx.Exec(ctx, `DELETE FROM meter_limits WHERE org_id = $1 AND meter = $2`, orgID, meter)
		return err
	}
	if *limit < 0 {
		return sentinel.InvalidField("limit", "the limit must be zero or more")
	}
	_, err := tx.Exec(ctx, `INSERT INTO meter_limits (org_id, meter, monthly_limit) VALUES ($1, $2, $3)
		ON CONFLICT (org_id, meter) DO UPDATE SET monthly_limit = excluded.monthly_limit`, orgID, meter, *limit)
	return err
}

// Period is a meter's monthly period for t ("2026-11").
func Period(t time.Time) string { return t.UTC().Format("2006-01") }

// ConsumeMeter counts n uses of a meter in the caller's transaction. When
// the organization has a limit and it would be exceeded, nothing is counted
// and the error is EMETERED. Unmetered organizations are still counted.
func (tx *Tx) ConsumeMeter(ctx context.Context, orgID, meter string, n int) error {
	period := Period(tx.Now())
	if _, err := tx.Exec(ctx, `INSERT INTO meter_usage (org_id, meter, period, used) VALUES ($1, $2, $3, 0)
		ON CONFLICT (org_id, meter, period) DO NOTHING`, orgID, meter, period); err != nil {
		return fmt.Errorf("consume meter: %w", err)
	}
	res, err := tx.Exec(ctx, `UPDATE meter_usage SET used = used + $4
		WHERE org_id = $1 AND meter = $2 AND period = $3 AND used + $4 <= COALESCE(
			(SELECT monthly_limit FROM meter_limits WHERE org_id = $1 AND meter = $2), used + $4)`,
		orgID, meter, period, n)
	if err != nil {
		return fmt.Errorf("consume meter: %w", err)
	}
	if k, _ := res.RowsAffected(); k == 0 {
		return sentinel.Errorf(sentinel.EMETERED, "the monthly %s meter of this organization is exhausted; it resets on the first of next month, or an administrator can raise the limit", meter)
	}
	return nil
}

// MeterStatuses returns every meter's status for the organization now.
func (db *DB) MeterStatuses(ctx context.Context, orgID string) ([]sentinel.MeterStatus, error) {
	period := Period(db.Now())
	var out []sentinel.MeterStatus
	for _, m := range sentinel.Meters {
		s := sentinel.MeterStatus{Meter: m, Period: period}
		_ = db.QueryRow(ctx, `SELECT used FROM meter_usage WHERE org_id = $1 AND meter = $2 AND period = $3`, orgID, m, period).Scan(&s.Used)
		var lim int
		if err := db.QueryRow(ctx, `SELECT monthly_limit FROM meter_limits WHERE org_id = $1 AND meter = $2`, orgID, m).Scan(&lim); err == nil {
			s.Limit = &lim
		}
		out = append(out, s)
	}
	return out, nil
}
