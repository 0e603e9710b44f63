package intel

import (
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/google/osv-scalibr/semantic"
)

// Versions lists: an OSV "versions" entry compared with a query version in
// the ecosystem's order where it is known, by string where it is not.

// orderKnown reports whether the semantic package orders versions of the
// base ecosystem.
func (idx *Index) orderKnown(base string) bool {
	ok, seen := idx.ordered[base]
	if !seen {
		_, err := semantic.Parse("0", semanticEcosystem(base))
		ok = !errors.Is(err, semantic.ErrUnsupportedEcosystem)
		idx.ordered[base] = ok
	}
	return ok
}

// isListed reports whether q is in the entry's versions list: equal, in the
// ecosystem's order, to a listed version it can order, or equal as a string
// (listV, q's listVersion form) to one it cannot. When q itself cannot be
// ordered against the list, string equality is all that is left.
func (e *entry) isListed(q *qversion, listV string) bool {
	if len(e.listed) > 0 {
		ordered := true
		_, found := sort.Find(len(e.listed), func(i int) int {
			c, ok := q.cmp(&e.listed[i].v, e.listed[i].s)
			if !ok {
				ordered = false
			}
			return c
		})
		if ordered && found {
			return true
		}
		if !ordered {
			for _, l := range e.listed {
				if listVersion(e.eco, l.s) == listV {
					return true
				}
			}
		}
	}
	_, found := slices.BinarySearch(e.listedStrs, listV)
	return found
}

// listVersion is the form a version takes for versions-list string
// equality, where the ecosystem cannot order it.
func listVersion(base, v string) string {
	if semverLike[base] {
		return strings.TrimPrefix(v, "v")
	}
	return v
}
