package scans

import (
	"context"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// ScheduleJob is the JobSchedule handler: it starts the scheduled scans
// that are due. A site already being scanned, or an organization at its
// cap, tries again in five minutes.
func (s *Service) ScheduleJob(ctx context.Context, _ *sentinel.Job) error {
	s.init()
	now := s.DB.Now()
	due, err := s.DB.DueAssets(ctx, now, 200)
	if err != nil {
		return err
	}
	for _, a := range due {
		next := now.Add(sentinel.ScheduleInterval(a.Schedule))
		if next.Equal(now) {
			next = now.Add(24 * time.Hour)
		}
		var won bool
		err := s.DB.Update(ctx, func(tx Tx) (err error) {
			won, err = tx.ScheduleNextScan(ctx, a.ID, *a.NextScanAt, next)
			return err
		})
		if err != nil || !won {
			continue
		}
		_, err = s.Start(ctx, StartRequest{OrgID: a.OrgID, AssetID: a.ID, Actor: sentinel.Actor{KeyID: "scheduler"}, Scheduled: true})
		switch sentinel.ErrorCode(err) {
		case "":
		case sentinel.ECAPACITY, sentinel.ECONFLICT:
			retry := now.Add(5 * time.Minute)
			_ = s.DB.Update(ctx, func(tx Tx) error { _, err := tx.ScheduleNextScan(ctx, a.ID, next, retry); return err })
		default:
			s.Logger.Warn("scans: scheduled scan not started", "asset", a.ID, "org", a.OrgID, "err", err)
		}
	}
	return nil
}
