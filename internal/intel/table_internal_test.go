package intel

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sentinel-sca/sentinel"
)

// TestTablesAgreeWithWalk holds the decision tables to the per-entry walk
// (the reference evaluation) on every package of the fixture records: for
// every event, limit and listed version of the package, a few neighbours of
// each, and some unrelated versions, both paths must give the same hits in
// the same order and the same undecided ids, for the query without a
// release and for every release the package's entries name.
func TestTablesAgreeWithWalk(t *testing.T) {
	var advs []*Advisory
	for _, dir := range []string{"testdata/osv", "testdata/synthetic"} {
		a, _, err := LoadDir(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		advs = append(advs, a...)
	}
	// Every package gets tables here, however small (tableMinPoints).
	idx := NewIndex(advs, nil, nil, Options{Now: func() time.Time { return time.Unix(0, 0) }, tableMinPoints: -1})
	checked, tabled := 0, 0
	for key, p := range idx.pkgs.all() {
		if !p.walk {
			tabled++
		}
		base, _, _ := strings.Cut(key, "\x00")
		versions := []string{"0", "0.0.1", "1", "1.0", "1.0.0", "2.0.0-rc.1", "99999", "v1.2.3", "not a version"}
		releases := []string{""}
		for i := range p.entries {
			e := &p.entries[i]
			if e.release != "" {
				releases = append(releases, strings.Split(e.release, ":")[0])
			}
			var vs []string
			for _, r := range e.ranges {
				for _, x := range append(slices.Clone(r.events), r.limits...) {
					if !x.zero {
						vs = append(vs, x.s)
					}
				}
			}
			for _, l := range e.listed {
				vs = append(vs, l.s)
			}
			vs = append(vs, e.listedStrs...)
			for _, v := range vs {
				versions = append(versions, v, v+".0", v+".1", v+"-1", v+"a1", v+"+b1", "v"+v, strings.TrimSuffix(v, ".0"))
			}
		}
		slices.Sort(versions)
		versions = slices.Compact(versions)
		slices.Sort(releases)
		releases = slices.Compact(releases)
		for _, rel := range releases {
			for _, v := range versions {
				checked++
				tm := matcher{pkg: &p, base: base, release: rel, ver: v}
				var tr sentinel.MatchResult
				th, ok := tm.tableHits(nil, &tr)
				if !ok {
					continue // the walk answers: nothing to compare
				}
				// The reference walk parses the version itself: the
				// package without tables cannot lend it a breakpoint's
				// parsed form.
				bare := p
				bare.tabs = [2]*decisionTable{}
				wm := matcher{pkg: &bare, base: base, release: rel, ver: v}
				var wr sentinel.MatchResult
				wh := wm.walkHits(nil, &wr)
				if diff := cmp.Diff(hitIDs(wh), hitIDs(th)); diff != "" {
					t.Errorf("%q release %q version %q: table hits differ from the walk (-walk +table):\n%s", key, rel, v, diff)
				}
				if diff := cmp.Diff(wr.Undecided, tr.Undecided); diff != "" {
					t.Errorf("%q release %q version %q: table undecided differ from the walk (-walk +table):\n%s", key, rel, v, diff)
				}
			}
		}
	}
	if tabled < idx.pkgs.len()*9/10 {
		t.Errorf("only %d of %d packages have decision tables", tabled, idx.pkgs.len())
	}
	t.Logf("%d packages (%d with tables), %d queries compared", idx.pkgs.len(), tabled, checked)
}

// hitIDs names hits by advisory id and entry position, so that two paths
// that picked different sibling entries of one advisory differ.
func hitIDs(hs []*entry) []string {
	var out []string
	for _, e := range hs {
		out = append(out, e.meta.id+"/"+e.release)
	}
	return out
}
