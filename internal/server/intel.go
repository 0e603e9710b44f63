package server

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// Job kinds of the intel and findings workers.
const (
	JobIntelSync     = "intel.sync"
	JobFindingsSweep = "findings.sweep"
)

// setupIntel builds the intel service and the findings engine, their
// routes, and their periodic jobs: the configured intel sync (default
// daily), the SLA sweep every five minutes.
func (s *Server) setupIntel() {
	cfg := s.Config
	s.Intel = &intelsvc.Service{DB: s.DB, Logger: cfg.Logger, Now: cfg.Now}
	s.API.Handle(s.Intel.Routes()...)
	s.API.Handle(s.Intel.GateRoute(s.API.Cap))
	s.API.Ready = func(context.Context) error {
		if !s.Intel.Loaded() {
			return errors.New("the intel index is still loading")
		}
		return nil
	}
	s.Findings = &finding.Engine{DB: s.DB, Intel: func() finding.Matcher { return s.Intel.Index() }}
	s.API.Handle(s.Findings.Routes()...)

	s.Jobs.Register(JobIntelSync, s.intelSyncJob)
	s.setupWatch()
	if !cfg.Intel.Empty() {
		interval := cfg.IntelInterval
		if interval <= 0 {
			interval = 24 * time.Hour
		}
		args, _ := json.Marshal(cfg.Intel)
		s.Jobs.Every(jobs.Periodic{Name: JobIntelSync, Kind: JobIntelSync, Args: args, Interval: interval})
	}
	s.Jobs.Register(JobFindingsSweep, func(ctx context.Context, _ *store.Job) error {
		_, err := s.Findings.Sweep(ctx)
		return err
	})
	s.Jobs.Every(jobs.Periodic{Name: JobFindingsSweep, Kind: JobFindingsSweep, Interval: 5 * time.Minute})
}

func (s *Server) intelSyncJob(ctx context.Context, j *store.Job) error {
	var src intelsvc.Sources
	if err := json.Unmarshal(j.Args, &src); err != nil {
		return jobs.Permanent(err)
	}
	res, err := s.Intel.Sync(ctx, src, nil)
	if err != nil {
		return err
	}
	s.Logger.Info("intel synced", "sync", res.ID, "new", len(res.Delta.New), "changed", len(res.Delta.Changed), "new_kev", len(res.Delta.NewKEV))
	// New intel: the watch re-matches every live SBOM now rather than
	// waiting for its daily run.
	_, _, err = s.DB.Enqueue(ctx, JobWatch, nil, store.EnqueueOptions{UniqueKey: "watch:after-sync"})
	return err
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
				reloaded, err := s.Intel.Refresh(ctx)
				if err != nil && ctx.Err() == nil {
					s.Logger.Error("refresh intel index", "err", err)
				}
				if reloaded && err == nil {
					// A sync made elsewhere (the CLI, another replica): the
					// watch runs once for all replicas (unique job).
					_, _, _ = s.DB.Enqueue(ctx, JobWatch, nil, store.EnqueueOptions{UniqueKey: "watch:after-sync"})
				}
			}
		}
	}()
}
