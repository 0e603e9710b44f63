package intel

import (
	"slices"
	"sort"
	"strings"
)

// Decision tables.
//
// Matching one version against a package used to walk every entry of the
// package and every event of its ranges. For a package with many advisories
// (Tomcat, Django, the Linux kernel, every Debian source package) that is a
// few hundred comparisons and as many cache misses per component. Yet the
// answer depends only on where the version falls among the package's event
// versions: between two consecutive event versions, or at one, every range
// gives the same verdict. So the index sorts a package's distinct event
// versions once (its breakpoints) and stores, for each of the 2n+1 places a
// version can fall (below the first breakpoint, at it, between it and the
// next, ..., above the last), the set of entries it hits. A match is then a
// binary search over the breakpoints and a read of one precomputed set.
//
// The tables are an index over the same compiled ranges, never a second
// reading of the records: each slot's set is computed by evaluating the
// ranges (evalSlot, the same walk as evRange.affected) with comparisons
// replaced by breakpoint ranks. Whenever the table cannot answer exactly as
// the walk would, the walk runs instead:
//   - a package whose breakpoints cannot all be ordered has no table;
//   - a version that the ecosystem's parser refuses (qversion.bad), or
//     that some comparison cannot order, takes the walk.
//
// TestTablesAgreeWithWalk checks both paths on every fixture package.

// tableMinPoints is the number of event, limit and listed versions from
// which a package gets decision tables; below, the walk is cheaper.
const tableMinPoints = 24

// pkgIndex is the compiled form of one package key.
type pkgIndex struct {
	entries []entry
	// tabs are by range domain: 0 the base ecosystem's order (ECOSYSTEM
	// ranges, SEMVER ranges of semver-like ecosystems, versions lists), 1
	// SemVer (SEMVER ranges elsewhere, parsed as npm). nil when the domain
	// has nothing to decide, or when its breakpoints cannot be ordered
	// (then walk is set).
	tabs [2]*decisionTable
	// walk forces the per-entry walk for every query of this package.
	walk bool
	// undecidable are the indices of entries marked undecidable, in order.
	undecidable []int32
	// strListed are the indices of entries with string-only listed
	// versions (listedStrs), in order.
	strListed []int32
}

// decisionTable is one domain's breakpoints and per-slot hit sets.
type decisionTable struct {
	points []fixedVer // distinct strings, ascending (two may compare equal)
	// grouped is set when every breakpoint has a numeric prefix in a fast
	// ecosystem (version.go): the order of two versions with different
	// prefixes is then the order of the prefixes, which is total.
	grouped bool
	// slot[k] is the index into offs of the set for slot k: slot 2i is
	// below points[i] (and above points[i-1]), 2i+1 at points[i], 2n above
	// all.
	slot []uint32
	// byStr are the indices of points sorted by their string, to find a
	// query written exactly as a breakpoint (parsed).
	byStr []int32
	// Set j is sets[offs[j]:offs[j+1]], entry indices ascending. Set 0 is
	// the empty set.
	offs []uint32
	sets []int32
}

