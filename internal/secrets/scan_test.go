package secrets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/secrets"
)

var testKey = []byte("0123456789abcdef0123456789abcdef")

func mustScan(t testing.TB, root string, opts secrets.Options) *secrets.Report {
	t.Helper()
	if opts.FingerprintKey == nil {
		opts.FingerprintKey = testKey
	}
	r, err := secrets.Scan(context.Background(), root, opts)
	if err != nil {
		t.Fatalf("Scan(%s): %v", root, err)
	}
	return r
}

type found struct{ File, Rule, Provider string }

func TestScan_PlantedAndLookalikes(t *testing.T) {
	root := t.TempDir()
	ps := secretsFor(t, 1)
	writePlanted(t, root, ps)
	writeLookalikes(t, root, newGen(2))

	r := mustScan(t, root, secrets.Options{})

	var want []found
	for _, p := range ps {
		want = append(want, found{p.file, p.rule, p.provider})
	}
	var got []found
	for _, d := range r.Detections {
		got = append(got, found{d.File, d.RuleID, d.Provider})
	}
	// The AWS secret access key is itself found by the generic rule, and
	// is then known to be AWS's.
	want = append(want, found{"deploy/aws.tf", "generic-api-key", "aws"})
	sortFound(want)
	sortFound(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("detections mismatch (-want +got):\n%s", diff)
		for _, d := range r.Detections {
			t.Logf("  %v", d)
		}
	}

	// Each planted value is reachable through Credential, with its line
	// and fingerprint.
	fp, _ := secrets.NewFingerprinter(testKey)
	for _, p := range ps {
		i := slices.IndexFunc(r.Detections, func(d secrets.Detection) bool { return d.File == p.file && d.RuleID == p.rule })
		if i < 0 {
			continue
		}
		d := &r.Detections[i]
		if d.Credential().Value() != p.value && p.rule != "private-key" {
			t.Errorf("%s: Credential().Value() is not the planted value", p.file)
		}
		if p.rule == "private-key" && !strings.Contains(p.value, d.Credential().Value()[:40]) {
			t.Errorf("%s: private key value does not start the planted key", p.file)
		}
		if got, want := d.Fingerprint, fp.Fingerprint(d.Credential().Value()); got != want {
			t.Errorf("%s: fingerprint %s, want %s", p.file, got, want)
		}
		if d.Line < 1 {
			t.Errorf("%s: line %d", p.file, d.Line)
		}
		if p.rule == "aws-access-token" {
			if !d.Paired || d.Credential().Companion() != p.companion || !d.Verifiable {
				t.Errorf("aws key id not paired with its secret key: paired=%v verifiable=%v", d.Paired, d.Verifiable)
			}
		}
	}
	if r.Summary.BinaryFiles != 1 {
		t.Errorf("Summary.BinaryFiles = %d, want 1 (bin/blob.dat; the PNG is excluded by name)", r.Summary.BinaryFiles)
	}
	if r.Engine.Rules < 100 {
		t.Errorf("Engine.Rules = %d, want gitleaks' default set", r.Engine.Rules)
	}
}

func sortFound(f []found) {
	slices.SortFunc(f, func(a, b found) int {
		return strings.Compare(a.File+"\x00"+a.Rule, b.File+"\x00"+b.Rule)
	})
}

func TestScan_LineAndColumn(t *testing.T) {
	root := t.TempDir()
	ps := secretsFor(t, 3)
	writePlanted(t, root, ps[:1]) // GITHUB_TOKEN=... on line 2, after 13 characters
	r := mustScan(t, root, secrets.Options{})
	if len(r.Detections) != 1 {
		t.Fatalf("got %d detections, want 1", len(r.Detections))
	}
	d := r.Detections[0]
	if d.Line != 2 || d.Column != 14 {
		t.Errorf("location = %d:%d, want 2:14", d.Line, d.Column)
	}
}

