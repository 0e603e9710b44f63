package sbom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	packageurl "github.com/package-url/packageurl-go"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// An SBOM as input.
//
// ReadSBOM reads an SBOM another tool made (Syft, cdxgen, npm sbom, Trivy,
// or Sentinel itself) into the Result that Extract gives for a tree, so that
// the CI gate and enrichment work on it as on extracted components:
//
//   - CycloneDX 1.2 to 1.7 JSON, through Decode (and CycloneDX 1.0 to 1.7
//     XML, converted to JSON first: read_convert.go): components with a purl
//     (nested ones included), their licenses and locations (Sentinel's
//     sentinel:location, Syft's syft:location:N:path and cdxgen's SrcFile
//     properties, and evidence.occurrences), the
//     dependency graph by bom-ref, and metadata.component as the project;
//   - SPDX 2.2 and 2.3 JSON (and SPDX 2.1-2.3 tag-value and YAML,
//     converted to 2.3 JSON first): packages with a purl external reference
//     ("PACKAGE-MANAGER"/"PACKAGE_MANAGER", type purl), licenseDeclared (else
//     licenseConcluded; NOASSERTION and NONE are no license), the
//     DEPENDS_ON and *_DEPENDENCY_OF relationships as the graph, the
//     files each package was found in (Syft's "evident-by" relationships,
//     else the paths its sourceInfo ends with), and the
//     described package (documentDescribes or DESCRIBES) as the project when
//     it has a purl.
//
// A component without a purl cannot be matched against advisories: it is
// left out and counted in a warning, unless it is not a package at all (a
// source file, data, a model: notPackage), which is only left out.
// Result.Files has one entry for the document; Result.Root is empty.

// notPackage are the CycloneDX component types that name no package: Syft
// lists every file it read as a "file" component, cyclonedx-gomod each
// source file of a module; Trivy and Syft name an image's operating system
// ("ubuntu 22.04"), whose packages are the image's components. Without a
// purl they are not components an advisory could name, and warning that
// they cannot be matched says nothing.
var notPackage = map[string]bool{
	"file":                   true,
	"operating-system":       true,
	"data":                   true,
	"machine-learning-model": true,
	"cryptographic-asset":    true,
}

// ReadSBOM reads a CycloneDX (JSON or XML) or SPDX (JSON, YAML or tag-value;
// SPDX 3 JSON-LD) SBOM. The error wraps
// ErrUnsupportedSBOM when the document is neither.
//
// A document wrapped in an envelope (unwrap.go: GitHub's API answer, an
// in-toto attestation, a DSSE envelope, a Sigstore bundle) is read as the
// SBOM it holds.
func ReadSBOM(data []byte) (*Result, error) {
	res, err := readSBOM(data)
	if err != nil {
		if inner, ok := unwrapSBOM(bytes.TrimLeft(plainText(data), " \t\r\n")); ok {
			r, err2 := readSBOM(inner)
			if err2 != nil {
				return nil, &DecodeError{msg: "the document is an envelope (an attestation or an API answer) whose content is not an SBOM: " + err2.Error(), err: err2}
			}
			return r, nil
		}
	}
	return res, err
}

// readSBOM is ReadSBOM on a document that is not wrapped.
func readSBOM(data []byte) (*Result, error) {
	data = plainText(data)
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case isSPDXJSON(trimmed):
		return readSPDX(trimmed)
	case isSPDX3(trimmed):
		doc, err := spdx3Doc(trimmed)
		if err != nil {
			return nil, err
		}
		return readSPDXDoc(doc), nil
	case isSPDXTagValue(trimmed):
		j, err := spdxFromTagValue(trimmed)
		if err != nil {
			return nil, err
		}
		return readSPDX(j)
	case isSPDXYAML(trimmed):
		j, err := spdxFromYAML(trimmed)
		if err != nil {
			return nil, err
		}
		return readSPDX(j)
	case len(trimmed) > 0 && trimmed[0] == '<':
		j, err := cycloneDXFromXML(trimmed)
		if err != nil {
			return nil, err
		}
		data = j
	}
	doc, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return doc.result(), nil
}

