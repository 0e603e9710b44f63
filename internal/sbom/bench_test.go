package sbom_test

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/sbom"
	"github.com/sentinel-sca/sentinel/internal/sbom/validation"
)

// Large-tree measurements. They need a real source tree outside the
// repository (for example a checkout of dependabot/dependabot-core):
//
//	go test ./internal/sbom -run TestExtractTree -tree /tmp/tree -out /tmp/ours.cdx.json -v
//	go test ./internal/sbom -run XXX -bench BenchmarkExtractTree -tree /tmp/tree
//
// For wall time and peak RSS next to other tools, build the test binary once
// (go test -c -o /tmp/sbom.test ./internal/sbom) and run it under
// /usr/bin/time -v with the same flags (-test.run TestExtractTree -tree ...
// -validate=false).
var (
	treeFlag = flag.String("tree", "", "a large source tree for TestExtractTree and BenchmarkExtractTree")
	outFlag  = flag.String("out", "", "where TestExtractTree writes the SBOM (default: discarded)")
	// Validation holds the document as generic JSON; it is not part of what
	// the agent does on a host, so timing runs turn it off.
	validateFlag = flag.Bool("validate", true, "TestExtractTree validates the SBOM against the 1.5 schema")
	kindsFlag    = flag.String("kinds", "all", "what TestExtractTree extracts: all, languages or os")
)

func treeOptions(tb testing.TB) sbom.Options {
	tb.Helper()
	switch *kindsFlag {
	case "all":
		return sbom.Options{}
	case "languages":
		return sbom.Options{Kinds: sbom.Languages}
	case "os":
		return sbom.Options{Kinds: sbom.OSPackages}
	}
	tb.Fatalf("-kinds %q: want all, languages or os", *kindsFlag)
	return sbom.Options{}
}

// TestExtractTree extracts -tree, writes a CycloneDX 1.5 SBOM and validates
// it: the whole agent path, for timing against peers.
func TestExtractTree(t *testing.T) {
	if *treeFlag == "" {
		t.Skip("no -tree given")
	}
	opts := treeOptions(t)
	opts.Progress = os.Stderr
	start := time.Now()
	res, err := sbom.Extract(context.Background(), *treeFlag, opts)
	if err != nil {
		t.Fatal(err)
	}
	bom := sbom.NewBOM(res.Components, sbom.BOMOptions{ToolVersion: "bench", Root: *treeFlag, Projects: res.Projects})
	data, err := sbom.Marshal(bom)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	if *outFlag != "" {
		if err := os.WriteFile(*outFlag, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d files walked, %d lockfiles read, %d components, %d file errors, SBOM %d bytes, %v",
		res.Walked, len(res.Files), len(res.Components), len(res.Errors), len(data), elapsed)
	if *validateFlag {
		if err := validation.Validate(data); err != nil {
			t.Errorf("Validate: %v", err)
		}
	}
}

// BenchmarkExtractTree measures Extract alone on -tree.
func BenchmarkExtractTree(b *testing.B) {
	if *treeFlag == "" {
		b.Skip("no -tree given")
	}
	b.ReportAllocs()
	opts := treeOptions(b)
	for b.Loop() {
		if _, err := sbom.Extract(context.Background(), *treeFlag, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtractLockfiles measures Extract on testdata/lockfiles (28 real
// lockfiles, about 7,200 components); it needs no flag.
func BenchmarkExtractLockfiles(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sbom.Extract(context.Background(), lockfiles, sbom.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
