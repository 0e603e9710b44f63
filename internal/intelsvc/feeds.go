package intelsvc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intel"
)

// The official sources a service syncs from by default.
const (
	DefaultOSVBase = "https://osv-vulnerabilities.storage.googleapis.com"
	DefaultKEVURL  = "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json"
	DefaultEOLURL  = "https://endoflife.date/api/v1/products/full"
)

// DefaultEcosystems are the OSV ecosystems synced by default: those the
// agent, the CI gate and the external scans produce components of. Red Hat
// and SUSE, whose exports are the largest by far, are left to operators
// with such hosts (--intel-ecosystems); until then the inventory counts
// those hosts' packages as unchecked rather than clean.
var DefaultEcosystems = []string{
	"AlmaLinux", "Alpine", "Bioconductor", "Bitnami", "Chainguard", "ConanCenter", "CRAN", "crates.io", "Debian", "GitHub Actions", "Go",
	"Hackage", "Hex", "Julia", "Maven", "npm", "NuGet", "Packagist", "Pub", "PyPI", "Rocky Linux", "RubyGems",
	"SwiftURL", "Ubuntu", "Wolfi",
}

// Feeds are the published sources a service keeps its intel current from:
// OSV's bucket (per ecosystem an all.zip export, a modified_id.csv index
// and one JSON file per record), the CISA KEV feed and the endoflife.date
// API. An empty field leaves that kind of intel alone.
type Feeds struct {
	OSVBase    string   `json:"osv_base,omitempty"`
	Ecosystems []string `json:"ecosystems,omitempty"`
	KEVURL     string   `json:"kev_url,omitempty"`
	EOLURL     string   `json:"eol_url,omitempty"`
	// FullAbove is the number of changed records above which an
	// ecosystem is read from its all.zip instead of record by record
	// (default 5000).
	FullAbove int `json:"full_above,omitempty"`
}

// DefaultFeeds are the official sources.
func DefaultFeeds() Feeds {
	return Feeds{OSVBase: DefaultOSVBase, Ecosystems: slices.Clone(DefaultEcosystems), KEVURL: DefaultKEVURL, EOLURL: DefaultEOLURL}
}

// Empty reports whether no feed is named.
func (f Feeds) Empty() bool {
	return (f.OSVBase == "" || len(f.Ecosystems) == 0) && f.KEVURL == "" && f.EOLURL == ""
}

// FeedResult reports one part of a feed sync: an ecosystem, the KEV
// catalog or the end-of-life data. Exactly one of Sync, Unchanged and
// Error describes the outcome.
type FeedResult struct {
	Feed string `json:"feed"` // "osv:npm", "kev", "eol"
	// Mode is how OSV records were read: "full" (all.zip) or
	// "incremental" (the records modified_id.csv lists as changed).
	Mode      string      `json:"mode,omitempty"`
	Unchanged bool        `json:"unchanged,omitempty"`
	Sync      *SyncResult `json:"sync,omitempty"`
	Error     string      `json:"error,omitempty"`
}

// feedStats is what a feed sync records beyond a sync's stats: where each
// OSV ecosystem's next incremental read starts.
type feedState struct {
	Feed      string    `json:"feed"`
	Mode      string    `json:"mode,omitempty"`
	Watermark time.Time `json:"watermark,omitzero"`
}