// ReadSBOMFile is ReadSBOM on a file; the Result's file is named after it.
func ReadSBOMFile(path string) (*Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read sbom %q: %w", path, err)
	}
	res, err := ReadSBOM(b)
	if err != nil {
		return nil, fmt.Errorf("read sbom %q: %w", path, err)
	}
	for i := range res.Files {
		res.Files[i].Path = path
	}
	for i := range res.Warnings {
		res.Warnings[i].Path = path
	}
	return res, nil
}

// isSPDXTagValue reports whether b is an SPDX tag-value document: an
// SPDXVersion tag on one of its first lines.
func isSPDXTagValue(b []byte) bool { return startsALine(b, "SPDXVersion:") }

// isSPDXYAML reports whether b is an SPDX 2 YAML document: a top-level
// spdxVersion key on one of its first lines.
func isSPDXYAML(b []byte) bool {
	return len(b) > 0 && b[0] != '{' && b[0] != '<' && startsALine(b, "spdxVersion:")
}

// startsALine reports whether one of the first lines of b (its first 4
// KiB) starts with prefix.
func startsALine(b []byte, prefix string) bool {
	head := b[:min(len(b), 4096)]
	return bytes.HasPrefix(head, []byte(prefix)) || bytes.Contains(head, []byte("\n"+prefix))
}

// isSPDXJSON reports whether a JSON document has an "spdxVersion" member
// before any "bomFormat" one.
func isSPDXJSON(b []byte) bool {
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case "spdxVersion":
			return true
		case "bomFormat":
			return false
		}
		if err := dec.Decode(&skipValue{}); err != nil {
			return false
		}
	}
	return false
}

// component converts one document component; ok is false without a usable
// purl.
func sbomComponent(p, group, name, version, typ string, locations, licenses []string) (sentinel.Component, bool) {
	if p == "" {
		return sentinel.Component{}, false
	}
	p = purl.Repair(p) // "pkg:npm/@babel%2Ftraverse@7.17.3", as older Syft writes it
	u, eco, osvName, err := purl.Resolve(p)
	if err != nil && !errors.Is(err, purl.ErrUnsupported) {
		return sentinel.Component{}, false
	}
	// GitHub's dependency graph names a package with its ecosystem in
	// front ("maven:org.apache.zookeeper:zookeeper", "npm:lodash").
	if i := strings.IndexByte(name, ':'); i > 0 && osvName != "" && group == "" && strings.EqualFold(name[i+1:], osvName) {
		name = name[i+1:]
	}
	if group != "" {
		sep := "/" // npm "@scope/name", Go and others path-like
		if eco == "Maven" {
			sep = ":"
		}
		name = group + sep + name
	}
	if name == "" {
		name = u.Name
	}
	if version == "" {
		version = u.Version
	}
	if typ == "" {
		typ = "library"
	}
	return sentinel.Component{
		Purl:      p,
		Ecosystem: eco,
		Name:      name,
		Version:   version,
		Type:      typ,
		Locations: locations,
		Licenses:  licenses,
	}, true
}

