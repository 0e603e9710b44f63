package intel

// Internal tests: the fast version path and the range evaluator are
// unexported, and these tests hold them against osv-scalibr's semantic
// package used directly.

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/osv-scalibr/semantic"
)

// TestFastPathAgreesWithSemantic compares the uint32 fast path with
// semantic on plain numeric versions in every ecosystem the fast path is
// used for, including the "v" prefix of the semver-like ones.
func TestFastPathAgreesWithSemantic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"0", "1", "2", "9", "10", "11", "99", "100", "2024", "4294967295"}
	gen := func(maxN int) string {
		n := 1 + rng.IntN(maxN)
		s := ""
		for i := range n {
			if i > 0 {
				s += "."
			}
			s += parts[rng.IntN(len(parts))]
		}
		return s
	}
	for eco := range fastEcosystems {
		maxN := 4
		if semverLike[eco] {
			maxN = 3
		}
		for range 3000 {
			a, b := gen(maxN), gen(maxN)
			if semverLike[eco] && rng.IntN(4) == 0 {
				a = "v" + a
			}
			fa, _, okA := parseFast(a, semverLike[eco])
			fb, _, okB := parseFast(b, semverLike[eco])
			if !okA || !okB {
				t.Fatalf("%s: parseFast(%q)=%v, parseFast(%q)=%v, want both ok", eco, a, okA, b, okB)
			}
			q := qversion{version: fa, s: a, eco: eco}
			got, ok := q.cmp(&fb, b)
			if !ok {
				t.Fatalf("%s: cmp(%q, %q) not ok", eco, a, b)
			}
			sa, err := semantic.Parse(a, semanticEcosystem(eco))
			if err != nil {
				t.Fatalf("%s: semantic.Parse(%q): %v", eco, a, err)
			}
			sb, err := semantic.Parse(b, semanticEcosystem(eco))
			if err != nil {
				t.Fatalf("%s: semantic.Parse(%q): %v", eco, b, err)
			}
			want, err := sa.Compare(sb)
			if err != nil {
				t.Fatalf("%s: Compare(%q, %q): %v", eco, a, b, err)
			}
			if got != want {
				t.Errorf("%s: fast cmp(%q, %q) = %d, semantic = %d", eco, a, b, got, want)
			}
		}
	}
}

func TestParseFastRefuses(t *testing.T) {
	for _, s := range []string{"", ".", "1.", ".1", "01", "1.02", "1.2.3-rc1", "1.2.3.4.5", "4294967296", "v", "1..2", "1.2a"} {
		if v, _, ok := parseFast(s, false); ok {
			t.Errorf("parseFast(%q) = %+v, true; want false", s, v)
		}
	}
	if _, _, ok := parseFast("1.2.3.4", true); ok {
		t.Error(`parseFast("1.2.3.4", semverish) = true, want false (semantic treats the 4th part as build)`)
	}
}

// refAffected is the OSV evaluation written as plainly as possible with
// semantic alone: sort events ("0" first), walk all of them.
func refAffected(eco string, events []Event, ver string) (aff bool, ok bool) {
	v, err := semantic.Parse(ver, semanticEcosystem(eco))
	if err != nil {
		return false, false
	}
	type pe struct {
		e    Event
		s    string
		zero bool
		sv   semantic.Version
	}
	var evs, limits []pe
	for _, e := range events {
		var s string
		switch {
		case e.Introduced != "":
			s = e.Introduced
		case e.Fixed != "":
			s = e.Fixed
		case e.LastAffected != "":
			s = e.LastAffected
		case e.Limit != "":
			if e.Limit == "*" {
				limits = append(limits, pe{e: e, s: "*"})
				continue
			}
			sv, err := semantic.Parse(e.Limit, semanticEcosystem(eco))
			if err != nil {
				return false, false
			}
			limits = append(limits, pe{e: e, sv: sv})
			continue
		default:
			continue
		}
		p := pe{e: e, s: s, zero: e.Introduced == "0"}
		if !p.zero {
			sv, err := semantic.Parse(s, semanticEcosystem(eco))
			if err != nil {
				return false, false
			}
			p.sv = sv
		}
		evs = append(evs, p)
	}
	bad := false
	sort.SliceStable(evs, func(i, j int) bool {
		if evs[i].zero || evs[j].zero {
			return evs[i].zero && !evs[j].zero
		}
		c, err := evs[i].sv.Compare(evs[j].sv)
		if err != nil {
			bad = true
		}
		return c < 0
	})
	if bad {
		return false, false
	}
	if len(limits) > 0 {
		below := false
		for _, l := range limits {
			if l.s == "*" { // infinity: every version is below it
				below = true
				continue
			}
			c, err := v.Compare(l.sv)
			if err != nil {
				return false, false
			}
			if c < 0 {
				below = true
			}
		}
		if !below {
			return false, true
		}
	}
	for _, p := range evs {
		var c int
		if !p.zero {
			c, err = v.Compare(p.sv)
			if err != nil {
				return false, false
			}
		}
		switch {
		case p.e.Introduced != "":
			if p.zero || c >= 0 {
				aff = true
			}
		case p.e.Fixed != "":
			if c >= 0 {
				aff = false
			}
		case p.e.LastAffected != "":
			if c > 0 {
				aff = false
			}
		}
	}
	return aff, true
}