// lookup returns the entries hit by q, or ok false when q cannot be placed
// among the breakpoints consistently with their order.
//
// The binary search alone is not enough: some of the semantic package's
// orders are not total (scalibr's Maven order has 9.0.0.M1 < 9.0.0 <
// 9.0.0-1 < 9.0.0.M1), and a version caught in such a cycle compares with
// the breakpoints in a way no position reproduces. So the position found is
// verified: q must compare above every breakpoint before it, equal to the
// one it sits at, and below every one after. Where the fast path's numeric
// prefixes order the breakpoints (see grouped), only the breakpoints sharing
// q's prefix need checking; elsewhere all of them are checked, which is
// still fewer comparisons than the walk makes.
func (t *decisionTable) lookup(q *qversion) (hits []int32, ok bool) {
	ok = true
	n := len(t.points)
	i := sort.Search(n, func(i int) bool {
		c, cok := q.cmp(&t.points[i].v, t.points[i].s)
		if !cok {
			ok = false
		}
		return c <= 0
	})
	if !ok {
		return nil, false
	}
	at := false
	if i < n {
		c, cok := q.cmp(&t.points[i].v, t.points[i].s)
		if !cok {
			return nil, false
		}
		at = c == 0
	}
	from, to := 0, n
	if t.grouped && q.nfast != 0 {
		from, to = i, i
		for from > 0 && t.points[from-1].v.fast == q.fast {
			from--
		}
		for to < n && t.points[to].v.fast == q.fast {
			to++
		}
	}
	for j := from; j < to; j++ {
		want := -1
		switch {
		case j < i:
			want = 1
		case j == i && at:
			want = 0
		}
		if j == i {
			continue // compared above
		}
		c, cok := q.cmp(&t.points[j].v, t.points[j].s)
		if !cok || c != want {
			return nil, false
		}
	}
	k := 2 * i
	if at {
		k++
	}
	j := t.slot[k]
	return t.sets[t.offs[j]:t.offs[j+1]], true
}

// parsed returns the parsed form of the breakpoint written exactly as s.
func (t *decisionTable) parsed(s string) (*version, bool) {
	i, found := sort.Find(len(t.byStr), func(i int) int { return strings.Compare(s, t.points[t.byStr[i]].s) })
	if !found {
		return nil, false
	}
	return &t.points[t.byStr[i]].v, true
}

// parsed returns the parsed form of an event, limit or listed version of
// the package's entries written exactly as s, in the SemVer domain or the
// base ecosystem's: what decisionTable.parsed finds among a table's
// breakpoints, for a package without tables.
func (p *pkgIndex) parsed(semver bool, s string) (*version, bool) {
	for i := range p.entries {
		e := &p.entries[i]
		for r := range e.ranges {
			rg := &e.ranges[r]
			if rg.semver != semver {
				continue
			}
			for k := range rg.events {
				if x := &rg.events[k]; !x.zero && x.s == s {
					return &x.v, true
				}
			}
			for k := range rg.limits {
				if x := &rg.limits[k]; x.s == s {
					return &x.v, true
				}
			}
		}
		if !semver {
			for k := range e.listed {
				if x := &e.listed[k]; x.s == s {
					return &x.v, true
				}
			}
		}
	}
	return nil, false
}

// newPkgIndex packs es and builds the decision tables.
func newPkgIndex(es []*entry, minPoints int) *pkgIndex {
	p := &pkgIndex{entries: pack(es)}
	// A small package is walked: its entries, ranges and events sit side
	// by side (pack), and a few comparisons over them cost less than the
	// table's searches and indirections. Tables are for the packages with
	// many advisories.
	points := 0
	for i := range p.entries {
		e := &p.entries[i]
		points += len(e.listed)
		for _, r := range e.ranges {
			points += len(r.events) + len(r.limits)
		}
	}
	if points < minPoints {
		p.walk = true
		return p
	}
	for i := range p.entries {
		e := &p.entries[i]
		if e.undecidable {
			p.undecidable = append(p.undecidable, int32(i))
		}
		if len(e.listedStrs) > 0 {
			p.strListed = append(p.strListed, int32(i))
		}
	}
	for d := range p.tabs {
		t, ok := buildTable(p.entries, d == 1)
		if !ok {
			p.walk = true
			p.tabs = [2]*decisionTable{}
			break
		}
		p.tabs[d] = t
	}
	return p
}

// domainEco is the ecosystem in which a domain's versions are parsed.
func domainEco(e *entry, semver bool) string {
	if semver {
		return "npm"
	}
	return e.eco
}