// result converts a decoded CycloneDX document.
func (d *Document) result() *Result {
	deps := make(map[string][]string, len(d.Dependencies))
	for _, dep := range d.Dependencies {
		deps[dep.Ref] = append(deps[dep.Ref], dep.DependsOn...)
	}
	refToPurl := make(map[string]string, len(d.Components)+1)
	for _, c := range d.Components {
		if !c.NoPurl && c.BOMRef != "" {
			refToPurl[c.BOMRef] = c.Purl
		}
	}
	m := d.Metadata
	if m.ComponentRef != "" && m.ComponentPurl != "" {
		refToPurl[m.ComponentRef] = m.ComponentPurl
	}
	edges := func(ref string) []string {
		var out []string
		for _, r := range deps[ref] {
			if p, ok := refToPurl[r]; ok {
				out = append(out, p)
			}
		}
		return out
	}
	fileLocs := fileLocations(d.Components, deps)
	res := &Result{}
	out := make([]sentinel.Component, 0, len(d.Components))
	var projects []sentinel.Component
	var left leftOut
	for _, c := range d.Components {
		if c.NoPurl && (notPackage[c.Type] || c.File) {
			continue // a source file, data, a lockfile: nothing an advisory names
		}
		locs := c.Locations
		if len(locs) == 0 {
			locs = fileLocs[c.BOMRef]
		}
		sc, ok := sbomComponent(c.Purl, c.Group, c.Name, c.Version, c.Type, locs, c.Licenses)
		if c.NoPurl || !ok {
			name := c.Name
			if c.Group != "" {
				name = c.Group + "/" + name
			}
			left.add(c.Purl, name, c.Version)
			continue
		}
		sc.DependsOn = edges(c.BOMRef)
		sc.Properties = c.Properties
		sc.Development = c.Development
		if c.Type == "application" && len(c.Locations) > 0 && projectLocation(c.Locations[0]) {
			// A project NewBOM wrote beside metadata.component.
			sc.DependsOn = sortedUnique(sc.DependsOn)
			if len(sc.DependsOn) == 0 {
				sc.DependsOn = nil
			}
			projects = append(projects, sc)
			continue
		}
		out = append(out, sc)
	}
	res.Components = mergeComponents(goPackagesOfModules(out))
	if p, ok := sbomComponent(m.ComponentPurl, "", m.ComponentName, m.ComponentVersion, "application", []string{"sbom"}, m.ComponentLicenses); ok {
		p.DependsOn = sortedUnique(edges(m.ComponentRef))
		if len(p.DependsOn) == 0 {
			p.DependsOn = nil
		}
		// A project that is also listed as a component is the project.
		res.Components = slices.DeleteFunc(res.Components, func(c sentinel.Component) bool { return c.Purl == p.Purl })
		res.Projects = []sentinel.Component{p}
	} else if m.ComponentName != "" {
		// A subject without a purl (a product, a service), or with one
		// that names no package ("pkg:swift/app@latest", without the
		// namespace the type needs), is still the project: its name,
		// version and direct dependencies.
		res.Projects = []sentinel.Component{unnamedProject(m.ComponentName, m.ComponentVersion, m.ComponentLicenses, edges(m.ComponentRef))}
	}
	res.Projects = append(res.Projects, projects...)
	res.Files = []File{{Path: "sbom", Extractor: "cyclonedx-" + d.SpecVersion, Packages: len(res.Components), Graph: len(d.Dependencies) > 0}}
	if r := left.reason("components"); r != "" {
		res.Warnings = append(res.Warnings, FileError{Path: "sbom", Extractor: "cyclonedx-" + d.SpecVersion, Reason: r})
	}
	return res
}

// maxFileLocations bounds the files fileLocations gives one component: a
// package in more lockfiles than that is not followed further from the
// next, so that a document of many files over one large graph is read in
// time linear in its size.
const maxFileLocations = 16

