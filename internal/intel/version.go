package intel

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/google/osv-scalibr/semantic"
)

// version is a parsed version in one ecosystem. Parsing with the semantic
// package costs one to three microseconds and hundreds of bytes (big.Int
// components), too much for the match path and for 10^6 precomputed range
// events. Most versions are plain dotted numbers ("1.2.3"), and for those
// every ecosystem in fastEcosystems orders them the same way: component by
// component, missing components counting as zero. Such versions are held as
// up to four uint32s (fast); everything else goes through semantic (sem).
// TestFastPathAgreesWithSemantic checks the two agree.
//
// A version with a qualifier ("2.0-beta9", "9.0.0.M1", "4.3a5") keeps its
// leading numbers in fast too, with prefix set: when two versions' numeric
// parts differ (zero padded), every ecosystem here orders them by those
// numbers, whatever follows; only on a tie does semantic decide.
// TestPrefixAgreesWithSemantic checks that claim per ecosystem, and
// FuzzRangeEval holds the whole evaluator to a semantic-only reference.
// (PyPI is the exception that fuzzing found: a string that is not PEP 440
// is a "legacy" version sorted before all others, so there the prefix is
// used only with a canonical PEP 440 suffix; see pep440Suffix.)
type version struct {
	fast   [4]uint32
	nfast  uint8 // 0 when fast is not used
	prefix bool  // fast is only the numeric prefix; sem decides ties
	// tie is how a version with a prefix orders against the plain version
	// of its own numbers ("2.0-beta9" against "2.0": -1), when tieKnown:
	// against any plain version with those numbers, since those are all
	// equal (zero padded) in the ecosystems with a prefix. Ties with plain
	// versions, the common ones, then need no semantic comparison.
	tie      int8
	tieKnown bool
	sem      semantic.Version // set when the version is not plain numeric and parsed
}

// ensureTie sets q.tie, once: q has a prefix.
func (q *qversion) ensureTie() {
	if q.tieTried {
		return
	}
	q.tieTried = true
	q.ensureSem()
	q.setTie()
}

// setTie sets v.tie from v.sem, its semantic form; v has a prefix.
func (v *version) setTie() {
	if v.sem == nil || v.nfast == 0 {
		return
	}
	b := make([]byte, 0, 16)
	for i := range v.nfast {
		if i > 0 {
			b = append(b, '.')
		}
		b = strconv.AppendUint(b, uint64(v.fast[i]), 10)
	}
	if c, err := v.sem.CompareStr(string(b)); err == nil {
		v.tie, v.tieKnown = int8(c), true
	}
}

// fastEcosystems are the ecosystems whose order of plain dotted numeric
// versions is numeric with zero padding (at most three components in the
// semver-like ones, where a fourth is build metadata to semantic; four in
// the others), with ties broken by length where lengthOrders says so. Not
// Debian, Ubuntu or Alpine, whose orders are not numeric per component.
var fastEcosystems = map[string]bool{
	"npm": true, "Go": true, "crates.io": true, "Hex": true, "Pub": true,
	"SwiftURL": true, "Bitnami": true, "PyPI": true, "Maven": true,
	"NuGet": true, "RubyGems": true, "Packagist": true, "GitHub Actions": true,
}

// semanticEcosystem is the ecosystem whose order semantic applies to eco's
// versions: an action's release tags are SemVer ("v4.1.1"), which
// semantic knows as npm's.
func semanticEcosystem(eco string) string {
	if eco == "GitHub Actions" {
		return "npm"
	}
	return eco
}

// lengthOrders are the fast ecosystems where, of two plain versions equal
// with zero padding, the longer is greater: Packagist (PHP version_compare:
// "1.0" < "1.0.0"). They are also plainOnly.
var lengthOrders = map[string]bool{"Packagist": true}

// plainOnly are the fast ecosystems where the numeric prefix of a version
// with a qualifier decides nothing: in Packagist "1.0-1" is "1.0.1", so a
// qualifier can continue the numbers.
var plainOnly = map[string]bool{"Packagist": true}

