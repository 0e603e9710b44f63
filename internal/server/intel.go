package server

import (
	sentinel "github.com/sentinel-sca/sentinel"

	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/inventory"
	"github.com/sentinel-sca/sentinel/internal/iocs"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/watch"
)

// Job kinds of the intel and findings workers.
const (
	JobIntelSync     = "intel.sync"
	JobIntelFeeds    = "intel.feeds"
	JobFindingsSweep = "findings.sweep"
)

// setupIntel builds the intel service and the findings engine, their
// routes, and their periodic jobs: the configured intel sync (default
// daily), the SLA sweep every five minutes.
func (s *Server) setupIntel() {
	cfg := s.Config
	s.Intel = &intelsvc.Service{DB: store.Bind[intelsvc.Tx](s.DB), Logger: cfg.Logger, Now: cfg.Now, Feeds: cfg.Feeds}
	s.API.Handle(s.Intel.Routes()...)
	s.API.Handle(s.Intel.GateRoute(s.Cap))
	s.API.Ready = s.ready
	s.API.ReadyDetail = func(ctx context.Context) map[string]any {
		return map[string]any{"intel": s.Intel.Freshness(ctx)}
	}
	s.Findings = &finding.Engine{DB: store.Bind[finding.Tx](s.DB), Intel: func() finding.Matcher { return s.Intel.Index() }}
	s.API.Handle(s.Findings.Routes()...)
	s.IOCs = &iocs.Service{DB: store.Bind[iocs.Tx](s.DB), Findings: s.Findings}
	s.Findings.Indicators = s.IOCs
	s.Intel.Indicators = s.IOCs
	s.API.Handle(s.IOCs.Routes()...)

	s.Jobs.Register(JobIntelSync, s.intelSyncJob)
	s.Watch = &watch.Service{DB: s.DB, Findings: s.Findings, Intel: s.Intel, Refresh: func(ctx context.Context) error {
		_, err := s.Intel.Refresh(ctx)
		return err
	}}
	s.Watch.Interval = cfg.WatchInterval
	s.Watch.Register(s.Jobs)
	s.Inventory.OnSubmitted = func(ctx context.Context, tx inventory.Tx, orgID, submissionID string) error {
		return watch.EnqueueReconcile(ctx, tx, orgID, submissionID)
	}
	s.Inventory.KEV = kevChecker{s}
	s.Inventory.Advisories = advisoryEcosystems{s}
	interval := cfg.IntelInterval
	if interval <= 0 {
		interval = 6 * time.Hour
	}
	if !cfg.Intel.Empty() {
		args, _ := json.Marshal(cfg.Intel)
		s.Jobs.Every(jobs.Periodic{Name: JobIntelSync, Kind: JobIntelSync, Args: args, Interval: interval})
	}
	// The feeds job reads this process's configuration when it runs, so a
	// restart with other feeds takes effect at the next run.
	s.Jobs.Register(JobIntelFeeds, s.intelFeedsJob)
	s.Jobs.TimeoutFor(JobIntelFeeds, 2*time.Hour)
	s.Jobs.TimeoutFor(JobIntelSync, 2*time.Hour)
	if !cfg.Feeds.Empty() {
		s.Jobs.Every(jobs.Periodic{Name: JobIntelFeeds, Kind: JobIntelFeeds, Interval: interval})
	}
	s.Jobs.Register(JobFindingsSweep, func(ctx context.Context, _ *sentinel.Job) error {
		_, err := s.Findings.Sweep(ctx)
		return err
	})
	sweep := cfg.SweepInterval
	if sweep <= 0 {
		sweep = 5 * time.Minute
	}
	s.Jobs.Every(jobs.Periodic{Name: JobFindingsSweep, Kind: JobFindingsSweep, Interval: sweep})
}

func (s *Server) intelSyncJob(ctx context.Context, j *sentinel.Job) error {
	var src intelsvc.Sources
	if err := json.Unmarshal(j.Args, &src); err != nil {
		return jobs.Permanent(err)
	}
	res, err := s.Intel.Sync(ctx, src, nil)
	if err != nil {
		return err
	}
	s.Logger.Info("intel synced", "sync", res.ID, "new", len(res.Delta.New), "changed", len(res.Delta.Changed), "new_kev", len(res.Delta.NewKEV))
	return nil // the sync enqueued its own watch job
}

func (s *Server) intelFeedsJob(ctx context.Context, _ *sentinel.Job) error {
	if s.Config.Feeds.Empty() {
		return nil // this replica was started without feeds
	}
	res, err := s.Intel.SyncFeeds(ctx, s.Config.Feeds, nil)
	for _, r := range res {
		switch {
		case r.Error != "":
			s.Logger.Error("intel feed failed", "feed", r.Feed, "err", r.Error)
		case r.Sync != nil:
			s.Logger.Info("intel feed synced", "feed", r.Feed, "mode", r.Mode, "sync", r.Sync.ID,
				"new", len(r.Sync.Delta.New), "changed", len(r.Sync.Delta.Changed), "new_kev", len(r.Sync.Delta.NewKEV))
		}
	}
	return err // a failed feed is retried with backoff; the others are unchanged then
}

// ready is /readyz: the store answers and intel is loaded. A service
// without advisories is not ready: every match would look clean.
func (s *Server) ready(ctx context.Context) error {
	if err := s.DB.Ping(ctx); err != nil {
		return err
	}
	if !s.Intel.Loaded() {
		return errors.New("the intel index is still loading")
	}
	if s.Intel.Index().Stats().Advisories > 0 {
		return nil
	}
	why := "no advisories are loaded yet"
	if syncs, err := s.DB.LastSyncs(ctx, 1); err == nil && len(syncs) > 0 && syncs[0].Status == "failed" {
		why += "; the last intel sync failed: " + syncs[0].Error
	}
	if !s.Config.Feeds.Empty() {
		return errors.New(why + " (the first sync from the intel feeds runs at start; sites without internet access import with sentineld intel sync and serve with --intel-feeds=off)")
	}
	return errors.New(why + ": import them with sentineld intel sync, or serve with --intel-feeds=default")
}

// startIntel loads this replica's index and keeps it current: another
// replica's (or the CLI's) sync is picked up within RefreshEvery.
func (s *Server) startIntel(ctx context.Context) {
	if err := s.Intel.Reload(ctx); err != nil {
		s.Logger.Error("load intel index", "err", err)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTicker(30 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				// A sync made elsewhere (the CLI, another replica) is loaded
				// here; its watch job was enqueued with it.
				if _, err := s.Intel.Refresh(ctx); err != nil && ctx.Err() == nil {
					s.Logger.Error("refresh intel index", "err", err)
				}
			}
		}
	}()
}

// advisoryEcosystems are the ecosystems of the loaded index's advisories.
type advisoryEcosystems struct{ s *Server }

func (a advisoryEcosystems) Ecosystems() []string { return a.s.Intel.Index().Ecosystems() }

// kevChecker flags a component known-exploited for the inventory search
// when any advisory that affects it is in the KEV catalog.
type kevChecker struct{ s *Server }

func (k kevChecker) IsKEV(purl string) bool {
	ms, err := k.s.Intel.Index().Match(purl)
	if err != nil {
		return false
	}
	for _, m := range ms {
		if m.KEV {
			return true
		}
	}
	return false
}
