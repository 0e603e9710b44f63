package iocs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/osv-scalibr/semantic"
)

// Versions is a parsed version expression of one ecosystem. The grammar:
//
//	expr  = "*" | alt { "||" alt }
//	alt   = part { "," part }
//	part  = term { " " term }          every term must hold
//	term  = [ op ] version
//	op    = "=" | "==" | "!=" | ">" | ">=" | "<" | "<="
//
// A bare version is "=". Commas list versions ("1.0.0, 1.0.1" is either
// one), but between bounds a comma means "and", as in PEP 440, Cargo and
// Composer: ">=1.2.0, <1.3.0" is the range from 1.2.0 to 1.3.0, not every
// version. So consecutive parts that hold no exact version ("=" term)
// must all hold; a part with an exact version is an alternative of its
// own. Versions compare with the ecosystem's own order (PEP 440 for PyPI,
// SemVer for npm, Maven's rules, Debian's, ...), so "=1.0" matches PyPI's
// 1.0.0; a pre-release is ordered like any version (1.3.0-beta.1 is below
// 1.3.0), not left out as npm's ranges do. Every version must start with a
// number. Examples:
//
//   - every version
//     =4.17.20              one version
//     1.0.0, 1.0.1          a list
//     >=1.2.0 <1.3.0        a range (also ">=1.2.0, <1.3.0")
//     <2.0.0 || >=3.0.0 <3.1.0
//     1.0.0, >=2.0.0 <2.1.0 a version and a range
type Versions struct {
	eco  string
	all  bool
	alts [][]term
}

type term struct {
	op string
	v  semantic.Version
}

// maxExpr bounds an expression, and maxTerms the terms in it.
const (
	maxExpr  = 1024
	maxTerms = 64
)

// ParseVersions reads expr for ecosystem eco (an OSV ecosystem name).
// Errors name what is wrong in one sentence.
func ParseVersions(eco, expr string) (*Versions, error) {
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return nil, fmt.Errorf("versions is empty: give a list (1.0.0, 1.0.1), a range (>=1.2.0 <1.3.0) or *")
	}
	if len(expr) > maxExpr {
		return nil, fmt.Errorf("versions is longer than %d characters", maxExpr)
	}
	vs := &Versions{eco: eco}
	if expr == "*" {
		vs.all = true
		return vs, nil
	}
	n := 0
	for _, alt := range strings.Split(expr, "||") {
		if strings.TrimSpace(alt) == "" {
			return nil, fmt.Errorf("versions %q has an empty alternative", expr)
		}
		// bounds collects consecutive parts without an exact version:
		// they are one alternative whose terms must all hold.
		var bounds []term
		for _, part := range strings.Split(alt, ",") {
			ts, err := parseTerms(eco, expr, part)
			if err != nil {
				return nil, err
			}
			if n += len(ts); n > maxTerms {
				return nil, fmt.Errorf("versions has more than %d terms", maxTerms)
			}
			if slices.ContainsFunc(ts, func(t term) bool { return t.op == "=" }) {
				if bounds != nil {
					vs.alts, bounds = append(vs.alts, bounds), nil
				}
				vs.alts = append(vs.alts, ts)
				continue
			}
			bounds = append(bounds, ts...)
		}
		if bounds != nil {
			vs.alts = append(vs.alts, bounds)
		}
	}
	return vs, nil
}

// parseTerms reads one part of expr: terms separated by spaces.
func parseTerms(eco, expr, part string) ([]term, error) {
	fields := strings.Fields(part)
	if len(fields) == 0 {
		return nil, fmt.Errorf("versions %q has an empty alternative", expr)
	}
	var ts []term
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		op, rest := splitOp(f)
		if rest == "" && i+1 < len(fields) { // an operator written apart: ">= 1.2.0"
			i++
			rest = fields[i]
		}
		if rest == "" || strings.ContainsAny(rest, "<>=!*") {
			return nil, fmt.Errorf("versions %q: %q is not an operator and a version", expr, f)
		}
		// Every ecosystem's versions start with a number (after a "v",
		// or a Debian epoch); the version libraries accept nearly any
		// text, so a typo would otherwise match nothing silently.
		if d := strings.TrimPrefix(rest, "v"); d == "" || d[0] < '0' || d[0] > '9' {
			return nil, fmt.Errorf("versions %q: %q is not a version (versions start with a number)", expr, rest)
		}
		v, err := semantic.Parse(rest, eco)
		if err != nil {
			return nil, fmt.Errorf("versions %q: %q is not a %s version", expr, rest, eco)
		}
		ts = append(ts, term{op, v})
	}
	return ts, nil
}

func splitOp(s string) (op, rest string) {
	for _, o := range []string{">=", "<=", "==", "!=", ">", "<", "="} {
		if r, ok := strings.CutPrefix(s, o); ok {
			if o == "==" {
				o = "="
			}
			return o, r
		}
	}
	return "=", s
}

// Contains reports whether version v of the ecosystem is in the
// expression; false when v does not parse as one of its versions.
func (vs *Versions) Contains(v string) bool {
	if vs.all {
		return true
	}
	if v == "" {
		return false
	}
	pv, err := semantic.Parse(v, vs.eco)
	if err != nil {
		return false
	}
	for _, alt := range vs.alts {
		ok := true
		for _, t := range alt {
			if !holds(t.op, compare(pv, t.v)) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func compare(a, b semantic.Version) int {
	c, err := a.Compare(b)
	if err != nil {
		return 2 // incomparable: no operator holds
	}
	return c
}

func holds(op string, c int) bool {
	if c == 2 {
		return false
	}
	switch op {
	case "=":
		return c == 0
	case "!=":
		return c != 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	}
	return false
}
