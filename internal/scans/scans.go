// Package scans runs external scans (layer N1): the scans API
// (POST /scans and /v1/scans, list, get, cancel), the durable job that runs
// one scan through the detection engine (package scan), and the scheduler
// that starts each site's scheduled scans.
//
// A scan's life: POST takes a slot of the organization's concurrency cap
// (12, shared with the CI gate; waiting up to 60 s, else 429 scan_capacity)
// and the monthly scans meter, makes sure the site is an asset, and writes
// the queued scan, its scan.queued event and its job in one transaction.
// The slot is a lease in the store held by the scan's id, so the replica
// that runs the job renews it, and a cancel or the end of the scan
// releases it. The job moves the scan to running (scan.started), crawls
// under a hard time limit while watching for a cancellation, and then, in
// order: the findings (through package finding, as SBOM matches are), the
// inventory (the detections, with the site as host), the asset's
// reachability (asset.disappeared, asset.reappeared) and the outcome
// (scan.completed with the counts, or scan.failed).
//
// Who may be scanned: every URL is checked by netguard at creation and
// every connection the crawl dials is checked again, so a site that
// resolves to loopback, private, link-local or metadata addresses is
// refused unless the service allows private targets. An organization may
// also require proof that it controls a site before it is scanned (package
// assets verifies it); by default it does not, since a scan reads only
// what any visitor sees, through the same bounded crawl.
package scans

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/scan"
	"github.com/sentinel-sca/sentinel/internal/scancap"
)

// Job kinds.
const (
	// JobRun runs one scan; it runs on the scan workers, not the general
	// job runner, so that scans cannot starve deliveries and syncs.
	JobRun = "scan.run"
	// JobSchedule starts the scheduled scans that are due (every minute,
	// on one replica at a time).
	JobSchedule = "scans.schedule"
)

