package intel

// The query side of the index: matching a purl or a package against the
// compiled entries (NewIndex, in index.go).

import (
	"bytes"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

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

// Stats reports what the index holds.
func (idx *Index) Stats() IndexStats { return idx.stats }

// Match returns the advisories affecting the component named by a purl with
// a version. The error is non-nil only when the purl cannot be parsed; a
// purl of a type without advisories (pkg:generic, pkg:github) or without a
// version yields no matches.
func (idx *Index) Match(p string) ([]sentinel.AdvisoryMatch, error) {
	r, err := idx.matchPurl(p)
	return r.Matches, err
}

// MatchBatch matches many purls; results are in input order, as the match
// API answers them. A purl that cannot be parsed gets an Error ("cannot
// parse the purl: ...") instead of failing the batch. Matches is never
// nil, in these results and MatchPackage's.
//
// A large batch is split into chunks that GOMAXPROCS workers take in turn;
// each result is written at its input position, so the output does not
// depend on the scheduling.
func (idx *Index) MatchBatch(purls []string) []sentinel.MatchResult {
	out := make([]sentinel.MatchResult, len(purls))
	chunks := (len(purls) + batchChunk - 1) / batchChunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		var slab matchSlab
		idx.matchChunk(purls, out, &slab)
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var slab matchSlab // one per worker: blocks run on across chunks
			for {
				c := int(next.Add(1)) - 1
				if c >= chunks {
					return
				}
				from, to := c*batchChunk, min((c+1)*batchChunk, len(purls))
				idx.matchChunk(purls[from:to], out[from:to], &slab)
			}
		})
	}
	wg.Wait()
	return out
}

// batchChunk is the number of purls a MatchBatch worker takes at a time:
// large enough that handing out chunks costs nothing, small enough that
// the workers finish together.
const batchChunk = 256

// matchChunk matches purls into out (of the same length), taking their
// matches from slab.
//
// It works through them a group at a time, in stages: read every purl of
// the group and hash its package key; read the first slot each key
// probes; read each candidate package and its key; read the start of each
// package's entries, ranges and events; confirm each key and find the
// entries its version hits; read those entries' advisories; then answer.
// Each stage's loads are independent of one another, so the processor has
// a group's cache misses in flight together, where a purl at a time waits
// for each in turn: against a large index, most of a match is waiting for
// memory.
func (idx *Index) matchChunk(purls []string, out []sentinel.MatchResult, slab *matchSlab) {
	var qs [matchGroup]query
	t := &idx.pkgs
	var sink uint64
	for len(purls) > 0 {
		n := min(len(purls), matchGroup)
		for i := range n {
			if p := purls[i]; len(p) > 0 {
				sink += uint64(p[0]) + uint64(p[len(p)-1])
			}
		}
		for i := range n {
			qs[i] = query{}
			idx.read(&qs[i], purls[i])
		}
		if len(t.slots) > 0 {
			for i := range n {
				if !qs[i].done {
					sink += *t.slot(qs[i].hash)
				}
			}
		}
		for i := range n {
			q := &qs[i]
			q.cand = -1
			if !q.done {
				q.cand = t.candidate(q.hash)
			}
			if q.cand >= 0 {
				sink += uint64(len(t.keys[q.cand]) + len(t.pkgs[q.cand].entries))
			}
		}
		for i := range n {
			if c := qs[i].cand; c >= 0 && len(t.keys[c]) > 0 {
				sink += uint64(t.keys[c][0]) + t.pkgs[c].touch()
			}
		}
		for i := range n {
			if c := qs[i].cand; c >= 0 {
				sink += t.pkgs[c].touchMeta()
			}
		}
		for i := range n {
			q := &qs[i]
			if !q.done {
				idx.resolve(q, q.cand)
				q.hits = idx.hits(q, &slab.ms[i], slab.bufs[i][:0])
				slab.bufs[i] = q.hits[:0] // keep what it grew to
			}
		}
		for i := range n {
			for _, e := range qs[i].hits {
				sink += e.touchHit()
			}
		}
		for i := range n {
			q := &qs[i]
			if !q.done {
				slab.ms[i].build(&q.res, q.hits, slab)
			}
			r := q.res
			if q.err != nil {
				r.Error = "cannot parse the purl: " + q.err.Error()
			}
			out[i] = r
		}
		purls, out = purls[n:], out[n:]
	}
	touchSink.Add(sink)
}

// matchGroup is the number of purls matchChunk takes through each stage
// together.
const matchGroup = 16

// touchSink keeps the loads of matchChunk's early stages from being
// optimised away.
var touchSink atomic.Uint64

