package sbom_test

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"debug/buildinfo"
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

const binaries = "testdata/binaries"

// pomProperties reads the Maven coordinates an archive records of itself
// (META-INF/maven/*/*/pom.properties) as a purl.
func pomProperties(tb testing.TB, jar []byte) string {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(jar), int64(len(jar)))
	if err != nil {
		tb.Fatal(err)
	}
	for _, f := range zr.File {
		if !strings.HasPrefix(f.Name, "META-INF/maven/") || !strings.HasSuffix(f.Name, "/pom.properties") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		defer r.Close()
		kv := map[string]string{}
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok && !strings.HasPrefix(k, "#") {
				kv[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		return "pkg:maven/" + kv["groupId"] + "/" + kv["artifactId"] + "@" + kv["version"]
	}
	tb.Fatal("no pom.properties in the archive")
	return ""
}

// buildGoProgram builds testdata/binaries/goprog, a small program that
// imports three modules of Sentinel's go.mod, to file.
func buildGoProgram(tb testing.TB, file string) {
	tb.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		tb.Fatalf("the go command is needed to build the Go program the test reads: %v", err)
	}
	cmd := exec.Command(goTool, "build", "-o", file, "./"+binaries+"/goprog")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
}

// goBuildPurls are the components a Go program's build information names:
// the standard library at the toolchain's version and every module linked
// in (a replacement in its stead), read here with the standard library's
// own reader.
func goBuildPurls(tb testing.TB, file string) []string {
	tb.Helper()
	bi, err := buildinfo.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	out := []string{"pkg:golang/stdlib@" + strings.TrimPrefix(strings.Fields(bi.GoVersion)[0], "go")}
	for _, m := range bi.Deps {
		if m.Replace != nil && m.Replace.Path != "" {
			m = m.Replace
		}
		out = append(out, "pkg:golang/"+strings.ToLower(m.Path)+"@"+strings.TrimPrefix(m.Version, "v"))
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		out = append(out, "pkg:golang/"+strings.ToLower(bi.Main.Path)+"@"+strings.TrimPrefix(v, "v"))
	}
	return out
}

// warOf builds a web application archive holding the given archives in
// WEB-INF/lib, as a WAR a build tool writes.
func warOf(tb testing.TB, jars map[string][]byte) []byte {
	tb.Helper()
	files := map[string][]byte{"WEB-INF/web.xml": []byte("<web-app/>\n")}
	for name, b := range jars {
		files["WEB-INF/lib/"+name] = b
	}
	return sbom.ZipFiles(tb, files)
}

// TestExtractBinaries: a Go program copied to a host and Java archives
// deployed there, one nested in a WAR, are read to what they record of
// themselves: every module the program was linked with and its
// toolchain's standard library, each archive's Maven coordinates, located
// at the file that holds them. Small executables (a script) give nothing,
// and a scan of languages only does not open them.
func TestExtractBinaries(t *testing.T) {
	root := t.TempDir()
	prog := filepath.Join(root, "usr/local/bin/app")
	buildGoProgram(t, prog)
	mustWrite(t, filepath.Join(root, "usr/local/bin/run.sh"), []byte("#!/bin/sh\nexec app \"$@\"\n"))
	os.Chmod(filepath.Join(root, "usr/local/bin/run.sh"), 0o755)
	cli := mustRead(t, filepath.Join(binaries, "commons-cli-1.5.0.jar"))
	slf4j := mustRead(t, filepath.Join(binaries, "slf4j-api-1.7.32.jar"))
	cio := mustRead(t, filepath.Join(binaries, "commons-io-2.11.0.jar"))
	mustWrite(t, filepath.Join(root, "opt/tool/lib/commons-cli-1.5.0.jar"), cli)
	mustWrite(t, filepath.Join(root, "opt/tool/lib/slf4j-api-1.7.32.jar"), slf4j)
	mustWrite(t, filepath.Join(root, "srv/webapps/shop.war"), warOf(t, map[string][]byte{"commons-io-2.11.0.jar": cio}))

	res, err := sbom.Extract(context.Background(), root, sbom.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := map[string][]string{}
	for _, c := range res.Components {
		for _, l := range c.Locations {
			at[l] = append(at[l], c.Purl)
		}
	}
	want := map[string][]string{
		"usr/local/bin/app":                  set(goBuildPurls(t, prog)),
		"opt/tool/lib/commons-cli-1.5.0.jar": {pomProperties(t, cli)},
		"opt/tool/lib/slf4j-api-1.7.32.jar":  {pomProperties(t, slf4j)},
		"srv/webapps/shop.war":               {pomProperties(t, cio)},
	}
	for l := range at {
		at[l] = set(at[l])
	}
	if diff := cmp.Diff(want, at); diff != "" {
		t.Errorf("components by location (-want +got):\n%s", diff)
	}
	for _, m := range []string{"pkg:golang/github.com/google/go-cmp@", "pkg:golang/github.com/package-url/packageurl-go@", "pkg:golang/golang.org/x/mod@", "pkg:golang/stdlib@1."} {
		if !slices.ContainsFunc(at["usr/local/bin/app"], func(p string) bool { return strings.HasPrefix(p, m) }) {
			t.Errorf("the program's %s... is not among its components", m)
		}
	}
	for _, e := range res.Errors {
		t.Errorf("error: %v", e)
	}

	res, err = sbom.Extract(context.Background(), root, sbom.Options{Kinds: sbom.Languages})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Components) != 0 {
		t.Errorf("a scan of languages read %d components from programs and archives", len(res.Components))
	}
}

