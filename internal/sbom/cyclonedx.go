package sbom

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	cdx "github.com/CycloneDX/cyclonedx-go"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

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

// schema15 is the $schema of a CycloneDX 1.5 JSON document.
const schema15 = "http://cyclonedx.org/schema/bom-1.5.schema.json"

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
	// Projects are the scanned projects (Result.Projects). The first whose
	// manifest sits at the root becomes metadata.component, with its name,
	// version, purl, licenses and direct dependencies; the others are
	// written as components of type application. Without one, the
	// metadata component is named after Root.
	Projects []sentinel.Component
	// GraphFiles are the files whose dependency graph was read (the
	// Result's Files with Graph): a component located in one of them is
	// declared in the dependencies even when it depends on nothing, as
	// CycloneDX asks of a component known to have no dependencies; any
	// other component without an edge is left out of the graph (unknown).
	GraphFiles []string
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
	known := make(map[string]bool, len(comps))
	for _, c := range comps {
		known[c.Purl] = true
	}
	// Projects: bom-ref is the purl, unless a component has it already.
	var main *sentinel.Component
	var others []sentinel.Component
	refOf := map[string]string{} // project purl -> its bom-ref
	for i := range opts.Projects {
		p := opts.Projects[i]
		if len(p.Locations) == 0 {
			continue
		}
		if main == nil && !strings.Contains(p.Locations[0], "/") {
			main = &opts.Projects[i]
			continue
		}
		others = append(others, p)
	}
	usedRefs := map[string]bool{}
	projectRef := func(p *sentinel.Component) string {
		ref := p.Purl
		if ref == "" || known[ref] || usedRefs[ref] {
			// No purl, or a component or another project (two manifests
			// naming one package) has it already.
			ref = "sentinel:project:" + p.Locations[0]
			for n := 2; usedRefs[ref]; n++ { // unnamed projects of one lockfile
				ref = fmt.Sprintf("sentinel:project:%s#%d", p.Locations[0], n)
			}
		}
		usedRefs[ref] = true
		if _, dup := refOf[p.Purl]; !dup && p.Purl != "" {
			refOf[p.Purl] = ref
		}
		return ref
	}
	mc := &cdx.Component{
		BOMRef: "sentinel:root",
		Type:   cdx.ComponentTypeApplication,
		Name:   filepath.Base(filepath.Clean(rootName)),
	}
	if main != nil && main.Purl == "" {
		// An unnamed project (the root lockfile's direct dependencies), or
		// a read SBOM's subject that has no purl.
		mc.Name, mc.Version = main.Name, main.Version
		mc.Licenses = cdxLicenses(main.Licenses)
		mc.Properties = componentProperties(&sentinel.Component{Locations: main.Locations})
		usedRefs[mc.BOMRef] = true
	} else if main != nil {
		mc = projectComponent(main, projectRef(main))
	}
	meta := &cdx.Metadata{
		Timestamp: now().UTC().Format(time.RFC3339),
		Tools: &cdx.ToolsChoice{Components: &[]cdx.Component{{
			Type:    cdx.ComponentTypeApplication,
			Name:    ToolName,
			Version: opts.ToolVersion,
		}}},
		Component: mc,
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

	out := make([]cdx.Component, 0, len(comps)+len(others))
	seen := make(map[string]bool, len(comps))
	for _, c := range comps {
		if seen[c.Purl] {
			continue // merged upstream; kept unique here for bom-ref uniqueness
		}
		seen[c.Purl] = true
		typ := cdx.ComponentType(c.Type)
		if typ == "" {
			typ = cdx.ComponentTypeLibrary
		}
		group, name := cdxName(&c)
		cc := cdx.Component{
			BOMRef:     c.Purl,
			Type:       typ,
			Group:      group,
			Name:       name,
			Version:    c.Version,
			PackageURL: c.Purl,
			Licenses:   cdxLicenses(c.Licenses),
			Properties: componentProperties(&c),
		}
		if c.Development {
			cc.Scope = cdx.ScopeExcluded // for test and other non-runtime use
		}
		out = append(out, cc)
	}
	otherRefs := make([]string, len(others))
	for i := range others {
		otherRefs[i] = projectRef(&others[i])
		if seen[otherRefs[i]] {
			continue
		}
		seen[otherRefs[i]] = true
		out = append(out, *projectComponent(&others[i], otherRefs[i]))
	}
	bom.Components = &out

	// Dependencies: by bom-ref; an edge to a project's purl goes to the
	// project.
	resolve := func(d string) (string, bool) {
		if r, ok := refOf[d]; ok {
			return r, true
		}
		return d, known[d]
	}
	var deps []cdx.Dependency
	addDeps := func(ref string, dependsOn []string, graphKnown bool) {
		var on []string
		for _, d := range dependsOn {
			if r, ok := resolve(d); ok && r != ref {
				on = append(on, r)
			}
		}
		if len(on) == 0 {
			if graphKnown { // known to depend on nothing: an empty element
				deps = append(deps, cdx.Dependency{Ref: ref})
			}
			return
		}
		slices.Sort(on)
		on = slices.Compact(on)
		deps = append(deps, cdx.Dependency{Ref: ref, Dependencies: &on})
	}
	if main != nil {
		addDeps(mc.BOMRef, main.DependsOn, false)
	}
	graphFiles := make(map[string]bool, len(opts.GraphFiles))
	for _, f := range opts.GraphFiles {
		graphFiles[f] = true
	}
	for _, c := range comps {
		addDeps(c.Purl, c.DependsOn, slices.ContainsFunc(c.Locations, func(l string) bool { return graphFiles[l] }))
	}
	for i := range others {
		addDeps(otherRefs[i], others[i].DependsOn, false)
	}
	if len(deps) > 0 {
		slices.SortStableFunc(deps, func(a, b cdx.Dependency) int { return strings.Compare(a.Ref, b.Ref) })
		deps = slices.CompactFunc(deps, func(a, b cdx.Dependency) bool { return a.Ref == b.Ref })
		bom.Dependencies = &deps
	}
	bom.SerialNumber = contentSerial(bom)
	return bom
}