// touchMeta loads the first breakpoints a table lookup compares with.
func (p *pkgIndex) touchMeta() uint64 {
	var x uint64
	for _, t := range p.tabs {
		if t != nil && len(t.points) > 0 {
			n := len(t.points)
			x += uint64(t.points[n/2].v.nfast + t.points[n/4].v.nfast + t.points[3*n/4].v.nfast)
		}
	}
	return x
}

// touchHit loads what newMatch reads of a hit entry beyond the entry
// itself: its advisory's data, severity and first fixed version.
func (e *entry) touchHit() uint64 {
	x := uint64(len(e.meta.sev.label))
	if e.sev != nil {
		x += uint64(len(e.sev.label))
	}
	if e.sevSiblings != nil {
		x += uint64(len(e.sevSiblings.label))
	}
	if len(e.allFixed) > 0 {
		x += uint64(e.allFixed[0].v.nfast)
	} else if len(e.fixed) > 0 {
		x += uint64(e.fixed[0].v.nfast)
	}
	return x
}

// touch loads the start of the package's entries (up to a few) and of
// their first ranges' events, for matchChunk; the value is meaningless.
func (p *pkgIndex) touch() uint64 {
	var x uint64
	for _, t := range p.tabs {
		if t != nil {
			x += uint64(len(t.points))
		}
	}
	for i := range min(len(p.entries), 4) {
		e := &p.entries[i]
		x += uint64(len(e.release))
		if len(e.ranges) > 0 && len(e.ranges[0].events) > 0 {
			x += uint64(e.ranges[0].events[0].v.fast[0])
		}
	}
	return x
}

// matchSlab hands out the Matches slices of a batch from larger blocks:
// one allocation for many matched components instead of one each. Each
// slice is clipped, so appending to one result's matches never writes
// into another's.
type matchSlab struct {
	free []sentinel.AdvisoryMatch
	// ms and bufs are a worker's scratch, a matcher and a hit buffer for
	// each query of matchChunk's group: set up anew, they are most of what
	// a match would otherwise clear.
	ms   [matchGroup]matcher
	bufs [matchGroup][]*entry
}

// slabBlock is the number of matches a slab block holds.
const slabBlock = 64

// take returns n zero matches; a nil slab allocates them on their own.
func (s *matchSlab) take(n int) []sentinel.AdvisoryMatch {
	if s == nil || n > slabBlock/2 {
		return make([]sentinel.AdvisoryMatch, n)
	}
	if len(s.free) < n {
		s.free = make([]sentinel.AdvisoryMatch, slabBlock)
	}
	m := s.free[:n:n]
	s.free = s.free[n:]
	return m
}

