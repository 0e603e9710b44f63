package intel

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/osv-scalibr/semantic"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Options configure NewIndex.
type Options struct {
	// Now is the clock for end-of-life decisions; time.Now when nil.
	Now func() time.Time
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
	// (OSS-Fuzz, Linux, GitHub Actions): undecided, never matched.
	BadRanges int `json:"bad_ranges"`
	// NoPackage counts affected entries without an ecosystem or name.
	NoPackage int `json:"no_package"`
	// Empty counts affected entries with neither ranges nor versions.
	Empty int `json:"empty"`
}

// Index answers matches from memory. It is immutable after NewIndex and safe
// for concurrent use.
type Index struct {
	pkgs  map[string][]entry // entries of a package stored together, for locality
	eol   eolIndex
	now   func() time.Time
	stats IndexStats

	ordered map[string]bool // build-time cache: does semantic order this ecosystem
	parsed  *buildCache     // build-time cache of parsed versions
}

// buildCache shares parsed versions while an index is built: records of one
// package repeat the same versions (every tomcat advisory lists the tomcat
// releases), and parsing with semantic is the cost of a build. Sharing the
// parsed values also shares their memory.
type buildCache struct {
	m map[string]*qversion
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
		// qualifier gets its semantic form now rather than lazily.
		q.ensureSem()
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
}

// entry is one affected entry of one advisory, compiled for matching.
type entry struct {
	meta    *advMeta
	eco     string   // base ecosystem
	release string   // ecosystem suffix ("11", "v3.18", "22.04:LTS"), or ""
	sev     *sevInfo // affected-level severity when it differs from meta.sev
	ranges  []evRange
	// versions is the explicit versions list, sorted, with a leading "v"
	// dropped in the semver-like ecosystems; matched by string equality.
	versions []string
	fixed    []fixedVer // sorted ascending in ecosystem order, distinct
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
	// undecidable is set when a SEMVER/ECOSYSTEM range could not be
	// compiled, or when GIT ranges are the only ranges; such an entry is
	// reported as undecided unless another range or the versions list
	// matches.
	undecidable bool
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
		pkgs:    make(map[string][]entry),
		eol:     newEOLIndex(eol),
		now:     opts.Now,
		ordered: make(map[string]bool),
		parsed:  &buildCache{m: make(map[string]*qversion)},
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
		meta := newMeta(a, kevs)
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
	for k, es := range building {
		idx.pkgs[k] = pack(es)
	}
	idx.ordered, idx.parsed = nil, nil
	return idx
}

func newMeta(a *Advisory, kevs map[string]KEVEntry) *advMeta {
	top := decodeSpecific(a.DatabaseSpecific)
	m := &advMeta{
		id:       a.ID,
		aliases:  slices.Clip(nonNil(a.Aliases)),
		summary:  a.Summary,
		cwes:     slices.Clip(nonNil(top.CWEIDs)),
		modified: a.Modified,
		sev:      resolveSeverity(a, nil, top),
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
	e := &entry{meta: meta, eco: base, release: release}
	if s := resolveSeverity(a, aff, top); s != meta.sev {
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
		var vs []string
		for _, v := range aff.Versions {
			if !e.rangesCover(v, idx.parsed) {
				vs = append(vs, listVersion(base, v))
			}
		}
		sort.Strings(vs)
		e.versions = slices.Clip(slices.Compact(vs))
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
		}
		i = j
	}
}

// orderKnown reports whether the semantic package orders versions of the
// base ecosystem.
func (idx *Index) orderKnown(base string) bool {
	ok, seen := idx.ordered[base]
	if !seen {
		_, err := semantic.Parse("0", base)
		ok = !errors.Is(err, semantic.ErrUnsupportedEcosystem)
		idx.ordered[base] = ok
	}
	return ok
}

// listVersion is the form a version takes for versions-list equality.
func listVersion(base, v string) string {
	if semverLike[base] {
		return strings.TrimPrefix(v, "v")
	}
	return v
}