var fuzzEcosystems = []string{"npm", "PyPI", "Go", "Maven", "crates.io", "RubyGems", "NuGet", "Packagist", "Pub", "Hex", "Debian", "Alpine"}

// FuzzRangeEval holds the compiled evaluator (fast path, early exit) to
// the plain reference on arbitrary events and versions.
func FuzzRangeEval(f *testing.F) {
	f.Add(uint8(0), "0", "1.2.3", "", "", "1.2.2")
	f.Add(uint8(1), "4.3a0", "4.3b1", "", "", "4.3a5")
	f.Add(uint8(3), "3.0.0-alpha1", "", "3.0.0-beta3", "", "3.0.0-beta3")
	f.Add(uint8(3), "9.0.0.M1", "9.0.0.M18", "", "", "9.0.0")
	f.Add(uint8(10), "0", "1.1.0l-1~deb9u6", "", "", "1:1.0.0")
	f.Add(uint8(11), "0.9.13", "1.2.4-r3", "", "", "1.2.4_git20230717-r5")
	f.Add(uint8(0), "1.0.0", "1.5.0", "", "1.3.0", "1.2.9")
	f.Add(uint8(2), "1.2.1-0.20180103161547-0ef6afb2f6cd", "1.2.1-0.20180404165556-75cca531ea76", "", "", "v1.2.1")
	f.Add(uint8(1), "0", "0.12.2", "", "", "0.12.2.dev1")
	f.Add(uint8(4), "0.0.0-0", "0.9.18", "", "", "0.9.17")
	f.Fuzz(func(t *testing.T, ecoIdx uint8, intro, fixed, lastAff, limit, ver string) {
		tm := time.AfterFunc(5*time.Second, func() {
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			panic(fmt.Sprintf("HANG %d %q %q %q %q %q\n%s", ecoIdx, intro, fixed, lastAff, limit, ver, buf[:n]))
		})
		defer tm.Stop()
		eco := fuzzEcosystems[int(ecoIdx)%len(fuzzEcosystems)]
		var events []Event
		if intro != "" {
			events = append(events, Event{Introduced: intro})
		}
		if fixed != "" {
			events = append(events, Event{Fixed: fixed})
		}
		if lastAff != "" {
			events = append(events, Event{LastAffected: lastAff})
		}
		if limit != "" {
			events = append(events, Event{Limit: limit})
		}
		r, _, ok := compileRange(eco, Range{Type: RangeEcosystem, Events: events}, nil)
		// The index reads a RubyGems version as Gem::Version does, a
		// hyphen as ".pre." (gemVersion); the reference is given the
		// same strings.
		refEvents, refVer := events, ver
		if eco == "RubyGems" {
			refEvents = make([]Event, len(events))
			for i, e := range events {
				refEvents[i] = Event{Introduced: gemVersion(e.Introduced), Fixed: gemVersion(e.Fixed),
					LastAffected: gemVersion(e.LastAffected), Limit: gemVersion(e.Limit)}
			}
			refVer = gemVersion(ver)
		}
		want, refOK := refAffected(eco, refEvents, refVer)
		if !ok || !refOK {
			return // either side refuses a version: nothing to compare
		}
		if !totalOrder(eco, append(refEvents, Event{Fixed: refVer})) {
			// The parsers accept strings that are not versions at all, and
			// then order them in cycles (Alpine: 0 < 01A < A < 0). OSV
			// evaluation presumes a total order, so there is no right
			// answer to compare with.
			return
		}
		got, gotOK := r.affected(newQVersion(eco, ver))
		if !gotOK {
			return // e.g. a fast version meeting one semantic cannot re-parse
		}
		if got != want {
			t.Errorf("%s events %s version %q: affected = %v, reference = %v", eco, fmtEvents(events), ver, got, want)
		}
	})
}