// parseFast parses "1", "1.2", "1.2.3" (and "1.2.3.4" outside the semver
// ecosystems), with a leading "v" in the semver ones, without allocating.
// Components must have no leading zeros and fit in 32 bits. When the
// numbers are followed by a qualifier it returns them with prefix set
// (ok stays false for the whole version): "2.0-beta9" -> [2 0], prefix.
func parseFast(s string, semverish bool) (v version, rest string, ok bool) {
	maxN := 4
	if semverish {
		maxN = 3
		if len(s) > 0 && s[0] == 'v' {
			s = s[1:]
		}
	}
	n := 0
	var cur uint64
	digits := 0
	i := 0
	for ; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if digits == 0 {
				return version{}, "", false
			}
			if n == maxN {
				return version{}, "", false
			}
			v.fast[n] = uint32(cur)
			n++
			cur, digits = 0, 0
			if i < len(s) && (i+1 == len(s) || s[i+1] < '0' || s[i+1] > '9') {
				break // "1.0.post1": the numbers end before ".post1"
			}
			continue
		}
		c := s[i]
		if c < '0' || c > '9' {
			if digits == 0 {
				return version{}, "", false
			}
			if n == maxN {
				return version{}, "", false
			}
			v.fast[n] = uint32(cur)
			n++
			break
		}
		if digits == 1 && cur == 0 { // leading zero
			return version{}, "", false
		}
		cur = cur*10 + uint64(c-'0')
		digits++
		if cur > 1<<32-1 {
			return version{}, "", false
		}
	}
	v.nfast = uint8(n)
	if i >= len(s) {
		return v, "", true
	}
	// A qualifier follows at s[i]. Accept only one that starts like a
	// qualifier ("-beta", "+build", "rc1", ".Final"); after anything else
	// ("..1", a PEP 440 epoch "1!2.0", an epoch "1:2") the numbers may not
	// be the release at all. The semver-like ones only have "-" and "+".
	rest = s[i:]
	letter := func(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
	switch c := rest[0]; {
	case c == '-' || c == '+':
	case semverish:
		return version{}, "", false
	case c == '_' || letter(c):
	case c == '.' && len(rest) > 1 && letter(rest[1]):
	default:
		return version{}, "", false
	}
	v.prefix = true
	return v, rest, false
}

// pep440Suffix reports whether rest, what follows the release numbers of a
// PyPI version, is a canonical PEP 440 pre, post and/or dev part ("rc1",
// ".post2", "a1.dev3"). Anything else may make the whole string a legacy,
// non-PEP 440 version, which PyPI sorts before every valid one, so its
// numbers decide nothing.
func pep440Suffix(rest string) bool {
	num := func(s string) (string, bool) { // one or more digits
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return s[i:], i > 0
	}
	ok := true
	for _, pre := range []string{"rc", "a", "b"} {
		if r, found := strings.CutPrefix(rest, pre); found {
			if rest, ok = num(r); !ok {
				return false
			}
			break
		}
	}
	if r, found := strings.CutPrefix(rest, ".post"); found {
		if rest, ok = num(r); !ok {
			return false
		}
	}
	if r, found := strings.CutPrefix(rest, ".dev"); found {
		if rest, ok = num(r); !ok {
			return false
		}
	}
	return rest == ""
}

// semverLike are the ecosystems where a leading "v" is part of the version
// syntax rather than a different version.
var semverLike = map[string]bool{
	"npm": true, "Go": true, "crates.io": true, "Hex": true, "Pub": true,
	"SwiftURL": true, "Bitnami": true, "GitHub Actions": true,
}

// qversion is a version being compared against precomputed ones: the
// installed version during a match, or an event version while sorting. It
// parses itself with semantic lazily, once, when it meets a version that
// only semantic can order.
type qversion struct {
	version
	s        string
	eco      string
	semTried bool
	tieTried bool
	bad      bool // neither path could parse it
}

func newQVersion(eco, s string) *qversion {
	q := new(qversion)
	q.init(eco, s)
	return q
}

