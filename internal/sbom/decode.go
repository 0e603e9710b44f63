package sbom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"

	packageurl "github.com/package-url/packageurl-go"

	"github.com/sentinel-sca/sentinel/internal/purl"
)

// ErrUnsupportedSBOM is wrapped by every error Decode returns: the submission
// is not JSON, not CycloneDX, or a CycloneDX version the service does not
// read. The API answers it with 400 and the error's Message.
var ErrUnsupportedSBOM = errors.New("unsupported sbom")

// DecodeError is a rejected submission. Error is a lowercase error string;
// Message is the same fact as one sentence for an API response.
type DecodeError struct {
	msg string
	err error
}

// Error implements error.
func (e *DecodeError) Error() string { return e.msg }

// Message returns the reason as one human sentence, capitalised and ending
// with a period.
func (e *DecodeError) Message() string {
	r, n := utf8.DecodeRuneInString(e.msg)
	return string(unicode.ToUpper(r)) + e.msg[n:] + "."
}

// Unwrap returns ErrUnsupportedSBOM and the underlying cause, if any.
func (e *DecodeError) Unwrap() []error {
	if e.err == nil {
		return []error{ErrUnsupportedSBOM}
	}
	return []error{ErrUnsupportedSBOM, e.err}
}

func reject(format string, args ...any) error {
	return &DecodeError{msg: fmt.Sprintf(format, args...)}
}

// SupportedSpecVersions returns the CycloneDX versions Decode accepts (1.0
// and 1.1 had no JSON encoding). The submission path accepts fewer
// (inventory.AcceptedSpecVersions); the CLI reads them all.
func SupportedSpecVersions() []string { return []string{"1.2", "1.3", "1.4", "1.5", "1.6", "1.7"} }

// Document is the part of a submitted SBOM the service keeps.
type Document struct {
	SpecVersion  string
	SerialNumber string
	Version      int
	Metadata     DocumentMetadata
	// Components lists every component, nested ones included (depth first,
	// parents before children), in document order.
	Components []DocumentComponent
	// Dependencies is the document's dependency graph, by bom-ref.
	Dependencies []Dependency
}

// DocumentMetadata is the document's metadata: what was described, when, by
// which tools, and where (the properties Sentinel's agent writes).
type DocumentMetadata struct {
	// Timestamp is zero when the document has none.
	Timestamp        time.Time
	ComponentName    string
	ComponentVersion string
	ComponentType    string
	// ComponentRef, ComponentPurl and ComponentLicenses are the described
	// component's bom-ref, purl and licenses.
	ComponentRef      string
	ComponentPurl     string
	ComponentLicenses []string
	// Tools are "name" or "name@version" of the producing tools.
	Tools []string
	// Host and Root are the sentinel:host and sentinel:root properties, empty
	// when another producer wrote the document.
	Host string
	Root string
}

// DocumentComponent is one component of a submitted SBOM.
type DocumentComponent struct {
	BOMRef  string
	Type    string
	Group   string
	Name    string
	Version string
	Purl    string
	// NoPurl flags a component without a usable purl: it is kept, but cannot
	// be matched against advisories.
	NoPurl bool
	// Parent is the bom-ref (or, without one, the name) of the enclosing
	// component for nested components.
	Parent string
	// Locations are where the component was found: the sentinel:location
	// properties, Syft's syft:location:N:path, cdxgen's SrcFile, then
	// the evidence's occurrences (CycloneDX 1.5).
	Locations []string
	// Licenses are the component's licenses: SPDX ids, expressions, or
	// names.
	Licenses []string
	// Properties are the component's other sentinel:* properties.
	Properties map[string]string
	// Development is set for a component of scope "excluded" (or
	// cdx:npm:package:development): only development needs it.
	Development bool
	// File is set for a component that stands for a file the tool read
	// packages from, named by its path (Trivy: an application of class
	// "lang-pkgs" without a purl); the packages it depends on were
	// found in it.
	File bool
}

// Dependency is one node of the dependency graph.
type Dependency struct {
	Ref       string
	DependsOn []string
}

// The wire structs hold only what Document keeps; encoding/json skips the
// rest.
type wireMetadata struct {
	Timestamp  string          `json:"timestamp"`
	Tools      json.RawMessage `json:"tools"`
	Component  *wireComponent  `json:"component"`
	Properties []wireProperty  `json:"properties"`
}

