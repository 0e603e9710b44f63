package store

import (
	"context"
	"time"
)

// AcquireLease takes or renews the named lease for holder until now+ttl.
// It succeeds when the lease is free, expired, or already holder's. Leases
// elect the leader that runs periodic jobs and hold scan slots; they work
// the same on both engines and across replicas.
func (db *DB) AcquireLease(ctx context.Context, name, holder string, ttl time.Duration) (bool, error) {
	now := MS(db.Now())
	res, err := db.Exec(ctx, `INSERT INTO leases (name, holder, lease_until) VALUES ($1, $2, $3)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
		WHERE leases.holder = excluded.holder OR leases.lease_until < $4`, name, holder, now+ttl.Milliseconds(), now)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReleaseLease gives up holder's lease; it is not an error if another
// holder has it now.
func (db *DB) ReleaseLease(ctx context.Context, name, holder string) error {
	_, err := db.Exec(ctx, `DELETE FROM leases WHERE name = $1 AND holder = $2`, name, holder)
	return err
}

// CountLeases counts live leases whose names start with prefix.
func (db *DB) CountLeases(ctx context.Context, prefix string) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT COUNT(*) FROM leases WHERE name LIKE $1 AND lease_until >= $2`, prefix+"%", MS(db.Now())).Scan(&n)
	return n, err
}