// cdxName is a component's CycloneDX group and name: a Maven artifact's
// groupId is its group and its artifactId its name, as the CycloneDX Maven
// plugin, Syft, cdxgen and Trivy write them (and as a reader without the
// purl expects); every other ecosystem's name is written whole.
func cdxName(c *sentinel.Component) (group, name string) {
	if c.Ecosystem == "Maven" {
		if g, a, ok := strings.Cut(c.Name, ":"); ok && g != "" && a != "" {
			return g, a
		}
	}
	return "", c.Name
}

// projectComponent writes a project as an application component.
func projectComponent(p *sentinel.Component, ref string) *cdx.Component {
	group, name := cdxName(p)
	return &cdx.Component{
		BOMRef:     ref,
		Type:       cdx.ComponentTypeApplication,
		Group:      group,
		Name:       name,
		Version:    p.Version,
		PackageURL: p.Purl,
		Licenses:   cdxLicenses(p.Licenses),
		Properties: componentProperties(p),
	}
}

// componentProperties are the sentinel:ecosystem, sentinel:location and
// other properties of a component, in a fixed order.
func componentProperties(c *sentinel.Component) *[]cdx.Property {
	var props []cdx.Property
	if c.Ecosystem != "" {
		props = append(props, cdx.Property{Name: PropEcosystem, Value: c.Ecosystem})
	}
	for _, l := range c.Locations {
		props = append(props, cdx.Property{Name: PropLocation, Value: l})
	}
	for _, k := range slices.Sorted(maps.Keys(c.Properties)) {
		props = append(props, cdx.Property{Name: k, Value: c.Properties[k]})
	}
	if len(props) == 0 {
		return nil
	}
	return &props
}

// contentSerial derives a urn:uuid (RFC 4122 version 5 layout, over SHA-256)
// from the BOM's content, so that the same input yields the same serial.
func contentSerial(bom *cdx.BOM) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", bom.Metadata.Timestamp)
	if c := bom.Metadata.Component; c != nil && c.BOMRef != "sentinel:root" {
		// A named project (the folder-named root keeps the serials it
		// always had).
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", c.BOMRef, c.Name, c.Version)
	}
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
			var on []string
			if d.Dependencies != nil {
				on = *d.Dependencies
			}
			fmt.Fprintf(h, "%s>%s\x00", d.Ref, strings.Join(on, ","))
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
	// cyclonedx-go's pretty output is indented by a second pass over a
	// copy of the document; it is encoded compact and indented as it
	// streams out instead (indent.go), to the same bytes.
	bw := bufio.NewWriterSize(w, 64<<10)
	iw := &indentWriter{w: bw}
	var err error
	if bom.SpecVersion == cdx.SpecVersion1_5 {
		// NewBOM writes only 1.5 fields: EncodeVersion's conversion (a
		// deep copy through encoding/gob, then a walk that drops newer
		// fields) would change nothing and cost a third of the writing.
		// Only the $schema it would set is set here, on a shallow copy.
		// cyclonedx-go encodes with encoding/json, which builds the whole
		// document in one growing buffer before writing it; the same
		// encoding, with encoding/json's rules (jsonv1's options), is
		// streamed instead, so that a large SBOM is written without a
		// second copy of itself in memory.
		b := *bom
		b.JSONSchema = schema15
		if err = jsonv2.MarshalWrite(iw, &b, jsonv1.DefaultOptionsV1(), jsontext.EscapeForHTML(false)); err == nil {
			_, err = iw.Write([]byte{'\n'}) // as encoding/json's Encoder ends a value
		}
	} else {
		enc := cdx.NewBOMEncoder(iw, cdx.BOMFileFormatJSON)
		enc.SetPretty(false)
		enc.SetEscapeHTML(false)
		err = enc.EncodeVersion(bom, cdx.SpecVersion1_5)
	}
	if err != nil {
		return fmt.Errorf("encode cyclonedx 1.5: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write the sbom: %w", err)
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
