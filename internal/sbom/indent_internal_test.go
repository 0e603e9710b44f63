package sbom

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzIndentWriter: for any JSON value, written compact as encoding/json
// writes it (in pieces), indentWriter gives json.Indent's bytes.
func FuzzIndentWriter(f *testing.F) {
	for _, s := range []string{
		`{"a":[],"b":{},"c":[{"d":"x,y:{z}[]\"\\","e":null}],"f":-1.5e3,"g":true}`,
		`[[[]],{"":""},"\u2028<>&",0]`,
		`"just a string"`,
		`{"components":[{"bom-ref":"pkg:npm/a@1","properties":[{"name":"sentinel:location","value":"a/package-lock.json"}]}]}`,
	} {
		f.Add([]byte(s), uint8(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		var compact bytes.Buffer
		enc := json.NewEncoder(&compact)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		bw := bufio.NewWriter(&got)
		iw := &indentWriter{w: bw}
		b := compact.Bytes()
		n := int(cut) % (len(b) + 1) // written in two pieces, split anywhere
		iw.Write(b[:n])
		iw.Write(b[n:])
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("indentWriter:\n%s\njson.Indent:\n%s", got.Bytes(), want.Bytes())
		}
	})
}
