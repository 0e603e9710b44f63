package purl

import (
	"slices"
	"strings"

	"github.com/sentinel-sca/sentinel"
)

// InventoryKey is the name under which a package is indexed and searched:
// the ecosystem's normalisation (NormalizeName: PEP 503 for PyPI, '_'
// as '-' for crates.io, ...) in lower case, so that names match
// case-insensitively in every ecosystem.
func InventoryKey(ecosystem, name string) string {
	return strings.ToLower(NormalizeName(ecosystem, strings.TrimSpace(name)))
}

// keyEcosystems are the ecosystems whose normalisation differs from plain
// lower case; every other ecosystem shares the key of "".
var keyEcosystems = []string{"", "PyPI", "crates.io"}

// SearchKeys returns the distinct keys a query name can have in any
// ecosystem: the candidates a search looks up before MatchesKey checks
// each row against its own ecosystem.
func SearchKeys(name string) []string {
	var keys []string
	for _, e := range keyEcosystems {
		if k := InventoryKey(e, name); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// ItemFromPurl builds the inventory item of a purl. When the purl has no
// OSV ecosystem (or does not parse) fallbackName, lower-cased, is the key.
func ItemFromPurl(p, fallbackName, fallbackVersion string) sentinel.InventoryItem {
	if p != "" {
		eco, name, version, err := ToEcosystem(p)
		if err == nil {
			eco = BaseEcosystem(eco)
			return sentinel.InventoryItem{Purl: p, Ecosystem: eco, Name: InventoryKey(eco, name), Version: version}
		}
	}
	return sentinel.InventoryItem{Purl: p, Name: InventoryKey("", fallbackName), Version: fallbackVersion}
}