// TestBinariesOwnedByOS: a program or archive the operating system's
// package manager installed is its package (dpkg's or apk's lists name
// the file), matched against the distribution's advisories, and not read
// again: with /bin a link to /usr/bin, a list's /bin/x is the walk's
// usr/bin/x. The same files outside a system root, or not listed, are read.
func TestBinariesOwnedByOS(t *testing.T) {
	cli := mustRead(t, filepath.Join(binaries, "commons-cli-1.5.0.jar"))
	slf4j := mustRead(t, filepath.Join(binaries, "slf4j-api-1.7.32.jar"))
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "usr/share/java/commons-cli.jar"), cli)
	mustWrite(t, filepath.Join(root, "usr/lib/tool/slf4j-api.jar"), slf4j)
	mustWrite(t, filepath.Join(root, "usr/share/jenkins/slf4j-api.jar"), slf4j)
	mustWrite(t, filepath.Join(root, "opt/app/commons-cli.jar"), cli)
	mustWrite(t, filepath.Join(root, "var/lib/dpkg/info/libcommons-cli-java.list"),
		[]byte("/.\n/usr\n/usr/share\n/usr/share/java\n/usr/share/java/commons-cli.jar\n"))
	mustWrite(t, filepath.Join(root, "var/lib/dpkg/info/tool.list"), []byte("/lib/tool/slf4j-api.jar\n"))
	mustWrite(t, filepath.Join(root, "lib/apk/db/installed"),
		[]byte("P:jenkins\nV:2.1-r0\nF:usr/share/jenkins\nR:slf4j-api.jar\n\n"))

	res, err := sbom.Extract(context.Background(), root, sbom.Options{Kinds: sbom.Binaries})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Components {
		got = append(got, c.Purl+" "+strings.Join(c.Locations, ","))
	}
	if diff := cmp.Diff([]string{pomProperties(t, cli) + " opt/app/commons-cli.jar"}, got); diff != "" {
		t.Errorf("components (-want +got):\n%s", diff)
	}

	// The same files in a project's folder: no package manager's lists.
	res, err = sbom.Extract(context.Background(), filepath.Join(root, "usr"), sbom.Options{Kinds: sbom.Binaries})
	if err != nil {
		t.Fatal(err)
	}
	located := 0
	for _, c := range res.Components {
		located += len(c.Locations)
	}
	if len(res.Components) != 2 || located != 3 {
		t.Errorf("without a system root, %d components at %d locations, want the 2 packages of the 3 archives: %v", len(res.Components), located, purlsOf(res))
	}
}

// TestBinariesOwnedByRPM: on an RPM system, a program a package of the RPM
// database installed (the test database's package lists
// /usr/bin/hello.sh, here a Go program) is the package's; the same
// program elsewhere is read.
func TestBinariesOwnedByRPM(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "var/lib/rpm/Packages"), mustRead(t, "testdata/os/rpm-fedora32/var/lib/rpm/Packages"))
	buildGoProgram(t, filepath.Join(root, "usr/bin/hello.sh"))
	prog := mustRead(t, filepath.Join(root, "usr/bin/hello.sh"))
	mustWrite(t, filepath.Join(root, "opt/hello/bin/hello"), prog)
	for _, p := range []string{"usr/bin/hello.sh", "opt/hello/bin/hello"} {
		if err := os.Chmod(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	res, err := sbom.Extract(context.Background(), root, sbom.Options{Kinds: sbom.Binaries})
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	for _, c := range res.Components {
		for _, l := range c.Locations {
			at[l]++
		}
	}
	if at["usr/bin/hello.sh"] != 0 || at["opt/hello/bin/hello"] == 0 {
		t.Errorf("components by location %v; want the program in /opt only", at)
	}
}

// TestExtractRustProgram: a Rust program built with cargo auditable is
// read to the crates its .dep-v0 section lists (read here with debug/elf
// and zlib), not its own (local) crate.
func TestExtractRustProgram(t *testing.T) {
	const prog = binaries + "/rust/uses_serde_json"
	f, err := elf.Open(prog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sec := f.Section(".dep-v0")
	if sec == nil {
		t.Fatal("no .dep-v0 section")
	}
	zr, err := zlib.NewReader(sec.Open())
	if err != nil {
		t.Fatal(err)
	}
	var deps struct {
		Packages []struct{ Name, Version, Source, Kind string }
	}
	if err := json.NewDecoder(zr).Decode(&deps); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range deps.Packages {
		if p.Source != "local" && p.Kind != "build" {
			want = append(want, "pkg:cargo/"+p.Name+"@"+p.Version)
		}
	}
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "usr/local/bin/uses_json"), mustRead(t, prog))
	if err := os.Chmod(filepath.Join(root, "usr/local/bin/uses_json"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := sbom.Extract(context.Background(), root, sbom.Options{Kinds: sbom.Binaries})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(set(want), set(purlsOf(res))); diff != "" {
		t.Errorf("crates (-want +got):\n%s", diff)
	}
	if len(want) < 5 {
		t.Errorf("the program lists %d crates; the test needs a real one", len(want))
	}
}