// Store is what package scans reads, and Update its write transaction.
// The store implements it (store.Bind[scans.Tx]).
type Store interface {
	sentinel.Clock
	sentinel.OrgFinder
	FindScan(ctx context.Context, orgID, id string) (*sentinel.Scan, error)
	FindScanByID(ctx context.Context, id string) (*sentinel.Scan, error)
	FindScans(ctx context.Context, f sentinel.ScanFilter) ([]*sentinel.Scan, string, error)
	// ScanStatus reads only a scan's status (polled while it runs).
	ScanStatus(ctx context.Context, id string) (string, error)
	FindAssetByID(ctx context.Context, orgID, id string) (*sentinel.Asset, error)
	// MeterStatuses returns the organization's monthly meters.
	MeterStatuses(ctx context.Context, orgID string) ([]sentinel.MeterStatus, error)
	// DueAssets returns site assets, of every organization, whose next
	// scheduled scan is due.
	DueAssets(ctx context.Context, now time.Time, limit int) ([]*sentinel.Asset, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what package scans writes in one transaction.
type Tx interface {
	sentinel.Clock
	sentinel.EventWriter
	sentinel.AuditWriter
	sentinel.JobEnqueuer
	// ConsumeMeter takes n from a monthly meter. Errors: EMETERED.
	ConsumeMeter(ctx context.Context, orgID, meter string, n int) error
	// EnsureSite returns the site asset of that name, creating it (created
	// true) with target, criticality and schedule.
	EnsureSite(ctx context.Context, orgID, name, target, criticality, schedule string) (a *sentinel.Asset, created bool, err error)
	CreateScan(ctx context.Context, s *sentinel.Scan) error
	// ActiveScan returns the asset's queued or running scan (ENOTFOUND).
	ActiveScan(ctx context.Context, assetID string) (*sentinel.Scan, error)
	// StartScan, FinishScan and CancelScan move a scan between states;
	// the bool is false when the scan was not in the expected state.
	StartScan(ctx context.Context, id string) (bool, error)
	FinishScan(ctx context.Context, s *sentinel.Scan) (bool, error)
	CancelScan(ctx context.Context, orgID, id string) (*sentinel.Scan, error)
	// SetAssetReachable records a scan's reachability and reports a
	// transition ("disappeared", "reappeared" or "").
	SetAssetReachable(ctx context.Context, orgID, id string, reachable bool) (string, *sentinel.Asset, error)
	IndexComponents(ctx context.Context, orgID, host, sourceID, kind string, items []sentinel.InventoryItem) error
	// ScheduleNextScan moves an asset's next scheduled scan from due to
	// at; false when another replica did first.
	ScheduleNextScan(ctx context.Context, id string, due, at time.Time) (bool, error)
}

// Engine detects components on a site; *scan.Scanner implements it.
type Engine interface {
	Scan(ctx context.Context, target string) (*scan.Result, error)
}

// Reconciler writes an asset's findings for its current components;
// *finding.Engine implements it.
type Reconciler interface {
	Reconcile(ctx context.Context, in finding.Input) (*finding.Result, error)
}

// Defaults.
const (
	// DefaultHardTimeout ends a scan that runs longer, as failed. The
	// engine's own time budget is shorter; this catches a stuck engine.
	DefaultHardTimeout = 10 * time.Minute
	// DefaultSlotLease is how long a scan's cap slot stays held without a
	// renewal: long enough to wait for a worker while queued.
	DefaultSlotLease = 10 * time.Minute
	// MaxTargetLength bounds a target URL.
	MaxTargetLength = 2048
)

// Service runs scans.
type Service struct {
	DB       Store
	Engine   Engine
	Findings Reconciler
	Cap      *scancap.Cap
	// Policy decides which targets may be scanned (the engine's own
	// client applies it again on every dialled connection).
	Policy netguard.Policy
	Logger *slog.Logger
	// HardTimeout bounds one scan (default DefaultHardTimeout).
	HardTimeout time.Duration
	// SlotLease is a cap slot's lease (default DefaultSlotLease).
	SlotLease time.Duration
	// Poll is how often a running scan looks for its cancellation
	// (default 1 s).
	Poll time.Duration
	// Notify wakes the scan workers after a scan is queued.
	Notify func()

	once    sync.Once
	mu      sync.Mutex
	running map[string]context.CancelFunc // scans running in this process
}

func (s *Service) init() {
	s.once.Do(func() {
		if s.Logger == nil {
			s.Logger = slog.New(slog.DiscardHandler)
		}
		if s.HardTimeout <= 0 {
			s.HardTimeout = DefaultHardTimeout
		}
		if s.SlotLease <= 0 {
			s.SlotLease = DefaultSlotLease
		}
		if s.Poll <= 0 {
			s.Poll = time.Second
		}
		if s.Notify == nil {
			s.Notify = func() {}
		}
		s.running = map[string]context.CancelFunc{}
	})
}

// SiteName returns the asset name of a scan target, its origin
// ("https://shop.example.com", with a port only when not the scheme's
// default), after checking that it is an absolute http(s) URL without
// credentials. Errors: EINVALID naming the field "target".
func SiteName(target string) (string, error) {
	if target == "" {
		return "", sentinel.InvalidField("target", "target is required: the site's URL, e.g. https://shop.example.com/")
	}
	if len(target) > MaxTargetLength {
		return "", sentinel.InvalidField("target", "target must be at most %d characters", MaxTargetLength)
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "", sentinel.InvalidField("target", "target must be an absolute http or https URL, e.g. https://shop.example.com/")
	}
	if u.User != nil {
		return "", sentinel.InvalidField("target", "target must not carry credentials")
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	name := u.Scheme + "://" + host
	if strings.Contains(host, ":") {
		name = u.Scheme + "://[" + host + "]"
	}
	if port != "" {
		name += ":" + port
	}
	return name, nil
}

// CreateRequest is POST /scans's body.
type CreateRequest struct {
	Target string `json:"target" maxLength:"2048"`
	// Criticality and Schedule apply when the target is a new asset
	// (defaults medium and daily).
	Criticality string `json:"criticality,omitempty" enum:"low,medium,high,critical"`
	Schedule    string `json:"schedule,omitempty" enum:"off,hourly,daily,weekly"`
}

// StartRequest asks for a scan.
type StartRequest struct {
	OrgID string
	// Target is the site's URL; AssetID, instead, names a site asset whose
	// target is scanned.
	Target      string
	AssetID     string
	Criticality string
	Schedule    string
	Actor       sentinel.Actor
	// Wait waits up to the cap's Wait for a slot; without it a full cap
	// fails at once.
	Wait bool
	// Scheduled marks a scan the asset's schedule started.
	Scheduled bool
}

// Start queues a scan: it checks the target, takes a cap slot and the
// scans meter, and writes the asset (if new), the scan, its events and its
// job. Errors: EINVALID (target), EFORBIDDEN (the organization requires a
// verified site), ECAPACITY, EMETERED, ENOTFOUND (asset).
func (s *Service) Start(ctx context.Context, req StartRequest) (*sentinel.Scan, error) {
	s.init()
	org, err := s.DB.FindOrgByID(ctx, req.OrgID)
	if err != nil {
		return nil, err
	}
	var existing *sentinel.Asset
	if req.AssetID != "" {
		if existing, err = s.DB.FindAssetByID(ctx, req.OrgID, req.AssetID); err != nil {
			return nil, err
		}
		if existing.Kind != sentinel.AssetSite || existing.Target == "" {
			return nil, sentinel.InvalidField("asset_id", "asset %s is not a site with a target", existing.ID)
		}
		req.Target = existing.Target
	}
	name, err := SiteName(req.Target)
	if err != nil {
		return nil, err
	}
	if err := netguard.CheckURL(ctx, req.Target, s.Policy); err != nil {
		return nil, sentinel.InvalidField("target", "%s", err.Error())
	}
	if req.Criticality == "" {
		req.Criticality = sentinel.CriticalityMedium
	}
	if req.Schedule == "" {
		req.Schedule = sentinel.ScheduleDaily
	}
	// An exhausted meter is said at once, not after waiting for a slot;
	// the meter itself is taken with the scan, below.
	meters, err := s.DB.MeterStatuses(ctx, req.OrgID)
	if err != nil {
		return nil, err
	}
	for _, m := range meters {
		if m.Meter == sentinel.MeterScans && m.Limit != nil && m.Used >= *m.Limit {
			return nil, sentinel.Errorf(sentinel.EMETERED, "the monthly scans meter of this organization is exhausted; it resets on the first of next month, or an administrator can raise the limit")
		}
	}
	id := sentinel.NewID(sentinel.PrefixScan)
	wait := time.Duration(0)
	if req.Wait {
		wait = s.Cap.Wait
	}
	slot, err := s.Cap.AcquireFor(ctx, req.OrgID, id, s.SlotLease, wait)
	if err != nil {
		return nil, err
	}
	sc := &sentinel.Scan{ID: id, OrgID: req.OrgID, Target: req.Target, Status: sentinel.ScanQueued, Scheduled: req.Scheduled,
		Slot: slot.Name(), Detections: []sentinel.Detection{}}
	err = s.DB.Update(ctx, func(tx Tx) error {
		asset, created, err := tx.EnsureSite(ctx, req.OrgID, name, req.Target, req.Criticality, req.Schedule)
		if err != nil {
			return err
		}
		if created {
			if _, err := tx.EmitEvent(ctx, org, sentinel.EventAssetFirstSeen, "", assetData(asset)); err != nil {
				return err
			}
		}
		if org.RequireVerifiedTargets && asset.VerifiedAt == nil {
			return &sentinel.Error{Code: sentinel.EFORBIDDEN, Message: fmt.Sprintf(
				"the organization scans only sites it has proved it controls: publish %s at %s/.well-known/sentinel-verification.txt (or in a DNS TXT record of _sentinel.%s), then POST /v1/assets/%s/verify",
				asset.VerifyToken, name, hostOf(name), asset.ID)}
		}
		if _, err := tx.ActiveScan(ctx, asset.ID); err == nil && req.Scheduled {
			return errAlreadyScanning
		}
		if err := tx.ConsumeMeter(ctx, req.OrgID, sentinel.MeterScans, 1); err != nil {
			return err
		}
		sc.AssetID = asset.ID
		if err := tx.CreateScan(ctx, sc); err != nil {
			return err
		}
		if _, err := tx.EmitEvent(ctx, org, sentinel.EventScanQueued, sc.ID, s.eventData(sc, nil)); err != nil {
			return err
		}
		args, _ := json.Marshal(runArgs{ScanID: sc.ID})
		if _, _, err := tx.Enqueue(ctx, JobRun, args, sentinel.EnqueueOptions{UniqueKey: JobRun + ":" + sc.ID, MaxAttempts: 3}); err != nil {
			return err
		}
		return tx.Audit(ctx, req.OrgID, req.Actor, "scan.create", sc.ID, map[string]any{"target": req.Target, "asset_id": asset.ID, "scheduled": req.Scheduled})
	})
	if err != nil {
		_ = slot.Release(context.WithoutCancel(ctx))
		return nil, err
	}
	s.Notify()
	return sc, nil
}

var errAlreadyScanning = sentinel.Errorf(sentinel.ECONFLICT, "the site is already being scanned")

func hostOf(origin string) string {
	u, err := url.Parse(origin)
	if err != nil {
		return origin
	}
	return u.Hostname()
}

func assetData(a *sentinel.Asset) map[string]any {
	d := map[string]any{"asset_id": a.ID, "name": a.Name, "kind": a.Kind, "criticality": a.Criticality}
	if a.Target != "" {
		d["target"] = a.Target
	}
	return d
}

// eventData is the data of every scan.* event: what the scan is about,
// plus extra fields of the transition.
func (s *Service) eventData(sc *sentinel.Scan, extra map[string]any) map[string]any {
	d := map[string]any{"scan_id": sc.ID, "asset_id": sc.AssetID, "target": sc.Target, "status": sc.Status, "scheduled": sc.Scheduled}
	for k, v := range extra {
		d[k] = v
	}
	return d
}

// Cancel cancels a queued or running scan: it is canceled at once in the
// store (scan.canceled), its slot is freed, and the replica running it
// stops within Poll. Errors: ENOTFOUND, ECONFLICT (already ended).
func (s *Service) Cancel(ctx context.Context, orgID, id string, actor sentinel.Actor) (*sentinel.Scan, error) {
	s.init()
	org, err := s.DB.FindOrgByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	var sc *sentinel.Scan
	err = s.DB.Update(ctx, func(tx Tx) (err error) {
		if sc, err = tx.CancelScan(ctx, orgID, id); err != nil {
			return err
		}
		if _, err := tx.EmitEvent(ctx, org, sentinel.EventScanCanceled, sc.ID, s.eventData(sc, map[string]any{"canceled_by": actor.KeyID})); err != nil {
			return err
		}
		return tx.Audit(ctx, orgID, actor, "scan.cancel", sc.ID, nil)
	})
	if err != nil {
		return nil, err
	}
	if sc.Slot != "" {
		_ = s.Cap.Held(sc.Slot, sc.ID, s.SlotLease).Release(context.WithoutCancel(ctx))
	}
	s.mu.Lock()
	if stop := s.running[sc.ID]; stop != nil {
		stop()
	}
	s.mu.Unlock()
	return sc, nil
}

type runArgs struct {
	ScanID string `json:"scan_id"`
}

// RunJob is the JobRun handler: it runs one scan to its end.
func (s *Service) RunJob(ctx context.Context, j *sentinel.Job) error {
	s.init()
	var a runArgs
	if err := json.Unmarshal(j.Args, &a); err != nil {
		return jobs.Permanent(err)
	}
	sc, err := s.DB.FindScanByID(ctx, a.ScanID)
	if err != nil {
		return jobs.Permanent(err)
	}
	slot := s.Cap.Held(sc.Slot, sc.ID, s.SlotLease)
	if sc.Status != sentinel.ScanQueued && sc.Status != sentinel.ScanRunning {
		return nil // canceled before it started, or already finished
	}
	org, err := s.DB.FindOrgByID(ctx, sc.OrgID)
	if err != nil {
		return jobs.Permanent(err)
	}
	asset, err := s.DB.FindAssetByID(ctx, sc.OrgID, sc.AssetID)
	if err != nil {
		return jobs.Permanent(err)
	}
	err = s.DB.Update(ctx, func(tx Tx) error {
		started, err := tx.StartScan(ctx, sc.ID)
		if err != nil || !started {
			return err // already running: an earlier attempt died; run it again
		}
		now := tx.Now()
		sc.Status, sc.StartedAt = sentinel.ScanRunning, &now
		_, err = tx.EmitEvent(ctx, org, sentinel.EventScanStarted, sc.ID, s.eventData(sc, map[string]any{"started_at": now.Format(time.RFC3339)}))
		return err
	})
	if err != nil {
		return err
	}
	sc.Status = sentinel.ScanRunning

	res, runErr, canceled := s.crawl(ctx, sc, slot)
	if canceled {
		return nil // Cancel wrote the outcome and freed the slot
	}
	if runErr != nil && ctx.Err() != nil {
		return ctx.Err() // this process is stopping: another attempt runs the scan again
	}
	defer slot.Release(context.WithoutCancel(ctx))
	if runErr != nil {
		return s.finish(ctx, org, asset, sc, nil, nil, runErr)
	}
	var fr *finding.Result
	if res.Reachable {
		in := finding.Input{Org: org, Asset: asset.Name, AssetKind: sentinel.AssetSite, Source: "scan",
			Actor: sentinel.Actor{KeyID: "scan"}, Evidence: map[string][]sentinel.FindingEvidence{}}
		for _, d := range res.Detections {
			if d.Purl == "" {
				continue
			}
			in.Components = append(in.Components, sentinel.Component{Purl: d.Purl, Name: d.Name, Version: d.Version})
			for _, e := range d.Evidence {
				detail := e.Detail
				if d.Distribution != "" && (e.Kind == sentinel.EvidenceHeader || e.Kind == sentinel.EvidenceHash) {
					// The version is upstream's; the distribution's
					// package may carry the fix (Detection.Distribution).
					detail += " [" + d.Distribution + "'s build: it may have backported the fix; the host's package list decides]"
				}
				in.Evidence[d.Purl] = append(in.Evidence[d.Purl], sentinel.FindingEvidence{Kind: e.Kind, Source: sc.ID, URL: e.URL, Detail: detail})
			}
		}
		if fr, err = s.Findings.Reconcile(ctx, in); err != nil {
			return err
		}
	}
	return s.finish(ctx, org, asset, sc, res, fr, nil)
}

// crawl runs the engine under the hard time limit, renewing the slot and
// stopping when the scan is canceled.
func (s *Service) crawl(ctx context.Context, sc *sentinel.Scan, slot *scancap.Slot) (res *scan.Result, err error, canceled bool) {
	runCtx, stop := context.WithTimeout(ctx, s.HardTimeout)
	defer stop()
	s.mu.Lock()
	s.running[sc.ID] = stop
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.running, sc.ID)
		s.mu.Unlock()
	}()
	var wasCanceled bool
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(s.Poll)
		defer t.Stop()
		renew := time.Now()
		for {
			select {
			case <-done:
				return
			case <-runCtx.Done():
				return
			case <-t.C:
			}
			if st, err := s.DB.ScanStatus(runCtx, sc.ID); err == nil && st == sentinel.ScanCanceled {
				mu.Lock()
				wasCanceled = true
				mu.Unlock()
				stop()
				return
			}
			if time.Since(renew) > s.SlotLease/3 {
				if err := slot.Renew(runCtx); err != nil && runCtx.Err() == nil {
					s.Logger.Warn("scans: renew slot", "scan", sc.ID, "err", err)
				}
				renew = time.Now()
			}
		}
	}()
	res, err = s.Engine.Scan(runCtx, sc.Target)
	close(done)
	mu.Lock()
	canceled = wasCanceled
	mu.Unlock()
	if !canceled && err != nil {
		// A cancel seen by Cancel on this replica stops runCtx without the
		// poll noticing: ask the store.
		if st, serr := s.DB.ScanStatus(context.WithoutCancel(ctx), sc.ID); serr == nil && st == sentinel.ScanCanceled {
			canceled = true
		}
	}
	if err != nil && errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		err = fmt.Errorf("the scan exceeded its hard time limit of %s", s.HardTimeout)
	}
	return res, err, canceled
}

