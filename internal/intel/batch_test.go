package intel_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/testing/purltest"
)

// TestMatchBatchAgreesWithMatch holds a large batch (several chunks, run
// by parallel workers in groups) to a batch of one and to Match for each
// purl: the same results in input order, whatever the scheduling. The
// batch mixes every fixture package at each of its event versions,
// unknown packages, purls without a version and purls that do not parse.
func TestMatchBatchAgreesWithMatch(t *testing.T) {
	f := mustFixtures(t)
	var purls []string
	for _, a := range f.advisories {
		for _, aff := range a.Affected {
			for _, r := range aff.Ranges {
				for _, e := range r.Events {
					for _, v := range []string{e.Introduced, e.Fixed, e.LastAffected} {
						if p := purltest.FromEcosystem(aff.Package.Ecosystem, aff.Package.Name, v); p != "" {
							purls = append(purls, p)
						}
					}
				}
			}
			for _, v := range aff.Versions {
				if p := purltest.FromEcosystem(aff.Package.Ecosystem, aff.Package.Name, v); p != "" {
					purls = append(purls, p)
				}
			}
		}
	}
	for i := range 300 {
		purls = append(purls,
			fmt.Sprintf("pkg:npm/unknown-package-%d@1.%d.0", i, i%7),
			fmt.Sprintf("pkg:pypi/unknown-%d", i),
			"not a purl",
		)
	}
	if len(purls) < 2000 {
		t.Fatalf("only %d purls: the batch should span several chunks", len(purls))
	}
	got := f.index.MatchBatch(purls)
	if len(got) != len(purls) {
		t.Fatalf("%d results for %d purls", len(got), len(purls))
	}
	matched := 0
	for i, p := range purls {
		// A batch of one is matched in place, without workers or groups.
		if diff := cmp.Diff(f.index.MatchBatch([]string{p})[0], got[i]); diff != "" {
			t.Errorf("%s: result differs from a batch of one (-one +batch):\n%s", p, diff)
		}
		want, err := f.index.Match(p)
		if err != nil {
			if got[i].Error == "" {
				t.Errorf("%s: Match fails (%v), MatchBatch has no error", p, err)
			}
			continue
		}
		if got[i].Purl != p {
			t.Fatalf("result %d is for %q, want %q", i, got[i].Purl, p)
		}
		if diff := cmp.Diff(want, got[i].Matches, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: MatchBatch differs from Match (-Match +MatchBatch):\n%s", p, diff)
		}
		if got[i].Matches == nil {
			t.Errorf("%s: nil Matches", p)
		}
		matched += len(want)
	}
	if matched == 0 {
		t.Fatal("no purl matched: the batch tests nothing")
	}
	t.Logf("%d purls, %d matches", len(purls), matched)
}

// TestMatchBatchResultsIndependent checks that appending to one result's
// matches never writes into another's (they share allocation blocks).
func TestMatchBatchResultsIndependent(t *testing.T) {
	f := mustFixtures(t)
	var purls []string
	for _, a := range f.advisories {
		for _, aff := range a.Affected {
			for _, r := range aff.Ranges {
				for _, e := range r.Events {
					if p := purltest.FromEcosystem(aff.Package.Ecosystem, aff.Package.Name, e.Introduced); p != "" && e.Introduced != "0" {
						purls = append(purls, p)
					}
				}
			}
		}
	}
	res := f.index.MatchBatch(purls)
	before := make([][]sentinel.AdvisoryMatch, len(res))
	for i := range res {
		before[i] = append([]sentinel.AdvisoryMatch(nil), res[i].Matches...)
	}
	for i := range res {
		res[i].Matches = append(res[i].Matches, sentinel.AdvisoryMatch{ID: "APPENDED"})
	}
	for i := range res {
		if diff := cmp.Diff(before[i], res[i].Matches[:len(res[i].Matches)-1], cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: another result's append changed this one:\n%s", purls[i], diff)
		}
	}
}
