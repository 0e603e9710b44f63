package httpapi_test

import (
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

type fuzzBody struct {
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
	N      int      `json:"n"`
	Sub    *struct {
		A bool `json:"a"`
	} `json:"sub"`
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"name":"x","scopes":["a"],"n":3,"sub":{"a":true}}`, `{"unknown":1}`, `[]`, `{"n":"x"}`, `{} {}`, ``, `{"sub":{"b":1}}`, `nul`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v fuzzBody
		err := httpapi.DecodeJSON(strings.NewReader(string(data)), 1<<16, &v)
		if err == nil {
			return
		}
		switch sentinel.ErrorCode(err) {
		case sentinel.EINVALID, sentinel.ETOOLARGE:
		default:
			t.Fatalf("DecodeJSON(%q): unexpected error %v", data, err)
		}
		if e := sentinel.AsError(err); e.Message == "" {
			t.Fatalf("DecodeJSON(%q): error without a message", data)
		}
	})
}
