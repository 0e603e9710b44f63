// Package intelsvc runs Sentinel's advisory intelligence inside the
// service: it imports OSV, KEV and end-of-life data into the store (one
// transaction per sync, so a failed sync leaves the previous intel in
// force), records what changed, keeps the in-memory match index of each
// replica current, and serves the match and intel API.
package intelsvc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intel"
	"github.com/sentinel-sca/sentinel/internal/store"
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

// Service owns the intel of one replica.
type Service struct {
	DB     *store.DB
	Logger *slog.Logger
	// HTTP fetches URL sources (default http.DefaultClient with a timeout).
	HTTP *http.Client
	// Now is the clock used for end-of-life decisions (default time.Now).
	Now func() time.Time

	idx     atomic.Pointer[intel.Index]
	loaded  atomic.Int64 // sync id the index reflects
	checked atomic.Int64 // unix ms of the last look for a newer sync
	mu      sync.Mutex   // one sync or reload at a time in this process
	kevMeta atomic.Pointer[kevMeta]
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
	rows, err := s.DB.KEVRows(ctx)
	if err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		cat := &intel.KEVCatalog{}
		for _, r := range rows {
			var e intel.KEVEntry
			if err := json.Unmarshal(r.Raw, &e); err == nil {
				cat.Vulnerabilities = append(cat.Vulnerabilities, e)
			}
		}
		if m := s.kevMeta.Load(); m != nil {
			cat.CatalogVersion, cat.DateReleased = m.CatalogVersion, m.DateReleased
		}
		cat.Count = len(cat.Vulnerabilities)
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
	s.idx.Store(idx)
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
	return true, s.Reload(ctx)
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
	started := time.Now().UTC()
	srcText, _ := json.Marshal(src)
	fail := func(err error) (*SyncResult, error) {
		_ = s.DB.RecordFailedSync(context.WithoutCancel(ctx), store.IntelSync{StartedAt: started, FinishedAt: time.Now(),
			Status: "failed", Sources: string(srcText), Stats: "{}", Delta: "{}", Error: err.Error()})
		return nil, err
	}
	client := s.HTTP
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Minute}
	}
	cur := &intel.Snapshot{Created: started}
	var st syncStats
	for _, o := range src.OSV {
		fmt.Fprintf(progress, "intel: reading OSV records from %s\n", o)
		advs, ls, err := loadOSV(ctx, client, o)
		if err != nil {
			return fail(fmt.Errorf("osv source %s: %w", o, err))
		}
		st.OSV.Add(ls)
		cur.Advisories = append(cur.Advisories, advs...)
		fmt.Fprintf(progress, "intel: %s: %d records, %d skipped\n", o, ls.Loaded, ls.SkippedTotal())
	}
	if src.KEV != "" {
		fmt.Fprintf(progress, "intel: reading the KEV catalog from %s\n", src.KEV)
		cat, err := loadKEV(ctx, client, src.KEV)
		if err != nil {
			return fail(fmt.Errorf("kev source %s: %w", src.KEV, err))
		}
		cur.KEV = cat
		st.KEV, st.KEVCatalogVersion, st.KEVDateReleased = len(cat.Vulnerabilities), cat.CatalogVersion, cat.DateReleased
	}
	if src.EOL != "" {
		products, err := loadEOL(ctx, src.EOL)
		if err != nil {
			return fail(fmt.Errorf("eol source %s: %w", src.EOL, err))
		}
		cur.EOL = products
		st.EOL = len(products)
	}

	// The delta compares the new records with what the store holds now.
	fmt.Fprintf(progress, "intel: comparing with the stored intel\n")
	old, err := s.snapshotFromStore(ctx)
	if err != nil {
		return fail(err)
	}
	oldSub := &intel.Snapshot{KEV: old.KEV}
	byID := map[string]*intel.Advisory{}
	for _, a := range old.Advisories {
		byID[a.ID] = a
	}
	for _, a := range cur.Advisories {
		if o := byID[a.ID]; o != nil {
			oldSub.Advisories = append(oldSub.Advisories, o)
		}
	}
	curSub := &intel.Snapshot{Advisories: cur.Advisories, KEV: cur.KEV}
	if curSub.KEV == nil {
		curSub.KEV = old.KEV
	}
	delta := intel.Diff(oldSub, curSub)

	fmt.Fprintf(progress, "intel: writing %d advisories\n", len(cur.Advisories))
	rows := make([]store.IntelAdvisory, 0, len(cur.Advisories))
	for _, a := range cur.Advisories {
		ecos := map[string]bool{}
		for _, af := range a.Affected {
			ecos[af.Package.Ecosystem] = true
		}
		list := make([]string, 0, len(ecos))
		for e := range ecos {
			list = append(list, e)
		}
		sort.Strings(list)
		rows = append(rows, store.IntelAdvisory{ID: a.ID, Modified: a.Modified, Withdrawn: a.IsWithdrawn(), Ecosystems: list, Raw: a.Raw})
	}
	st.Took = time.Since(started).Round(time.Millisecond).String()
	statsText, _ := json.Marshal(st)
	deltaText, _ := json.Marshal(delta)
	var id int64
	err = s.DB.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.UpsertAdvisories(ctx, rows); err != nil {
			return err
		}
		if cur.KEV != nil {
			kr := make([]store.KEVRow, 0, len(cur.KEV.Vulnerabilities))
			for _, e := range cur.KEV.Vulnerabilities {
				raw, _ := json.Marshal(e)
				kr = append(kr, store.KEVRow{CVE: e.CVEID, DateAdded: e.DateAdded, Ransomware: e.Ransomware(), Raw: raw})
			}
			if err := tx.ReplaceKEV(ctx, kr); err != nil {
				return err
			}
		}
		if len(cur.EOL) > 0 {
			m := map[string][]byte{}
			for _, p := range cur.EOL {
				m[p.Product] = p.Raw
			}
			if err := tx.UpsertEOL(ctx, m); err != nil {
				return err
			}
		}
		var err error
		id, err = tx.RecordSync(ctx, store.IntelSync{StartedAt: started, FinishedAt: time.Now(), Status: "ok",
			Sources: string(srcText), Stats: string(statsText), Delta: string(deltaText)})
		return err
	})
	if err != nil {
		return fail(fmt.Errorf("store intel: %w", err))
	}
	fmt.Fprintf(progress, "intel: rebuilding the match index\n")
	if err := s.reload(ctx); err != nil {
		return nil, err
	}
	return &SyncResult{ID: id, Stats: st, Delta: delta, Index: s.Index().Stats()}, nil
}