type wireComponent struct {
	BOMRef     string          `json:"bom-ref"`
	Type       string          `json:"type"`
	Group      string          `json:"group"`
	Name       string          `json:"name"`
	Version    string          `json:"version"`
	Purl       string          `json:"purl"`
	Scope      string          `json:"scope"`
	Licenses   []wireLicense   `json:"licenses"`
	Properties []wireProperty  `json:"properties"`
	Evidence   *wireEvidence   `json:"evidence"`
	Components []wireComponent `json:"components"`
}

// wireEvidence is what a component's evidence says of where it was found
// (CycloneDX 1.5's occurrences).
type wireEvidence struct {
	Occurrences []struct {
		Location string `json:"location"`
	} `json:"occurrences"`
}

// wireLicense is one entry of a licenses array: a license by id or name,
// or an expression.
type wireLicense struct {
	License *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"license"`
	Expression string `json:"expression"`
}

func licenseStrings(ls []wireLicense) []string {
	var out []string
	for _, l := range ls {
		switch {
		case l.Expression != "":
			out = appendLicense(out, l.Expression)
		case l.License != nil && l.License.ID != "":
			out = appendLicense(out, l.License.ID)
		case l.License != nil:
			out = appendLicense(out, l.License.Name)
		}
	}
	return out
}

type wireProperty struct {
	Name  propName `json:"name"`
	Value string   `json:"value"`
}

// propName records which of Sentinel's properties a property is, without
// allocating a string for every property name of a large document: only
// the names of Sentinel's other properties (sentinel:go_minimum, ...) are
// kept.
type propName struct {
	kind propKind
	name string // for propSentinel
}

type propKind uint8

const (
	propOther propKind = iota
	propLocation
	propHost
	propRoot
	propSentinel // another sentinel:* property, kept on the component
	propNpmDev   // cyclonedx-npm's cdx:npm:package:development
	propTrivyClass
	propTrivySource // aquasecurity:trivy:Src*: the source package (name is the field)
)

// trivyClass is the property Trivy sets on its components; "lang-pkgs"
// on an application component named for the file (a lockfile, a
// manifest) whose packages it depends on.
const (
	trivyClass     = "aquasecurity:trivy:Class"
	trivyLangFiles = "lang-pkgs"
)

// Trivy names an OS package's source package in properties, not in its
// purl: SrcName, and SrcVersion, SrcRelease and SrcEpoch where the
// source's version differs from the binary's.
const (
	trivySrcName    = "aquasecurity:trivy:SrcName"
	trivySrcVersion = "aquasecurity:trivy:SrcVersion"
	trivySrcRelease = "aquasecurity:trivy:SrcRelease"
	trivySrcEpoch   = "aquasecurity:trivy:SrcEpoch"
)

// trivySource is what Trivy says of a component's source package.
type trivySource struct{ name, version, release, epoch string }

func (t *trivySource) set(prop, v string) {
	switch prop {
	case trivySrcName:
		t.name = v
	case trivySrcVersion:
		t.version = v
	case trivySrcRelease:
		t.release = v
	case trivySrcEpoch:
		t.epoch = v
	}
}

// purl returns p with the source package in the qualifiers the advisory
// side reads, as Sentinel's own SBOMs write it (ospkg.go): Debian's and
// Ubuntu's records are keyed by source package (source, source_version)
// and Alpine's by origin. p is returned as it is where Trivy said
// nothing, or the purl already names a source.
func (t *trivySource) purl(p string) string {
	if t.name == "" || p == "" {
		return p
	}
	u, err := packageurl.FromString(p)
	if err != nil {
		return p
	}
	q := u.Qualifiers.Map()
	switch u.Type {
	case "deb":
		if q["source"] != "" || q["upstream"] != "" {
			return p
		}
		if t.name != u.Name {
			q["source"] = t.name
		}
		if t.version != "" {
			v := t.version
			if t.release != "" {
				v += "-" + t.release
			}
			if t.epoch != "" && t.epoch != "0" {
				v = t.epoch + ":" + v
			}
			if v != purl.Version(u) {
				q["source_version"] = v
			}
		}
	case "apk":
		if q["origin"] != "" || t.name == u.Name {
			return p
		}
		q["origin"] = t.name
	default:
		return p
	}
	u.Qualifiers = packageurl.QualifiersFromMap(q)
	return u.ToString()
}

// npmDevelopment is the property cyclonedx-npm (and npm sbom) set on a
// development dependency: the same as scope "excluded" here.
const npmDevelopment = "cdx:npm:package:development"

// cdxgenSrcFile is the property cdxgen names a component's manifest or
// lockfile with.
const cdxgenSrcFile = "SrcFile"

// appendLocation appends an occurrence's location unless it is empty or
// already listed.
func appendLocation(locs []string, l string) []string {
	if l == "" || slices.Contains(locs, l) {
		return locs
	}
	return append(locs, l)
}

// developmentScope reports whether a CycloneDX component scope, or
// cyclonedx-npm's development property, says only development needs the
// component.
func developmentScope(scope string) bool { return scope == "excluded" }

// UnmarshalJSON implements json.Unmarshaler.
func (p *propName) UnmarshalJSON(b []byte) error {
	if bytes.IndexByte(b, '\\') >= 0 { // escaped: unquote (rare, allocates)
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		b = strconv.AppendQuote(nil, s)
	}
	p.name = ""
	switch string(b) { // no allocation: the compiler compares in place
	case `"` + PropLocation + `"`:
		p.kind = propLocation
	case `"` + PropHost + `"`:
		p.kind = propHost
	case `"` + PropRoot + `"`:
		p.kind = propRoot
	case `"` + PropEcosystem + `"`:
		p.kind = propOther // recomputed from the purl
	case `"` + npmDevelopment + `"`:
		p.kind = propNpmDev
	case `"` + cdxgenSrcFile + `"`:
		p.kind = propLocation
	case `"` + trivyClass + `"`:
		p.kind = propTrivyClass
	case `"` + trivySrcName + `"`, `"` + trivySrcVersion + `"`, `"` + trivySrcRelease + `"`, `"` + trivySrcEpoch + `"`:
		p.kind, p.name = propTrivySource, string(b[1:len(b)-1])
	default:
		switch {
		case bytes.HasPrefix(b, []byte(`"syft:location:`)) && bytes.HasSuffix(b, []byte(`:path"`)):
			// Syft writes each location as "syft:location:<n>:path".
			p.kind = propLocation
		case bytes.HasPrefix(b, []byte(`"sentinel:`)) && len(b) > 2:
			p.kind, p.name = propSentinel, string(b[1:len(b)-1])
		default:
			p.kind = propOther
		}
	}
	return nil
}

