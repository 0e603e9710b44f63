package server

import (
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel/internal/assets"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/scan"
	"github.com/sentinel-sca/sentinel/internal/scans"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// setupScans builds the detection engine (its rules and catalog are
// compiled once), the scans service on its own job runner, the assets API,
// and the scheduler that starts each site's scheduled scans.
func (s *Server) setupScans() error {
	cfg := s.Config
	// Scans read what any visitor sees: plain http is allowed to public
	// addresses; private ones only when the operator allows them.
	policy := netguard.Policy{AllowPrivate: cfg.AllowPrivateTargets, AllowHTTP: true}
	engine, err := scan.New(scan.Config{Policy: policy, Timeout: cfg.ScanTimeout})
	if err != nil {
		return fmt.Errorf("scan engine: %w", err)
	}
	workers := cfg.ScanWorkers
	if workers <= 0 {
		workers = 12
	}
	hard := cfg.ScanHardTimeout
	if hard <= 0 {
		hard = scans.DefaultHardTimeout
	}
	s.ScanJobs = &jobs.Runner{DB: s.DB, Logger: cfg.Logger, Workers: workers, Timeout: hard + time.Minute, Poll: 200 * time.Millisecond}
	s.Scans = &scans.Service{DB: store.Bind[scans.Tx](s.DB), Engine: engine, Findings: s.Findings, Cap: s.Cap, Policy: policy,
		Logger: cfg.Logger, HardTimeout: hard, Notify: s.ScanJobs.Notify}
	s.ScanJobs.Register(scans.JobRun, s.Scans.RunJob)
	s.Jobs.Register(scans.JobSchedule, s.Scans.ScheduleJob)
	s.Jobs.Every(jobs.Periodic{Name: scans.JobSchedule, Kind: scans.JobSchedule, Interval: time.Minute})
	s.API.Handle(s.Scans.Routes()...)
	s.Assets = &assets.Service{DB: store.Bind[assets.Tx](s.DB), Policy: policy}
	s.API.Handle(s.Assets.Routes()...)
	return nil
}