func isURL(s string) bool { return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") }

func loadOSV(ctx context.Context, c *http.Client, src string) ([]*intel.Advisory, intel.LoadStats, error) {
	if isURL(src) {
		return intel.LoadURL(ctx, c, src)
	}
	fi, err := os.Stat(src)
	if err != nil {
		return nil, intel.LoadStats{}, err
	}
	if fi.IsDir() {
		return intel.LoadDir(ctx, src)
	}
	return intel.LoadZipFile(ctx, src)
}

func fetch(ctx context.Context, c *http.Client, src string) ([]byte, error) {
	if !isURL(src) {
		return os.ReadFile(src)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", src, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: %s", src, resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 256<<20))
}

func loadKEV(ctx context.Context, c *http.Client, src string) (*intel.KEVCatalog, error) {
	b, err := fetch(ctx, c, src)
	if err != nil {
		return nil, err
	}
	return intel.DecodeKEV(bytes.NewReader(b))
}

func loadEOL(ctx context.Context, src string) ([]*intel.EOLProduct, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		ps, _, err := intel.LoadEOLDir(ctx, src)
		return ps, err
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	p, err := intel.DecodeEOLProduct(strings.TrimSuffix(filepath.Base(src), ".json"), b)
	if err != nil {
		return nil, err
	}
	return []*intel.EOLProduct{p}, nil
}

// WriteSnapshot writes the stored intel as an offline snapshot for
// `sentinel ci --offline-db`.
func (s *Service) WriteSnapshot(ctx context.Context, w io.Writer) error {
	snap, err := s.snapshotFromStore(ctx)
	if err != nil {
		return err
	}
	snap.Created = time.Now().UTC()
	return intel.WriteSnapshot(w, snap)
}