type wireDependency struct {
	Ref       string   `json:"ref"`
	DependsOn []string `json:"dependsOn"`
}

type wireTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// skipValue consumes any JSON value (fields the service does not keep, such
// as vulnerabilities or externalReferences) without building it.
type skipValue struct{}

// UnmarshalJSON implements json.Unmarshaler.
func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// Decode reads a submitted SBOM: CycloneDX JSON, spec 1.2 to 1.7. Anything
// else (not JSON, XML, SPDX, another bomFormat, an unsupported specVersion, a
// component without a name or type) is an error wrapping ErrUnsupportedSBOM
// whose Message the API can return as is.
//
// Decode streams the top-level object: components and dependencies are
// decoded one element at a time into small structs that keep only the fields
// above, and the elements are flattened into the Document as they come, so
// the working memory beyond the kept strings stays near one component
// (TestDecodeLargeMemory measures a 50 MB document).
func Decode(data []byte) (*Document, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) == 0 {
		return nil, reject("the SBOM is empty")
	}
	switch trimmed[0] {
	case '{':
	case '<':
		return nil, reject("the SBOM is XML; only CycloneDX JSON is accepted: sentinel sbom --from FILE writes it as CycloneDX 1.5 JSON (--submit sends it)")
	default:
		if bytes.HasPrefix(trimmed, []byte("SPDXVersion:")) {
			return nil, reject("the SBOM is SPDX tag-value; only CycloneDX JSON is accepted: sentinel sbom --from FILE writes it as CycloneDX 1.5 JSON (--submit sends it)")
		}
		return nil, reject("the SBOM is not a JSON object")
	}

	var (
		bomFormat, specVersion, spdx string
		version                      *int
		meta                         *wireMetadata
		comps                        = &componentSink{}
		deps                         []Dependency
		firstErr                     error // a content error, reported after the format checks
	)
	doc := &Document{}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, jsonError(err, "")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonError(err, "")
		}
		key, _ := tok.(string)
		switch key {
		case "bomFormat":
			err = dec.Decode(&bomFormat)
		case "specVersion":
			err = dec.Decode(&specVersion)
		case "serialNumber":
			err = dec.Decode(&doc.SerialNumber)
		case "version":
			err = dec.Decode(&version)
		case "spdxVersion", "SPDXID":
			err = dec.Decode(&spdx)
			if err == nil && spdx == "" {
				spdx = key
			}
		case "metadata":
			err = dec.Decode(&meta)
		case "components":
			// One wireComponent is reused for every element, its properties
			// array too: encoding/json does not zero reused slice elements,
			// so they are cleared first.
			var c wireComponent
			err = streamArray(dec, func(i int) error {
				props := c.Properties[:cap(c.Properties)]
				clear(props)
				c = wireComponent{Properties: props[:0]}
				if err := dec.Decode(&c); err != nil {
					return err
				}
				if firstErr == nil {
					firstErr = comps.add(&c, "", "components["+strconv.Itoa(i)+"]", 0)
				}
				return nil
			})
		case "dependencies":
			err = streamArray(dec, func(i int) error {
				var d wireDependency
				if err := dec.Decode(&d); err != nil {
					return err
				}
				if d.Ref == "" && firstErr == nil {
					firstErr = reject("the dependency at dependencies[%d] has no ref", i)
				}
				deps = append(deps, Dependency(d))
				return nil
			})
		default:
			err = dec.Decode(&skipValue{})
		}
		if err != nil {
			return nil, jsonError(err, key)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, jsonError(err, "")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, reject("the SBOM has data after its JSON object")
	}

	if bomFormat != "CycloneDX" {
		if spdx != "" {
			return nil, reject("the SBOM is SPDX; only CycloneDX JSON is accepted: sentinel sbom --from FILE writes it as CycloneDX 1.5 JSON (--submit sends it)")
		}
		if bomFormat == "" {
			return nil, reject("the document has no bomFormat and is not a CycloneDX SBOM")
		}
		return nil, reject("the bomFormat %q is not CycloneDX", truncate(bomFormat))
	}
	if !slices.Contains(SupportedSpecVersions(), specVersion) {
		if specVersion == "" {
			return nil, reject("the CycloneDX SBOM has no specVersion")
		}
		return nil, reject("unsupported CycloneDX specVersion %q: CycloneDX 1.2 to 1.7 JSON can be read, the service takes 1.5", truncate(specVersion))
	}
	if firstErr != nil {
		return nil, firstErr
	}

	doc.SpecVersion = specVersion
	doc.Version = 1
	if version != nil {
		doc.Version = *version
	}
	if m := meta; m != nil {
		if m.Timestamp != "" {
			ts, err := time.Parse(time.RFC3339Nano, m.Timestamp)
			if err != nil {
				return nil, reject("the metadata.timestamp %q is not an RFC 3339 date-time", truncate(m.Timestamp))
			}
			doc.Metadata.Timestamp = ts.UTC()
		}
		if c := m.Component; c != nil {
			doc.Metadata.ComponentName = c.Name
			if c.Group != "" {
				doc.Metadata.ComponentName = c.Group + "/" + c.Name
			}
			doc.Metadata.ComponentVersion = c.Version
			doc.Metadata.ComponentType = c.Type
			doc.Metadata.ComponentRef = c.BOMRef
			doc.Metadata.ComponentPurl = c.Purl
			doc.Metadata.ComponentLicenses = licenseStrings(c.Licenses)
		}
		for _, p := range m.Properties {
			switch p.Name.kind {
			case propHost:
				doc.Metadata.Host = p.Value
			case propRoot:
				doc.Metadata.Root = p.Value
			}
		}
		tools, err := decodeTools(m.Tools)
		if err != nil {
			return nil, err
		}
		doc.Metadata.Tools = tools
	}
	doc.Components = comps.slice()
	doc.Dependencies = deps
	return doc, nil
}

