package secrets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/secrets"
)

// TestCompareWithGitleaks scans a real tree with Scan and with the gitleaks
// command of the same version, side by side, and compares what each found
// and how long it took. It needs the gitleaks binary and a tree, outside the
// repository:
//
//	GOBIN=/work/peers go install github.com/zricethezav/gitleaks/v8@v8.30.1
//	SENTINEL_GITLEAKS=/work/peers/gitleaks SENTINEL_SECRETS_TREE=$(go env GOROOT)/src \
//	  go test -run TestCompareWithGitleaks -v -timeout 30m ./internal/secrets
//
// Scan runs with the gitleaks command's limits and rules (no size limit, no
// extra skipped directories, gitleaks:allow comments honored), so both see
// the same files. Each side runs
// SENTINEL_SECRETS_ROUNDS times (default 3), alternating, and the best
// time of each is reported.
func TestCompareWithGitleaks(t *testing.T) {
	bin, tree := os.Getenv("SENTINEL_GITLEAKS"), os.Getenv("SENTINEL_SECRETS_TREE")
	if bin == "" || tree == "" {
		t.Skip("set SENTINEL_GITLEAKS and SENTINEL_SECRETS_TREE to compare with the gitleaks command")
	}
	rounds := 3
	if n := os.Getenv("SENTINEL_SECRETS_ROUNDS"); n != "" {
		fmt.Sscan(n, &rounds)
	}
	tree, _ = filepath.Abs(tree)

	var ours *secrets.Report
	var oursBest, theirsBest, oursCPU, theirsCPU time.Duration
	var theirs []gitleaksFinding
	for i := range rounds {
		start, cpu := time.Now(), cpuTime()
		r, err := secrets.Scan(context.Background(), tree, secrets.Options{FingerprintKey: testKey, MaxFileSize: -1, SkipDirs: []string{}, HonorInlineAllow: true})
		if err != nil {
			t.Fatal(err)
		}
		if d, c := time.Since(start), cpuTime()-cpu; i == 0 || d < oursBest {
			oursBest, oursCPU = d, c
		}
		ours = r

		out := filepath.Join(t.TempDir(), "gitleaks.json")
		start = time.Now()
		cmd := exec.Command(bin, "dir", tree, "--report-format", "json", "--report-path", out, "--exit-code", "0", "--no-banner", "--log-level", "error", "--redact")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gitleaks: %v\n%s", err, b)
		}
		if d := time.Since(start); i == 0 || d < theirsBest {
			theirsBest = d
			theirsCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		theirs = nil
		if err := json.Unmarshal(data, &theirs); err != nil {
			t.Fatal(err)
		}
	}

	key := func(file, rule string, line int) string { return fmt.Sprintf("%s:%d %s", file, line, rule) }
	oursSet := map[string]bool{}
	for _, d := range append(ours.Detections, ours.Suppressed...) {
		oursSet[key(d.File, d.RuleID, d.Line)] = true
	}
	theirsSet := map[string]bool{}
	for _, f := range theirs {
		rel, _ := filepath.Rel(tree, f.File)
		theirsSet[key(filepath.ToSlash(rel), f.RuleID, f.StartLine)] = true
	}
	var onlyOurs, onlyTheirs []string
	for k := range oursSet {
		if !theirsSet[k] {
			onlyOurs = append(onlyOurs, k)
		}
	}
	for k := range theirsSet {
		if !oursSet[k] {
			onlyTheirs = append(onlyTheirs, k)
		}
	}
	slices.Sort(onlyOurs)
	slices.Sort(onlyTheirs)
	mb := float64(ours.Summary.Bytes) / 1e6
	t.Logf("tree %s: %d text files, %.1f MB, %d binary files", tree, ours.Summary.Files, mb, ours.Summary.BinaryFiles)
	t.Logf("Scan:     best of %d %v (%.1f MB/s), CPU %v, %d detections", rounds, oursBest.Round(time.Millisecond), mb/oursBest.Seconds(), oursCPU.Round(time.Millisecond), len(oursSet))
	t.Logf("gitleaks: best of %d %v (%.1f MB/s), CPU %v, %d findings", rounds, theirsBest.Round(time.Millisecond), mb/theirsBest.Seconds(), theirsCPU.Round(time.Millisecond), len(theirsSet))
	t.Logf("only Scan: %d %s", len(onlyOurs), strings.Join(first(onlyOurs, 20), "; "))
	t.Logf("only gitleaks: %d %s", len(onlyTheirs), strings.Join(first(onlyTheirs, 20), "; "))
	if len(onlyTheirs) > 0 {
		t.Errorf("gitleaks found %d detections Scan did not", len(onlyTheirs))
	}
}

type gitleaksFinding struct {
	RuleID    string
	File      string
	StartLine int
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }

// BenchmarkScan scans a generated tree of 2,000 source-like files (about
// 20 MB) with a few secrets in it.
func BenchmarkScan(b *testing.B) {
	root := b.TempDir()
	g := newGen(9)
	var size int64
	for i := range 2000 {
		var sb strings.Builder
		for l := range 250 {
			switch {
			case i%97 == 0 && l == 100:
				sb.WriteString("token = \"ghp_SNTL" + g.str(alnum, 32) + "\"\n")
			case l%10 == 0:
				sb.WriteString("// " + g.str("abcdefghij klmnopqrstuvwxyz", 60) + "\n")
			default:
				sb.WriteString(fmt.Sprintf("\tvalue%d := compute(ctx, %q, %d)\n", l, g.str(lowernm, 12), l))
			}
		}
		writeFile(b, root, fmt.Sprintf("pkg%02d/file%04d.go", i%40, i), sb.String())
		size += int64(sb.Len())
	}
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		if _, err := secrets.Scan(context.Background(), root, secrets.Options{FingerprintKey: testKey}); err != nil {
			b.Fatal(err)
		}
	}
}
