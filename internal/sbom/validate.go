package sbom

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schema/*.json
var schemaFS embed.FS

// schemaBase is the $id prefix of the CycloneDX schemas; the 1.5 schema refers
// to spdx.schema.json and jsf-0.82.schema.json relative to it.
const schemaBase = "http://cyclonedx.org/schema/"

var bom15 = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat() // timestamps must be date-times, references IRIs
	for _, name := range []string{"bom-1.5.schema.json", "spdx.schema.json", "jsf-0.82.schema.json"} {
		b, err := schemaFS.ReadFile("schema/" + name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("read embedded schema %s: %w", name, err)
		}
		if err := c.AddResource(schemaBase+name, doc); err != nil {
			return nil, fmt.Errorf("add embedded schema %s: %w", name, err)
		}
	}
	return c.Compile(schemaBase + "bom-1.5.schema.json")
})

// ErrInvalidBOM is wrapped by every error Validate returns for a document that
// is not valid CycloneDX 1.5 JSON.
var ErrInvalidBOM = errors.New("not a valid CycloneDX 1.5 JSON document")

// Validate checks data against the official CycloneDX 1.5 JSON schema
// (embedded, offline). A nil error means the document is valid; otherwise the
// error wraps ErrInvalidBOM and names the failing locations.
//
// Validate holds the whole document as generic JSON values, several times
// its size: it is meant for the agent's own output and for tests, not for
// arbitrary large submissions (Decode is).
func Validate(data []byte) error {
	sch, err := bom15()
	if err != nil {
		return fmt.Errorf("compile cyclonedx 1.5 schema: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidBOM, err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidBOM, err)
	}
	return nil
}