// SyncFeeds brings the intel up to date from f. Every part (each OSV
// ecosystem, KEV, end-of-life) is its own sync, recorded with its own
// delta and watch job, so one unreachable source does not hold back the
// others. The index is rebuilt once at the end when anything changed. The
// error joins the parts' errors.
func (s *Service) SyncFeeds(ctx context.Context, f Feeds, progress io.Writer) ([]FeedResult, error) {
	if f.Empty() {
		return nil, sentinel.Errorf(sentinel.EINVALID, "no intel feed is configured")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if progress == nil {
		progress = io.Discard
	}
	s.loadKEVMeta(ctx)
	marks, err := s.watermarks(ctx)
	if err != nil {
		return nil, err
	}
	var out []FeedResult
	var errs []error
	changed := false
	run := func(feed string, load func(b *batch) (mode string, unchanged bool, err error)) {
		src, _ := json.Marshal(feedState{Feed: feed})
		b := &batch{sources: string(src), started: time.Now().UTC()}
		r := FeedResult{Feed: feed}
		mode, unchanged, err := load(b)
		r.Mode = mode
		switch {
		case err != nil:
			err = s.recordFailed(ctx, b, fmt.Errorf("%s: %w", feed, err))
			r.Error = err.Error()
			errs = append(errs, err)
			fmt.Fprintf(progress, "intel: %s failed: %v\n", feed, err)
		case unchanged:
			// Recorded (not as "ok": replicas do not reload for it) so that
			// the intel's age counts from this check.
			r.Unchanged = true
			_ = s.DB.RecordFailedSync(ctx, sentinel.IntelSync{StartedAt: b.started, FinishedAt: time.Now(), Status: statusUnchanged,
				Sources: mustJSON(feedState{Feed: feed, Mode: mode, Watermark: b.watermark}), Stats: "{}", Delta: "{}"})
			fmt.Fprintf(progress, "intel: %s: nothing changed\n", feed)
		default:
			b.sources = mustJSON(feedState{Feed: feed, Mode: mode, Watermark: b.watermark})
			res, err := s.commit(ctx, b, progress)
			if err != nil {
				r.Error = err.Error()
				errs = append(errs, err)
				break
			}
			r.Sync, changed = res, true
			fmt.Fprintf(progress, "intel: %s: sync %d, %d new, %d changed\n", feed, res.ID, len(res.Delta.New), len(res.Delta.Changed))
		}
		out = append(out, r)
	}
	client := s.httpClient()
	if f.OSVBase != "" {
		ecos := slices.Clone(f.Ecosystems)
		slices.Sort(ecos)
		for _, eco := range slices.Compact(ecos) {
			run("osv:"+eco, func(b *batch) (string, bool, error) {
				return s.loadOSVFeed(ctx, client, f, eco, marks["osv:"+eco], b, progress)
			})
		}
	}
	if f.KEVURL != "" {
		run("kev", func(b *batch) (string, bool, error) {
			fmt.Fprintf(progress, "intel: reading the KEV catalog from %s\n", f.KEVURL)
			cat, err := loadKEV(ctx, client, f.KEVURL)
			if err != nil {
				return "", false, err
			}
			if m := s.kevMeta.Load(); m != nil && m.CatalogVersion != "" && m.CatalogVersion == cat.CatalogVersion {
				return "", true, nil
			}
			b.kev = cat
			return "", false, nil
		})
	}
	if f.EOLURL != "" {
		run("eol", func(b *batch) (string, bool, error) {
			fmt.Fprintf(progress, "intel: reading end-of-life data from %s\n", f.EOLURL)
			products, err := loadEOLAPI(ctx, client, f.EOLURL)
			if err != nil {
				return "", false, err
			}
			same, err := s.sameEOL(ctx, products)
			if err != nil || same {
				return "", same, err
			}
			b.eol = products
			return "", false, nil
		})
	}
	if changed {
		fmt.Fprintf(progress, "intel: rebuilding the match index\n")
		if err := s.reload(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// watermarks returns, per feed, the watermark of its newest successful
// feed sync: where the next incremental read of an OSV ecosystem starts.
func (s *Service) watermarks(ctx context.Context) (map[string]time.Time, error) {
	syncs, err := s.DB.LastSyncs(ctx, 500)
	if err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	for _, sy := range syncs { // newest first
		var st feedState
		if (sy.Status != "ok" && sy.Status != statusUnchanged) || json.Unmarshal([]byte(sy.Sources), &st) != nil || st.Feed == "" || st.Watermark.IsZero() {
			continue
		}
		if _, seen := out[st.Feed]; !seen {
			out[st.Feed] = st.Watermark
		}
	}
	return out, nil
}

// loadOSVFeed reads what changed in one OSV ecosystem since mark: the
// records modified_id.csv lists as modified after it, one by one, or the
// whole all.zip when there is no mark or too many changed. b.watermark is
// set to the newest modified time read.
func (s *Service) loadOSVFeed(ctx context.Context, c *http.Client, f Feeds, eco string, mark time.Time, b *batch, progress io.Writer) (string, bool, error) {
	base := strings.TrimSuffix(f.OSVBase, "/") + "/" + url.PathEscape(eco)
	full := func() (string, bool, error) {
		fmt.Fprintf(progress, "intel: reading %s/all.zip\n", base)
		advs, ls, err := intel.LoadURL(ctx, c, base+"/all.zip")
		if err != nil {
			return "full", false, err
		}
		b.advs, b.stats.OSV = advs, ls
		b.watermark = newest(advs)
		return "full", false, nil
	}
	if mark.IsZero() {
		return full()
	}
	changed, err := modifiedSince(ctx, c, base+"/modified_id.csv", mark)
	if err != nil {
		return "incremental", false, err
	}
	if len(changed) == 0 {
		b.watermark = mark
		return "incremental", true, nil
	}
	limit := f.FullAbove
	if limit <= 0 {
		limit = 5000
	}
	if len(changed) > limit {
		return full()
	}
	fmt.Fprintf(progress, "intel: %s: reading %d changed records\n", eco, len(changed))
	advs, ls, err := fetchRecords(ctx, c, base, changed)
	if err != nil {
		return "incremental", false, err
	}
	b.advs, b.stats.OSV = advs, ls
	b.watermark = mark
	if t := newest(advs); t.After(mark) {
		b.watermark = t
	}
	return "incremental", false, nil
}

// newest returns the latest modified time among advs.
func newest(advs []*intel.Advisory) time.Time {
	var t time.Time
	for _, a := range advs {
		if a.Modified.After(t) {
			t = a.Modified
		}
	}
	return t
}

// modifiedSince reads an OSV modified_id.csv ("<RFC 3339 time>,<id>" per
// line, newest first; the bucket-wide file writes "<ecosystem>/<id>") and
// returns the ids modified after mark.
func modifiedSince(ctx context.Context, c *http.Client, u string, mark time.Time) ([]string, error) {
	body, err := get(ctx, c, u)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	var ids []string
	sc := bufio.NewScanner(io.LimitReader(body, 256<<20))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		ts, id, ok := strings.Cut(text, ",")
		t, err := time.Parse(time.RFC3339, ts)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s line %d: want \"<time>,<id>\", got %q", u, line, text)
		}
		if !t.After(mark) {
			continue
		}
		if i := strings.LastIndexByte(id, '/'); i >= 0 {
			id = id[i+1:]
		}
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", u, err)
	}
	return ids, nil
}

// fetchRecords downloads <base>/<id>.json for every id, eight at a time.
// A record that is gone (404) is skipped and counted; any other failure
// fails the read, so the watermark never passes a record not read.
func fetchRecords(ctx context.Context, c *http.Client, base string, ids []string) ([]*intel.Advisory, intel.LoadStats, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		name string
		data []byte
		gone bool
	}
	results := make([]result, len(ids))
	next := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				u := base + "/" + url.PathEscape(ids[i]) + ".json"
				data, err := fetch(ctx, c, u)
				var st *statusError
				switch {
				case errors.As(err, &st) && st.code == http.StatusNotFound:
					results[i] = result{name: ids[i], gone: true}
				case err != nil:
					once.Do(func() { firstErr = err; cancel() })
				default:
					results[i] = result{name: ids[i] + ".json", data: data}
				}
			}
		}()
	}
	for i := range ids {
		select {
		case next <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, intel.LoadStats{}, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, intel.LoadStats{}, err
	}
	var ls intel.LoadStats
	var advs []*intel.Advisory
	for _, r := range results {
		if r.gone {
			ls.SkipRecord(r.name, intel.SkipGone, errors.New("listed in modified_id.csv but not served"))
			continue
		}
		advs = ls.Decode(advs, r.name, r.data)
	}
	return advs, ls, nil
}