// MatchPackage matches an OSV (ecosystem, name, version) directly, for
// callers that already hold them (an extractor); eco may carry a release
// ("Debian:12"). EOL is not looked up (it is keyed by purl), and Purl is
// empty.
func (idx *Index) MatchPackage(eco, name, version string) sentinel.MatchResult {
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

// noMatches is the Matches of a result without any: empty, not nil, so
// that JSON says [] (a zero-length slice needs no allocation).
func noMatches() []sentinel.AdvisoryMatch { return []sentinel.AdvisoryMatch{} }

// matchPurl matches one purl; the error is the purl's parse error, for
// Match to return and MatchBatch to put in the result.
func (idx *Index) matchPurl(p string) (sentinel.MatchResult, error) {
	var q query
	idx.read(&q, p)
	if !q.done {
		idx.resolve(&q, idx.pkgs.candidate(q.hash))
	}
	return idx.answer(&q)
}

// query is one purl of a match on its way through the stages: read parses
// it and hashes its package key, resolve finds the package, answer
// evaluates the package's entries.
type query struct {
	purl     string
	eco, ver string
	eol      *sentinel.EOLStatus
	key      []byte // the package key when it does not fit kbuf, else nil
	kbuf     [96]byte
	klen     int // the length of the key in kbuf
	hash     uint64
	cand     int // first candidate package (pkgTable.candidate), or -1
	pkg      *pkgIndex
	// done is set when read has the answer (res, err) already: a purl
	// that does not parse, of a type without advisories, or without a
	// version.
	done bool
	res  sentinel.MatchResult
	err  error
	// hits are the entries the version hits, once resolved (Index.hits).
	hits []*entry
}

// read parses the purl p into q and hashes its package key.
func (idx *Index) read(q *query, p string) {
	q.purl = p
	u, eco, name, err := purl.Resolve(p)
	if err != nil {
		q.done = true
		if errors.Is(err, purl.ErrUnsupported) {
			q.res = sentinel.MatchResult{Purl: p, Matches: noMatches(), EOL: idx.eol.status(u, idx.now())}
			return
		}
		q.res, q.err = sentinel.MatchResult{Purl: p, Matches: noMatches()}, err
		return
	}
	// The key is built in kbuf; q keeps no pointer into itself, so that
	// a query on the stack stays there.
	key := appendPackageKey(q.kbuf[:0], eco, name)
	if len(key) <= len(q.kbuf) {
		q.klen = len(key)
	} else {
		q.key = bytes.Clone(key)
	}
	if idx.eol.types[u.Type] && u.Version != "" {
		// Map lookups with string(b) do not allocate.
		q.eol = idx.eol.statusByKey(string(key), u, idx.now())
	}
	if u.Version == "" {
		q.done = true
		q.res = sentinel.MatchResult{Purl: p, Matches: noMatches(), EOL: q.eol}
		return
	}
	// A distribution package's source version or epoch, the Go
	// standard library's release without its "go".
	q.eco, q.ver = eco, purl.Version(u)
	q.hash = idx.pkgs.hash(key)
}

// pkgKey is q's package key.
func (q *query) pkgKey() []byte {
	if q.key != nil {
		return q.key
	}
	return q.kbuf[:q.klen]
}

// resolve finds q's package from its first candidate c.
func (idx *Index) resolve(q *query, c int) {
	if i := confirm(&idx.pkgs, q.pkgKey(), q.hash, c); i >= 0 {
		q.pkg = &idx.pkgs.pkgs[i]
	}
}

// answer is the match for a resolved query.
func (idx *Index) answer(q *query) (sentinel.MatchResult, error) {
	if q.done {
		return q.res, q.err
	}
	r := idx.matchPkg(q.pkg, q.eco, q.ver, q.eol)
	r.Purl = q.purl
	return r, nil
}

// packageKey is the index key of an OSV package: base ecosystem and
// normalised name.
func packageKey(eco, name string) string {
	base := purl.BaseEcosystem(eco)
	return base + "\x00" + purl.NormalizeName(base, name)
}

// appendPackageKey appends packageKey(eco, name) to b.
func appendPackageKey(b []byte, eco, name string) []byte {
	base := purl.BaseEcosystem(eco)
	b = append(b, base...)
	b = append(b, 0)
	return append(b, purl.NormalizeName(base, name)...)
}

// matchKey is the core: look up the package, find the entries the version
// hits (through the decision tables, or by walking every entry), and build
// the matches.
func (idx *Index) matchKey(key, eco, ver string, eol *sentinel.EOLStatus) sentinel.MatchResult {
	pkg, _ := idx.pkgs.get(key)
	return idx.matchPkg(pkg, eco, ver, eol)
}

// matchPkg is matchKey with the package looked up.
func (idx *Index) matchPkg(pkg *pkgIndex, eco, ver string, eol *sentinel.EOLStatus) sentinel.MatchResult {
	res := sentinel.MatchResult{Matches: noMatches(), EOL: eol}
	if pkg == nil || ver == "" {
		return res
	}
	var m matcher
	m.reset(pkg, eco, ver)
	m.build(&res, m.find(nil, &res), nil)
	return res
}

// hits starts the answer of a resolved query in q.res (with its undecided
// advisories) and returns the entries it hits, appended to buf; m is set
// up for build.
func (idx *Index) hits(q *query, m *matcher, buf []*entry) []*entry {
	q.res = sentinel.MatchResult{Purl: q.purl, Matches: noMatches(), EOL: q.eol}
	if q.pkg == nil {
		m.pkg = nil
		return nil
	}
	m.reset(q.pkg, q.eco, q.ver)
	return m.find(buf, &q.res)
}

// reset sets m up to match ver (in eco, which may carry a release) against
// pkg.
func (m *matcher) reset(pkg *pkgIndex, eco, ver string) {
	base, release, _ := strings.Cut(eco, ":")
	m.pkg, m.base, m.release, m.ver, m.have = pkg, base, release, ver, [2]bool{}
}

// find returns the entries m's version hits, appended to buf, and adds the
// advisories it cannot decide to res.Undecided: from the decision tables,
// or by walking every entry where they cannot answer.
func (m *matcher) find(buf []*entry, res *sentinel.MatchResult) []*entry {
	hits, ok := m.tableHits(buf, res)
	if !ok {
		res.Undecided = nil
		hits = m.walkHits(buf[:0], res)
	}
	return hits
}

// build sets res's matches, one per hit, and leaves out of res.Undecided
// the advisories a hit decided.
func (m *matcher) build(res *sentinel.MatchResult, hits []*entry, slab *matchSlab) {
	if len(hits) > 0 {
		res.Matches = slab.take(len(hits))
		q := m.q(false)
		for i, e := range hits {
			res.Matches[i] = newMatch(e, m.release, q, res.EOL, m.base)
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
}