// fileLocations are, by bom-ref, the files the components were found in
// where the document says so with its graph: a component that stands for
// a file (DocumentComponent.File, Trivy's) depends on the packages read
// from it, and they on theirs.
func fileLocations(comps []DocumentComponent, deps map[string][]string) map[string][]string {
	var out map[string][]string
	for _, f := range comps {
		if !f.File || f.BOMRef == "" {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		seen := map[string]bool{f.BOMRef: true}
		stack := slices.Clone(deps[f.BOMRef])
		for len(stack) > 0 {
			ref := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[ref] || len(out[ref]) >= maxFileLocations {
				continue
			}
			seen[ref] = true
			out[ref] = append(out[ref], f.Name)
			stack = append(stack, deps[ref]...)
		}
	}
	return out
}

// goPackagesOfModules drops the Go packages (purls with type=package, as
// cyclonedx-gomod writes them beside the modules) whose path and version
// are a module's of the same SBOM: a module's root package is the module,
// and Go advisories, keyed by module, would match it twice.
func goPackagesOfModules(comps []sentinel.Component) []sentinel.Component {
	type goKey struct {
		k   string // path@version
		pkg bool   // type=package
	}
	keys := make(map[int]goKey) // by index in comps, Go purls only
	modules := map[string]bool{}
	for i, c := range comps {
		if !strings.HasPrefix(c.Purl, "pkg:golang/") {
			continue
		}
		u, err := packageurl.FromString(c.Purl)
		if err != nil {
			continue
		}
		k := goKey{u.Namespace + "/" + u.Name + "@" + strings.TrimPrefix(u.Version, "v"), u.Qualifiers.Map()["type"] == "package"}
		keys[i] = k
		if !k.pkg {
			modules[k.k] = true
		}
	}
	if len(modules) == 0 {
		return comps
	}
	out := comps[:0]
	for i, c := range comps {
		if k, ok := keys[i]; ok && k.pkg && modules[k.k] {
			continue
		}
		out = append(out, c)
	}
	return out
}

// leftOut are the components of an SBOM that cannot be matched: those
// without a purl, and those whose purl does not parse, by name and version.
type leftOut struct{ none, bad []string }

func (l *leftOut) add(purl, name, version string) {
	n := strings.TrimSpace(name + " " + version)
	switch {
	case purl != "":
		l.bad = append(l.bad, fmt.Sprintf("%s %q", n, purl))
	case n == "":
		l.none = append(l.none, "(unnamed)")
	default:
		l.none = append(l.none, n)
	}
}

// reason is the warning that says which were left out, "" when none
// were; what is "components" or "packages".
func (l *leftOut) reason(what string) string {
	some := func(xs []string) string {
		if len(xs) <= 3 {
			return strings.Join(xs, ", ")
		}
		return strings.Join(xs[:3], ", ") + fmt.Sprintf(" and %d more", len(xs)-3)
	}
	var parts []string
	if len(l.none) > 0 {
		parts = append(parts, fmt.Sprintf("%d %s without a purl (%s)", len(l.none), what, some(l.none)))
	}
	if len(l.bad) > 0 {
		parts = append(parts, fmt.Sprintf("%d with a purl that does not parse (%s)", len(l.bad), some(l.bad)))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " and ") + " are left out: they cannot be matched against advisories"
}

// unnamedProject is the project of an SBOM whose subject has no purl.
func unnamedProject(name, version string, licenses, dependsOn []string) sentinel.Component {
	p := sentinel.Component{Name: name, Version: version, Type: "application", Locations: []string{"sbom"}, Licenses: licenses}
	if p.DependsOn = sortedUnique(dependsOn); len(p.DependsOn) == 0 {
		p.DependsOn = nil
	}
	return p
}

// SPDX

type spdxDoc struct {
	SPDXVersion       string             `json:"spdxVersion"`
	SPDXID            string             `json:"SPDXID"`
	DocumentDescribes []string           `json:"documentDescribes"`
	Packages          []spdxPackage      `json:"packages"`
	Files             []spdxFile         `json:"files"`
	Relationships     []spdxRelationship `json:"relationships"`
}

type spdxFile struct {
	SPDXID   string `json:"SPDXID"`
	FileName string `json:"fileName"`
}

type spdxPackage struct {
	SPDXID           string            `json:"SPDXID"`
	Name             string            `json:"name"`
	VersionInfo      string            `json:"versionInfo"`
	LicenseConcluded string            `json:"licenseConcluded"`
	LicenseDeclared  string            `json:"licenseDeclared"`
	PrimaryPurpose   string            `json:"primaryPackagePurpose"`
	SourceInfo       string            `json:"sourceInfo"`
	ExternalRefs     []spdxExternalRef `json:"externalRefs"`
}

type spdxExternalRef struct {
	Category string `json:"referenceCategory"`
	Type     string `json:"referenceType"`
	Locator  string `json:"referenceLocator"`
}

type spdxRelationship struct {
	Element string `json:"spdxElementId"`
	Type    string `json:"relationshipType"`
	Related string `json:"relatedSpdxElement"`
	Comment string `json:"comment"`
}

// looksLikePath reports whether s, the end of a sourceInfo, is a file's
// path rather than prose: it has a separator, or a dot and no space
// ("yarn.lock").
func looksLikePath(s string) bool {
	return s != "" && len(s) <= 4096 && (strings.ContainsAny(s, "/\\") || strings.Contains(s, ".") && !strings.Contains(s, " "))
}

// spdxLocations are the files each package was found in, by SPDX id:
// the files an "evident-by" relationship names (Syft: OTHER, with a
// comment starting "evident-by"), else the paths a package's sourceInfo
// ends with ("acquired package info from yarn.lock: /app/yarn.lock",
// "package found in: app/package-lock.json").
func spdxLocations(doc *spdxDoc) map[string][]string {
	out := map[string][]string{}
	files := make(map[string]string, len(doc.Files))
	for _, f := range doc.Files {
		files[f.SPDXID] = f.FileName
	}
	for _, r := range doc.Relationships {
		if r.Type == "OTHER" && strings.HasPrefix(r.Comment, "evident-by") && files[r.Related] != "" {
			out[r.Element] = append(out[r.Element], files[r.Related])
		}
	}
	for _, p := range doc.Packages {
		if len(out[p.SPDXID]) > 0 {
			continue
		}
		i := strings.LastIndex(p.SourceInfo, ": ")
		if i < 0 {
			continue
		}
		for _, f := range strings.Split(p.SourceInfo[i+2:], ", ") {
			if f = strings.TrimSpace(f); looksLikePath(f) {
				out[p.SPDXID] = append(out[p.SPDXID], f)
			}
		}
	}
	return out
}

func readSPDX(data []byte) (*Result, error) {
	var doc spdxDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, jsonError(err, "")
	}
	if v := strings.TrimPrefix(doc.SPDXVersion, "SPDX-"); v != "2.2" && v != "2.3" {
		return nil, reject("unsupported SPDX version %q; SPDX 2.2 and 2.3 JSON are read", truncate(doc.SPDXVersion))
	}
	return readSPDXDoc(&doc), nil
}

