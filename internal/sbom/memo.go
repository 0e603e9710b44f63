package sbom

import "sync"

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
