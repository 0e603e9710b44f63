// Package validation checks CycloneDX JSON documents against the official
// schema of the version they declare, for the submission path. It is apart
// from package sbom so that the agent, which writes and reads SBOMs but never
// validates one, does not carry the validator and its schemas.
package validation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/schema"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders the validator's messages (in English).
var printer = message.NewPrinter(language.English)

// Schema validation.
//
// A submitted CycloneDX document is checked against the official JSON
// schema of the specVersion it declares (1.2 to 1.7), with the SPDX license
// list, the JSF signature schema and (1.7) the cryptography definitions
// they refer to; all are embedded from
// schema/ (see schema/README.md), never fetched. Format assertions are on:
// a "date-time", "email" or "idn-email" that is not one is an error, as the
// CycloneDX test vectors expect. "iri-reference" is not asserted, as
// CycloneDX's own validator (cyclonedx-javascript-library) does not: the
// URLs producers copy from package metadata into externalReferences are
// often not RFC 3987 references ("git@github.com:owner/repo.git", which npm
// sbom writes), and rejecting them would refuse npm's own SBOMs.
//
// The schemas are compiled once per version, on first use.

// schemaBase is the $id prefix of the CycloneDX schemas; they refer to
// spdx.schema.json and jsf-0.82.schema.json relative to it.
const schemaBase = "http://cyclonedx.org/schema/"

// MaxSchemaErrors is the number of errors Validate reports at most.
const MaxSchemaErrors = 10

var compiled sync.Map // specVersion -> func() (*schemas, error)

// schemas are one version's compiled schemas: the document's, and for
// validating a large components array in parallel, its items' (the
// schema's own #/definitions/component) and its uniqueItems keyword alone.
type schemas struct {
	doc, component, unique *jsonschema.Schema
}

func schemaFor(specVersion string) (*schemas, error) {
	f, _ := compiled.LoadOrStore(specVersion, sync.OnceValues(func() (*schemas, error) {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		c.RegisterFormat(anyIRIReference)
		main := "bom-" + specVersion + ".schema.json"
		for _, name := range []string{main, "spdx.schema.json", "jsf-0.82.schema.json", "cryptography-defs.schema.json"} {
			b, err := schema.Files.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("read embedded schema %s: %w", name, err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				return nil, fmt.Errorf("read embedded schema %s: %w", name, err)
			}
			if err := c.AddResource(schemaBase+name, doc); err != nil {
				return nil, fmt.Errorf("add embedded schema %s: %w", name, err)
			}
		}
		if err := c.AddResource(schemaBase+"unique-items.json", map[string]any{"uniqueItems": true}); err != nil {
			return nil, err
		}
		var s schemas
		var err error
		if s.doc, err = c.Compile(schemaBase + main); err != nil {
			return nil, err
		}
		if s.component, err = c.Compile(schemaBase + main + "#/definitions/component"); err != nil {
			return nil, err
		}
		if s.unique, err = c.Compile(schemaBase + "unique-items.json"); err != nil {
			return nil, err
		}
		return &s, nil
	}))
	return f.(func() (*schemas, error))()
}

// anyIRIReference is the "iri-reference" format that accepts every string.
var anyIRIReference = &jsonschema.Format{Name: "iri-reference", Validate: func(any) error { return nil }}

// ErrInvalidBOM is wrapped by every error Validate returns for a document
// that is not valid CycloneDX JSON.
var ErrInvalidBOM = errors.New("not a valid CycloneDX JSON document")

// SchemaError is one place where a document breaks its schema.
type SchemaError struct {
	// Path is where, as a JSONPath from the document's root:
	// "$.components[3].hashes[0].content"; "$" is the document itself.
	Path string `json:"path"`
	// Reason is the schema's complaint, in the validator's words.
	Reason string `json:"reason"`
}

// ValidationError is a document that does not validate against the schema
// of its declared specVersion, with the first MaxSchemaErrors errors.
type ValidationError struct {
	SpecVersion string        `json:"spec_version,omitempty"`
	Errors      []SchemaError `json:"errors"`
}

// Error implements error: the first error, and how many there are.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString(ErrInvalidBOM.Error())
	if e.SpecVersion != "" {
		b.WriteString(" " + e.SpecVersion)
	}
	if len(e.Errors) > 0 {
		fmt.Fprintf(&b, ": %s: %s", e.Errors[0].Path, e.Errors[0].Reason)
		if n := len(e.Errors) - 1; n > 0 {
			fmt.Fprintf(&b, " (and %d more)", n)
		}
	}
	return b.String()
}

// Unwrap returns ErrInvalidBOM.
func (e *ValidationError) Unwrap() error { return ErrInvalidBOM }

// Validate checks a CycloneDX JSON document against the official schema of
// the specVersion it declares: 1.2, 1.3, 1.4, 1.5, 1.6 or 1.7. A nil error
// means the document is valid; otherwise the error is a *ValidationError
// (wrapping ErrInvalidBOM) whose Errors give the first problems with their
// JSONPath, for an API answer. A document that is not JSON, declares no
// supported specVersion or is not CycloneDX gets a ValidationError with one
// error at "$".
func Validate(data []byte) error {
	_, err := validate(data)
	return err
}

