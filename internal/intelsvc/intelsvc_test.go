package intelsvc_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

// Real records, the real KEV catalog and endoflife.date files, kept by the
// intel package's tests (see ../intel/testdata/SOURCES.md).
const (
	osvDir   = "../intel/testdata/osv"
	kevFile  = "../intel/testdata/kev/known_exploited_vulnerabilities.json"
	eolDir   = "../intel/testdata/eol"
	ghostcat = "GHSA-c9hw-wf7x-jp9j" // tomcat-embed-core, CVE-2020-1938 (in KEV), fixed in 9.0.31
)

func TestSyncMatchDeltaAndReplicas(t *testing.T) {
	for name, dsn := range testenv.DSNs(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			a := &intelsvc.Service{DB: store.Bind[intelsvc.Tx](testenv.Open(t, dsn))}
			b := &intelsvc.Service{DB: store.Bind[intelsvc.Tx](testenv.Open(t, dsn))} // a second replica
			if err := b.Reload(ctx); err != nil {
				t.Fatal(err)
			}
			var progress strings.Builder
			res, err := a.Sync(ctx, intelsvc.Sources{OSV: []string{osvDir}, KEV: kevFile, EOL: eolDir}, &progress)
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.OSV.Loaded < 250 || res.Stats.KEV != 1364 || res.Stats.EOL < 10 || len(res.Delta.New) == 0 || len(res.Delta.NewKEV) != 1364 {
				t.Errorf("first sync: %+v delta new=%d newkev=%d", res.Stats, len(res.Delta.New), len(res.Delta.NewKEV))
			}
			if !strings.Contains(progress.String(), "rebuilding the match index") {
				t.Errorf("no progress: %q", progress.String())
			}
			ms, err := a.Index().Match("pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30")
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, m := range ms {
				if m.ID == ghostcat {
					found = true
					if !m.KEV || m.KEVDateAdded != "2022-03-03" || m.NearestFix != "9.0.31" || m.Severity != "critical" || m.CVSSScore != 9.8 {
						t.Errorf("ghostcat match: %+v", m)
					}
				}
			}
			if !found {
				t.Errorf("tomcat 9.0.30 does not match %s: %+v", ghostcat, ms)
			}
			if ms, _ := a.Index().Match("pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.31"); len(ms) > 0 {
				for _, m := range ms {
					if m.ID == ghostcat {
						t.Errorf("fixed version matches %s", ghostcat)
					}
				}
			}
			// The other replica picks the sync up.
			if reloaded, err := b.Refresh(ctx); err != nil || !reloaded {
				t.Fatalf("Refresh = %v, %v", reloaded, err)
			}
			if ms, _ := b.Index().Match("pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30"); len(ms) == 0 {
				t.Error("replica b did not reload after the sync")
			}

			// A failed sync (an unreadable source) changes nothing and is recorded.
			before, _, _, _, _ := a.DB.IntelCounts(ctx)
			if _, err := a.Sync(ctx, intelsvc.Sources{OSV: []string{osvDir, "/nonexistent/osv"}}, nil); err == nil {
				t.Fatal("sync from a missing source succeeded")
			}
			after, _, _, _, _ := a.DB.IntelCounts(ctx)
			syncs, _ := a.DB.LastSyncs(ctx, 1)
			if before != after || syncs[0].Status != "failed" || !strings.Contains(syncs[0].Error, "/nonexistent/osv") {
				t.Errorf("failed sync: %d -> %d advisories, last sync %+v", before, after, syncs[0])
			}

			// The record gets a new fix and a higher severity: the delta says so.
			raw, _ := a.DB.AdvisoryRaw(ctx, "GHSA-3pxv-7cmr-fjr4")
			var rec map[string]any
			_ = json.Unmarshal(raw, &rec)
			rec["modified"] = "2026-11-20T00:00:00Z"
			rec["severity"] = []map[string]string{{"type": "CVSS_V3", "score": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"}}
			aff := rec["affected"].([]any)[0].(map[string]any)
			rng := aff["ranges"].([]any)[0].(map[string]any)
			rng["events"] = append(rng["events"].([]any), map[string]any{"introduced": "3.0.0"}, map[string]any{"fixed": "3.0.1"})
			dir := t.TempDir()
			b2, _ := json.Marshal(rec)
			if err := os.WriteFile(filepath.Join(dir, "GHSA-3pxv-7cmr-fjr4.json"), b2, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err = a.Sync(ctx, intelsvc.Sources{OSV: []string{dir}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Delta.New) != 0 || len(res.Delta.Changed) != 1 || !res.Delta.Changed[0].SeverityRaised ||
				len(res.Delta.Changed[0].FixesAdded) != 1 || !res.Delta.Changed[0].Meaningful() {
				t.Errorf("delta after edit: %+v", res.Delta)
			}
		})
	}
}
