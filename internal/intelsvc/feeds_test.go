package intelsvc_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/feedtest"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

const tomcat930 = "pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30"

func feedsOf(site *feedtest.Site) intelsvc.Feeds {
	return intelsvc.Feeds{OSVBase: site.URL + "/osv", Ecosystems: site.Ecosystems(), KEVURL: site.URL + "/kev.json", EOLURL: site.URL + "/eol"}
}

func byFeed(t *testing.T, res []intelsvc.FeedResult) map[string]intelsvc.FeedResult {
	t.Helper()
	out := map[string]intelsvc.FeedResult{}
	for _, r := range res {
		out[r.Feed] = r
	}
	return out
}

func countPaths(paths []string, suffix string) int {
	n := 0
	for _, p := range paths {
		if strings.HasSuffix(p, suffix) {
			n++
		}
	}
	return n
}

// The feeds, served from a loopback site with the real layout: a first
// sync reads every ecosystem's all.zip; later ones read modified_id.csv and
// only the records it lists as changed; a failing feed holds back none of
// the others; a record listed but gone is skipped.
func TestSyncFeeds(t *testing.T) {
	for name, dsn := range testenv.DSNs(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			site := feedtest.Start(t)
			feeds := feedsOf(site)
			db := testenv.Open(t, dsn)
			svc := &intelsvc.Service{DB: store.Bind[intelsvc.Tx](db), Feeds: feeds}
			replica := &intelsvc.Service{DB: store.Bind[intelsvc.Tx](testenv.Open(t, dsn))}
			if err := replica.Reload(ctx); err != nil {
				t.Fatal(err)
			}

			// Nothing loaded: no advisories, no sync time.
			if f := svc.Freshness(ctx); f.Advisories != 0 || f.SyncedAt != nil {
				t.Errorf("empty service freshness: %+v", f)
			}

			// 1. The first sync: every ecosystem from its all.zip.
			var progress strings.Builder
			res, err := svc.SyncFeeds(ctx, feeds, &progress)
			if err != nil {
				t.Fatal(err)
			}
			got := byFeed(t, res)
			paths := site.Requests()
			if n := countPaths(paths, "/all.zip"); n != len(feeds.Ecosystems) {
				t.Errorf("first sync read %d all.zip files for %d ecosystems: %v", n, len(feeds.Ecosystems), paths)
			}
			maven := got["osv:Maven"]
			if maven.Mode != "full" || maven.Sync == nil || maven.Sync.Stats.OSV.Loaded != 57 {
				t.Errorf("osv:Maven: %+v", maven)
			}
			if k := got["kev"]; k.Sync == nil || k.Sync.Stats.KEV != 1364 || len(k.Sync.Delta.NewKEV) != 1364 {
				t.Errorf("kev: %+v", k)
			}
			if e := got["eol"]; e.Sync == nil || e.Sync.Stats.EOL != 19 {
				t.Errorf("eol: %+v", e)
			}
			if !strings.Contains(progress.String(), "osv:Maven") {
				t.Errorf("progress names no feed: %q", progress.String())
			}
			ms, err := svc.Index().Match(tomcat930)
			if err != nil || !slices.ContainsFunc(ms, func(m sentinel.AdvisoryMatch) bool { return m.ID == ghostcat && m.KEV }) {
				t.Errorf("tomcat 9.0.30 after the feed sync: %+v, %v", ms, err)
			}
			// End-of-life data read from the API's shape decides like the
			// product files it was made from.
			files := &intelsvc.Service{DB: store.Bind[intelsvc.Tx](testenv.Open(t, filepath.Join(t.TempDir(), "files.db")))}
			if _, err := files.Sync(ctx, intelsvc.Sources{EOL: eolDir}, nil); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"pkg:npm/jquery@1.12.4", "pkg:npm/angular@1.8.2", "pkg:maven/org.apache.tomcat/tomcat@8.5.99",
				"pkg:pypi/django@4.2.1", "pkg:npm/vue@3.4.0", "pkg:golang/stdlib@1.20.1", "pkg:npm/jquery@3.7.1"} {
				want := files.Index().MatchBatch([]string{p})[0].EOL
				have := svc.Index().MatchBatch([]string{p})[0].EOL
				if (want == nil) != (have == nil) || (want != nil && *want != *have) {
					t.Errorf("%s: EOL from the API %+v, from the files %+v", p, have, want)
				}
			}
			f := svc.Freshness(ctx)
			if f.Advisories == 0 || f.KEV != 1364 || f.EOLProducts != 19 || f.SyncedAt == nil || f.Stale || f.AgeSeconds > 60 {
				t.Errorf("freshness after the first sync: %+v", f)
			}

			// Three days on without a sync, the intel is called stale.
			svc.Now = func() time.Time { return time.Now().Add(sentinel.StaleAfter + time.Hour) }
			if f := svc.Freshness(ctx); !f.Stale || f.AgeSeconds < int64(sentinel.StaleAfter/time.Second) {
				t.Errorf("freshness three days on: %+v", f)
			}
			svc.Now = nil

			// Another replica loads it like any sync.
			if ok, err := replica.Refresh(ctx); err != nil || !ok {
				t.Fatalf("replica Refresh = %v, %v", ok, err)
			}
			loaded, _ := svc.DB.LatestSyncID(ctx)

			// 2. Nothing changed: modified_id.csv only; no new sync to load.
			res, err = svc.SyncFeeds(ctx, feeds, nil)
			if err != nil {
				t.Fatal(err)
			}
			paths = site.Requests()
			if countPaths(paths, "/all.zip") != 0 || countPaths(paths, "/modified_id.csv") != len(feeds.Ecosystems) {
				t.Errorf("unchanged sync read %v", paths)
			}
			for _, r := range res {
				if !r.Unchanged {
					t.Errorf("%s changed with nothing to change: %+v", r.Feed, r)
				}
			}
			if id, _ := svc.DB.LatestSyncID(ctx); id != loaded {
				t.Errorf("an unchanged sync made sync %d loadable (was %d)", id, loaded)
			}

			// 3. One record changes upstream, one is new: only those two
			// are read, and the delta names them.
			at := time.Now().UTC().Add(time.Minute)
			site.Touch(t, "Maven", "GHSA-3pxv-7cmr-fjr4", at, map[string]any{
				"severity": []map[string]string{{"type": "CVSS_V3", "score": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"}}})
			site.Touch(t, "Maven", "GHSA-feed-test-0001", at, map[string]any{"summary": "a record published after the first sync",
				"affected": []any{map[string]any{"package": map[string]string{"ecosystem": "Maven", "name": "org.example:feed-test"},
					"ranges": []any{map[string]any{"type": "ECOSYSTEM", "events": []any{map[string]string{"introduced": "0"}, map[string]string{"fixed": "2.0.0"}}}}}}})
			res, err = svc.SyncFeeds(ctx, feeds, nil)
			if err != nil {
				t.Fatal(err)
			}
			paths = site.Requests()
			jsons := slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return !strings.HasSuffix(p, ".json") || p == "/kev.json" })
			slices.Sort(jsons)
			if !slices.Equal(jsons, []string{"/osv/Maven/GHSA-3pxv-7cmr-fjr4.json", "/osv/Maven/GHSA-feed-test-0001.json"}) || countPaths(paths, "/all.zip") != 0 {
				t.Errorf("incremental sync read %v", paths)
			}
			maven = byFeed(t, res)["osv:Maven"]
			if maven.Mode != "incremental" || maven.Sync == nil || len(maven.Sync.Delta.New) != 1 || len(maven.Sync.Delta.Changed) != 1 ||
				!maven.Sync.Delta.Changed[0].SeverityRaised {
				t.Errorf("incremental Maven sync: %+v", maven)
			}
			if ms, _ := svc.Index().Match("pkg:maven/org.example/feed-test@1.0.0"); len(ms) != 1 {
				t.Errorf("the new record does not match: %+v", ms)
			}
			// The sync's watch job was written with it.
			if n, err := db.CountJobs(ctx, intelsvc.JobWatchSync, ""); err != nil || n == 0 {
				t.Errorf("watch jobs after the incremental sync: %d, %v", n, err)
			}

			// 4. The KEV feed fails, a listed record is gone: the others
			// go on, the failure is recorded and shown.
			site.Fail("/kev.json", 503)
			site.Drop("Maven", "GHSA-feed-test-0001", at.Add(time.Minute))
			site.Touch(t, "PyPI", "PYSEC-feed-test-2", at.Add(time.Minute), map[string]any{"summary": "another new record",
				"affected": []any{map[string]any{"package": map[string]string{"ecosystem": "PyPI", "name": "feed-test"}, "versions": []string{"1.0"}}}})
			res, err = svc.SyncFeeds(ctx, feeds, nil)
			if err == nil || !strings.Contains(err.Error(), "kev") {
				t.Errorf("a failing KEV feed: err = %v", err)
			}
			got = byFeed(t, res)
			if got["kev"].Error == "" || got["osv:PyPI"].Sync == nil || len(got["osv:PyPI"].Sync.Delta.New) != 1 {
				t.Errorf("kev %+v, PyPI %+v", got["kev"], got["osv:PyPI"])
			}
			if m := got["osv:Maven"]; m.Sync == nil || m.Sync.Stats.OSV.Skipped["gone"] != 1 {
				t.Errorf("a gone record: %+v", m)
			}
			var st intelsvc.StatusResponse
			raw := statusOf(t, svc)
			if err := json.Unmarshal(raw, &st); err != nil {
				t.Fatal(err)
			}
			for _, fs := range st.Feeds {
				switch fs.Feed {
				case "kev":
					if fs.LastError == "" || fs.LastOK == nil || fs.URL != feeds.KEVURL {
						t.Errorf("kev status: %+v", fs)
					}
				case "osv:PyPI":
					if fs.LastOK == nil || fs.Mode != "incremental" || fs.Watermark == nil || !fs.Watermark.Equal(at.Add(time.Minute).Truncate(time.Second)) {
						t.Errorf("PyPI status: %+v", fs)
					}
				}
			}
			if len(st.Feeds) != len(feeds.Ecosystems)+2 || st.Freshness == nil || st.Freshness.Advisories == 0 {
				t.Errorf("status: %d feeds, freshness %+v", len(st.Feeds), st.Freshness)
			}

			// 5. Too many changes for record-by-record reads: all.zip again.
			site.Fail("/kev.json", 0)
			for i, id := range []string{"GHSA-2268-98wh-qfhf", "GHSA-269g-pwp5-87pp", "GHSA-26gr-cvq3-qxgf"} {
				site.Touch(t, "Maven", id, at.Add(time.Duration(i+2)*time.Minute), nil)
			}
			small := feeds
			small.FullAbove = 2
			res, err = svc.SyncFeeds(ctx, small, nil)
			if err != nil {
				t.Fatal(err)
			}
			if m := byFeed(t, res)["osv:Maven"]; m.Mode != "full" || m.Sync == nil {
				t.Errorf("3 changes over a limit of 2: %+v", m)
			}
		})
	}
}

// statusOf answers GET /v1/sca/intel/status from svc.
func statusOf(t *testing.T, svc *intelsvc.Service) []byte {
	t.Helper()
	for _, rt := range svc.Routes() {
		if rt.Path == "/v1/sca/intel/status" {
			w := httptest.NewRecorder()
			if err := rt.Handler(w, httptest.NewRequest("GET", rt.Path, nil)); err != nil {
				t.Fatal(err)
			}
			return w.Body.Bytes()
		}
	}
	t.Fatal("no status route")
	return nil
}
