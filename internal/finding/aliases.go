package finding

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// groupAliases merges the matches of one component that are aliases of one
// another (the GHSA, PYSEC, GO, RUSTSEC and CVE ids of one issue) into one
// match, so that one issue makes one finding and one alert. Two matches
// belong together when one names the other, or both name a common id; the
// groups are closed under that relation. A group's match keeps the
// preferred record's id (see preferred) and carries the union of what the
// records say: every other id as an alias, the highest severity and CVSS
// score, known-exploited if any is, every fixed version and the lowest
// nearest fix. Indicator matches are never grouped.
func groupAliases(ms []sentinel.AdvisoryMatch) []sentinel.AdvisoryMatch {
	if len(ms) < 2 {
		return ms
	}
	parent := make([]int, len(ms))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{} // an id (own or alias) -> the first match naming it
	for i, m := range ms {
		if m.Indicator {
			continue
		}
		for _, id := range append([]string{m.ID}, m.Aliases...) {
			if j, ok := owner[id]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[id] = i
			}
		}
	}
	groups := map[int][]sentinel.AdvisoryMatch{}
	var order []int
	for i, m := range ms {
		r := find(i)
		if _, ok := groups[r]; !ok {
			order = append(order, r)
		}
		groups[r] = append(groups[r], m)
	}
	out := make([]sentinel.AdvisoryMatch, 0, len(order))
	for _, r := range order {
		out = append(out, merge(groups[r]))
	}
	return out
}

// preferred orders the records of one issue: the one whose id a finding
// keeps. A GitHub-reviewed advisory first (it names the package's exact
// ranges), then the ecosystem databases' own (PYSEC, GO, RUSTSEC, ...),
// then a bare CVE; ties by id, so the choice is stable.
func preferred(a, b sentinel.AdvisoryMatch) int {
	rank := func(id string) int {
		switch {
		case strings.HasPrefix(id, "GHSA-"):
			return 0
		case strings.HasPrefix(id, "CVE-"):
			return 2
		}
		return 1
	}
	return cmp.Or(cmp.Compare(rank(a.ID), rank(b.ID)), strings.Compare(a.ID, b.ID))
}

var severityRank = map[string]int{sentinel.SeverityUnknown: 0, sentinel.SeverityNone: 1, sentinel.SeverityLow: 2,
	sentinel.SeverityMedium: 3, sentinel.SeverityHigh: 4, sentinel.SeverityCritical: 5}

func merge(g []sentinel.AdvisoryMatch) sentinel.AdvisoryMatch {
	if len(g) == 1 {
		return g[0]
	}
	slices.SortFunc(g, preferred)
	out := g[0]
	out.CWEs = slices.Clone(out.CWEs) // the index's slices are shared: never append to them
	ids := map[string]bool{}
	fixed := map[string]bool{}
	for _, m := range g {
		ids[m.ID] = true
		for _, a := range m.Aliases {
			ids[a] = true
		}
		for _, f := range m.FixedVersions {
			fixed[f] = true
		}
		if severityRank[m.Severity] > severityRank[out.Severity] {
			out.Severity = m.Severity
		}
		if m.CVSSScore > out.CVSSScore {
			out.CVSSScore, out.CVSSVector = m.CVSSScore, m.CVSSVector
		}
		if m.KEV && !out.KEV {
			out.KEV, out.KEVDateAdded, out.KEVRansomware = true, m.KEVDateAdded, m.KEVRansomware
		}
		out.Malicious = out.Malicious || m.Malicious
		if out.NearestFix == "" {
			out.NearestFix = m.NearestFix
		}
		if out.Summary == "" {
			out.Summary = m.Summary
		}
		for _, c := range m.CWEs {
			if !slices.Contains(out.CWEs, c) {
				out.CWEs = append(out.CWEs, c)
			}
		}
	}
	delete(ids, out.ID)
	out.Aliases = make([]string, 0, len(ids))
	for id := range ids {
		out.Aliases = append(out.Aliases, id)
	}
	slices.Sort(out.Aliases)
	// Keep the preferred record's fixed versions first (they are in the
	// ecosystem's order), then any the others add.
	for _, f := range out.FixedVersions {
		delete(fixed, f)
	}
	extra := make([]string, 0, len(fixed))
	for f := range fixed {
		extra = append(extra, f)
	}
	slices.Sort(extra)
	out.FixedVersions = append(slices.Clone(out.FixedVersions), extra...)
	return out
}