// validate is Validate, returning the document as the validator parsed it.
func validate(data []byte) (any, error) {
	inst, err := validateInst(data)
	return inst, err
}

func validateInst(data []byte) (any, error) {
	p, err := parse(data)
	if err != nil {
		return nil, err
	}
	if err := p.check(runtime.GOMAXPROCS(0)); err != nil {
		return nil, err
	}
	return p.inst, nil
}

// parsed is a document parsed for validation, with the schemas of its
// specVersion.
type parsed struct {
	specVersion string
	sch         *schemas
	inst        any
}

// parse reads the document's bomFormat and specVersion, picks the schema
// and parses the document as the validator reads it.
func parse(data []byte) (*parsed, error) {
	head, err := peekHead(data)
	if err != nil {
		return nil, &ValidationError{Errors: []SchemaError{{Path: "$", Reason: "not a JSON object: " + err.Error()}}}
	}
	if head.BOMFormat != "CycloneDX" {
		return nil, &ValidationError{Errors: []SchemaError{{Path: "$.bomFormat", Reason: fmt.Sprintf("want %q, got %q", "CycloneDX", head.BOMFormat)}}}
	}
	if !validatedVersions[head.SpecVersion] {
		return nil, &ValidationError{Errors: []SchemaError{{Path: "$.specVersion", Reason: fmt.Sprintf("specVersion %q is not one of 1.2, 1.3, 1.4, 1.5, 1.6, 1.7", head.SpecVersion)}}}
	}
	sch, err := schemaFor(head.SpecVersion)
	if err != nil {
		return nil, fmt.Errorf("compile cyclonedx %s schema: %w", head.SpecVersion, err)
	}
	inst, err := decodeInstance(data)
	if err != nil {
		return nil, &ValidationError{SpecVersion: head.SpecVersion, Errors: []SchemaError{{Path: "$", Reason: err.Error()}}}
	}
	return &parsed{specVersion: head.SpecVersion, sch: sch, inst: inst}, nil
}

// decodeInstance parses a document as the validator reads it: maps,
// slices, strings, float64 numbers, booleans and nil. go-json-experiment
// parses a 5,000-component SBOM in half the time encoding/json takes
// (jsonschema.UnmarshalJSON: 20 against 40 ms). It is told to accept what
// encoding/json accepts: a repeated member name (the last value counts)
// and invalid UTF-8 in strings (replaced). Numbers are float64, not
// json.Number: the CycloneDX schemas bound no number beyond what a
// float64 holds exactly (a version, a score), and an out-of-range number
// is a parse error, as encoding/json makes it for a float64.
// TestDecodeInstanceAgrees holds it to jsonschema.UnmarshalJSON.
func decodeInstance(data []byte) (any, error) {
	var v any
	if err := jsonv2.Unmarshal(data, &v, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err != nil {
		return nil, err
	}
	return v, nil
}

// check validates the parsed document against its schema, on at most
// workers processors.
func (p *parsed) check(workers int) error {
	if ve := schemaErrors(p.specVersion, validateParts(p.sch, p.inst, workers)); ve != nil {
		return ve
	}
	return nil
}

// schemaErrors is the ValidationError of the parts' errors, the first
// MaxSchemaErrors of them, or nil when there are none.
func schemaErrors(specVersion string, parts []part) *ValidationError {
	out := &ValidationError{SpecVersion: specVersion}
	for _, r := range parts {
		if r.err == nil || len(out.Errors) == MaxSchemaErrors {
			continue
		}
		var ve *jsonschema.ValidationError
		if !errors.As(r.err, &ve) {
			out.Errors = append(out.Errors, SchemaError{Path: jsonPath(r.at), Reason: r.err.Error()})
			continue
		}
		added := false
		for _, leaf := range leaves(ve) {
			// One value can fail the same way in several branches of an
			// anyOf or oneOf: it is one error.
			e := SchemaError{Path: jsonPath(append(slices.Clip(r.at), leaf.InstanceLocation...)), Reason: leaf.ErrorKind.LocalizedString(printer)}
			if slices.Contains(out.Errors, e) {
				continue
			}
			out.Errors, added = append(out.Errors, e), true
			if len(out.Errors) == MaxSchemaErrors {
				break
			}
		}
		if !added && len(out.Errors) == 0 {
			out.Errors = []SchemaError{{Path: jsonPath(r.at), Reason: ve.Error()}}
		}
	}
	if len(out.Errors) == 0 {
		return nil
	}
	return out
}

// part is the outcome of validating one part of a document: at is where
// the part is (its errors' locations are relative to it).
type part struct {
	at  []string
	err error
}

// parallelItems is the size of a components array from which
// validateParts validates its items on every processor.
const parallelItems = 256

// validateParts validates inst against sch.doc. A document with a large
// components array is validated in parts, on up to workers processors: the document
// with that array empty, the array against the schema's uniqueItems, and
// each component against the schema's own component definition. The
// array's schema is exactly those three (type, items, uniqueItems), and
// nothing else in the schema reads it, so the parts' errors are the
// document's, in the order document, array, components.
func validateParts(sch *schemas, inst any, workers int) []part {
	doc, ok := inst.(map[string]any)
	comps, isArray := doc["components"].([]any)
	workers = min(workers, len(comps)/(parallelItems/2))
	if !ok || !isArray || len(comps) < parallelItems || workers < 2 {
		return []part{{err: sch.doc.Validate(inst)}}
	}
	rest := maps.Clone(doc)
	rest["components"] = []any{}
	// Tasks: 0 the rest of the document, 1 the array's uniqueness (a hash
	// of every component), then each component.
	errs := make([]error, 2+len(comps))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				switch i := int(next.Add(1)) - 1; {
				case i >= len(errs):
					return
				case i == 0:
					errs[0] = sch.doc.Validate(rest)
				case i == 1:
					errs[1] = sch.unique.Validate(comps)
				default:
					errs[i] = sch.component.Validate(comps[i-2])
				}
			}
		})
	}
	wg.Wait()
	out := []part{{err: errs[0]}, {at: []string{"components"}, err: errs[1]}}
	items := errs[2:]
	for i, err := range items {
		if err != nil {
			out = append(out, part{at: []string{"components", strconv.Itoa(i)}, err: err})
		}
	}
	return out
}