// readSPDXDoc reads the packages of an SPDX 2 document, or of an SPDX 3
// one as spdx3Doc gives it.
// spdxDevelopment returns the packages only development needs, as an
// SPDX document's relationships say (npm sbom writes DEV_DEPENDENCY_OF
// for the project's devDependencies, SPDX 3 a lifecycle scope): those
// reachable from a development edge's target and not from what the
// described packages need otherwise. Edges are followed from a package
// to what it depends on; a development edge is not followed for runtime.
func spdxDevelopment(described []string, edges map[string][]string, devEdges map[[2]string]bool) map[string]bool {
	if len(devEdges) == 0 || len(described) == 0 {
		return nil
	}
	reach := func(from []string) map[string]bool {
		seen := map[string]bool{}
		stack := slices.Clone(from)
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[id] {
				continue
			}
			seen[id] = true
			for _, to := range edges[id] {
				if !devEdges[[2]string{id, to}] {
					stack = append(stack, to)
				}
			}
		}
		return seen
	}
	runtime := reach(described)
	var starts []string
	for e := range devEdges {
		if runtime[e[0]] {
			starts = append(starts, e[1])
		}
	}
	dev := map[string]bool{}
	for id := range reach(starts) {
		if !runtime[id] {
			dev[id] = true
		}
	}
	return dev
}

