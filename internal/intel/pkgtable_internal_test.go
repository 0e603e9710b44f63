package intel

import (
	"fmt"
	"hash/maphash"
	"testing"
)

func TestPkgTable(t *testing.T) {
	var keys []string
	for i := range 5000 {
		keys = append(keys, fmt.Sprintf("npm\x00pkg-%d", i))
	}
	pkgs := make([]pkgIndex, len(keys))
	for i := range pkgs {
		pkgs[i].undecidable = []int32{int32(i)} // a mark to tell them apart
	}
	tab := newPkgTable(keys, pkgs)
	if tab.len() != len(keys) {
		t.Fatalf("len %d, want %d", tab.len(), len(keys))
	}
	for i, k := range keys {
		p, ok := tab.get(k)
		if !ok || p.undecidable[0] != int32(i) {
			t.Fatalf("get(%q) = %v, %v", k, p, ok)
		}
		h := tab.hash([]byte(k))
		if got := confirm(&tab, []byte(k), h, tab.candidate(h)); got != i {
			t.Fatalf("staged lookup of %q = %d, want %d", k, got, i)
		}
	}
	for i := range 5000 {
		k := fmt.Sprintf("npm\x00other-%d", i)
		if _, ok := tab.get(k); ok {
			t.Fatalf("get(%q) found a package", k)
		}
		h := tab.hash([]byte(k))
		if got := confirm(&tab, []byte(k), h, tab.candidate(h)); got != -1 {
			t.Fatalf("staged lookup of %q = %d, want -1", k, got)
		}
	}
	var empty pkgTable
	if _, ok := empty.get("npm\x00x"); ok {
		t.Fatal("the empty table found a package")
	}
	if c := empty.candidate(empty.hash([]byte("npm\x00x"))); c != -1 {
		t.Fatalf("the empty table has candidate %d", c)
	}
}

// TestPkgTableTagCollision puts a key whose slot carries another key's tag
// first on that key's probe: the first candidate is wrong, and the key
// comparison must send the lookup on.
func TestPkgTableTagCollision(t *testing.T) {
	tab := pkgTable{seed: maphash.MakeSeed(), keys: []string{"a", "b"}, pkgs: make([]pkgIndex, 2)}
	tab.slots = make([]uint64, 8)
	h := maphash.String(tab.seed, "b")
	mask := uint64(len(tab.slots) - 1)
	tag := h &^ (1<<32 - 1)
	tab.slots[h&mask] = tag | 1     // "a", with b's tag
	tab.slots[(h+1)&mask] = tag | 2 // "b"
	if c := tab.candidate(h); c != 0 {
		t.Fatalf("first candidate %d, want 0 (the colliding key)", c)
	}
	if got := confirm(&tab, []byte("b"), h, tab.candidate(h)); got != 1 {
		t.Fatalf("confirm = %d, want 1", got)
	}
	if p, ok := tab.get("b"); !ok || p != &tab.pkgs[1] {
		t.Fatalf("get(b) = %p, %v", p, ok)
	}
}