// finish records a scan's outcome in one transaction: inventory, asset
// reachability and its events, the scan and its final event.
func (s *Service) finish(ctx context.Context, org *sentinel.Organization, asset *sentinel.Asset, sc *sentinel.Scan, res *scan.Result, fr *finding.Result, runErr error) error {
	return s.DB.Update(ctx, func(tx Tx) error {
		if runErr != nil {
			sc.Status, sc.Error = sentinel.ScanFailed, runErr.Error()
			reason := "engine_error"
			if strings.Contains(sc.Error, "hard time limit") {
				reason = "timeout"
			}
			ok, err := tx.FinishScan(ctx, sc)
			if err != nil || !ok {
				return err
			}
			_, err = tx.EmitEvent(ctx, org, sentinel.EventScanFailed, sc.ID, s.eventData(sc, map[string]any{"error": sc.Error, "reason": reason}))
			return err
		}
		stats := res.Stats
		stats.Reachable, stats.Unreachable = res.Reachable, res.Unreachable
		sc.Status, sc.Detections, sc.Stats = sentinel.ScanCompleted, res.Detections, &stats
		if sc.Detections == nil {
			sc.Detections = []sentinel.Detection{}
		}
		created := 0
		if fr != nil {
			sc.Findings, created = fr.Open, fr.Created
		}
		if res.Reachable {
			items := make([]sentinel.InventoryItem, 0, len(res.Detections))
			for _, d := range res.Detections {
				items = append(items, purl.ItemFromPurl(d.Purl, d.Name, d.Version))
			}
			if err := tx.IndexComponents(ctx, sc.OrgID, asset.Name, sc.ID, sentinel.SourceScan, items); err != nil {
				return err
			}
		}
		change, a, err := tx.SetAssetReachable(ctx, sc.OrgID, asset.ID, res.Reachable)
		if err != nil {
			return err
		}
		switch change {
		case "disappeared":
			d := assetData(a)
			d["scan_id"], d["reason"], d["last_seen"] = sc.ID, res.Unreachable, a.LastSeen.Format(time.RFC3339)
			if _, err := tx.EmitEvent(ctx, org, sentinel.EventAssetDisappeared, "", d); err != nil {
				return err
			}
		case "reappeared":
			d := assetData(a)
			d["scan_id"] = sc.ID
			if a.DisappearedAt != nil {
				d["disappeared_at"] = a.DisappearedAt.Format(time.RFC3339)
			}
			if _, err := tx.EmitEvent(ctx, org, sentinel.EventAssetReappeared, "", d); err != nil {
				return err
			}
		}
		ok, err := tx.FinishScan(ctx, sc)
		if err != nil || !ok {
			return err
		}
		if stats.Truncated == nil {
			stats.Truncated = []string{} // "no limit reached", never null
		}
		_, err = tx.EmitEvent(ctx, org, sentinel.EventScanCompleted, sc.ID, s.eventData(sc, map[string]any{
			"reachable": res.Reachable, "detections": len(sc.Detections), "findings": sc.Findings, "new_findings": created,
			"pages": stats.Pages, "assets": stats.Assets, "truncated": stats.Truncated, "duration_seconds": stats.Duration}))
		return err
	})
}
