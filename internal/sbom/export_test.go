package sbom

import (
	"fmt"

	"github.com/google/osv-scalibr/extractor/filesystem"
)

// Test-only access to unexported names.
var (
	ExtractorNames  = extractorNames
	GraphFormats    = func() []string { return graphFormats }
	ZipFiles        = zipFiles
	DevRequirements = devRequirements
	CondaSpec       = condaSpec
)

// NewExtractor builds the registered extractor of that name.
func NewExtractor(name string) (filesystem.Extractor, error) {
	exs, err := newExtractors(AllKinds)
	if err != nil {
		return nil, err
	}
	for _, ex := range exs {
		if ex.Name() == name {
			return ex, nil
		}
	}
	return nil, fmt.Errorf("no extractor %q", name)
}