// buildTable builds the table of one domain; ok is false when two of its
// breakpoints cannot be ordered. A nil table with ok true means the domain
// decides nothing for this package.
func buildTable(es []entry, semver bool) (*decisionTable, bool) {
	var pts []fixedVer
	eco := ""
	for i := range es {
		e := &es[i]
		for r := range e.ranges {
			rg := &e.ranges[r]
			if rg.semver != semver {
				continue
			}
			eco = domainEco(e, semver)
			for _, x := range rg.events {
				if !x.zero {
					pts = append(pts, fixedVer{x.s, x.v})
				}
			}
			for _, x := range rg.limits {
				pts = append(pts, fixedVer{x.s, x.v})
			}
		}
		if !semver && len(e.listed) > 0 {
			eco = e.eco
			pts = append(pts, e.listed...)
		}
	}
	if eco == "" {
		return nil, true // no range in this domain
	}
	ok := true
	less := func(a, b *fixedVer) int {
		q := qversion{version: a.v, s: a.s, eco: eco, semTried: a.v.sem != nil}
		c, cok := q.cmp(&b.v, b.s)
		if !cok {
			ok = false
		}
		return c
	}
	slices.SortStableFunc(pts, func(a, b fixedVer) int { return less(&a, &b) })
	if !ok {
		return nil, false
	}
	// Duplicates by string go; versions equal in the order but written
	// differently ("1.0", "1.0.0") stay apart, each with its own rank.
	uniq := pts[:0]
	seen := make(map[string]int, len(pts))
	for i := range pts {
		if _, dup := seen[pts[i].s]; dup {
			continue
		}
		seen[pts[i].s] = len(uniq)
		uniq = append(uniq, pts[i])
	}
	// Check the order along the sorted list: a comparison that failed or
	// disagreed while sorting would make the binary search unreliable.
	for i := 1; i < len(uniq); i++ {
		if less(&uniq[i-1], &uniq[i]) > 0 || !ok {
			return nil, false
		}
	}
	t := &decisionTable{points: slices.Clip(slices.Clone(uniq)), grouped: fastEcosystems[eco]}
	for i := range t.points {
		if t.points[i].v.nfast == 0 {
			t.grouped = false
		}
	}
	// Where a breakpoint with a qualifier shares its numbers with others,
	// comparisons among them need semantic's form of each: parse them now,
	// once, so that neither the queries that adopt them (parsed) nor the
	// comparisons with them parse again.
	if t.grouped {
		for i := 0; i < len(t.points); {
			j, mixed := i, false
			for j < len(t.points) && t.points[j].v.fast == t.points[i].v.fast {
				mixed = mixed || t.points[j].v.prefix
				j++
			}
			if mixed && j-i > 1 {
				for k := i; k < j; k++ {
					if p := &t.points[k]; p.v.sem == nil {
						q := qversion{version: p.v, s: p.s, eco: eco}
						q.ensureSem()
						p.v.sem = q.sem
					}
				}
			}
			i = j
		}
	}
	t.byStr = make([]int32, len(t.points))
	for i := range t.byStr {
		t.byStr[i] = int32(i)
	}
	slices.SortFunc(t.byStr, func(a, b int32) int { return strings.Compare(t.points[a].s, t.points[b].s) })
	rank := func(_ *version, s string) (int, bool) {
		i, found := seen[s]
		return i, found
	}

	nslots := 2*len(t.points) + 1
	// Per entry, the slot intervals it is hit on.
	starts := make([][]int32, nslots+1)
	ends := make([][]int32, nslots+1)
	mark := func(e int32, s slotSpan) {
		starts[s.from] = append(starts[s.from], e)
		ends[s.to+1] = append(ends[s.to+1], e)
	}
	for i := range es {
		e := &es[i]
		var spans []slotSpan
		for r := range e.ranges {
			rg := &e.ranges[r]
			if rg.semver != semver {
				continue
			}
			ev := make([]int, len(rg.events))
			for k := range rg.events {
				if rg.events[k].zero {
					ev[k] = -1
					continue
				}
				rk, found := rank(&rg.events[k].v, rg.events[k].s)
				if !found {
					return nil, false
				}
				ev[k] = rk
			}
			lim := make([]int, len(rg.limits))
			for k := range rg.limits {
				rk, found := rank(&rg.limits[k].v, rg.limits[k].s)
				if !found {
					return nil, false
				}
				lim[k] = rk
			}
			spans = append(spans, rangeSpans(rg, ev, lim, nslots)...)
		}
		if !semver {
			for k := range e.listed {
				rk, found := rank(&e.listed[k].v, e.listed[k].s)
				if !found {
					return nil, false
				}
				spans = append(spans, slotSpan{2*rk + 1, 2*rk + 1})
			}
		}
		// Merge overlapping spans so that each slot counts an entry once.
		slices.SortFunc(spans, func(a, b slotSpan) int { return a.from - b.from })
		var merged []slotSpan
		for _, s := range spans {
			if n := len(merged); n > 0 && s.from <= merged[n-1].to+1 {
				merged[n-1].to = max(merged[n-1].to, s.to)
				continue
			}
			merged = append(merged, s)
		}
		for _, s := range merged {
			mark(int32(i), s)
		}
	}

	// Sweep the slots, materialising a set whenever membership changes.
	t.offs = []uint32{0, 0} // set 0: empty
	t.slot = make([]uint32, nslots)
	active := map[int32]bool{}
	cur := uint32(0)
	for k := range nslots {
		changed := false
		for _, e := range ends[k] {
			delete(active, e)
			changed = true
		}
		for _, e := range starts[k] {
			active[e] = true
			changed = true
		}
		if changed {
			if len(active) == 0 {
				cur = 0
			} else {
				set := make([]int32, 0, len(active))
				for e := range active {
					set = append(set, e)
				}
				slices.Sort(set)
				t.sets = append(t.sets, set...)
				t.offs = append(t.offs, uint32(len(t.sets)))
				cur = uint32(len(t.offs) - 2)
			}
		}
		t.slot[k] = cur
	}
	t.sets = slices.Clip(t.sets)
	t.offs = slices.Clip(t.offs)
	return t, true
}

