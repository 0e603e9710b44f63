package server

import (
	"context"
	"fmt"

	"github.com/sentinel-sca/sentinel/internal/edgesvc"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/secrets/intake"
	"github.com/sentinel-sca/sentinel/internal/secrets/verify"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// setupSecretsEdge builds the secrets intake (its submission route on the
// agent listener, the secrets API, the live verification job) and the edge
// intel ingest. It runs before the agent listener's routes are fixed.
func (s *Server) setupSecretsEdge(ctx context.Context) error {
	cfg := s.Config
	fp, err := intake.LoadFingerprinter(ctx, s.DB, s.Box)
	if err != nil {
		return err
	}
	s.Secrets = &intake.Service{DB: store.Bind[intake.Tx](s.DB), Box: s.Box, Fingerprints: fp, Identity: s.Agent,
		Logger: cfg.Logger, Notify: s.Jobs.Notify}
	if !cfg.SecretsVerifyDisabled {
		// Provider checks go through netguard: private and loopback
		// addresses only when the operator allows private targets (tests
		// point the base URLs at loopback fakes).
		set, err := verify.NewSet(verify.Options{Policy: netguard.Policy{AllowPrivate: cfg.AllowPrivateTargets},
			Timeout: cfg.SecretsVerifyTimeout, UserAgent: "Sentinel-Secret-Verifier/" + Version}, cfg.SecretsVerifyURLs)
		if err != nil {
			return fmt.Errorf("secrets verification: %w", err)
		}
		s.Secrets.Verifier = set
	}
	s.Agent.ListenerRoutes = append(s.Agent.ListenerRoutes, s.Secrets.ListenerRoutes()...)
	s.API.Handle(s.Secrets.Routes()...)
	s.Jobs.Register(intake.JobVerify, s.Secrets.VerifyJob)

	s.Edge = &edgesvc.Service{DB: store.Bind[edgesvc.Tx](s.DB), Logger: cfg.Logger}
	s.API.Handle(s.Edge.Routes()...)
	return nil
}
