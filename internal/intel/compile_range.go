package intel

import (
	"slices"
	"sort"
)

// Compiling an OSV range into the events the index walks, and the fixed
// versions it names, in the ecosystem's order.

// compileRange parses and sorts a range's events. ok is false when a
// version does not parse. c may be nil.
func compileRange(eco string, r Range, c *buildCache) (evRange, []fixedVer, bool) {
	var out evRange
	var fixed []fixedVer
	unlimited := false
	for _, e := range r.Events {
		var x ev
		switch {
		case e.Introduced != "":
			x = ev{kind: evIntroduced, s: c.str(e.Introduced), zero: e.Introduced == "0"}
		case e.Fixed != "":
			x = ev{kind: evFixed, s: c.str(e.Fixed)}
		case e.LastAffected != "":
			x = ev{kind: evLastAffected, s: c.str(e.LastAffected)}
		case e.Limit != "":
			if e.Limit == "*" { // infinity: no other limit bounds the range
				unlimited = true
				continue
			}
			v, err := c.parse(eco, e.Limit)
			if err != nil {
				return out, nil, false
			}
			out.limits = append(out.limits, ev{s: c.str(e.Limit), v: v})
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
	if unlimited {
		out.limits = nil
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
