// Command testreport reads `go test -json` on stdin and prints what a
// person needs from it: one line per package, the output of every failed
// test, and, at the end, every skipped test with the reason it gave, so a
// run that passed cannot hide what it did not run. It exits 1 when a test
// or a package failed.
//
//	go test -json ./... | go run ./scripts/testreport
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// keep bounds the output kept per test: enough for a failure's story.
const keep = 200

type report struct {
	out     io.Writer
	output  map[string][]string // package + "\x00" + test -> output lines
	skipped []string
	failed  int
}

func main() {
	r := &report{out: os.Stdout, output: map[string][]string{}}
	if err := r.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	r.summary()
	if r.failed > 0 {
		os.Exit(1)
	}
}

func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// Not an event: build errors and the like, printed as they are.
			fmt.Fprintln(r.out, string(line))
			continue
		}
		r.event(e)
	}
	return sc.Err()
}

func (r *report) event(e event) {
	key := e.Package + "\x00" + e.Test
	switch e.Action {
	case "output":
		lines := append(r.output[key], e.Output)
		if len(lines) > keep {
			lines = lines[len(lines)-keep:]
		}
		r.output[key] = lines
	case "pass":
		delete(r.output, key)
		if e.Test == "" {
			fmt.Fprintf(r.out, "ok   %s %.1fs\n", e.Package, e.Elapsed)
		}
	case "skip":
		if e.Test == "" {
			fmt.Fprintf(r.out, "---  %s (no tests)\n", e.Package)
		} else {
			r.skipped = append(r.skipped, fmt.Sprintf("%s %s: %s", e.Package, e.Test, reason(r.output[key])))
		}
		delete(r.output, key)
	case "fail":
		r.failed++
		if e.Test != "" {
			fmt.Fprintf(r.out, "--- FAIL %s %s (%.1fs)\n", e.Package, e.Test, e.Elapsed)
			for _, l := range r.output[key] {
				fmt.Fprint(r.out, "    "+l)
			}
		} else {
			fmt.Fprintf(r.out, "FAIL %s %.1fs\n", e.Package, e.Elapsed)
			for _, l := range r.output[key] {
				if !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, "--- ") {
					fmt.Fprint(r.out, "    "+l)
				}
			}
		}
		delete(r.output, key)
	}
}

// reason is the message a skipped test gave: its output without the
// framework's own lines.
func reason(lines []string) string {
	var parts []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}

func (r *report) summary() {
	if len(r.skipped) == 0 {
		fmt.Fprintln(r.out, "skipped tests: none")
		return
	}
	sort.Strings(r.skipped)
	fmt.Fprintf(r.out, "skipped tests (%d):\n", len(r.skipped))
	for _, s := range r.skipped {
		fmt.Fprintln(r.out, "  "+s)
	}
}
