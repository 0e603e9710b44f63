package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestValidatePartsAgrees: a document large enough to be validated in
// parts gets the errors the whole schema gives it at once, for errors in
// the document, in the components array (a repeated component) and in
// components (an unknown type, a bad hash, a nested component's missing
// name), and none when it is valid.
func TestValidatePartsAgrees(t *testing.T) {
	comps := make([]any, 0, 600)
	for i := range 600 {
		comps = append(comps, map[string]any{"type": "library", "name": fmt.Sprintf("c%d", i), "version": "1.0.0",
			"purl": fmt.Sprintf("pkg:npm/c%d@1.0.0", i), "bom-ref": fmt.Sprintf("r%d", i)})
	}
	doc := map[string]any{"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 1, "components": comps}
	encode := func() []byte {
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	check := func(name string, wantErrors bool) {
		t.Helper()
		data := encode()
		sch, err := schemaFor("1.5")
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		parts := validateParts(sch, inst, 2)
		if len(parts) < 2 {
			t.Fatalf("%s: validated whole, not in parts", name)
		}
		got := schemaErrors("1.5", parts)
		want := schemaErrors("1.5", []part{{err: sch.doc.Validate(inst)}})
		if (want != nil) != wantErrors {
			t.Fatalf("%s: the whole schema says %v", name, want)
		}
		if want == nil {
			if got != nil {
				t.Errorf("%s: in parts %v, whole valid", name, got)
			}
			return
		}
		if got == nil {
			t.Fatalf("%s: in parts valid, whole %v", name, want)
		}
		key := func(e SchemaError) string { return e.Path + " " + e.Reason }
		g, w := []string{}, []string{}
		for _, e := range got.Errors {
			g = append(g, key(e))
		}
		for _, e := range want.Errors {
			w = append(w, key(e))
		}
		slices.Sort(g)
		slices.Sort(w)
		if !slices.Equal(g, w) {
			t.Errorf("%s: in parts %q, whole %q", name, g, w)
		}
	}
	check("valid", false)

	doc["serialNumber"] = "not-a-urn"
	check("bad serial number", true)
	delete(doc, "serialNumber")

	comps[3].(map[string]any)["type"] = "gadget"
	comps[450].(map[string]any)["hashes"] = []any{map[string]any{"alg": "MD5", "content": "xyz"}}
	comps[500].(map[string]any)["components"] = []any{map[string]any{"type": "library"}}
	check("bad components", true)

	comps[3].(map[string]any)["type"] = "library"
	delete(comps[450].(map[string]any), "hashes")
	delete(comps[500].(map[string]any), "components")
	comps[599] = comps[7]
	check("a repeated component", true)
}

// TestDecodeInstanceAgrees: decodeInstance gives the validator the
// document jsonschema.UnmarshalJSON gives it, numbers aside (float64, not
// json.Number), and the same verdict, for the documents the schema
// tests read and for odd JSON: repeated names, invalid UTF-8, trailing
// data, large and fractional numbers.
func TestDecodeInstanceAgrees(t *testing.T) {
	docs := map[string][]byte{
		"repeated name":  []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"version":2,"components":[{"type":"library","name":"a","name":"b"}]}`),
		"invalid UTF-8":  []byte("{\"bomFormat\":\"CycloneDX\",\"specVersion\":\"1.5\",\"version\":1,\"components\":[{\"type\":\"library\",\"name\":\"a\xff\"}]}"),
		"trailing data":  []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1} {}`),
		"large number":   []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":12345678901234567890}`),
		"huge number":    []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1e400}`),
		"fraction":       []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1.5}`),
		"integral float": []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":2.0}`),
		"zero version":   []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":0}`),
		"not closed":     []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[`),
	}
	for _, dir := range []string{"1.2", "1.3", "1.4", "1.5", "1.6"} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "cyclonedx-spec-tests", dir, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no test vectors for %s", dir)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs[f] = b
		}
	}
	for name, data := range docs {
		old, oerr := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		got, gerr := decodeInstance(data)
		if (oerr != nil) != (gerr != nil) && name != "huge number" {
			t.Errorf("%s: encoding/json says %v, decodeInstance %v", name, oerr, gerr)
			continue
		}
		if oerr != nil || gerr != nil {
			continue
		}
		if diff := cmp.Diff(floats(old), got); diff != "" {
			t.Errorf("%s: the parses differ (-encoding/json +decodeInstance):\n%s", name, diff)
			continue
		}
		head, err := peekHead(data)
		if err != nil || !validatedVersions[head.SpecVersion] {
			continue
		}
		sch, err := schemaFor(head.SpecVersion)
		if err != nil {
			t.Fatal(err)
		}
		want := schemaErrors(head.SpecVersion, validateParts(sch, old, 2))
		have := schemaErrors(head.SpecVersion, validateParts(sch, got, 2))
		if (want == nil) != (have == nil) {
			t.Errorf("%s: encoding/json's parse gets %v, decodeInstance's %v", name, want, have)
			continue
		}
		// The validator walks objects in map order: which errors come
		// first varies, so only a complete list can be compared.
		if want != nil && len(want.Errors) < MaxSchemaErrors {
			sorted := func(errs []SchemaError) []SchemaError {
				return slices.SortedFunc(slices.Values(errs), func(a, b SchemaError) int {
					return strings.Compare(a.Path+" "+a.Reason, b.Path+" "+b.Reason)
				})
			}
			if diff := cmp.Diff(sorted(want.Errors), sorted(have.Errors)); diff != "" {
				t.Errorf("%s: the errors differ (-encoding/json +decodeInstance):\n%s", name, diff)
			}
		}
	}
}

// floats is v with its json.Numbers as float64s.
func floats(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, _ := v.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = floats(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = floats(x)
		}
		return out
	}
	return v
}
