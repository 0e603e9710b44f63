package intel

import (
	"slices"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// Walking one package's entries for a query version: ranges, decision
// tables, the advisories' release lines, and building each match.

// matcher holds one query against one package.
type matcher struct {
	pkg           *pkgIndex
	base, release string
	ver           string
	// qv are the query version parsed per range domain: base, and "npm"
	// for SEMVER ranges; have says which are set. (A pointer from qs to qv
	// would make the matcher escape to the heap.)
	qv   [2]qversion
	have [2]bool
}

// q returns the query version parsed in the domain's ecosystem.
func (m *matcher) q(semver bool) *qversion {
	i, eco := 0, m.base
	if semver {
		i, eco = 1, "npm"
	}
	if !m.have[i] {
		m.have[i] = true
		// A version that semantic would have to parse, written exactly as
		// one of the package's breakpoints, takes that breakpoint's parsed
		// form: the same parse, done once when the index was built. A plain
		// numeric version parses faster than it is looked up.
		// A walked package has no table: its own event and listed versions
		// are few, and the walk reads them anyway.
		if fastEcosystems[eco] {
			if v, _, ok := parseFast(m.ver, semverLike[eco]); ok {
				// What init makes of a plain version, parsed once.
				if eco == "GitHub Actions" {
					v = movingTag(v)
				}
				m.qv[i] = qversion{version: v, s: m.ver, eco: eco}
				return &m.qv[i]
			}
		}
		var v *version
		var ok bool
		if t := m.pkg.tabs[i]; t != nil {
			v, ok = t.parsed(m.ver)
		} else if m.pkg.walk {
			v, ok = m.pkg.parsed(semver, m.ver)
		}
		if ok {
			m.qv[i] = qversion{version: *v, s: m.ver, eco: eco, semTried: v.sem != nil}
			return &m.qv[i]
		}
		m.qv[i].init(eco, m.ver)
	}
	return &m.qv[i]
}

// movingTag reads an action's major or minor release tag ("v4", "v4.1"),
// which its maintainers move to each new release of that line, as the
// newest release it can name: above every version of the line. Read as
// 4.0.0, "@v4" would take every advisory fixed in a later 4.x for one
// that affects the workflow, when the tag now names the fixed release;
// read so, it is affected only when the whole line is ("@v45" of an
// action fixed in 46.0.1).
func movingTag(v version) version {
	for i := int(v.nfast); i < 3; i++ {
		v.fast[i] = 1<<32 - 1
	}
	v.nfast = max(v.nfast, 3)
	return v
}

// skip reports whether e is for another distribution release.
func (m *matcher) skip(e *entry) bool {
	return m.release != "" && e.release != "" && !releaseMatches(m.release, e.release)
}

// walkHits evaluates every entry: the reference evaluation, used when the
// tables cannot answer. Entries of one advisory are adjacent and advisories
// are in id order (NewIndex), so matches come out sorted by id and "already
// matched" or "already undecided" is a look at the previous one.
func (m *matcher) walkHits(hits []*entry, res *sentinel.MatchResult) []*entry {
	listV := listVersion(m.base, m.ver)
	var lastHit, lastUndecided *advMeta
	entries := m.pkg.entries
	for i := range entries {
		e := &entries[i]
		if e.meta == lastHit {
			continue // already matched through a sibling, with all fixes
		}
		if m.skip(e) {
			continue
		}
		hit := false
		decided := !e.undecidable
		for i := 0; !hit && i < len(e.ranges); i++ {
			r := &e.ranges[i]
			aff, ok := r.affected(m.q(r.semver))
			if !ok {
				decided = false
				continue
			}
			hit = aff
		}
		if !hit && e.hasListed {
			hit = e.isListed(m.q(false), listV)
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
	return hits
}

// tableHits answers from the decision tables: the same hits and undecided
// ids as walkHits, visiting only the entries that are hit, undecidable or
// listed by string. ok is false when the query version cannot be placed
// among some table's breakpoints; the caller then walks.
func (m *matcher) tableHits(hits []*entry, res *sentinel.MatchResult) ([]*entry, bool) {
	p := m.pkg
	if p.walk {
		return hits, false
	}
	var sets [2][]int32
	for d, t := range p.tabs {
		if t == nil {
			continue
		}
		// A version with a qualifier is parsed by semantic only if a
		// comparison ties on the numbers; if semantic then refuses it,
		// the comparison fails and the walk answers.
		q := m.q(d == 1)
		if q.bad {
			return hits, false
		}
		s, ok := t.lookup(q)
		if !ok {
			return hits, false
		}
		sets[d] = s
	}
	var strHit []int32
	if len(p.strListed) > 0 {
		listV := listVersion(m.base, m.ver)
		for _, i := range p.strListed {
			if _, found := slices.BinarySearch(p.entries[i].listedStrs, listV); found {
				strHit = append(strHit, i)
			}
		}
	}
	// Visit, in entry order, the union of the hit sets and the undecidable
	// entries: every other entry is neither hit nor undecided.
	a, b, c, u := sets[0], sets[1], strHit, p.undecidable
	var lastHit, lastUndecided *advMeta
	for len(a)+len(b)+len(c)+len(u) > 0 {
		i := int32(1<<31 - 1)
		if len(a) > 0 {
			i = a[0]
		}
		if len(b) > 0 && b[0] < i {
			i = b[0]
		}
		if len(c) > 0 && c[0] < i {
			i = c[0]
		}
		if len(u) > 0 && u[0] < i {
			i = u[0]
		}
		hit := false
		if len(a) > 0 && a[0] == i {
			a, hit = a[1:], true
		}
		if len(b) > 0 && b[0] == i {
			b, hit = b[1:], true
		}
		if len(c) > 0 && c[0] == i {
			c, hit = c[1:], true
		}
		if len(u) > 0 && u[0] == i {
			u = u[1:]
		}
		e := &p.entries[i]
		if e.meta == lastHit || m.skip(e) {
			continue
		}
		if !hit {
			if e.meta != lastUndecided { // e is undecidable
				lastUndecided = e.meta
				res.Undecided = append(res.Undecided, e.meta.id)
			}
			continue
		}
		lastHit = e.meta
		hits = append(hits, e)
	}
	return hits, true
}

// releaseMatches compares a query release ("11", "v3.18", "22.04") with a
// record's ecosystem suffix ("11", "v3.18", "22.04:LTS", "Pro:22.04:LTS").
func releaseMatches(q, rec string) bool {
	if q == rec {
		return true
	}
	// SUSE names products: "Linux Enterprise Server 15 SP3", "... 15
	// SP3-LTSS" are release "15 SP3".
	if strings.HasSuffix(rec, " "+q) || strings.Contains(rec, " "+q+"-") {
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
	if len(e.siblings) > 0 && release == "" {
		sev, fixed, fixedStrs = *e.sevSiblings, e.allFixed, e.allFixedStrs
	} else if len(e.siblings) > 0 {
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
	if e.meta.malicious {
		sev.label = sentinel.SeverityCritical
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
		Malicious:     e.meta.malicious,
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