// TestScan_NoRawValueInOutput checks every way a report leaves the
// process: JSON, the table, fmt verbs on the report and on detections,
// slog in both handlers, and errors. None may contain a planted value.
func TestScan_NoRawValueInOutput(t *testing.T) {
	root := t.TempDir()
	ps := secretsFor(t, 4)
	writePlanted(t, root, ps)
	r := mustScan(t, root, secrets.Options{})
	if len(r.Detections) == 0 {
		t.Fatal("no detections")
	}

	var out bytes.Buffer
	if err := secrets.WriteJSON(&out, r); err != nil {
		t.Fatal(err)
	}
	if err := secrets.WriteTable(&out, r); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&out, "%v %+v %#v %s %q %x\n", r, r, r, r.Detections, r.Detections, r.Detections)
	for _, d := range r.Detections {
		fmt.Fprintf(&out, "%v %+v %#v %s %q %x\n", d, &d, d, d, d, d)
		c := d.Credential()
		fmt.Fprintf(&out, "%v %+v %#v %s %q %x %d\n", c, &c, c, c, c, c, c)
		b, _ := json.Marshal(c)
		out.Write(b)
		b, _ = json.Marshal(d)
		out.Write(b)
	}
	sub := secrets.NewSubmission(r)
	fmt.Fprintf(&out, "%v %+v %#v\n", sub, sub, sub.Items)
	slog.New(slog.NewTextHandler(&out, nil)).Info("scan", "report", r, "detection", r.Detections[0], "cred", r.Detections[0].Credential(), "item", sub.Items[0])
	slog.New(slog.NewJSONHandler(&out, nil)).Info("scan", "report", r, "detection", r.Detections[0], "cred", r.Detections[0].Credential(), "item", sub.Items[0])

	// An invalid submission's error never quotes a value.
	bad := strings.Replace(mustJSON(t, sub), `"line":`, `"line":"`+ps[0].value+`",`+`"x":`, 1)
	if _, err := secrets.ParseSubmission([]byte(bad)); err == nil {
		t.Error("ParseSubmission accepted a malformed submission")
	} else {
		out.WriteString(err.Error())
	}

	s := out.String()
	for _, p := range ps {
		for _, v := range []string{p.value, p.companion} {
			if v == "" {
				continue
			}
			probe := v
			if p.rule == "private-key" {
				probe = strings.Split(v, "\n")[1] // a line of the key's base64
			}
			if strings.Contains(s, probe) {
				t.Errorf("output contains the raw value of %s (%s)", p.file, p.rule)
			}
		}
	}
	if !strings.Contains(s, "[REDACTED]") {
		t.Error("a Credential printed without [REDACTED]")
	}

	// The submission, and only it, carries the values, and it survives
	// its own parser.
	parsed, err := secrets.ParseSubmission([]byte(mustJSON(t, sub)))
	if err != nil {
		t.Fatalf("ParseSubmission(NewSubmission(r)): %v", err)
	}
	var values []string
	for _, it := range parsed.Items {
		values = append(values, it.Credential().Value())
	}
	if !slices.Contains(values, ps[0].value) {
		t.Error("submission lost a value")
	}
}

