package webhooks

import (
	"context"
	"time"
)

// listen wakes the fan-out when any replica commits events, where the store
// notifies (PostgreSQL). A lost connection is re-established; meanwhile
// the poll keeps things moving.
func (s *Service) listen(ctx context.Context) {
	for ctx.Err() == nil {
		err := s.DB.ListenEvents(ctx, func() { signal(s.fanWake) })
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
