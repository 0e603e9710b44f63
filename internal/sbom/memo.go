package sbom

import (
	"regexp"
	"sync"
)

// memo returns m[key], computing it with compute the first time and
// keeping it: the per-scan caches of what a reader shares between files
// (a build's scripts, a POM's coordinates, a BOM). mu guards m; compute
// runs outside it, so two readers may compute one key at once, and both
// results are the same.
func memo[V any](mu *sync.Mutex, m map[string]V, key string, compute func() V) V {
	mu.Lock()
	v, ok := m[key]
	mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	mu.Lock()
	m[key] = v
	mu.Unlock()
	return v
}

// lazyRegexp returns a function that compiles expr on its first call and
// then returns the compiled expression. The package's patterns are for
// build files of a few formats, which most scans never read, and the
// agent starts anew for every gate run: compiling all of them at start
// took about 4 ms of every run. patterns keeps each expression, so that a
// test compiles them all.
func lazyRegexp(expr string) func() *regexp.Regexp {
	patterns = append(patterns, expr)
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// patterns are the expressions given to lazyRegexp.
var patterns []string
