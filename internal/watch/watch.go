// Package watch is the Continuous Supply Chain Watch: it turns each SBOM
// submission into findings right after it arrives (one job per
// submission); after each intel sync it matches again the live components
// (each host's newest submission, each site's newest reachable scan) of
// the packages that sync touched, and every day all of them, so that new
// advisories become findings and meaningful changes re-alert
// (sbom.intel_match). The rules of what re-alerts live in package finding;
// this package decides what is matched and when.
//
// Once per sync: the sync's own transaction enqueues its watch job, keyed
// by the sync's id (package intelsvc), so a sync made by the command line
// or by any replica is watched exactly once, after the replica running the
// job has loaded it. Proportional to the change: the job reads the
// sync's delta (the packages its new, changed, withdrawn and newly
// known-exploited advisories name) and looks those packages up in the
// inverted index, so its cost follows the delta, not the inventory.
package watch

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/intel"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/jobs"
)

// Job kinds.
const (
	// JobReconcile reconciles one submission's host right after it arrives.
	JobReconcile = "findings.reconcile"
	// JobWatch re-matches every live component: daily.
	JobWatch = "sbom.watch"
	// JobWatchSync re-matches the components a sync touched (enqueued by
	// the sync itself).
	JobWatchSync = intelsvc.JobWatchSync
)

// Store is what the watch reads.
type Store interface {
	sentinel.OrgFinder
	ListOrgs(ctx context.Context) ([]*sentinel.Organization, error)
	FindSubmission(ctx context.Context, orgID, id string) (*sentinel.Submission, error)
	// SubmissionItems returns the components of a source (a submission or
	// a scan).
	SubmissionItems(ctx context.Context, orgID, id string) ([]sentinel.InventoryItem, error)
	// LiveSources returns each host's live source; LiveComponents the live
	// components of some packages.
	LiveSources(ctx context.Context, orgID string) ([]sentinel.LiveComponent, error)
	LiveComponents(ctx context.Context, orgID string, pkgs []sentinel.PackageRef) ([]sentinel.LiveComponent, error)
}

// Intel is what the watch needs of the intel service.
type Intel interface {
	// EnsureLoaded makes this replica's index reflect the sync.
	EnsureLoaded(ctx context.Context, syncID int64) error
	SyncDelta(ctx context.Context, syncID int64) (*intel.Delta, error)
}

// Reconciler writes an asset's findings for its current components (or
// several assets' in one transaction); *finding.Engine implements it.
type Reconciler interface {
	Reconcile(ctx context.Context, in finding.Input) (*finding.Result, error)
	ReconcileBatch(ctx context.Context, ins []finding.Input) ([]*finding.Result, error)
}

// The watch reconciles its sources in transactions sized by time: long
// enough that commits do not dominate a large run (a commit writes every
// page the transaction changed, and the same index pages again in the
// next one), short enough that SQLite's one writer is free again within
// about txTarget for the API's own writes. The size starts at firstBatch
// sources and follows the time the last transaction took, at most
// doubling each time.
const (
	txTarget   = time.Second
	firstBatch = 100
	minBatch   = 10
	maxBatch   = 1000
)

// batcher sizes the next transaction.
type batcher struct{ size int }

func newBatcher() *batcher { return &batcher{size: firstBatch} }

// next returns how many of the remaining sources the next transaction
// takes.
func (b *batcher) next(remaining int) int { return min(b.size, remaining) }

// took records that n sources took d.
func (b *batcher) took(n int, d time.Duration) {
	want := maxBatch
	if d > 0 {
		want = int(float64(n) * float64(txTarget) / float64(d))
	}
	b.size = min(max(want, minBatch), 2*b.size, maxBatch)
}

// Service runs the watch.
type Service struct {
	DB       Store
	Findings Reconciler
	Intel    Intel
	// Refresh brings this replica's intel up to date before the daily run.
	Refresh func(ctx context.Context) error
	// Interval is how often every live component is re-matched (default
	// daily); the first run comes an hour after the schedule is created,
	// or one Interval when that is shorter.
	Interval time.Duration
}

// ReconcileArgs name the submission a JobReconcile works on.
type ReconcileArgs struct {
	OrgID        string `json:"org_id"`
	SubmissionID string `json:"submission_id"`
}

// EnqueueReconcile asks for the submission's findings in the caller's
// transaction, so a committed submission always gets them.
func EnqueueReconcile(ctx context.Context, tx sentinel.JobEnqueuer, orgID, submissionID string) error {
	args, _ := json.Marshal(ReconcileArgs{orgID, submissionID})
	_, _, err := tx.Enqueue(ctx, JobReconcile, args, sentinel.EnqueueOptions{UniqueKey: "reconcile:" + submissionID})
	return err
}

// Register adds the watch's jobs to a runner: the reconcile job and the
// daily (every Interval) watch.
func (s *Service) Register(r *jobs.Runner) {
	r.Register(JobReconcile, s.reconcileJob)
	r.Register(JobWatch, s.watchJob)
	r.Register(JobWatchSync, s.syncJob)
	every := s.Interval
	if every <= 0 {
		every = 24 * time.Hour
	}
	r.Every(jobs.Periodic{Name: JobWatch, Kind: JobWatch, Interval: every, Delay: min(time.Hour, every)})
}