func mustJSON(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestScan_Ignore(t *testing.T) {
	root := t.TempDir()
	ps := secretsFor(t, 5)
	writePlanted(t, root, ps)
	first := mustScan(t, root, secrets.Options{})
	var gh secrets.Detection
	for _, d := range first.Detections {
		if d.RuleID == "github-pat" {
			gh = d
		}
	}
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	file := "ignore:\n" +
		"  - fingerprint: " + gh.Fingerprint + "\n" +
		"    reason: revoked on 2026-11-20, history rewrite pending (SEC-9)\n" +
		"    expires: 2026-12-31\n" +
		"  - path: keys/**\n" +
		"    rule: private-key\n" +
		"    reason: test fixture key, never deployed\n" +
		"    expires: 2027-06-30\n" +
		"  - path: billing/\n" +
		"    reason: expired entry\n" +
		"    expires: 2026-01-01\n"
	entries, warnings, err := secrets.ParseIgnore([]byte(file), ".sentinel-secrets-ignore.yaml", now)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || len(warnings) != 1 {
		t.Fatalf("ParseIgnore: %d entries, %d warnings; want 2 and 1 (%v)", len(entries), len(warnings), warnings)
	}
	r := mustScan(t, root, secrets.Options{Ignore: entries})
	var sup []string
	for _, d := range r.Suppressed {
		sup = append(sup, d.RuleID+" "+d.Suppression.Source)
	}
	want := []string{"github-pat .sentinel-secrets-ignore.yaml:2", "private-key .sentinel-secrets-ignore.yaml:5"}
	if diff := cmp.Diff(want, sup); diff != "" {
		t.Errorf("suppressed mismatch (-want +got):\n%s", diff)
	}
	if len(r.Detections) != len(first.Detections)-2 {
		t.Errorf("%d detections left, want %d", len(r.Detections), len(first.Detections)-2)
	}
}

func TestParseIgnore_Invalid(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name, file, want string
	}{
		{"rule_only", "ignore:\n  - rule: generic-api-key\n    reason: r\n    expires: 2027-01-01\n", "missing fingerprint or path"},
		{"no_reason", "ignore:\n  - path: a/**\n    expires: 2027-01-01\n", "missing reason"},
		{"no_expiry", "ignore:\n  - path: a/**\n    reason: r\n", "missing expires"},
		{"bad_date", "ignore:\n  - path: a/**\n    reason: r\n    expires: soon\n", "expires \"soon\""},
		{"bad_fingerprint", "ignore:\n  - fingerprint: ghp_abc\n    reason: r\n    expires: 2027-01-01\n", "32 hex digits"},
		{"unknown_field", "ignore:\n  - path: a\n    secret: x\n    reason: r\n    expires: 2027-01-01\n", "field secret not found"},
		{"absolute_path", "ignore:\n  - path: /etc/**\n    reason: r\n    expires: 2027-01-01\n", "relative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := secrets.ParseIgnore([]byte(tt.file), "f.yaml", now)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseIgnore() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if es, _, err := secrets.ParseIgnore(nil, "empty", now); err != nil || len(es) != 0 {
		t.Errorf("empty file: %v, %v", es, err)
	}
}

func TestScan_SkipsAndLimits(t *testing.T) {
	root := t.TempDir()
	ps := secretsFor(t, 6)
	gh := ps[0]
	line := "GITHUB_TOKEN=" + gh.value + "\n"
	writeFile(t, root, "node_modules/dep/index.js", line)
	writeFile(t, root, ".git/config", line)
	writeFile(t, root, "vendor/lib/conf.env", line)
	writeFile(t, root, "testdata/fixture.env", line)
	writeFile(t, root, "big/dump.sql", strings.Repeat("-- filler line\n", 2000)+line)
	writeFile(t, root, "src/app.env", line)
	if err := os.Symlink(filepath.Join(root, "src", "app.env"), filepath.Join(root, "link.env")); err != nil {
		t.Fatal(err)
	}

	files := func(r *secrets.Report) []string {
		var out []string
		for _, d := range r.Detections {
			out = append(out, d.File)
		}
		return out
	}
	r := mustScan(t, root, secrets.Options{MaxFileSize: 16 << 10})
	if diff := cmp.Diff([]string{"src/app.env", "testdata/fixture.env", "vendor/lib/conf.env"}, files(r)); diff != "" {
		t.Errorf("default options (-want +got):\n%s", diff)
	}
	if len(r.Skipped) != 1 || r.Skipped[0].Path != "big/dump.sql" || !strings.Contains(r.Skipped[0].Reason, "larger than 16.0 KiB") {
		t.Errorf("Skipped = %v, want big/dump.sql as too large", r.Skipped)
	}

	r = mustScan(t, root, secrets.Options{SkipVendored: true, Exclude: []string{"testdata/**"}, MaxFileSize: -1})
	if diff := cmp.Diff([]string{"big/dump.sql", "src/app.env"}, files(r)); diff != "" {
		t.Errorf("SkipVendored, Exclude, no size limit (-want +got):\n%s", diff)
	}
	if r.Detections[0].Line != 2001 {
		t.Errorf("big/dump.sql line = %d, want 2001", r.Detections[0].Line)
	}

	// One file as root.
	r = mustScan(t, filepath.Join(root, "src", "app.env"), secrets.Options{})
	if diff := cmp.Diff([]string{"app.env"}, files(r)); diff != "" {
		t.Errorf("single file (-want +got):\n%s", diff)
	}
}

// TestScan_LargeFileChunks plants secrets around chunk boundaries of a
// large file, on long lines and after blank lines, and expects each once
// with its right line.
func TestScan_LargeFileChunks(t *testing.T) {
	root := t.TempDir()
	g := newGen(7)
	var b strings.Builder
	want := map[int]string{}
	line := 1
	for b.Len() < 600_000 {
		switch {
		case line%997 == 0:
			v := "ghp_SNTL" + g.str(alnum, 32)
			want[line] = v
			b.WriteString("token=" + v + "\n")
		case line%1500 == 0:
			b.WriteString("\n")
		case line%2003 == 0:
			b.WriteString("var x = \"" + g.str("abcdef ", 40_000) + "\";\n") // one long line
		default:
			b.WriteString("const value = compute(" + fmt.Sprint(line) + ");\n")
		}
		line++
	}
	writeFile(t, root, "bundle.js", b.String())
	r := mustScan(t, root, secrets.Options{})
	got := map[int]string{}
	for _, d := range r.Detections {
		if d.RuleID != "github-pat" {
			continue
		}
		if _, dup := got[d.Line]; dup {
			t.Errorf("line %d reported twice", d.Line)
		}
		got[d.Line] = d.Credential().Value()
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("detections by line mismatch (-want +got):\n%s", diff)
	}
}

func TestScan_History(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ps := secretsFor(t, 8)
	git("init", "-q", "-b", "main")
	writeFile(t, root, "README.md", "# demo\n")
	git("add", ".")
	git("commit", "-q", "-m", "initial")
	writeFile(t, root, "config/deploy.env", "NPM_TOKEN="+ps[6].value+"\n")
	git("add", ".")
	git("commit", "-q", "-m", "add deploy config")
	writeFile(t, root, "config/deploy.env", "NPM_TOKEN=${NPM_TOKEN}\n")
	git("add", ".")
	git("commit", "-q", "-m", "read the token from the environment")

	tree := mustScan(t, root, secrets.Options{})
	if len(tree.Detections) != 0 {
		t.Errorf("tree scan: %v, want nothing in the current files", tree.Detections)
	}
	r := mustScan(t, root, secrets.Options{History: true})
	if len(r.Detections) != 1 {
		t.Fatalf("history scan: %v, want the removed npm token", r.Detections)
	}
	d := r.Detections[0]
	if d.RuleID != "npm-access-token" || d.File != "config/deploy.env" || d.Line != 1 || len(d.Commit) != 40 || d.CommitDate == "" {
		t.Errorf("history detection = %+v", d)
	}
	if r.Summary.Commits != 3 {
		t.Errorf("Summary.Commits = %d, want 3", r.Summary.Commits)
	}

	if _, err := secrets.Scan(context.Background(), t.TempDir(), secrets.Options{FingerprintKey: testKey, History: true}); err == nil {
		t.Error("history scan outside a repository succeeded")
	}
}

func TestScan_Errors(t *testing.T) {
	if _, err := secrets.Scan(context.Background(), t.TempDir(), secrets.Options{}); err != secrets.ErrNoKey {
		t.Errorf("no key: %v, want ErrNoKey", err)
	}
	if _, err := secrets.Scan(context.Background(), filepath.Join(t.TempDir(), "missing"), secrets.Options{FingerprintKey: testKey}); err == nil {
		t.Error("missing root: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	root := t.TempDir()
	writeFile(t, root, "a.txt", "hello\n")
	if _, err := secrets.Scan(ctx, root, secrets.Options{FingerprintKey: testKey}); err == nil {
		t.Error("canceled context: no error")
	}
}

func TestEngineVersion(t *testing.T) {
	// Test binaries carry no module list in their build info: read go.mod.
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "github.com/zricethezav/gitleaks/v8" {
			if f[1] != "v"+secrets.EngineVersion {
				t.Errorf("EngineVersion = %s, go.mod requires %s", secrets.EngineVersion, f[1])
			}
			return
		}
	}
	t.Error("go.mod does not require gitleaks")
}

// TestScan_PEMAcrossChunks puts private keys across the first chunk
// boundary of files without a blank line to cut at, and an encrypted legacy
// key whose blank line after its headers would be one.
func TestScan_PEMAcrossChunks(t *testing.T) {
	g := newGen(10)
	key := ecPrivateKeyPEM(t, g)
	legacy := strings.Replace(key, "-----\n", "-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,"+strings.ToUpper(g.str("0123456789abcdef", 32))+"\n\n", 1)
	root := t.TempDir()
	for i, k := range []string{key, legacy} {
		for _, before := range []int{3700, 3900, 3990, 4050} {
			var b strings.Builder
			for b.Len() < before {
				b.WriteString("filler line without secrets\n")
			}
			b.WriteString(k)
			for b.Len() < 40_000 {
				b.WriteString("more filler\n")
			}
			writeFile(t, root, fmt.Sprintf("k%d_%d.pem.txt", i, before), b.String())
		}
	}
	r := mustScan(t, root, secrets.Options{})
	n := 0
	for _, d := range r.Detections {
		if d.RuleID == "private-key" {
			n++
			if v := d.Credential().Value(); !strings.HasSuffix(strings.TrimSpace(v), "KEY-----") || !strings.Contains(v, strings.Split(key, "\n")[2]) {
				t.Errorf("%s: private key cut: ends %q", d.File, v[max(0, len(v)-20):])
			}
		}
	}
	if n != 8 {
		t.Errorf("found %d private keys, want 8", n)
		for _, d := range r.Detections {
			t.Logf("  %v", d)
		}
	}
}

func TestScan_InlineAllow(t *testing.T) {
	root := t.TempDir()
	gh := secretsFor(t, 11)[0]
	writeFile(t, root, "a.env", "GITHUB_TOKEN="+gh.value+" # gitleaks:allow\n")
	if r := mustScan(t, root, secrets.Options{}); len(r.Detections) != 1 {
		t.Errorf("default: %d detections, want the token reported despite gitleaks:allow", len(r.Detections))
	}
	if r := mustScan(t, root, secrets.Options{HonorInlineAllow: true}); len(r.Detections) != 0 {
		t.Errorf("HonorInlineAllow: %v, want nothing", r.Detections)
	}
}
