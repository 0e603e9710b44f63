package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

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
		parts := validateParts(sch, inst)
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