// init sets q to s parsed in eco, without allocating for plain versions.
func (q *qversion) init(eco, s string) {
	if eco == "RubyGems" {
		s = gemVersion(s)
	}
	*q = qversion{s: s, eco: eco}
	if fastEcosystems[eco] {
		v, rest, ok := parseFast(s, semverLike[eco])
		if ok {
			q.version = v
			return
		}
		if v.prefix && (plainOnly[eco] || eco == "PyPI" && !pep440Suffix(rest)) {
			v = version{}
		}
		if v.prefix {
			// Parse with semantic only if a tie needs it.
			q.version = v
			return
		}
		if semverLike[eco] && !startsNumeric(s) {
			// SemVer starts with a number; semantic's parser would read
			// "nightly.2026-03-10.0" or "latest" as 0, below every
			// release, and match it against every range.
			q.semTried, q.bad = true, true
			return
		}
	}
	q.ensureSem()
}

// gemVersion is a RubyGems version as Gem::Version orders it: a platform
// gem's version without its platform ("1.15.4-x86_64-linux", "9.4.3.0-java",
// as lockfiles and purls carry them, are 1.15.4 and 9.4.3.0), and any
// other hyphen read as ".pre." ("4.0.0-beta.2" is "4.0.0.pre.beta.2", above
// 4.0.0.beta and below 4.0.0), where semantic compares it as written.
func gemVersion(s string) string {
	if !strings.Contains(s, "-") {
		return s
	}
	if m := gemPlatform.FindStringIndex(s); m != nil && m[0] > 0 {
		s = s[:m[0]]
	}
	return strings.ReplaceAll(s, "-", ".pre.")
}

// gemPlatform is the platform at the end of a platform gem's version.
var gemPlatform = regexp.MustCompile(`-(?:java|jruby|dalvik|mswin(?:32|64)?|mingw32|x64-mingw(?:32|-ucrt)|universal-[a-z0-9_.]+|(?:x86_64|x86|i[3-6]86|aarch64|arm64|arm|armv[0-9a-z]+|powerpc64le|ppc64le|s390x|riscv64|sparc)-[a-z0-9_.]+(?:-[a-z0-9_.]+)?)$`)

// startsNumeric reports whether s starts with a digit, after an optional
// "v".
func startsNumeric(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

func (q *qversion) ensureSem() {
	if q.semTried {
		return
	}
	q.semTried = true
	sv, err := semantic.Parse(q.s, semanticEcosystem(q.eco))
	if err != nil {
		q.bad = q.nfast == 0 || q.prefix
		return
	}
	q.sem = sv
}

// cmp orders q against e, whose string form is es. ok is false when the two
// cannot be ordered (a version semantic refuses, or mismatched types).
func (q *qversion) cmp(e *version, es string) (c int, ok bool) {
	if q.eco == "RubyGems" {
		es = gemVersion(es) // as e was parsed
	}
	if q.nfast != 0 && e.nfast != 0 {
		for i := range len(q.fast) {
			if q.fast[i] != e.fast[i] {
				if q.fast[i] < e.fast[i] {
					return -1, true
				}
				return 1, true
			}
		}
		if !q.prefix && !e.prefix {
			if lengthOrders[q.eco] {
				return cmpInt(int(q.nfast), int(e.nfast)), true
			}
			return 0, true
		}
		// Same numbers, and a qualifier on at least one side: on one
		// side only, that side's tie decides; on both, semantic.
		if !q.prefix && e.tieKnown {
			return -int(e.tie), true
		}
		if !e.prefix {
			if q.ensureTie(); q.tieKnown {
				return int(q.tie), true
			}
		}
	}
	if q.s == es {
		// The same string is the same version (e parsed, so q would):
		// no need to parse q to learn it.
		return 0, true
	}
	if e.sem == nil { // e is plain numeric: parse es in q's terms
		q.ensureSem()
		if q.sem == nil {
			return 0, false
		}
		c, err := q.sem.CompareStr(es)
		return c, err == nil
	}
	q.ensureSem()
	if q.sem == nil {
		return 0, false
	}
	c, err := q.sem.Compare(e.sem)
	return c, err == nil
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
