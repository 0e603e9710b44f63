package sbom

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
)

// mixLock is scalibr's mix.lock extractor, given the file with its first
// entry on a line of its own. Mix before Elixir 1.7 wrote the map's
// opening on the first entry's line (`%{"cowboy": {:hex, :cowboy, ...},`),
// which scalibr's line patterns, made for `%{` alone on the first line,
// do not read: that first package would be lost.
type mixLock struct {
	filesystem.Extractor
}

// Extract implements filesystem.Extractor.
func (e mixLock) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	b = mixLockOpened(b)
	inv, err := extractBytes(ctx, e.Extractor, in, b)
	if err != nil {
		return inv, err
	}
	// scalibr names a Hex package by its entry's key, the name the
	// project gives it; the tuple's second element is the package on Hex
	// ("hpack": {:hex, :hpack_erl, ...}), which advisories name.
	if hex := mixHexNames(b); len(hex) > 0 {
		for _, p := range inv.Packages {
			if n, ok := hex[p.Name]; ok {
				p.Name = n
			}
		}
	}
	return inv, nil
}

// mixHexNames maps the keys of a mix.lock's Hex entries to the packages
// they install, where the two differ.
func mixHexNames(data []byte) map[string]string {
	var out map[string]string
	for line := range bytes.Lines(data) {
		if !bytes.Contains(line, []byte("{:hex,")) {
			continue
		}
		if m := mixHex().FindSubmatch(line); m != nil && string(m[1]) != string(m[2]) {
			if out == nil {
				out = map[string]string{}
			}
			out[string(m[1])] = string(m[2])
		}
	}
	return out
}

// mixLockOpened returns data with `%{` alone on its first line, followed
// by the entry that was on it, indented as Mix writes entries now.
func mixLockOpened(data []byte) []byte {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	rest, ok := bytes.CutPrefix(trimmed, []byte("%{"))
	if !ok {
		return data
	}
	first := bytes.TrimLeft(rest, " \t")
	if len(first) == 0 || first[0] != '"' {
		return data // "%{" then a newline: as Mix writes it now
	}
	out := make([]byte, 0, len(first)+5)
	out = append(out, "%{\n  "...)
	return append(out, first...)
}