// totalOrder reports whether semantic orders the events' versions
// consistently: no cycles among any three of them.
func totalOrder(eco string, events []Event) bool {
	var vs []semantic.Version
	for _, e := range events {
		s := e.Introduced + e.Fixed + e.LastAffected + e.Limit
		if s == "0" && e.Introduced == "0" {
			continue
		}
		v, err := semantic.Parse(s, semanticEcosystem(eco))
		if err != nil {
			return false
		}
		vs = append(vs, v)
	}
	cmp := func(a, b semantic.Version) int {
		c, err := a.Compare(b)
		if err != nil {
			return 2
		}
		return c
	}
	for _, a := range vs {
		for _, b := range vs {
			ab := cmp(a, b)
			if ab == 2 || ab != -cmp(b, a) {
				return false
			}
			for _, c := range vs {
				if ab <= 0 && cmp(b, c) <= 0 && cmp(a, c) > 0 {
					return false
				}
			}
		}
	}
	return true
}

func fmtEvents(es []Event) string {
	s := ""
	for _, e := range es {
		s += fmt.Sprintf("%+v ", e)
	}
	return s
}

// qualifiers are each ecosystem family's qualifier vocabulary, for
// drawing versions.
var qualifiers = map[string][]string{
	"semver":   {"", "-alpha", "-beta.1", "-rc.2", "-0.20180103161547-0ef6afb2f6cd", "+build.5", "+incompatible", "-1"},
	"PyPI":     {"", "a1", "b2", "rc1", ".post1", ".dev0", "-1", ".post2.dev3", "+local.7", "c1", "-dev", "a"},
	"Maven":    {"", "-alpha1", "-beta-2", ".M1", ".Final", "-SNAPSHOT", ".RELEASE", "-sp", "-rc1", "-1", "a", "-jre", ".Beta3", "-cr1"},
	"NuGet":    {"", "-alpha", "-beta.2", "-rc.1", "+meta"},
	"RubyGems": {"", ".a", ".beta1", ".rc2", ".pre", "-java"},
}

// qualifiedVersion draws a version of eco: one to four (three where
// semver-like) small numbers and a qualifier of its family, or none.
func qualifiedVersion(rng *rand.Rand, eco string) string {
	family := eco
	maxN := 4
	if semverLike[eco] {
		family, maxN = "semver", 3
	}
	nums := []string{"0", "1", "2", "3", "9", "10", "12"}
	n := 1 + rng.IntN(maxN)
	s := ""
	for i := range n {
		if i > 0 {
			s += "."
		}
		s += nums[rng.IntN(len(nums))]
	}
	q := qualifiers[family]
	return s + q[rng.IntN(len(q))]
}

// TestPrefixAgreesWithSemantic checks the claim the prefix shortcut rests
// on: when two versions' numeric prefixes differ (zero padded), semantic
// orders them the same way, whatever qualifiers follow. Versions are drawn
// from each ecosystem's qualifier vocabulary.
func TestPrefixAgreesWithSemantic(t *testing.T) { checkQualifiedOrder(t, false) }

// TestTieAgreesWithSemantic: two versions with the same numbers and a
// qualifier on one side or both order as semantic orders them, through
// each side's tie with its plain numbers where only one has a qualifier.
func TestTieAgreesWithSemantic(t *testing.T) { checkQualifiedOrder(t, true) }