// compileRange parses and sorts a range's events. ok is false when a
// version does not parse. c may be nil.
func compileRange(eco string, r Range, c *buildCache) (evRange, []fixedVer, bool) {
	var out evRange
	var fixed []fixedVer
	for _, e := range r.Events {
		var x ev
		switch {
		case e.Introduced != "":
			x = ev{kind: evIntroduced, s: e.Introduced, zero: e.Introduced == "0"}
		case e.Fixed != "":
			x = ev{kind: evFixed, s: e.Fixed}
		case e.LastAffected != "":
			x = ev{kind: evLastAffected, s: e.LastAffected}
		case e.Limit != "":
			if e.Limit == "*" { // "no limit"
				continue
			}
			v, err := c.parse(eco, e.Limit)
			if err != nil {
				return out, nil, false
			}
			out.limits = append(out.limits, ev{s: e.Limit, v: v})
			continue
		default:
			continue
		}
		if !x.zero {
			v, err := c.parse(eco, x.s)
			if err != nil {
				return out, nil, false
			}
			x.v = v
		}
		if x.kind == evFixed {
			fixed = append(fixed, fixedVer{x.s, x.v})
		}
		out.events = append(out.events, x)
	}
	ok := true
	sort.SliceStable(out.events, func(i, j int) bool {
		a, b := &out.events[i], &out.events[j]
		if a.zero || b.zero {
			return a.zero && !b.zero
		}
		q := qversion{version: a.v, s: a.s, eco: eco, semTried: a.v.sem != nil}
		c, cok := q.cmp(&b.v, b.s)
		if !cok {
			ok = false
		}
		return c < 0
	})
	return out, fixed, ok
}

// sortFixed sorts fixed versions in ecosystem order and drops duplicates.
func sortFixed(eco string, fx []fixedVer) []fixedVer {
	if len(fx) < 2 {
		return slices.Clip(fx)
	}
	sort.SliceStable(fx, func(i, j int) bool {
		q := qversion{version: fx[i].v, s: fx[i].s, eco: eco, semTried: fx[i].v.sem != nil}
		c, _ := q.cmp(&fx[j].v, fx[j].s)
		return c < 0
	})
	out := fx[:1]
	for _, f := range fx[1:] {
		last := out[len(out)-1]
		q := qversion{version: last.v, s: last.s, eco: eco, semTried: last.v.sem != nil}
		if c, ok := q.cmp(&f.v, f.s); ok && c == 0 {
			continue
		}
		out = append(out, f)
	}
	return slices.Clip(out)
}

// affected evaluates the range for q per the OSV schema: walking events in
// version order, introduced switches on, fixed switches off at the version,
// last_affected switches off just after it; with limits, only versions below
// some limit are considered. ok is false when q cannot be ordered against
// an event.
func (r *evRange) affected(q *qversion) (aff, ok bool) {
	if len(r.limits) > 0 {
		below := false
		for i := range r.limits {
			c, ok := q.cmp(&r.limits[i].v, r.limits[i].s)
			if !ok {
				return false, false
			}
			if c < 0 {
				below = true
				break
			}
		}
		if !below {
			return false, true
		}
	}
	for i := range r.events {
		e := &r.events[i]
		if e.zero {
			aff = true
			continue
		}
		c, ok := q.cmp(&e.v, e.s)
		if !ok {
			return false, false
		}
		switch e.kind {
		case evIntroduced:
			if c < 0 {
				return aff, true // this and every later event is above q
			}
			aff = true
		case evFixed:
			if c < 0 {
				return aff, true
			}
			aff = false
		case evLastAffected:
			if c < 0 {
				return aff, true
			}
			if c > 0 {
				aff = false
			}
		}
	}
	return aff, true
}

