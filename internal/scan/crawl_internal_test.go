package scan

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestReadBody reads bodies whose Content-Length is right, absent, wrong
// either way or past the limit: always what io.ReadAll of the limited
// reader gives.
func TestReadBody(t *testing.T) {
	const limit = 10
	for _, tc := range []struct {
		body string
		size int64
	}{
		{"hello", 5}, {"hello", -1}, {"hello", 0}, {"hello", 3}, {"hello", 8},
		{"hello world, longer", 19}, {"hello world, longer", 5}, {"", 0}, {"", 4},
	} {
		want, _ := io.ReadAll(io.LimitReader(strings.NewReader(tc.body), limit+1))
		got, err := readBody(io.LimitReader(strings.NewReader(tc.body), limit+1), tc.size, limit)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("readBody(%q, size %d) = %q, %v; want %q", tc.body, tc.size, got, err, want)
		}
	}
}