// checkQualifiedOrder compares, in each fast ecosystem, pairs of versions
// with a qualifier on one side or both, the first as a query, the second
// as the index holds it, with semantic's order: pairs whose numbers differ,
// or with tie, pairs that share their numbers (zero padded or not).
func checkQualifiedOrder(t *testing.T, tie bool) {
	rng := rand.New(rand.NewPCG(11, 12))
	for eco := range fastEcosystems {
		if plainOnly[eco] {
			continue // newQVersion never uses the prefix there
		}
		checked := 0
		for range 20000 {
			a, b := qualifiedVersion(rng, eco), qualifiedVersion(rng, eco)
			if tie {
				// b takes a's numbers with its own qualifier.
				_, restA, _ := parseFast(a, semverLike[eco])
				_, restB, _ := parseFast(b, semverLike[eco])
				numA := strings.TrimSuffix(a, restA)
				if pad := strings.Count(numA, ".") + 1; pad < 3 && rng.IntN(2) == 0 {
					numA += ".0"
				}
				b = numA + restB
			}
			va, restA, _ := parseFast(a, semverLike[eco])
			vb, restB, _ := parseFast(b, semverLike[eco])
			if eco == "PyPI" && (!pep440Suffix(restA) || !pep440Suffix(restB)) {
				continue // newQVersion does not use the prefix of these
			}
			if va.nfast == 0 || vb.nfast == 0 || (!va.prefix && !vb.prefix) || (va.fast == vb.fast) != tie {
				continue
			}
			ca, cb := a, b
			if eco == "RubyGems" { // ordered as Gem::Version reads them
				ca, cb = gemVersion(a), gemVersion(b)
			}
			sa, err1 := semantic.Parse(ca, semanticEcosystem(eco))
			sb, err2 := semantic.Parse(cb, semanticEcosystem(eco))
			if err1 != nil || err2 != nil {
				continue
			}
			want, err := sa.Compare(sb)
			if err != nil {
				continue
			}
			e := (*buildCache)(nil).q(eco, b)
			got, ok := newQVersion(eco, a).cmp(&e.version, b)
			if !ok {
				t.Fatalf("%s: cmp(%q, %q) not ok", eco, a, b)
			}
			checked++
			if got != want {
				t.Errorf("%s: cmp(%q, %q) = %d, semantic = %d", eco, a, b, got, want)
			}
		}
		if checked < 1000 {
			t.Errorf("%s: only %d pairs checked", eco, checked)
		}
	}
}

// TestRubyGemsHyphen: RubyGems reads a hyphen as ".pre." (Gem::Version:
// "4.0.0-beta.2" is "4.0.0.pre.beta.2"), so a fix at "4.0.0-beta.2", as
// GitHub's advisory for the bootstrap gem writes it, is above 4.0.0.alpha6
// and 4.0.0.beta and below 4.0.0; a platform gem's version carries its
// platform after a hyphen, which is not part of the version.
func TestRubyGemsHyphen(t *testing.T) {
	fix := newQVersion("RubyGems", "4.0.0-beta.2")
	fix.ensureTie()
	for _, c := range []struct {
		v    string
		want int // the order of v against the fix
	}{
		{"3.9.9", -1}, {"4.0.0.alpha6", -1}, {"4.0.0.beta", -1}, {"4.0.0.pre.beta.2", 0}, {"4.0.0-beta.2", 0},
		{"4.0.0.pre.beta.3", 1}, {"4.0.0", 1},
		// a platform gem's version is its version
		{"4.0.0-java", 1}, {"3.9.9-x86_64-linux", -1},
	} {
		got, ok := newQVersion("RubyGems", c.v).cmp(&fix.version, fix.s)
		if !ok || got != c.want {
			t.Errorf("%s against 4.0.0-beta.2: %d (ok %v), want %d", c.v, got, ok, c.want)
		}
	}
}

// TestLimitInfinity: a range may hold several limit events, and "*" is
// infinity (OSV schema, "limit"): a version below any limit may be
// affected, so with "*" among them the other limits bound nothing.
func TestLimitInfinity(t *testing.T) {
	for _, c := range []struct {
		limits []string
		ver    string
		want   bool
	}{
		{[]string{"1.5.0"}, "1.2.0", true},
		{[]string{"1.5.0"}, "9.0.0", false},
		{[]string{"1.5.0", "*"}, "9.0.0", true},
		{[]string{"*", "1.5.0"}, "9.0.0", true},
		{[]string{"*"}, "9.0.0", true},
	} {
		events := []Event{{Introduced: "0"}}
		for _, l := range c.limits {
			events = append(events, Event{Limit: l})
		}
		r, _, ok := compileRange("npm", Range{Type: RangeSemver, Events: events}, nil)
		if !ok {
			t.Fatalf("limits %v do not compile", c.limits)
		}
		got, ok := r.affected(newQVersion("npm", c.ver))
		if !ok || got != c.want {
			t.Errorf("limits %v, version %s: affected = %v (ok %v), want %v", c.limits, c.ver, got, ok, c.want)
		}
		if ref, _ := refAffected("npm", events, c.ver); ref != c.want {
			t.Errorf("limits %v, version %s: the reference says %v, want %v", c.limits, c.ver, ref, c.want)
		}
	}
}
