package intel

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/osv-scalibr/semantic"
	"github.com/sentinel-sca/sentinel"
)

// Options configure NewIndex.
type Options struct {
	// Now is the clock for end-of-life decisions; time.Now when nil.
	Now func() time.Time

	// tableMinPoints overrides tableMinPoints (table.go) when not zero; a
	// negative value gives every package tables. Internal tests only.
	tableMinPoints int
}

// IndexStats describes what NewIndex built and what it had to leave out.
type IndexStats struct {
	Advisories int `json:"advisories"` // distinct, non-withdrawn advisories indexed
	Withdrawn  int `json:"withdrawn"`  // withdrawn records (never match)
	Duplicates int `json:"duplicates"` // records replaced by a newer record with the same id
	Packages   int `json:"packages"`   // distinct (ecosystem, normalised name) keys
	Entries    int `json:"entries"`    // affected entries indexed
	KEVLinked  int `json:"kev_linked"` // advisories known-exploited via id or alias
	// GitOnly counts affected entries whose only ranges are GIT (commit)
	// ranges and that have no versions list: they cannot be decided from a
	// version, so they are reported as undecided and never matched.
	GitOnly int `json:"git_only"`
	// BadRanges counts SEMVER/ECOSYSTEM ranges with a version that the
	// ecosystem's parser refuses, or in an ecosystem without a version order
	// (OSS-Fuzz, Linux): undecided, never matched.
	BadRanges int `json:"bad_ranges"`
	// NoPackage counts affected entries without an ecosystem or name.
	NoPackage int `json:"no_package"`
	// Empty counts affected entries with neither ranges nor versions.
	Empty int `json:"empty"`
}

// Index answers matches from memory. It is immutable after NewIndex and safe
// for concurrent use.
type Index struct {
	pkgs  pkgTable // the compiled packages, by key
	eol   eolIndex
	now   func() time.Time
	stats IndexStats

	// byID finds the advisories of an id: their own or one of their
	// aliases (a CVE names every record of the issue).
	byID map[string][]string
	// ecosystems are the base ecosystems the advisories name, sorted.
	ecosystems []string

	ordered map[string]bool // build-time cache: does semantic order this ecosystem
	parsed  *buildCache     // build-time cache of parsed versions
}

// AdvisoriesOf returns the ids of the (non-withdrawn) advisories that are
// id or name it as an alias, sorted: the records of a CVE.
func (idx *Index) AdvisoriesOf(id string) []string {
	return slices.Clone(idx.byID[strings.ToUpper(strings.TrimSpace(id))])
}

// buildCache shares parsed versions while an index is built: records of one
// package repeat the same versions (every tomcat advisory lists the tomcat
// releases), and parsing with semantic is the cost of a build. Sharing the
// parsed values also shares their memory.
type buildCache struct {
	m map[string]*qversion
	// strs interns the strings the index keeps (versions, ecosystems,
	// releases, CWE ids, severity labels and vectors): records repeat them
	// by the thousand, and one copy of each is less memory and fewer
	// objects for the collector to mark.
	strs map[string]string
}

// str returns the interned copy of s; nil c means no interning.
func (c *buildCache) str(s string) string {
	if c == nil {
		return s
	}
	if t, ok := c.strs[s]; ok {
		return t
	}
	c.strs[s] = s
	return s
}

// sev interns the strings of a severity.
func (c *buildCache) sev(si sevInfo) sevInfo {
	si.label, si.vector = c.str(si.label), c.str(si.vector)
	return si
}

// q returns the parsed form of s in eco; nil c means no caching.
func (c *buildCache) q(eco, s string) *qversion {
	if c != nil {
		if q, ok := c.m[eco+"\x00"+s]; ok {
			return q
		}
	}
	q := newQVersion(eco, s)
	if q.prefix {
		// The index is read-only once built, so a version with a
		// qualifier gets its semantic form, and its order against its
		// own numbers, now rather than lazily.
		q.ensureTie()
	}
	if c != nil {
		c.m[eco+"\x00"+s] = q
	}
	return q
}

// parse parses s in eco through the cache.
func (c *buildCache) parse(eco, s string) (version, error) {
	q := c.q(eco, s)
	if q.bad {
		return version{}, fmt.Errorf("parse %s version %q: %w", eco, s, semantic.ErrInvalidVersion)
	}
	return q.version, nil
}