// docHead is what Validate needs before choosing a schema.
type docHead struct {
	BOMFormat   string
	SpecVersion string
}

// peekHead reads bomFormat and specVersion, which producers write first,
// without decoding the rest of the document when it can stop early.
func peekHead(data []byte) (docHead, error) {
	var h docHead
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return h, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return h, errors.New("the document is not an object")
	}
	found := 0
	for found < 2 && dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return h, err
		}
		switch tok {
		case "bomFormat":
			err = dec.Decode(&h.BOMFormat)
			found++
		case "specVersion":
			err = dec.Decode(&h.SpecVersion)
			found++
		default:
			err = dec.Decode(new(json.RawMessage))
		}
		if err != nil {
			return h, err
		}
	}
	return h, nil
}

var validatedVersions = map[string]bool{"1.2": true, "1.3": true, "1.4": true, "1.5": true, "1.6": true, "1.7": true}

// leaves are the innermost errors, depth first: the ones that say what is
// wrong rather than which enclosing rule failed.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// jsonPath turns an instance location (JSON pointer tokens) into a
// JSONPath: ["components", "3", "purl"] -> "$.components[3].purl".
func jsonPath(loc []string) string {
	var b strings.Builder
	b.WriteString("$")
	for _, t := range loc {
		if _, err := strconv.Atoi(t); err == nil {
			b.WriteString("[" + t + "]")
			continue
		}
		if isIdent(t) {
			b.WriteString("." + t)
		} else {
			b.WriteString("[" + strconv.Quote(t) + "]")
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '-' && i > 0 || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' && i > 0) {
			return false
		}
	}
	return true
}

// DecodeValidated is the submission path: Validate against the schema of
// the declared specVersion, then Decode. The error is a *ValidationError
// (an invalid document) or a *DecodeError (a valid document the service
// does not read, such as one without a component name it needs).
// BenchmarkDecodeValidated5000 holds it to the ingest budget: 250 ms for
// 5,000 components.
//
// The document is parsed once: the validator's parse is converted into the
// Document (sbom.DocumentFrom), with Decode's rules; TestDecodeValidatedAgrees
// holds the two to the same result.
func DecodeValidated(data []byte) (*sbom.Document, error) {
	doc, wait, err := DecodeValidating(data)
	if err != nil {
		return nil, err
	}
	if err := wait(); err != nil {
		return nil, err
	}
	return doc, nil
}

// DecodeValidating is DecodeValidated with the schema check left running
// while the caller goes on: it parses data, starts the check and returns
// the Document at once, with wait, which returns the check's error (nil
// for a valid document) when it is done; wait may be called more than
// once. The submission path writes the document while the check runs and
// commits only when wait returns nil: on two cores the check then takes
// no time of its own. An error found before the check can start (not
// JSON, not CycloneDX, no supported specVersion) is returned as err, and
// so is one building the Document, unless the check has an error, which
// is returned instead, as DecodeValidated returns it.
func DecodeValidating(data []byte) (doc *sbom.Document, wait func() error, err error) {
	p, err := parse(data)
	if err != nil {
		return nil, nil, err
	}
	done := make(chan error, 1)
	// The check leaves the caller a processor for the write it overlaps
	// (on two cores: the check on one, the write on the other, instead of
	// the write waiting behind two workers).
	go func() { done <- p.check(max(1, runtime.GOMAXPROCS(0)-1)) }()
	wait = sync.OnceValue(func() error { return <-done })
	// The check and DocumentFrom only read p.inst.
	if doc, err = sbom.DocumentFrom(p.inst); err != nil {
		if verr := wait(); verr != nil {
			return nil, nil, verr
		}
		return nil, nil, err
	}
	return doc, wait, nil
}
