// Package intelsvc runs Sentinel's advisory intelligence inside the
// service: it imports OSV, KEV and end-of-life data into the store (one
// transaction per sync, so a failed sync leaves the previous intel in
// force), records what changed, keeps the in-memory match index of each
// replica current, and serves the match and intel API.
package intelsvc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intel"
)

// Sources name where a sync reads from. Empty kinds are left as they are.
type Sources struct {
	// OSV are directories of OSV JSON, zip files in osv.dev's per-ecosystem
	// layout, or http(s) URLs of such zips.
	OSV []string `json:"osv,omitempty"`
	// KEV is the CISA catalog JSON: a file or an http(s) URL.
	KEV string `json:"kev,omitempty"`
	// EOL is a directory of endoflife.date product files, or one file.
	EOL string `json:"eol,omitempty"`
}

// Empty reports whether no source is named.
func (s Sources) Empty() bool { return len(s.OSV) == 0 && s.KEV == "" && s.EOL == "" }

// Store is what the intel service reads, and Update its write
// transaction. The store implements it (store.Bind[intelsvc.Tx]).
type Store interface {
	// StreamAdvisories calls fn with every stored OSV record.
	StreamAdvisories(ctx context.Context, fn func(id string, raw []byte) error) error
	AdvisoryRaw(ctx context.Context, id string) ([]byte, error)
	KEVEntries(ctx context.Context) ([]sentinel.KEVEntry, error)
	KEVByCVE(ctx context.Context, cve string) (*sentinel.KEVEntry, error)
	// EOLRaws returns every stored endoflife.date product file by name.
	EOLRaws(ctx context.Context) (map[string][]byte, error)
	LatestSyncID(ctx context.Context) (int64, error)
	FindSync(ctx context.Context, id int64) (*sentinel.IntelSync, error)
	LastSyncs(ctx context.Context, limit int) ([]sentinel.IntelSync, error)
	RecordFailedSync(ctx context.Context, s sentinel.IntelSync) error
	IntelCounts(ctx context.Context) (advisories, withdrawn, kev, eol int, err error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what the intel service (a sync, a gate call) writes in one
// transaction.
type Tx interface {
	sentinel.AuditWriter
	UpsertAdvisories(ctx context.Context, advs []sentinel.IntelAdvisory) error
	ReplaceKEV(ctx context.Context, entries []sentinel.KEVEntry) error
	UpsertEOL(ctx context.Context, products map[string][]byte) error
	// RecordSync records a finished sync and returns its id.
	RecordSync(ctx context.Context, s sentinel.IntelSync) (int64, error)
	// ConsumeMeter takes n from a monthly meter. Errors: EMETERED.
	ConsumeMeter(ctx context.Context, orgID, meter string, n int) error
	sentinel.JobEnqueuer
}

// JobWatchSync is the job kind that re-matches live components after a
// sync (package watch handles it); WatchArgs are its arguments.
const JobWatchSync = "sbom.watch.sync"

// WatchArgs name the sync a JobWatchSync re-matches after.
type WatchArgs struct {
	SyncID int64 `json:"sync_id"`
}

// Indicators gives a matcher of an organization's applied indicators
// (package iocs implements it).
type Indicators interface {
	IndicatorMatcher(ctx context.Context, orgID string) (func(purl string) []sentinel.AdvisoryMatch, error)
}

// Service owns the intel of one replica.
type Service struct {
	DB     Store
	Logger *slog.Logger
	// Indicators, when set, adds the organization's applied indicators to
	// the CI gate's matches: a build with an indicated package fails.
	Indicators Indicators
	// HTTP fetches URL sources (default http.DefaultClient with a timeout).
	HTTP *http.Client
	// Feeds are the published feeds this replica syncs from, for status.
	Feeds Feeds
	// Now is the clock used for end-of-life decisions (default time.Now).
	Now func() time.Time

	idx     atomic.Pointer[intel.Index]
	loaded  atomic.Int64 // sync id the index reflects
	checked atomic.Int64 // unix ms of the last look for a newer sync
	mu      sync.Mutex   // one sync or reload at a time in this process
	kevMeta atomic.Pointer[kevMeta]
	fresh   atomic.Pointer[loadedIntel]
}

// loadedIntel is what the loaded index holds, for IntelFreshness.
type loadedIntel struct {
	kev, eol int
	syncedAt time.Time // newest successful sync or check; zero before the first
	looked   time.Time // when syncedAt was read
}

// A sync that found a feed unchanged is recorded with this status: it
// proves the intel current without changing it, so replicas do not reload.
const statusUnchanged = "unchanged"

// lastSynced returns when the newest successful sync (or check that found
// nothing changed) finished.
func (s *Service) lastSynced(ctx context.Context) time.Time {
	syncs, err := s.DB.LastSyncs(ctx, 100)
	if err != nil {
		return time.Time{}
	}
	for _, sy := range syncs {
		if sy.Status == "ok" || sy.Status == statusUnchanged {
			return sy.FinishedAt
		}
	}
	return time.Time{}
}

type kevMeta struct {
	CatalogVersion string `json:"catalog_version"`
	DateReleased   string `json:"date_released"`
}

// Index returns the current match index (never nil).
func (s *Service) Index() *intel.Index {
	if idx := s.idx.Load(); idx != nil {
		return idx
	}
	return intel.NewIndex(nil, nil, nil, s.options())
}

func (s *Service) options() intel.Options {
	now := s.Now
	if now == nil {
		now = time.Now
	}
	return intel.Options{Now: now}
}

func (s *Service) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}

// snapshotFromStore decodes everything stored into a snapshot.
func (s *Service) snapshotFromStore(ctx context.Context) (*intel.Snapshot, error) {
	snap := &intel.Snapshot{}
	err := s.DB.StreamAdvisories(ctx, func(id string, raw []byte) error {
		a, err := intel.DecodeAdvisory(raw)
		if err != nil {
			s.logger().Warn("stored advisory no longer decodes; skipped", "id", id, "err", err)
			return nil
		}
		snap.Advisories = append(snap.Advisories, a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read advisories: %w", err)
	}
	cat, err := s.storedKEV(ctx)
	if err != nil {
		return nil, err
	}
	if cat != nil {
		if m := s.kevMeta.Load(); m != nil {
			cat.CatalogVersion, cat.DateReleased = m.CatalogVersion, m.DateReleased
		}
		snap.KEV = cat
	}
	eols, err := s.DB.EOLRaws(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(eols))
	for n := range eols {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p, err := intel.DecodeEOLProduct(n, eols[n])
		if err == nil {
			snap.EOL = append(snap.EOL, p)
		}
	}
	return snap, nil
}

// Reload rebuilds this replica's index from the store.
func (s *Service) Reload(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reload(ctx)
}

func (s *Service) reload(ctx context.Context) error {
	id, err := s.DB.LatestSyncID(ctx)
	if err != nil {
		return err
	}
	s.loadKEVMeta(ctx)
	start := time.Now()
	snap, err := s.snapshotFromStore(ctx)
	if err != nil {
		return err
	}
	idx := snap.Index(s.options())
	li := &loadedIntel{eol: len(snap.EOL), looked: time.Now()}
	if snap.KEV != nil {
		li.kev = len(snap.KEV.Vulnerabilities)
	}
	li.syncedAt = s.lastSynced(ctx)
	s.idx.Store(idx)
	s.fresh.Store(li)
	s.loaded.Store(id)
	s.logger().Info("intel index loaded", "advisories", len(snap.Advisories), "sync", id, "took", time.Since(start).String())
	return nil
}

func (s *Service) loadKEVMeta(ctx context.Context) {
	syncs, err := s.DB.LastSyncs(ctx, 50)
	if err != nil {
		return
	}
	for _, sy := range syncs {
		var st syncStats
		if sy.Status == "ok" && json.Unmarshal([]byte(sy.Stats), &st) == nil && st.KEVCatalogVersion != "" {
			s.kevMeta.Store(&kevMeta{st.KEVCatalogVersion, st.KEVDateReleased})
			return
		}
	}
}

// Refresh reloads the index when another replica (or the CLI) synced
// since this one last loaded, and reports whether it did. It is cheap when
// nothing changed.
func (s *Service) Refresh(ctx context.Context) (bool, error) {
	id, err := s.DB.LatestSyncID(ctx)
	if err != nil {
		return false, err
	}
	if id == s.loaded.Load() && s.idx.Load() != nil {
		return false, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Callers that saw the same new sync at once (requests, the watch, the
	// poller) wait here for one of them; the others find it loaded.
	if s.loaded.Load() >= id && s.idx.Load() != nil {
		return false, nil
	}
	return true, s.reload(ctx)
}

// Current returns the index after making sure it reflects the newest
// sync: a request never answers from intel more than 100 ms stale,
// even right after a sync made by the CLI or another replica. The check is
// one indexed query, made at most ten times a second.
func (s *Service) Current(ctx context.Context) *intel.Index {
	now := time.Now().UnixMilli()
	if last := s.checked.Load(); now-last > 100 && s.checked.CompareAndSwap(last, now) {
		if _, err := s.Refresh(ctx); err != nil {
			s.logger().Warn("refresh intel index", "err", err)
		}
	}
	return s.Index()
}

// EnsureLoaded makes this replica's index reflect sync id (or a newer
// one), reloading it when it does not yet.
func (s *Service) EnsureLoaded(ctx context.Context, id int64) error {
	if s.loaded.Load() >= id && s.idx.Load() != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.loaded.Load() >= id && s.idx.Load() != nil {
		return nil
	}
	return s.reload(ctx)
}

// SyncDelta returns what a recorded sync changed.
func (s *Service) SyncDelta(ctx context.Context, id int64) (*intel.Delta, error) {
	sy, err := s.DB.FindSync(ctx, id)
	if err != nil {
		return nil, err
	}
	var d intel.Delta
	if err := json.Unmarshal([]byte(sy.Delta), &d); err != nil {
		return nil, fmt.Errorf("sync %d delta: %w", id, err)
	}
	return &d, nil
}

// Freshness says what intel this replica matches against and how old it
// is. The time of the newest sync is read again at most every 30 s.
func (s *Service) Freshness(ctx context.Context) *sentinel.IntelFreshness {
	idx := s.Index()
	out := &sentinel.IntelFreshness{Advisories: idx.Stats().Advisories, Ecosystems: idx.Ecosystems()}
	li := s.fresh.Load()
	if li == nil {
		return out
	}
	if time.Since(li.looked) > 30*time.Second {
		n := *li
		n.syncedAt, n.looked = s.lastSynced(ctx), time.Now()
		s.fresh.CompareAndSwap(li, &n)
		li = &n
	}
	out.KEV, out.EOLProducts = li.kev, li.eol
	if !li.syncedAt.IsZero() {
		t := li.syncedAt.UTC()
		age := s.options().Now().Sub(t)
		out.SyncedAt, out.AgeSeconds, out.Stale = &t, int64(max(age, 0)/time.Second), age > sentinel.StaleAfter
	}
	return out
}

// NoIntel is the answer to a match or gate with no advisories loaded:
// every component would look clean.
func NoIntel() error {
	return sentinel.Errorf(sentinel.EUNAVAILABLE, "no advisories are loaded yet, so no answer can be trusted as clean: the service syncs from its intel feeds at start (GET /v1/sca/intel/status shows the attempts), or an operator imports with sentineld intel sync")
}

// Loaded reports whether the index has been built once (for /readyz).
func (s *Service) Loaded() bool { return s.idx.Load() != nil }

type syncStats struct {
	OSV               intel.LoadStats `json:"osv"`
	KEV               int             `json:"kev"`
	KEVCatalogVersion string          `json:"kev_catalog_version,omitempty"`
	KEVDateReleased   string          `json:"kev_date_released,omitempty"`
	EOL               int             `json:"eol"`
	Took              string          `json:"took"`
}

// SyncResult reports one sync.
type SyncResult struct {
	ID    int64            `json:"id"`
	Stats syncStats        `json:"stats"`
	Delta intel.Delta      `json:"delta"`
	Index intel.IndexStats `json:"index"`
}

// Sync imports from src, stores the delta, and reloads the index. A source
// that fails to load fails the whole sync before anything is written;
// records that fail to decode are skipped and counted.
func (s *Service) Sync(ctx context.Context, src Sources, progress io.Writer) (*SyncResult, error) {
	if src.Empty() {
		return nil, sentinel.Errorf(sentinel.EINVALID, "name at least one source: --osv, --kev or --eol")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if progress == nil {
		progress = io.Discard
	}
	srcText, _ := json.Marshal(src)
	b := &batch{sources: string(srcText), started: time.Now().UTC()}
	if err := s.loadSources(ctx, src, b, progress); err != nil {
		return nil, s.recordFailed(ctx, b, err)
	}
	res, err := s.commit(ctx, b, progress)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "intel: rebuilding the match index\n")
	if err := s.reload(ctx); err != nil {
		return nil, err
	}
	res.Index = s.Index().Stats()
	return res, nil
}

// batch is what one sync writes: the records read from its sources.
type batch struct {
	sources string // the sources as JSON, recorded with the sync
	started time.Time
	advs    []*intel.Advisory
	kev     *intel.KEVCatalog
	eol     []*intel.EOLProduct
	stats   syncStats
	// watermark is, for a feed sync of an OSV ecosystem, the newest
	// modified time read: where the next incremental read starts.
	watermark time.Time
}

func (s *Service) httpClient() *http.Client {
	if s.HTTP != nil {
		return s.HTTP
	}
	return &http.Client{Timeout: 10 * time.Minute}
}

// loadSources reads every source of src into b.
func (s *Service) loadSources(ctx context.Context, src Sources, b *batch, progress io.Writer) error {
	client := s.httpClient()
	for _, o := range src.OSV {
		fmt.Fprintf(progress, "intel: reading OSV records from %s\n", o)
		advs, ls, err := loadOSV(ctx, client, o)
		if err != nil {
			return fmt.Errorf("osv source %s: %w", o, err)
		}
		b.stats.OSV.Add(ls)
		b.advs = append(b.advs, advs...)
		fmt.Fprintf(progress, "intel: %s: %d records, %d skipped\n", o, ls.Loaded, ls.SkippedTotal())
	}
	if src.KEV != "" {
		fmt.Fprintf(progress, "intel: reading the KEV catalog from %s\n", src.KEV)
		cat, err := loadKEV(ctx, client, src.KEV)
		if err != nil {
			return fmt.Errorf("kev source %s: %w", src.KEV, err)
		}
		b.kev = cat
	}
	if src.EOL != "" {
		products, err := loadEOL(ctx, src.EOL)
		if err != nil {
			return fmt.Errorf("eol source %s: %w", src.EOL, err)
		}
		b.eol = products
	}
	return nil
}

// recordFailed records a sync that failed and returns err.
func (s *Service) recordFailed(ctx context.Context, b *batch, err error) error {
	_ = s.DB.RecordFailedSync(context.WithoutCancel(ctx), sentinel.IntelSync{StartedAt: b.started, FinishedAt: time.Now(),
		Status: "failed", Sources: b.sources, Stats: "{}", Delta: "{}", Error: err.Error()})
	return err
}

// commit compares b with the stored intel, writes it with its delta and
// the sync's watch job in one transaction, and records the sync. It does
// not reload the index. A failure is recorded as a failed sync.
func (s *Service) commit(ctx context.Context, b *batch, progress io.Writer) (*SyncResult, error) {
	st := b.stats
	if b.kev != nil {
		st.KEV, st.KEVCatalogVersion, st.KEVDateReleased = len(b.kev.Vulnerabilities), b.kev.CatalogVersion, b.kev.DateReleased
	}
	st.EOL = len(b.eol)

	// The delta compares the new records with what the store holds now.
	fmt.Fprintf(progress, "intel: comparing with the stored intel\n")
	ids := make(map[string]bool, len(b.advs))
	for _, a := range b.advs {
		ids[a.ID] = true
	}
	oldAdvs, err := s.storedAdvisories(ctx, ids)
	if err != nil {
		return nil, s.recordFailed(ctx, b, err)
	}
	oldKEV, err := s.storedKEV(ctx)
	if err != nil {
		return nil, s.recordFailed(ctx, b, err)
	}
	curKEV := b.kev
	if curKEV == nil {
		curKEV = oldKEV
	}
	delta := intel.Diff(&intel.Snapshot{Advisories: oldAdvs, KEV: oldKEV}, &intel.Snapshot{Advisories: b.advs, KEV: curKEV})
	if len(delta.NewKEV) > 0 {
		cves := make([]string, 0, len(delta.NewKEV))
		for _, l := range delta.NewKEV {
			cves = append(cves, l.CVE)
		}
		carriers, err := s.storedCarriers(ctx, cves)
		if err != nil {
			return nil, s.recordFailed(ctx, b, err)
		}
		delta.AddKEVCarriers(carriers)
	}

	fmt.Fprintf(progress, "intel: writing %d advisories\n", len(b.advs))
	rows := make([]sentinel.IntelAdvisory, 0, len(b.advs))
	for _, a := range b.advs {
		ecos := map[string]bool{}
		for _, af := range a.Affected {
			ecos[af.Package.Ecosystem] = true
		}
		list := make([]string, 0, len(ecos))
		for e := range ecos {
			list = append(list, e)
		}
		sort.Strings(list)
		rows = append(rows, sentinel.IntelAdvisory{ID: a.ID, Modified: a.Modified, Withdrawn: a.IsWithdrawn(), Ecosystems: list, Raw: a.Raw})
	}
	st.Took = time.Since(b.started).Round(time.Millisecond).String()
	statsText, _ := json.Marshal(st)
	deltaText, _ := json.Marshal(delta)
	var id int64
	err = s.DB.Update(ctx, func(tx Tx) error {
		if err := tx.UpsertAdvisories(ctx, rows); err != nil {
			return err
		}
		if b.kev != nil {
			kr := make([]sentinel.KEVEntry, 0, len(b.kev.Vulnerabilities))
			for _, e := range b.kev.Vulnerabilities {
				raw, _ := json.Marshal(e)
				kr = append(kr, sentinel.KEVEntry{CVE: e.CVEID, DateAdded: e.DateAdded, Ransomware: e.Ransomware(), Raw: raw})
			}
			if err := tx.ReplaceKEV(ctx, kr); err != nil {
				return err
			}
		}
		if len(b.eol) > 0 {
			m := map[string][]byte{}
			for _, p := range b.eol {
				m[p.Product] = p.Raw
			}
			if err := tx.UpsertEOL(ctx, m); err != nil {
				return err
			}
		}
		var err error
		id, err = tx.RecordSync(ctx, sentinel.IntelSync{StartedAt: b.started, FinishedAt: time.Now(), Status: "ok",
			Sources: b.sources, Stats: string(statsText), Delta: string(deltaText)})
		if err != nil {
			return err
		}
		// The watch runs once for this sync, whichever process made it and
		// however many replicas load it: its job is written with the sync,
		// keyed by the sync's id.
		args, _ := json.Marshal(WatchArgs{SyncID: id})
		_, _, err = tx.Enqueue(ctx, JobWatchSync, args, sentinel.EnqueueOptions{UniqueKey: JobWatchSync + ":" + strconv.FormatInt(id, 10)})
		return err
	})
	if err != nil {
		return nil, s.recordFailed(ctx, b, fmt.Errorf("store intel: %w", err))
	}
	return &SyncResult{ID: id, Stats: st, Delta: delta}, nil
}