// loadEOLAPI reads the endoflife.date API's products/full answer.
func loadEOLAPI(ctx context.Context, c *http.Client, u string) ([]*intel.EOLProduct, error) {
	body, err := get(ctx, c, u)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	return intel.DecodeEOLAPI(body, 256<<20)
}

// sameEOL reports whether products are exactly what is stored.
func (s *Service) sameEOL(ctx context.Context, products []*intel.EOLProduct) (bool, error) {
	stored, err := s.DB.EOLRaws(ctx)
	if err != nil {
		return false, err
	}
	if len(stored) != len(products) {
		return false, nil
	}
	for _, p := range products {
		if string(stored[p.Product]) != string(p.Raw) {
			return false, nil
		}
	}
	return true, nil
}

// FeedStatus is one configured feed and its newest syncs.
type FeedStatus struct {
	Feed string `json:"feed"`
	URL  string `json:"url"`
	// LastOK is when the newest successful sync of the feed finished, or
	// the newest check that found nothing changed.
	LastOK *time.Time `json:"last_ok,omitempty"`
	// LastError is the newest failure, when it is newer than LastOK.
	LastError string     `json:"last_error,omitempty"`
	LastFail  *time.Time `json:"last_failure,omitempty"`
	// Mode and Watermark describe the newest successful OSV read.
	Mode      string     `json:"mode,omitempty"`
	Watermark *time.Time `json:"watermark,omitempty"`
}

// urls lists the configured feeds by name, in sync order.
func (f Feeds) urls() [][2]string {
	var out [][2]string
	if f.OSVBase != "" {
		ecos := slices.Clone(f.Ecosystems)
		slices.Sort(ecos)
		for _, e := range slices.Compact(ecos) {
			out = append(out, [2]string{"osv:" + e, strings.TrimSuffix(f.OSVBase, "/") + "/" + url.PathEscape(e) + "/all.zip"})
		}
	}
	if f.KEVURL != "" {
		out = append(out, [2]string{"kev", f.KEVURL})
	}
	if f.EOLURL != "" {
		out = append(out, [2]string{"eol", f.EOLURL})
	}
	return out
}

// feedStatus describes the configured feeds from the recorded syncs.
func (s *Service) feedStatus(ctx context.Context) ([]FeedStatus, error) {
	out := []FeedStatus{}
	feeds := s.Feeds.urls()
	if len(feeds) == 0 {
		return out, nil
	}
	syncs, err := s.DB.LastSyncs(ctx, 500)
	if err != nil {
		return nil, err
	}
	for _, fu := range feeds {
		st := FeedStatus{Feed: fu[0], URL: fu[1]}
		for _, sy := range syncs { // newest first
			var fs feedState
			if json.Unmarshal([]byte(sy.Sources), &fs) != nil || fs.Feed != st.Feed {
				continue
			}
			t := sy.FinishedAt.UTC()
			if sy.Status != "ok" && sy.Status != statusUnchanged {
				if st.LastFail == nil && st.LastOK == nil {
					st.LastFail, st.LastError = &t, sy.Error
				}
				continue
			}
			st.LastOK, st.Mode = &t, fs.Mode
			if !fs.Watermark.IsZero() {
				w := fs.Watermark.UTC()
				st.Watermark = &w
			}
			break
		}
		out = append(out, st)
	}
	return out, nil
}