func readSPDXDoc(doc *spdxDoc) *Result {
	v := strings.TrimPrefix(doc.SPDXVersion, "SPDX-")
	type pkg struct {
		comp sentinel.Component
		ok   bool
	}
	pkgs := make(map[string]pkg, len(doc.Packages))
	locations := spdxLocations(doc)
	described := slices.Clone(doc.DocumentDescribes)
	edges := map[string][]string{}
	devEdges := map[[2]string]bool{} // from, to: for development only
	// A package without a purl that the document describes, or that
	// contains others (Trivy lists each lockfile as an application that
	// CONTAINS its packages), is no package left out unmatched.
	contains := map[string]bool{}
	for _, r := range doc.Relationships {
		switch t := r.Type; {
		case t == "CONTAINS":
			contains[r.Element] = true
		case t == "DESCRIBES" && r.Element == doc.SPDXID:
			described = append(described, r.Related)
		case t == "DESCRIBED_BY" && r.Related == doc.SPDXID:
			described = append(described, r.Element)
		case t == "DEPENDS_ON" || t == "DEV_DEPENDS_ON":
			edges[r.Element] = append(edges[r.Element], r.Related)
			if t == "DEV_DEPENDS_ON" {
				devEdges[[2]string{r.Element, r.Related}] = true
			}
		case strings.HasSuffix(t, "DEPENDENCY_OF"): // DEPENDENCY_OF, DEV_DEPENDENCY_OF, ...
			edges[r.Related] = append(edges[r.Related], r.Element)
			if t == "DEV_DEPENDENCY_OF" || t == "TEST_DEPENDENCY_OF" {
				devEdges[[2]string{r.Related, r.Element}] = true
			}
		case t == "DEV_TOOL_OF" || t == "TEST_TOOL_OF" || t == "BUILD_TOOL_OF":
			edges[r.Related] = append(edges[r.Related], r.Element)
			devEdges[[2]string{r.Related, r.Element}] = true
		}
	}
	var left leftOut
	for _, p := range doc.Packages {
		var pu string
		for _, r := range p.ExternalRefs {
			cat := strings.ReplaceAll(r.Category, "_", "-")
			if r.Type == "purl" && (cat == "PACKAGE-MANAGER" || cat == "PACKAGE_MANAGER") {
				pu = r.Locator
				break
			}
		}
		var licenses []string
		for _, l := range []string{p.LicenseDeclared, p.LicenseConcluded} {
			if l != "" && l != "NOASSERTION" && l != "NONE" {
				licenses = appendLicense(nil, l)
				break
			}
		}
		typ := "library"
		if p.PrimaryPurpose == "APPLICATION" {
			typ = "application"
		}
		c, ok := sbomComponent(pu, "", p.Name, p.VersionInfo, typ, locations[p.SPDXID], licenses)
		if !ok {
			if !contains[p.SPDXID] && !slices.Contains(described, p.SPDXID) {
				left.add(pu, p.Name, p.VersionInfo)
			}
			c.Licenses = licenses // for a described package without a purl
		}
		pkgs[p.SPDXID] = pkg{c, ok}
	}
	dev := spdxDevelopment(described, edges, devEdges)
	purlOf := func(id string) (string, bool) {
		p, ok := pkgs[id]
		return p.comp.Purl, ok && p.ok
	}
	res := &Result{}
	var project *sentinel.Component
	for _, id := range described {
		if p, ok := pkgs[id]; ok && p.ok {
			c := p.comp
			c.Type = "application"
			c.Locations = []string{"sbom"}
			project = &c
			break
		}
	}
	if project == nil {
		// A described package without a purl (a product, a container
		// image) is still the project, by name.
		for _, p := range doc.Packages {
			if slices.Contains(described, p.SPDXID) && p.Name != "" {
				c := unnamedProject(p.Name, p.VersionInfo, pkgs[p.SPDXID].comp.Licenses, nil)
				project = &c
				break
			}
		}
	}
	var comps []sentinel.Component
	for _, p := range doc.Packages {
		k := pkgs[p.SPDXID]
		if !k.ok || (project != nil && project.Purl != "" && k.comp.Purl == project.Purl) {
			continue
		}
		c := k.comp
		if dev[p.SPDXID] {
			c.Development = true
		}
		for _, to := range edges[p.SPDXID] {
			if pu, ok := purlOf(to); ok {
				c.DependsOn = append(c.DependsOn, pu)
			}
		}
		comps = append(comps, c)
	}
	res.Components = mergeComponents(comps)
	if project != nil {
		for _, id := range described {
			for _, to := range edges[id] {
				if pu, ok := purlOf(to); ok {
					project.DependsOn = append(project.DependsOn, pu)
				}
			}
		}
		project.DependsOn = sortedUnique(project.DependsOn)
		if len(project.DependsOn) == 0 {
			project.DependsOn = nil
		}
		res.Projects = []sentinel.Component{*project}
	}
	res.Files = []File{{Path: "sbom", Extractor: "spdx-" + v, Packages: len(res.Components), Graph: len(edges) > 0}}
	if r := left.reason("packages"); r != "" {
		res.Warnings = append(res.Warnings, FileError{Path: "sbom", Extractor: "spdx-" + v, Reason: r})
	}
	return res
}

// projectLocation reports whether a project can be located at p: its
// manifest, or a lockfile that names the project (lockIndex.self, a
// PATH gem, a Cargo.lock's own crate).
func projectLocation(p string) bool {
	if isProjectManifest(path.Base(p)) {
		return true
	}
	_, ok := lockReaders[lockFormat(p)]
	return ok
}
