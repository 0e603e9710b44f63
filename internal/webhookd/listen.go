package webhookd

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// listen wakes the fan-out when any replica commits events, on PostgreSQL:
// migration 0003's trigger on the events table sends NOTIFY
// sentinel_events, which PostgreSQL delivers at commit. A lost connection
// is re-established; meanwhile the poll keeps things moving.
func (s *Service) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := s.listenOnce(ctx)
		if ctx.Err() != nil {
			return
		}
		s.Logger.Warn("webhooks: LISTEN connection lost; polling until it is back", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
		}
	}
}

func (s *Service) listenOnce(ctx context.Context) error {
	conn, err := s.DB.SQL().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("not a pgx connection")
		}
		pc := sc.Conn()
		if _, err := pc.Exec(ctx, "LISTEN sentinel_events"); err != nil {
			return err
		}
		// The connection goes back to the pool after this: stop listening
		// on it first.
		defer func() { _, _ = pc.Exec(context.WithoutCancel(ctx), "UNLISTEN *") }()
		signal(s.fanWake) // events may have committed before LISTEN took effect
		for {
			if _, err := pc.WaitForNotification(ctx); err != nil {
				return err
			}
			signal(s.fanWake)
		}
	})
}