// streamArray decodes a JSON array element by element; null is an empty
// array.
func streamArray(dec *json.Decoder, each func(i int) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return &json.UnmarshalTypeError{Value: fmt.Sprint(tok), Type: reflect.TypeFor[[]any]()}
	}
	for i := 0; dec.More(); i++ {
		if err := each(i); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing bracket
	return err
}

func jsonError(err error, key string) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return &DecodeError{msg: "the SBOM is not valid JSON (it ends too early)", err: err}
	case errors.As(err, &se):
		return &DecodeError{msg: fmt.Sprintf("the SBOM is not valid JSON (offset %d)", se.Offset), err: err}
	case errors.As(err, &te):
		field := key
		if te.Field != "" {
			field = key + "." + te.Field
		}
		if field == "" {
			field = "a field"
		}
		return &DecodeError{msg: fmt.Sprintf("the SBOM field %s has the wrong JSON type", field), err: err}
	default:
		return &DecodeError{msg: "the SBOM could not be read as JSON", err: err}
	}
}

// componentSink collects flattened components in fixed-size chunks and
// copies them once into a slice of the exact length at the end, so that a
// large document does not pay for repeated slice doubling.
type componentSink struct {
	chunks [][]DocumentComponent
	n      int
}

const sinkChunk = 4096