// Result is the answer for one component.
type Result struct {
	// Purl is the query as given (empty for MatchPackage).
	Purl string `json:"purl,omitempty"`
	// Matches are the advisories that affect the component, ordered by id.
	Matches []sentinel.AdvisoryMatch `json:"matches"`
	// EOL is the component's end-of-life status when known.
	EOL *sentinel.EOLStatus `json:"eol,omitempty"`
	// Undecided lists advisories that name the package but whose
	// applicability cannot be decided from the version: GIT-only ranges, an
	// ecosystem without a version order, or a version that does not parse.
	// They are not matches; a caller may surface them for review.
	Undecided []string `json:"undecided,omitempty"`
	// Err is set when the purl could not be parsed.
	Err error `json:"-"`
}

// Stats reports what the index holds.
func (idx *Index) Stats() IndexStats { return idx.stats }

// Match returns the advisories affecting the component named by a purl with
// a version. The error is non-nil only when the purl cannot be parsed; a
// purl of a type without advisories (pkg:generic, pkg:github) or without a
// version yields no matches.
func (idx *Index) Match(p string) ([]sentinel.AdvisoryMatch, error) {
	r := idx.matchPurl(p)
	return r.Matches, r.Err
}

// MatchBatch matches many purls; results are in input order, each with its
// own error.
func (idx *Index) MatchBatch(purls []string) []Result {
	out := make([]Result, len(purls))
	for i, p := range purls {
		out[i] = idx.matchPurl(p)
	}
	return out
}

// MatchPackage matches an OSV (ecosystem, name, version) directly, for
// callers that already hold them (an extractor); eco may carry a release
// ("Debian:12"). EOL is not looked up (it is keyed by purl).
func (idx *Index) MatchPackage(eco, name, version string) Result {
	return idx.matchKey(packageKey(eco, name), eco, version, nil)
}

// EOL returns the end-of-life status of the purl's version, or nil when the
// data does not know the product or cycle.
func (idx *Index) EOL(p string) (*sentinel.EOLStatus, error) {
	u, err := purl.Parse(p)
	if err != nil {
		return nil, err
	}
	return idx.eol.status(u, idx.now()), nil
}

func (idx *Index) matchPurl(p string) Result {
	u, err := purl.Parse(p)
	if err != nil {
		return Result{Purl: p, Err: err}
	}
	eco, name, err := purl.FromPackageURL(u)
	if err != nil {
		return Result{Purl: p, EOL: idx.eol.status(u, idx.now())}
	}
	key := packageKey(eco, name)
	eol := idx.eol.statusByKey(key, u, idx.now())
	if u.Version == "" {
		return Result{Purl: p, EOL: eol}
	}
	r := idx.matchKey(key, eco, u.Version, eol)
	r.Purl = p
	return r
}

// packageKey is the index key of an OSV package: base ecosystem and
// normalised name.
func packageKey(eco, name string) string {
	base := purl.BaseEcosystem(eco)
	return base + "\x00" + purl.NormalizeName(base, name)
}

// matchKey is the core: look up the package, evaluate each entry.
func (idx *Index) matchKey(key, eco, ver string, eol *sentinel.EOLStatus) Result {
	base, release, _ := strings.Cut(eco, ":")
	entries := idx.pkgs[key]
	res := Result{EOL: eol}
	if len(entries) == 0 || ver == "" {
		return res
	}
	var qs [2]*qversion // by range ecosystem: base, and "npm" for SEMVER ranges
	qFor := func(semver bool) *qversion {
		i, eco := 0, base
		if semver {
			i, eco = 1, "npm"
		}
		if qs[i] == nil {
			qs[i] = newQVersion(eco, ver)
		}
		return qs[i]
	}
	listV := listVersion(base, ver)
	// Entries of one advisory are adjacent and advisories are in id order
	// (NewIndex), so matches come out sorted by id and "already matched"
	// or "already undecided" is a look at the previous one.
	var hitBuf [16]*entry
	hits := hitBuf[:0]
	var lastHit, lastUndecided *advMeta
	for i := range entries {
		e := &entries[i]
		if e.meta == lastHit {
			continue // already matched through a sibling, with all fixes
		}
		if release != "" && e.release != "" && !releaseMatches(release, e.release) {
			continue
		}
		hit := false
		decided := !e.undecidable
		for i := 0; !hit && i < len(e.ranges); i++ {
			r := &e.ranges[i]
			aff, ok := r.affected(qFor(r.semver))
			if !ok {
				decided = false
				continue
			}
			hit = aff
		}
		if !hit && len(e.versions) > 0 {
			_, hit = slices.BinarySearch(e.versions, listV)
		}
		if !hit {
			if !decided && e.meta != lastUndecided {
				lastUndecided = e.meta
				res.Undecided = append(res.Undecided, e.meta.id)
			}
			continue
		}
		lastHit = e.meta
		hits = append(hits, e)
	}
	if len(hits) > 0 {
		res.Matches = make([]sentinel.AdvisoryMatch, len(hits))
		for i, e := range hits {
			res.Matches[i] = newMatch(e, release, qFor(false), eol, base)
		}
	}
	// An advisory matched through one entry is decided, whatever a sibling
	// said.
	if len(res.Undecided) > 0 && len(hits) > 0 {
		res.Undecided = slices.DeleteFunc(res.Undecided, func(id string) bool {
			return slices.ContainsFunc(hits, func(e *entry) bool { return e.meta.id == id })
		})
		if len(res.Undecided) == 0 {
			res.Undecided = nil
		}
	}
	return res
}

