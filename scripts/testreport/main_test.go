package main

import (
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	in := `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:9: needs cosign: go install ...\n"}
{"Action":"output","Package":"p","Test":"TestA","Output":"--- SKIP: TestA (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:3: got 1, want 2\n"}
{"Action":"fail","Package":"p","Test":"TestB","Elapsed":0.5}
{"Action":"pass","Package":"p","Test":"TestC"}
{"Action":"fail","Package":"p","Elapsed":1.5}
{"Action":"pass","Package":"q","Elapsed":0.2}
# r [build failed]
`
	var out strings.Builder
	r := &report{out: &out, output: map[string][]string{}}
	if err := r.read(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	r.summary()
	for _, want := range []string{"--- FAIL p TestB (0.5s)", "got 1, want 2", "FAIL p 1.5s", "ok   q 0.2s", "# r [build failed]",
		"skipped tests (1):", "p TestA: a_test.go:9: needs cosign: go install ..."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if r.failed != 2 {
		t.Errorf("failed = %d, want 2", r.failed)
	}
}
