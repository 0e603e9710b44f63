package intel

import (
	"hash/maphash"
	"iter"
	"math/bits"
)

// pkgTable maps package keys to their compiled packages. It is a hash table
// of its own rather than a Go map so that a batch can split a lookup into
// steps (the slot, then the package) and issue the same step for several
// keys before it needs any of them (matchChunk): against an index of
// hundreds of thousands of packages each step is a cache miss, and misses
// issued together overlap.
//
// Open addressing with linear probing over a power-of-two array of slots,
// at most half full. A slot holds the upper 32 bits of the key's hash and
// the package's index plus one (0: empty), so that a probe reads one word
// and compares the key itself only on a 32-bit match.
type pkgTable struct {
	seed  maphash.Seed
	slots []uint64
	keys  []string
	pkgs  []pkgIndex
}

// newPkgTable builds the table of the given keys and packages (same length).
func newPkgTable(keys []string, pkgs []pkgIndex) pkgTable {
	t := pkgTable{seed: maphash.MakeSeed(), keys: keys, pkgs: pkgs}
	n := 1 << bits.Len(uint(2*len(keys)))
	t.slots = make([]uint64, n)
	mask := uint64(n - 1)
	for i, k := range keys {
		h := maphash.String(t.seed, k)
		for j := h & mask; ; j = (j + 1) & mask {
			if t.slots[j] == 0 {
				t.slots[j] = h&^(1<<32-1) | uint64(i+1)
				break
			}
		}
	}
	return t
}

// len is the number of packages.
func (t *pkgTable) len() int { return len(t.pkgs) }

// all yields every key and its package, in no particular order.
func (t *pkgTable) all() iter.Seq2[string, pkgIndex] {
	return func(yield func(string, pkgIndex) bool) {
		for i := range t.pkgs {
			if !yield(t.keys[i], t.pkgs[i]) {
				return
			}
		}
	}
}

// hash is the first step of a lookup: the key's hash.
func (t *pkgTable) hash(key []byte) uint64 {
	if len(t.slots) == 0 {
		return 0 // an empty table (no seed either): every lookup misses
	}
	return maphash.Bytes(t.seed, key)
}

// slot is the first slot a key of hash h probes; reading it early is the
// point of splitting the lookup.
func (t *pkgTable) slot(h uint64) *uint64 {
	return &t.slots[h&uint64(len(t.slots)-1)]
}

// candidate returns the index of the first package whose slot, probing
// from h, carries h's tag, or -1 when the probe meets an empty slot first:
// then no package has the key. The key itself is not compared, so a
// candidate must be confirmed (confirm).
func (t *pkgTable) candidate(h uint64) int {
	if len(t.slots) == 0 {
		return -1
	}
	mask := uint64(len(t.slots) - 1)
	tag := h &^ (1<<32 - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		s := t.slots[j]
		if s == 0 {
			return -1
		}
		if s&^(1<<32-1) == tag {
			return int(uint32(s)) - 1
		}
	}
}

// confirm returns the index of the package of key (hash h, first
// candidate c), or -1.
func confirm[K string | []byte](t *pkgTable, key K, h uint64, c int) int {
	if c < 0 || t.keys[c] == string(key) {
		return c
	}
	return find(t, key, h) // two keys share the tag: rare
}

// find returns the index of the package of key (hash h), or -1.
func find[K string | []byte](t *pkgTable, key K, h uint64) int {
	if len(t.slots) == 0 {
		return -1
	}
	mask := uint64(len(t.slots) - 1)
	tag := h &^ (1<<32 - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		s := t.slots[j]
		if s == 0 {
			return -1
		}
		if s&^(1<<32-1) == tag {
			if i := int(uint32(s)) - 1; t.keys[i] == string(key) {
				return i
			}
		}
	}
}

// get returns the package of key.
func (t *pkgTable) get(key string) (*pkgIndex, bool) {
	if len(t.slots) == 0 {
		return nil, false
	}
	i := find(t, key, maphash.String(t.seed, key))
	if i < 0 {
		return nil, false
	}
	return &t.pkgs[i], true
}