// advMeta is the per-advisory part of a match, shared by its entries.
type advMeta struct {
	id        string
	aliases   []string
	summary   string
	cwes      []string
	modified  time.Time
	sev       sevInfo
	kev       bool
	kevDate   string
	kevRansom bool
	// malicious marks a malicious-package report (an OSV MAL- record):
	// every version it lists is bad, at critical severity.
	malicious bool
}

// entry is one affected entry of one advisory, compiled for matching.
type entry struct {
	// The fields a match reads for every entry come first, so that they
	// share the entry's first cache lines; the rest is read for hits only.
	meta    *advMeta
	release string // ecosystem suffix ("11", "v3.18", "22.04:LTS"), or ""
	ranges  []evRange
	// undecidable is set when a SEMVER/ECOSYSTEM range could not be
	// compiled, or when GIT ranges are the only ranges; such an entry is
	// reported as undecided unless another range or the versions list
	// matches.
	undecidable bool
	// hasListed is set when listed or listedStrs is not empty, so that the
	// walk reads them (further into the entry) only then.
	hasListed bool
	// listed is the explicit versions list (those the ranges do not already
	// cover), parsed and sorted in ecosystem order without duplicates: a
	// listed version matches every version equal to it in the ecosystem's
	// own semantics (PyPI and Maven "1.0" is "1.0.0"). listedStrs are the
	// listed versions the ecosystem cannot order (no version order, or a
	// version its parser refuses), with a leading "v" dropped in the
	// semver-like ecosystems: those match by string equality only.
	listed     []fixedVer
	listedStrs []string

	eco   string     // base ecosystem
	sev   *sevInfo   // affected-level severity when it differs from meta.sev
	fixed []fixedVer // sorted ascending in ecosystem order, distinct
	// fixedStrs are the strings of fixed; allFixed and allFixedStrs the
	// union over siblings (all releases), precomputed for queries without a
	// release. Matches share these slices (clipped): callers must not
	// modify a match's slices in place.
	fixedStrs    []string
	allFixed     []fixedVer
	allFixedStrs []string
	// siblings are all entries of the same advisory under the same package
	// key (this one included), when there is more than one: several
	// affected entries for one package, such as one per release line or per
	// distribution release. A match reports the fixes of all of them.
	siblings []entry
	// sevSiblings is, with siblings, the severity a match through this
	// entry reports for a query without a release: the highest of the
	// siblings' (newMatch).
	sevSiblings *sevInfo
}

// Event kinds.
const (
	evIntroduced = iota
	evFixed
	evLastAffected
)

type ev struct {
	kind uint8
	zero bool // introduced "0": before every version
	s    string
	v    version
}

// evRange is a compiled SEMVER or ECOSYSTEM range: events sorted by
// version, limits apart.
type evRange struct {
	// semver is set for a SEMVER range in an ecosystem whose own order is
	// not SemVer: its versions are parsed as npm (SemVer 2.0) versions.
	semver bool
	events []ev
	limits []ev
}

type fixedVer struct {
	s string
	v version
}

