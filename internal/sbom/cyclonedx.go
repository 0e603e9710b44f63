package sbom

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	cdx "github.com/CycloneDX/cyclonedx-go"

	sentinel "github.com/sentinel-sca/sentinel"
)

// Property names written by Sentinel. See the package comment.
const (
	PropLocation     = "sentinel:location"
	PropEcosystem    = "sentinel:ecosystem"
	PropHost         = "sentinel:host"
	PropRoot         = "sentinel:root"
	PropKEV          = "sentinel:kev"
	PropKEVDateAdded = "sentinel:kev_date_added"
	PropKEVRansom    = "sentinel:kev_ransomware"
	PropNearestFix   = "sentinel:nearest_fix"
	PropEOL          = "sentinel:eol"
)

// ToolName is the name written in metadata.tools.
const ToolName = "sentinel"

// BOMOptions are the facts about a run that the components do not carry.
type BOMOptions struct {
	// ToolVersion is Sentinel's version, written in metadata.tools.
	ToolVersion string
	// Host is the host name the agent ran on (metadata property sentinel:host).
	Host string
	// Root is the scanned directory (metadata property sentinel:root, and the
	// name of metadata.component). Defaults to the Result's Root.
	Root string
	// Now is the clock for metadata.timestamp; nil means time.Now.
	Now func() time.Time
}

// NewBOM builds a CycloneDX BOM from extracted components. Each component's
// bom-ref is its purl; components are sorted by purl and the dependency graph
// is written where it is known. The serial number is derived from the content
// (components, root, host, timestamp), so equal inputs give equal bytes.
func NewBOM(components []sentinel.Component, opts BOMOptions) *cdx.BOM {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	comps := slices.Clone(components)
	slices.SortFunc(comps, func(a, b sentinel.Component) int { return strings.Compare(a.Purl, b.Purl) })

	bom := cdx.NewBOM()
	bom.SpecVersion = cdx.SpecVersion1_5
	bom.Version = 1

	rootName := opts.Root
	if rootName == "" {
		rootName = "."
	}
	meta := &cdx.Metadata{
		Timestamp: now().UTC().Format(time.RFC3339),
		Tools: &cdx.ToolsChoice{Components: &[]cdx.Component{{
			Type:    cdx.ComponentTypeApplication,
			Name:    ToolName,
			Version: opts.ToolVersion,
		}}},
		Component: &cdx.Component{
			BOMRef: "sentinel:root",
			Type:   cdx.ComponentTypeApplication,
			Name:   filepath.Base(filepath.Clean(rootName)),
		},
	}
	var mprops []cdx.Property
	if opts.Host != "" {
		mprops = append(mprops, cdx.Property{Name: PropHost, Value: opts.Host})
	}
	if opts.Root != "" {
		mprops = append(mprops, cdx.Property{Name: PropRoot, Value: opts.Root})
	}
	if len(mprops) > 0 {
		meta.Properties = &mprops
	}
	bom.Metadata = meta

	known := make(map[string]bool, len(comps))
	out := make([]cdx.Component, 0, len(comps))
	for _, c := range comps {
		if known[c.Purl] {
			continue // merged upstream; kept unique here for bom-ref uniqueness
		}
		known[c.Purl] = true
		typ := cdx.ComponentType(c.Type)
		if typ == "" {
			typ = cdx.ComponentTypeLibrary
		}
		cc := cdx.Component{
			BOMRef:     c.Purl,
			Type:       typ,
			Name:       c.Name,
			Version:    c.Version,
			PackageURL: c.Purl,
		}
		var props []cdx.Property
		if c.Ecosystem != "" {
			props = append(props, cdx.Property{Name: PropEcosystem, Value: c.Ecosystem})
		}
		for _, l := range c.Locations {
			props = append(props, cdx.Property{Name: PropLocation, Value: l})
		}
		if len(props) > 0 {
			cc.Properties = &props
		}
		out = append(out, cc)
	}
	bom.Components = &out

	var deps []cdx.Dependency
	for _, c := range comps {
		var on []string
		for _, d := range c.DependsOn {
			if known[d] && d != c.Purl {
				on = append(on, d)
			}
		}
		if len(on) == 0 {
			continue
		}
		slices.Sort(on)
		on = slices.Compact(on)
		deps = append(deps, cdx.Dependency{Ref: c.Purl, Dependencies: &on})
	}
	if len(deps) > 0 {
		bom.Dependencies = &deps
	}
	bom.SerialNumber = contentSerial(bom)
	return bom
}

// contentSerial derives a urn:uuid (RFC 4122 version 5 layout, over SHA-256)
// from the BOM's content, so that the same input yields the same serial.
func contentSerial(bom *cdx.BOM) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", bom.Metadata.Timestamp)
	if bom.Metadata.Properties != nil {
		for _, p := range *bom.Metadata.Properties {
			fmt.Fprintf(h, "%s=%s\x00", p.Name, p.Value)
		}
	}
	for _, c := range *bom.Components {
		fmt.Fprintf(h, "%s\x00", c.BOMRef)
		if c.Properties != nil {
			for _, p := range *c.Properties {
				fmt.Fprintf(h, "%s=%s\x00", p.Name, p.Value)
			}
		}
	}
	if bom.Dependencies != nil {
		for _, d := range *bom.Dependencies {
			fmt.Fprintf(h, "%s>%s\x00", d.Ref, strings.Join(*d.Dependencies, ","))
		}
	}
	sum := h.Sum(nil)[:16]
	sum[6] = (sum[6] & 0x0f) | 0x50 // version 5 layout
	sum[8] = (sum[8] & 0x3f) | 0x80 // RFC 4122 variant
	x := hex.EncodeToString(sum)
	return "urn:uuid:" + x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

// Encode writes bom as indented CycloneDX 1.5 JSON. The cyclonedx-go library
// defaults to its newest spec; the version is pinned here because the service
// specification says SBOMs are CycloneDX 1.5. Encode does not modify bom.
func Encode(w io.Writer, bom *cdx.BOM) error {
	enc := cdx.NewBOMEncoder(w, cdx.BOMFileFormatJSON)
	enc.SetPretty(true)
	enc.SetEscapeHTML(false)
	if err := enc.EncodeVersion(bom, cdx.SpecVersion1_5); err != nil {
		return fmt.Errorf("encode cyclonedx 1.5: %w", err)
	}
	return nil
}

// Marshal is Encode into a byte slice.
func Marshal(bom *cdx.BOM) ([]byte, error) {
	var buf bytes.Buffer
	if err := Encode(&buf, bom); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