// slotSpan is an inclusive interval of slots.
type slotSpan struct{ from, to int }

// rangeSpans returns the slot intervals on which rg is affected, given the
// breakpoint rank of each event (-1 for introduced "0") and limit. The
// verdict changes only where a slot crosses an event's slot (2*rank+1), so it
// is evaluated once per piece between those.
func rangeSpans(rg *evRange, ev, lim []int, nslots int) []slotSpan {
	var cuts []int // slots of events and limits, sorted, distinct
	for _, r := range ev {
		if r >= 0 {
			cuts = append(cuts, 2*r+1)
		}
	}
	for _, r := range lim {
		cuts = append(cuts, 2*r+1)
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var out []slotSpan
	add := func(from, to int) {
		if from > to || !evalSlot(rg, ev, lim, from) {
			return
		}
		if n := len(out); n > 0 && out[n-1].to+1 == from {
			out[n-1].to = to
			return
		}
		out = append(out, slotSpan{from, to})
	}
	prev := 0
	for _, c := range cuts {
		add(prev, c-1)
		add(c, c)
		prev = c + 1
	}
	add(prev, nslots-1)
	return out
}

// evalSlot is evRange.affected for a version at slot, each comparison with
// an event of rank r being the comparison of slot with 2r+1.
func evalSlot(rg *evRange, ev, lim []int, slot int) bool {
	cmpRank := func(r int) int {
		p := 2*r + 1
		switch {
		case slot < p:
			return -1
		case slot > p:
			return 1
		}
		return 0
	}
	if len(lim) > 0 {
		below := false
		for _, r := range lim {
			if cmpRank(r) < 0 {
				below = true
				break
			}
		}
		if !below {
			return false
		}
	}
	aff := false
	for k := range rg.events {
		e := &rg.events[k]
		if e.zero {
			aff = true
			continue
		}
		c := cmpRank(ev[k])
		switch e.kind {
		case evIntroduced:
			if c < 0 {
				return aff
			}
			aff = true
		case evFixed:
			if c < 0 {
				return aff
			}
			aff = false
		case evLastAffected:
			if c < 0 {
				return aff
			}
			if c > 0 {
				aff = false
			}
		}
	}
	return aff
}
