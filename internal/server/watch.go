package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// Job kinds that turn SBOMs into findings.
const (
	// JobReconcile reconciles one submission's host right after it arrives.
	JobReconcile = "findings.reconcile"
	// JobWatch is the Continuous Supply Chain Watch: every day (and after
	// each intel sync) every live SBOM is matched again, and meaningful
	// changes re-alert (sbom.intel_match).
	JobWatch = "sbom.watch"
)

// ReconcileArgs name the submission a JobReconcile works on.
type ReconcileArgs struct {
	OrgID        string `json:"org_id"`
	SubmissionID string `json:"submission_id"`
}

// EnqueueReconcile asks for the submission's findings in the caller's
// transaction, so a committed submission always gets them.
func EnqueueReconcile(ctx context.Context, tx *store.Tx, orgID, submissionID string) error {
	args, _ := json.Marshal(ReconcileArgs{orgID, submissionID})
	_, _, err := tx.Enqueue(ctx, JobReconcile, args, store.EnqueueOptions{UniqueKey: "reconcile:" + submissionID})
	return err
}

func (s *Server) setupWatch() {
	s.Agent.OnSubmitted = func(ctx context.Context, tx *store.Tx, orgID, submissionID string) error {
		return EnqueueReconcile(ctx, tx, orgID, submissionID)
	}
	s.Agent.KEV = kevChecker{s}
	s.Jobs.Register(JobReconcile, s.reconcileJob)
	s.Jobs.Register(JobWatch, s.watchJob)
	s.Jobs.Every(jobs.Periodic{Name: JobWatch, Kind: JobWatch, Interval: 24 * time.Hour, Delay: time.Hour})
}

func (s *Server) reconcileSubmission(ctx context.Context, org *sentinel.Organization, sub *store.Submission, watch bool) (*finding.Result, error) {
	items, err := s.DB.SubmissionItems(ctx, org.ID, sub.ID)
	if err != nil {
		return nil, err
	}
	comps := make([]sentinel.Component, 0, len(items))
	for _, it := range items {
		comps = append(comps, sentinel.Component{Purl: it.Purl, Ecosystem: it.Ecosystem, Name: it.Name, Version: it.Version})
	}
	return s.Findings.Reconcile(ctx, finding.Input{Org: org, Asset: sub.Host, AssetKind: "host", Source: "sbom",
		Components: comps, SubmissionID: sub.ID, Watch: watch})
}

func (s *Server) reconcileJob(ctx context.Context, j *store.Job) error {
	var a ReconcileArgs
	if err := json.Unmarshal(j.Args, &a); err != nil {
		return jobs.Permanent(err)
	}
	org, err := s.DB.FindOrgByID(ctx, a.OrgID)
	if err != nil {
		return jobs.Permanent(err)
	}
	sub, err := s.DB.FindSubmission(ctx, a.OrgID, a.SubmissionID)
	if err != nil {
		return jobs.Permanent(err)
	}
	// Only the host's newest SBOM decides its findings: an older one that
	// arrives late must not resolve what a newer one found.
	latest, err := s.DB.LatestSubmissions(ctx, a.OrgID)
	if err != nil {
		return err
	}
	for _, l := range latest {
		if l.Host == sub.Host && l.ID != sub.ID {
			return nil
		}
	}
	_, err = s.reconcileSubmission(ctx, org, sub, false)
	return err
}

// WatchOnce re-matches every organization's live SBOMs now.
func (s *Server) WatchOnce(ctx context.Context) error {
	orgs, err := s.DB.ListOrgs(ctx)
	if err != nil {
		return err
	}
	for _, org := range orgs {
		subs, err := s.DB.LatestSubmissions(ctx, org.ID)
		if err != nil {
			return err
		}
		for _, sub := range subs {
			if _, err := s.reconcileSubmission(ctx, org, sub, true); err != nil {
				return fmt.Errorf("watch %s/%s: %w", org.Slug, sub.Host, err)
			}
		}
	}
	return nil
}

func (s *Server) watchJob(ctx context.Context, _ *store.Job) error {
	if _, err := s.Intel.Refresh(ctx); err != nil {
		return err
	}
	return s.WatchOnce(ctx)
}

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