// NewIndex compiles advisories, the KEV catalog (may be nil) and EOL
// products (may be nil) into an Index. Withdrawn advisories are left out;
// of several records with one id the most recently modified wins.
func NewIndex(advisories []*Advisory, kev *KEVCatalog, eol []*EOLProduct, opts Options) *Index {
	idx := &Index{
		eol:     newEOLIndex(eol),
		now:     opts.Now,
		ordered: make(map[string]bool),
		parsed:  &buildCache{m: make(map[string]*qversion), strs: make(map[string]string)},
	}
	if idx.now == nil {
		idx.now = time.Now
	}
	kevs := kev.Lookup()
	building := make(map[string][]*entry)

	latest := make(map[string]*Advisory, len(advisories))
	for _, a := range advisories {
		if a == nil {
			continue
		}
		if old, ok := latest[a.ID]; ok {
			idx.stats.Duplicates++
			if !a.Modified.After(old.Modified) {
				continue
			}
		}
		latest[a.ID] = a
	}
	ids := make([]string, 0, len(latest))
	for id := range latest {
		ids = append(ids, id)
	}
	sort.Strings(ids) // deterministic entry order, so match order is stable
	for _, id := range ids {
		a := latest[id]
		if a.IsWithdrawn() {
			idx.stats.Withdrawn++
			continue
		}
		idx.stats.Advisories++
		if idx.byID == nil {
			idx.byID = map[string][]string{}
		}
		for _, x := range append([]string{a.ID}, a.Aliases...) {
			k := strings.ToUpper(x)
			if !slices.Contains(idx.byID[k], a.ID) {
				idx.byID[k] = append(idx.byID[k], a.ID)
			}
		}
		meta := newMeta(a, kevs, idx.parsed)
		if meta.kev {
			idx.stats.KEVLinked++
		}
		top := decodeSpecific(a.DatabaseSpecific)
		for i := range a.Affected {
			aff := &a.Affected[i]
			if aff.Package.Ecosystem == "" || aff.Package.Name == "" {
				idx.stats.NoPackage++
				continue
			}
			e := idx.compile(meta, a, aff, top)
			if e == nil {
				continue
			}
			key := packageKey(aff.Package.Ecosystem, aff.Package.Name)
			building[key] = append(building[key], e)
			idx.stats.Entries++
		}
	}
	idx.stats.Packages = len(building)
	minPoints := tableMinPoints
	if opts.tableMinPoints != 0 {
		minPoints = max(opts.tableMinPoints, 0)
	}
	keys := make([]string, 0, len(building))
	for k := range building {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pkgs := make([]pkgIndex, len(keys))
	for i, k := range keys {
		pkgs[i] = *newPkgIndex(building[k], minPoints)
	}
	idx.pkgs = newPkgTable(keys, pkgs)
	idx.ordered, idx.parsed = nil, nil
	for _, k := range keys { // sorted: one ecosystem's keys are together
		if eco, _, _ := strings.Cut(k, "\x00"); len(idx.ecosystems) == 0 || idx.ecosystems[len(idx.ecosystems)-1] != eco {
			idx.ecosystems = append(idx.ecosystems, eco)
		}
	}
	return idx
}

// Ecosystems returns the base ecosystems ("npm", "Debian") the indexed
// advisories name, sorted.
func (idx *Index) Ecosystems() []string { return slices.Clone(idx.ecosystems) }

func newMeta(a *Advisory, kevs map[string]KEVEntry, c *buildCache) *advMeta {
	top := decodeSpecific(a.DatabaseSpecific)
	cwes := make([]string, len(top.CWEIDs))
	for i, w := range top.CWEIDs {
		cwes[i] = c.str(w)
	}
	m := &advMeta{
		id:        a.ID,
		aliases:   slices.Clip(nonNil(a.Aliases)),
		summary:   a.Summary,
		cwes:      cwes,
		modified:  a.Modified,
		sev:       c.sev(resolveSeverity(a, nil, top)),
		malicious: strings.HasPrefix(a.ID, "MAL-"),
	}
	if m.malicious {
		m.sev.label = sentinel.SeverityCritical
	}
	if m.summary == "" {
		m.summary = firstLine(a.Details)
	}
	for _, id := range append([]string{a.ID}, a.Aliases...) {
		k, ok := kevs[id]
		if !ok {
			continue
		}
		if !m.kev || k.DateAdded < m.kevDate {
			m.kevDate = k.DateAdded
		}
		m.kev = true
		m.kevRansom = m.kevRansom || k.Ransomware()
	}
	return m
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// firstLine gives a summary for records that only have details (PYSEC, Go
// records without summary): the first line, at most 200 bytes.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
		for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 { // do not cut a UTF-8 sequence
			s = s[:len(s)-1]
		}
		if len(s) > 0 && s[len(s)-1] >= 0xC0 {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}

// compile turns one affected entry into an entry, or nil when there is
// nothing to match on.
func (idx *Index) compile(meta *advMeta, a *Advisory, aff *Affected, top databaseSpecific) *entry {
	base, release, _ := strings.Cut(aff.Package.Ecosystem, ":")
	e := &entry{meta: meta, eco: idx.parsed.str(base), release: idx.parsed.str(release)}
	if s := resolveSeverity(a, aff, top); s != meta.sev {
		s = idx.parsed.sev(s)
		e.sev = &s
	}
	if len(aff.Ranges) == 0 && len(aff.Versions) == 0 {
		idx.stats.Empty++
		return nil
	}
	orderKnown := idx.orderKnown(base)
	gitOnly := len(aff.Ranges) > 0
	var fixed []fixedVer
	for _, r := range aff.Ranges {
		if r.Type != RangeGit {
			gitOnly = false
		}
		if r.Type != RangeSemver && r.Type != RangeEcosystem {
			continue // GIT: see gitOnly below
		}
		eco := base
		semver := r.Type == RangeSemver && !semverLike[base]
		if semver {
			eco = "npm" // SEMVER ranges follow SemVer 2.0 whatever the ecosystem
		}
		if r.Type == RangeEcosystem && !orderKnown {
			idx.stats.BadRanges++
			e.undecidable = true
			continue
		}
		cr, fx, ok := compileRange(eco, r, idx.parsed)
		cr.semver = semver
		if !ok {
			idx.stats.BadRanges++
			e.undecidable = true
			continue
		}
		e.ranges = append(e.ranges, cr)
		if !semver {
			fixed = append(fixed, fx...)
		} else {
			for _, f := range fx {
				if v, err := idx.parsed.parse(base, f.s); err == nil {
					fixed = append(fixed, fixedVer{f.s, v})
				}
			}
		}
	}
	// GIT ranges name commits. Beside a SEMVER or ECOSYSTEM range they are
	// the same fact in another form, and the version range decides. Alone,
	// they cannot be decided from a version: a version outside the versions
	// list (if any) is reported as undecided.
	if gitOnly {
		e.undecidable = true
		if len(aff.Versions) == 0 {
			idx.stats.GitOnly++
		}
	}
	e.fixed = sortFixed(base, fixed)
	e.fixedStrs = fixedStrings(e.fixed)
	if len(aff.Versions) > 0 {
		// Keep only listed versions the ranges do not already cover. In
		// most records (GHSA, PYSEC) the list enumerates the ranges, so
		// this saves both memory and a search per match; a record whose
		// list and ranges disagree keeps the extra versions.
		var listed []fixedVer
		var strs []string
		for _, v := range aff.Versions {
			if e.rangesCover(v, idx.parsed) {
				continue
			}
			if orderKnown {
				if pv, err := idx.parsed.parse(base, v); err == nil {
					listed = append(listed, fixedVer{idx.parsed.str(v), pv})
					continue
				}
			}
			strs = append(strs, idx.parsed.str(listVersion(base, v)))
		}
		e.listed = sortFixed(base, listed)
		sort.Strings(strs)
		e.listedStrs = slices.Clip(slices.Compact(strs))
		e.hasListed = len(e.listed) > 0 || len(e.listedStrs) > 0
	}
	return e
}

// rangeEco is the ecosystem r's versions are parsed in.
func (e *entry) rangeEco(r *evRange) string {
	if r.semver {
		return "npm"
	}
	return e.eco
}

// rangesCover reports whether a compiled range of e decides that v is
// affected.
func (e *entry) rangesCover(v string, c *buildCache) bool {
	var q *qversion
	for i := range e.ranges {
		r := &e.ranges[i]
		if eco := e.rangeEco(r); q == nil || q.eco != eco {
			q = c.q(eco, v)
		}
		if aff, ok := r.affected(q); ok && aff {
			return true
		}
	}
	return false
}

// pack copies a package's entries, their ranges and their events into
// three contiguous arrays: a match walks all of them, and with them side
// by side it costs a few cache misses instead of several per entry.
func pack(es []*entry) []entry {
	nr, ne := 0, 0
	for _, e := range es {
		nr += len(e.ranges)
		for _, r := range e.ranges {
			ne += len(r.events) + len(r.limits)
		}
	}
	flat := make([]entry, len(es))
	ranges := make([]evRange, 0, nr)
	events := make([]ev, 0, ne)
	for i, e := range es {
		flat[i] = *e
		start := len(ranges)
		for _, r := range e.ranges {
			a := len(events)
			events = append(events, r.events...)
			b := len(events)
			events = append(events, r.limits...)
			c := len(events)
			r.events, r.limits = events[a:b:b], events[b:c:c]
			if b == c {
				r.limits = nil
			}
			ranges = append(ranges, r)
		}
		flat[i].ranges = ranges[start:len(ranges):len(ranges)]
	}
	linkSiblings(flat)
	return flat
}

// linkSiblings sets entry.siblings for advisories with several entries in
// one package's list. Entries of one advisory are adjacent (NewIndex adds an
// advisory's entries together).
func linkSiblings(es []entry) {
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].meta == es[i].meta {
			j++
		}
		if j-i > 1 {
			group := es[i:j:j]
			var all []fixedVer
			for _, e := range group {
				all = append(all, e.fixed...)
			}
			all = sortFixed(group[0].eco, all)
			strs := fixedStrings(all)
			for k := range group {
				group[k].siblings = group
				group[k].allFixed, group[k].allFixedStrs = all, strs
			}
			// The severity a match through each entry reports when the
			// query names no release (newMatch's loop, run once here).
			for k := range group {
				sev := group[k].sevInfo()
				for l := range group {
					if si := group[l].sevInfo(); severityRank(si.label) > severityRank(sev.label) {
						sev = si
					}
				}
				group[k].sevSiblings = &sev
			}
		}
		i = j
	}
}