func (s *componentSink) push(c DocumentComponent) {
	if len(s.chunks) == 0 || len(s.chunks[len(s.chunks)-1]) == cap(s.chunks[len(s.chunks)-1]) {
		// Chunks grow from 64 to sinkChunk elements, so a small document
		// pays for little more than its components.
		size := min(64<<len(s.chunks), sinkChunk)
		s.chunks = append(s.chunks, make([]DocumentComponent, 0, size))
	}
	last := &s.chunks[len(s.chunks)-1]
	*last = append(*last, c)
	s.n++
}

func (s *componentSink) slice() []DocumentComponent {
	if len(s.chunks) == 1 {
		return s.chunks[0]
	}
	out := make([]DocumentComponent, 0, s.n)
	for _, c := range s.chunks {
		out = append(out, c...)
	}
	return out
}

// maxDepth bounds component nesting; real SBOMs nest a few levels.
const maxDepth = 64

// add flattens c and its nested components.
func (s *componentSink) add(c *wireComponent, parent, at string, depth int) error {
	if depth >= maxDepth {
		return reject("the components are nested more than %d levels deep", maxDepth)
	}
	if c.Name == "" {
		return reject("the component at %s has no name", at)
	}
	if c.Type == "" {
		return reject("the component at %s (%s) has no type", at, truncate(c.Name))
	}
	dc := DocumentComponent{
		BOMRef:   c.BOMRef,
		Type:     c.Type,
		Group:    c.Group,
		Name:     c.Name,
		Version:  c.Version,
		Purl:     c.Purl,
		Parent:   parent,
		Licenses: licenseStrings(c.Licenses),
	}
	if c.Purl == "" {
		dc.NoPurl = true
	} else if _, err := packageurl.FromString(c.Purl); err != nil {
		dc.NoPurl = true
	}
	var src trivySource
	for _, p := range c.Properties {
		switch p.Name.kind {
		case propLocation:
			dc.Locations = append(dc.Locations, p.Value)
		case propSentinel:
			if dc.Properties == nil {
				dc.Properties = map[string]string{}
			}
			dc.Properties[p.Name.name] = p.Value
		case propNpmDev:
			if p.Value == "true" {
				c.Scope = "excluded"
			}
		case propTrivyClass:
			dc.File = p.Value == trivyLangFiles && c.Purl == ""
		case propTrivySource:
			src.set(p.Name.name, p.Value)
		}
	}
	dc.Purl = src.purl(dc.Purl)
	if c.Evidence != nil {
		for _, o := range c.Evidence.Occurrences {
			dc.Locations = appendLocation(dc.Locations, o.Location)
		}
	}
	dc.Development = developmentScope(c.Scope)
	s.push(dc)
	ref := c.BOMRef
	if ref == "" {
		ref = c.Name
	}
	for i := range c.Components {
		if err := s.add(&c.Components[i], ref, fmt.Sprintf("%s.components[%d]", at, i), depth+1); err != nil {
			return err
		}
	}
	return nil
}

func decodeTools(raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var tools []wireTool
	switch raw[0] {
	case '[': // 1.2-1.4, and the deprecated form in 1.5+
		if err := json.Unmarshal(raw, &tools); err != nil {
			return nil, reject("the metadata.tools list is not a list of tools")
		}
	case '{': // 1.5+: {components: [...], services: [...]}
		var choice struct {
			Components []wireTool `json:"components"`
			Services   []wireTool `json:"services"`
		}
		if err := json.Unmarshal(raw, &choice); err != nil {
			return nil, reject("the metadata.tools object is not a tools object")
		}
		tools = append(choice.Components, choice.Services...)
	default:
		return nil, reject("the metadata.tools field is neither a list nor an object")
	}
	var out []string
	for _, t := range tools {
		if t.Name == "" {
			continue
		}
		if t.Version != "" {
			out = append(out, t.Name+"@"+t.Version)
		} else {
			out = append(out, t.Name)
		}
	}
	return out, nil
}

func truncate(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
