package sbom

import (
	"context"
	"fmt"
	"io"

	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/inventory"
	"github.com/google/osv-scalibr/plugin"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
)

// ownExtractor is one of Sentinel's readers of a format scalibr v0.5.3
// does not read, or reads wrongly: its name in results, the files it
// claims (by slash-separated path) and how it reads one file's bytes (in
// gives the path and the scanned tree, for a reader that defers to a
// lockfile beside the file).
type ownExtractor struct {
	name     string
	required func(path string) bool
	read     func(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error)
}

// factory is the registry's constructor of the extractor.
func (e ownExtractor) factory() extractorFactory {
	return func(*cpb.PluginConfig) (filesystem.Extractor, error) { return e, nil }
}

// Name implements filesystem.Extractor.
func (e ownExtractor) Name() string { return e.name }

// Version implements filesystem.Extractor.
func (ownExtractor) Version() int { return 0 }

// Requirements implements filesystem.Extractor.
func (ownExtractor) Requirements() *plugin.Capabilities { return &plugin.Capabilities{} }

// FileRequired implements filesystem.Extractor.
func (e ownExtractor) FileRequired(api filesystem.FileAPI) bool { return e.required(api.Path()) }

// Extract implements filesystem.Extractor.
func (e ownExtractor) Extract(_ context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	b, err := io.ReadAll(in.Reader)
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("could not read: %w", err)
	}
	pkgs, err := e.read(in, b)
	return inventory.Inventory{Packages: pkgs}, err
}
