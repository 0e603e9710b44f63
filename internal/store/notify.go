package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/stdlib"
)

// ListenEvents calls wake whenever any process commits events, until ctx
// ends or the connection fails; it returns at once, with nil, where the
// engine has no notifications. On PostgreSQL, migration 0003's trigger on
// the events table sends NOTIFY sentinel_events, which PostgreSQL delivers
// at commit. wake is also called once when listening starts, for events
// that committed before it did. A caller keeps calling it while it wants
// notifications, polling meanwhile: a lost connection is not retried here.
func (db *DB) ListenEvents(ctx context.Context, wake func()) error {
	if db.Engine != Postgres {
		return nil
	}
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("listen: not a pgx connection")
		}
		pc := sc.Conn()
		if _, err := pc.Exec(ctx, "LISTEN sentinel_events"); err != nil {
			return err
		}
		// The connection goes back to the pool after this: stop listening
		// on it first.
		defer func() { _, _ = pc.Exec(context.WithoutCancel(ctx), "UNLISTEN *") }()
		wake()
		for {
			if _, err := pc.WaitForNotification(ctx); err != nil {
				return err
			}
			wake()
		}
	})
}

// Notifies reports whether ListenEvents delivers notifications on this
// engine; without them a caller relies on polling alone.
func (db *DB) Notifies() bool { return db.Engine == Postgres }