func (s *Service) reconcileSubmission(ctx context.Context, org *sentinel.Organization, sub *sentinel.Submission, watch bool) (*finding.Result, error) {
	items, err := s.DB.SubmissionItems(ctx, org.ID, sub.ID)
	if err != nil {
		return nil, err
	}
	comps := make([]sentinel.Component, 0, len(items))
	for _, it := range items {
		comps = append(comps, it.Component())
	}
	return s.Findings.Reconcile(ctx, finding.Input{Org: org, Asset: sub.Host, AssetKind: "host", Source: "sbom",
		Components: comps, SubmissionID: sub.ID, Watch: watch})
}

func (s *Service) reconcileJob(ctx context.Context, j *sentinel.Job) error {
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
	// Only the host's live (newest) SBOM decides its findings: an older
	// one whose job runs late must not resolve what a newer one found.
	// Reconcile checks that in its transaction, after locking the asset
	// (finding.Input.SubmissionID), where another replica reconciling the
	// newer one cannot slip in between; a superseded submission writes
	// nothing.
	_, err = s.reconcileSubmission(ctx, org, sub, false)
	return err
}

// Once re-matches every organization's live components now, many sources
// per transaction (see batcher).
func (s *Service) Once(ctx context.Context) error {
	orgs, err := s.DB.ListOrgs(ctx)
	if err != nil {
		return err
	}
	for _, org := range orgs {
		srcs, err := s.DB.LiveSources(ctx, org.ID)
		if err != nil {
			return err
		}
		err = s.inBatches(ctx, len(srcs), func(from, to int) ([]finding.Input, error) {
			ins := make([]finding.Input, 0, to-from)
			for _, src := range srcs[from:to] {
				items, err := s.DB.SubmissionItems(ctx, org.ID, src.SourceID)
				if err != nil {
					return nil, err
				}
				comps := make([]sentinel.Component, 0, len(items))
				for _, it := range items {
					comps = append(comps, it.Component())
				}
				ins = append(ins, input(org, src, comps, false, nil))
			}
			return ins, nil
		})
		if err != nil {
			return fmt.Errorf("watch %s: %w", org.Slug, err)
		}
	}
	return nil
}

// inBatches reconciles n sources in transactions sized by a batcher;
// build returns the inputs of sources [from, to).
func (s *Service) inBatches(ctx context.Context, n int, build func(from, to int) ([]finding.Input, error)) error {
	b := newBatcher()
	for start := 0; start < n; {
		end := start + b.next(n-start)
		ins, err := build(start, end)
		if err != nil {
			return err
		}
		began := time.Now()
		if _, err := s.Findings.ReconcileBatch(ctx, ins); err != nil {
			return err
		}
		b.took(end-start, time.Since(began))
		start = end
	}
	return nil
}

// input is the reconciliation of one live source's components.
func input(org *sentinel.Organization, src sentinel.LiveComponent, comps []sentinel.Component, partial bool, withdrawn map[string]bool) finding.Input {
	in := finding.Input{Org: org, Asset: src.Host, AssetKind: sentinel.AssetHost, Source: src.Kind, Components: comps, Watch: true,
		Partial: partial, Withdrawn: withdrawn}
	if src.Kind == sentinel.SourceScan {
		in.AssetKind = sentinel.AssetSite
	} else {
		in.SubmissionID = src.SourceID
	}
	return in
}

// AfterSync re-matches the live components of the packages a sync touched.
// It reports how many components it re-matched.
func (s *Service) AfterSync(ctx context.Context, syncID int64) (int, error) {
	if err := s.Intel.EnsureLoaded(ctx, syncID); err != nil {
		return 0, err
	}
	d, err := s.Intel.SyncDelta(ctx, syncID)
	if err != nil {
		return 0, err
	}
	if len(d.Packages) == 0 {
		return 0, nil
	}
	withdrawn := map[string]bool{}
	for _, c := range d.Changed {
		if c.Withdrawn {
			withdrawn[c.ID] = true
		}
	}
	orgs, err := s.DB.ListOrgs(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, org := range orgs {
		live, err := s.DB.LiveComponents(ctx, org.ID, d.Packages)
		if err != nil {
			return n, err
		}
		type source struct{ host, id, kind string }
		bySource := map[source][]sentinel.Component{}
		var order []source
		for _, c := range live {
			k := source{c.Host, c.SourceID, c.Kind}
			if _, ok := bySource[k]; !ok {
				order = append(order, k)
			}
			bySource[k] = append(bySource[k], c.Component())
		}
		err = s.inBatches(ctx, len(order), func(from, to int) ([]finding.Input, error) {
			ins := make([]finding.Input, 0, to-from)
			for _, k := range order[from:to] {
				src := sentinel.LiveComponent{Host: k.host, SourceID: k.id, Kind: k.kind}
				ins = append(ins, input(org, src, bySource[k], true, withdrawn))
			}
			return ins, nil
		})
		if err != nil {
			return n, fmt.Errorf("watch %s after sync %d: %w", org.Slug, syncID, err)
		}
		n += len(live)
	}
	return n, nil
}

func (s *Service) syncJob(ctx context.Context, j *sentinel.Job) error {
	var a intelsvc.WatchArgs
	if err := json.Unmarshal(j.Args, &a); err != nil {
		return jobs.Permanent(err)
	}
	_, err := s.AfterSync(ctx, a.SyncID)
	return err
}

func (s *Service) watchJob(ctx context.Context, _ *sentinel.Job) error {
	if s.Refresh != nil {
		if err := s.Refresh(ctx); err != nil {
			return err
		}
	}
	return s.Once(ctx)
}