// releaseMatches compares a query release ("11", "v3.18", "22.04") with a
// record's ecosystem suffix ("11", "v3.18", "22.04:LTS", "Pro:22.04:LTS").
func releaseMatches(q, rec string) bool {
	if q == rec {
		return true
	}
	for _, part := range strings.Split(rec, ":") {
		if part == q {
			return true
		}
	}
	return false
}

// newMatch builds the match for a hit on e. With siblings, the fixed
// versions are the union over the siblings that apply to the query's
// release, and the severity the highest of theirs.
func newMatch(e *entry, release string, q *qversion, eol *sentinel.EOLStatus, base string) sentinel.AdvisoryMatch {
	sev := e.sevInfo()
	fixed, fixedStrs := e.fixed, e.fixedStrs
	if len(e.siblings) > 0 {
		fixed, fixedStrs = e.allFixed, e.allFixedStrs
		filtered := false
		for i := range e.siblings {
			s := &e.siblings[i]
			if release != "" && s.release != "" && !releaseMatches(release, s.release) {
				filtered = true
				continue
			}
			if si := s.sevInfo(); severityRank(si.label) > severityRank(sev.label) {
				sev = si
			}
		}
		if filtered { // only the siblings of the query's release
			var all []fixedVer
			for i := range e.siblings {
				if s := &e.siblings[i]; s.release == "" || releaseMatches(release, s.release) {
					all = append(all, s.fixed...)
				}
			}
			fixed = sortFixed(base, all)
			fixedStrs = fixedStrings(fixed)
		}
	}
	return sentinel.AdvisoryMatch{
		ID:            e.meta.id,
		Aliases:       e.meta.aliases,
		Summary:       e.meta.summary,
		Severity:      sev.label,
		CVSSScore:     sev.score,
		CVSSVector:    sev.vector,
		CWEs:          e.meta.cwes,
		FixedVersions: fixedStrs,
		NearestFix:    nearest(fixed, q),
		KEV:           e.meta.kev,
		KEVDateAdded:  e.meta.kevDate,
		KEVRansomware: e.meta.kevRansom,
		EOL:           eol,
		Modified:      e.meta.modified,
	}
}

func (e *entry) sevInfo() sevInfo {
	if e.sev != nil {
		return *e.sev
	}
	return e.meta.sev
}

func fixedStrings(fx []fixedVer) []string {
	out := make([]string, len(fx))
	for i, f := range fx {
		out[i] = f.s
	}
	return out
}

// nearest is the lowest fixed version above q, or "".
func nearest(fx []fixedVer, q *qversion) string {
	if q.bad {
		return ""
	}
	for i := range fx {
		if c, ok := q.cmp(&fx[i].v, fx[i].s); ok && c < 0 {
			return fx[i].s
		}
	}
	return ""
}
