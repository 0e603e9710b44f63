package intel

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sameAsEncodingJSON reports how DecodeAdvisory's JSON decoding (the
// v1-compatible decoder of go-json-experiment) and encoding/json differ
// on data, or "".
func sameAsEncodingJSON(data []byte) string {
	a, err1 := DecodeAdvisory(data)
	var b Advisory
	err2 := json.Unmarshal(data, &b)
	var de *DecodeError
	if err1 != nil && (!errors.As(err1, &de) || de.Reason != SkipInvalidJSON) {
		return "" // the checks after decoding, not the decoder
	}
	switch {
	case (err1 == nil) != (err2 == nil):
		return "DecodeAdvisory: " + errString(err1) + "; encoding/json: " + errString(err2)
	case err1 == nil:
		b.Raw = data
		if !reflect.DeepEqual(*a, b) {
			return "the decoded records differ"
		}
	}
	return ""
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// TestDecodeAdvisoryAsEncodingJSON: every OSV record in testdata decodes
// as encoding/json decodes it.
func TestDecodeAdvisoryAsEncodingJSON(t *testing.T) {
	n := 0
	err := filepath.WalkDir("testdata/osv", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if d := sameAsEncodingJSON(data); d != "" {
			t.Errorf("%s: %s", p, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d records in testdata/osv", n)
	}
}

// FuzzDecodeAdvisoryAsEncodingJSON: on any input, DecodeAdvisory fails
// where encoding/json fails and decodes what it decodes.
func FuzzDecodeAdvisoryAsEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"id":"GHSA-1","modified":"2024-01-01T00:00:00Z","affected":[{"package":{"ecosystem":"npm","name":"a"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"1.0.1"}]}],"versions":["1.0.0"]}]}`,
		`{"ID":"x","Modified":"2024-01-01T00:00:00Z","id":"y"}`,
		`{"id":"x","modified":"not a time"}`,
		`{"id":"x","aliases":"CVE-1"}`,
		"{\"id\":\"\xff\xfe\",\"summary\":\"\\ud800\"}",
		`{"id":"x","database_specific":{"severity":"HIGH","cwe_ids":["CWE-79"]},"severity":[{"type":"CVSS_V3","score":"CVSS:3.1/AV:N"}]}`,
		`{"id":"x"} trailing`,
		`[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := sameAsEncodingJSON(data); d != "" {
			t.Fatalf("%q: %s", data, d)
		}
	})
}
