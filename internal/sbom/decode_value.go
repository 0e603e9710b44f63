package sbom

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	packageurl "github.com/package-url/packageurl-go"
)

// DocumentFrom builds the Document that Decode would give from the
// document as the schema validator parsed it (maps, slices, strings,
// json.Number or float64), so that the submission path parses the bytes once. It
// applies Decode's rules; the schema has already checked the types. It
// only reads inst: the submission path checks the same value against the
// schema meanwhile (validation.DecodeValidating).
func DocumentFrom(inst any) (*Document, error) {
	top, ok := inst.(map[string]any)
	if !ok {
		return nil, reject("the SBOM is not a JSON object")
	}
	if str(top["bomFormat"]) != "CycloneDX" {
		return nil, reject("the bomFormat %q is not CycloneDX", truncate(str(top["bomFormat"])))
	}
	specVersion := str(top["specVersion"])
	if !slices.Contains(SupportedSpecVersions(), specVersion) {
		return nil, reject("unsupported CycloneDX specVersion %q: CycloneDX 1.2 to 1.7 JSON can be read, the service takes 1.5", truncate(specVersion))
	}
	doc := &Document{SpecVersion: specVersion, SerialNumber: str(top["serialNumber"]), Version: 1}
	switch n := top["version"].(type) {
	case json.Number:
		v, err := strconv.Atoi(n.String())
		if err != nil {
			return nil, reject("the SBOM field version has the wrong JSON type")
		}
		doc.Version = v
	case float64:
		if n != math.Trunc(n) || math.Abs(n) > 1<<53 { // what a float64 holds exactly
			return nil, reject("the SBOM field version has the wrong JSON type")
		}
		doc.Version = int(n)
	}
	sink := &componentSink{}
	for i, c := range list(top["components"]) {
		if err := addValue(sink, c, "", "components["+strconv.Itoa(i)+"]", 0); err != nil {
			return nil, err
		}
	}
	for i, d := range list(top["dependencies"]) {
		m, _ := d.(map[string]any)
		ref := str(m["ref"])
		if ref == "" {
			return nil, reject("the dependency at dependencies[%d] has no ref", i)
		}
		dep := Dependency{Ref: ref}
		if on, ok := m["dependsOn"].([]any); ok {
			dep.DependsOn = make([]string, 0, len(on))
			for _, o := range on {
				dep.DependsOn = append(dep.DependsOn, str(o))
			}
		}
		doc.Dependencies = append(doc.Dependencies, dep)
	}
	if m, ok := top["metadata"].(map[string]any); ok {
		if ts := str(m["timestamp"]); ts != "" {
			t, err := time.Parse(time.RFC3339Nano, ts)
			if err != nil {
				return nil, reject("the metadata.timestamp %q is not an RFC 3339 date-time", truncate(ts))
			}
			doc.Metadata.Timestamp = t.UTC()
		}
		if c, ok := m["component"].(map[string]any); ok {
			doc.Metadata.ComponentName = str(c["name"])
			if g := str(c["group"]); g != "" {
				doc.Metadata.ComponentName = g + "/" + str(c["name"])
			}
			doc.Metadata.ComponentVersion = str(c["version"])
			doc.Metadata.ComponentType = str(c["type"])
			doc.Metadata.ComponentRef = str(c["bom-ref"])
			doc.Metadata.ComponentPurl = str(c["purl"])
			doc.Metadata.ComponentLicenses = licenseValues(c["licenses"])
		}
		for _, p := range list(m["properties"]) {
			pm, _ := p.(map[string]any)
			switch str(pm["name"]) {
			case PropHost:
				doc.Metadata.Host = str(pm["value"])
			case PropRoot:
				doc.Metadata.Root = str(pm["value"])
			}
		}
		if t, ok := m["tools"]; ok && t != nil {
			raw, err := json.Marshal(t)
			if err != nil {
				return nil, reject("the metadata.tools field could not be read")
			}
			if doc.Metadata.Tools, err = decodeTools(raw); err != nil {
				return nil, err
			}
		}
	}
	doc.Components = sink.slice()
	return doc, nil
}

// addValue is componentSink.add for a parsed component.
func addValue(s *componentSink, v any, parent, at string, depth int) error {
	if depth >= maxDepth {
		return reject("the components are nested more than %d levels deep", maxDepth)
	}
	c, _ := v.(map[string]any)
	name, typ := str(c["name"]), str(c["type"])
	if name == "" {
		return reject("the component at %s has no name", at)
	}
	if typ == "" {
		return reject("the component at %s (%s) has no type", at, truncate(name))
	}
	dc := DocumentComponent{
		BOMRef:   str(c["bom-ref"]),
		Type:     typ,
		Group:    str(c["group"]),
		Name:     name,
		Version:  str(c["version"]),
		Purl:     str(c["purl"]),
		Parent:   parent,
		Licenses: licenseValues(c["licenses"]),
	}
	if dc.Purl == "" {
		dc.NoPurl = true
	} else if _, err := packageurl.FromString(dc.Purl); err != nil {
		dc.NoPurl = true
	}
	scope := str(c["scope"])
	var src trivySource
	for _, p := range list(c["properties"]) {
		pm, _ := p.(map[string]any)
		n := str(pm["name"])
		switch {
		case n == PropLocation || n == cdxgenSrcFile || strings.HasPrefix(n, "syft:location:") && strings.HasSuffix(n, ":path"):
			dc.Locations = append(dc.Locations, str(pm["value"]))
		case n == PropEcosystem || n == PropHost || n == PropRoot:
		case strings.HasPrefix(n, "sentinel:"):
			if dc.Properties == nil {
				dc.Properties = map[string]string{}
			}
			dc.Properties[n] = str(pm["value"])
		case n == npmDevelopment && str(pm["value"]) == "true":
			scope = "excluded"
		case n == trivyClass:
			dc.File = str(pm["value"]) == trivyLangFiles && dc.Purl == ""
		case n == trivySrcName || n == trivySrcVersion || n == trivySrcRelease || n == trivySrcEpoch:
			src.set(n, str(pm["value"]))
		}
	}
	dc.Purl = src.purl(dc.Purl)
	if ev, ok := c["evidence"].(map[string]any); ok {
		for _, o := range list(ev["occurrences"]) {
			om, _ := o.(map[string]any)
			dc.Locations = appendLocation(dc.Locations, str(om["location"]))
		}
	}
	dc.Development = developmentScope(scope)
	s.push(dc)
	ref := dc.BOMRef
	if ref == "" {
		ref = name
	}
	for i, sub := range list(c["components"]) {
		if err := addValue(s, sub, ref, fmt.Sprintf("%s.components[%d]", at, i), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// licenseValues is licenseStrings for a parsed licenses array.
func licenseValues(v any) []string {
	var out []string
	for _, l := range list(v) {
		m, _ := l.(map[string]any)
		if e := str(m["expression"]); e != "" {
			out = appendLicense(out, e)
			continue
		}
		lic, _ := m["license"].(map[string]any)
		if lic == nil {
			continue
		}
		if id := str(lic["id"]); id != "" {
			out = appendLicense(out, id)
		} else {
			out = appendLicense(out, str(lic["name"]))
		}
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}
