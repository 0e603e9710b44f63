package sbom_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	packageurl "github.com/package-url/packageurl-go"

	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// osRelease reads KEY=value lines of an os-release file.
func osRelease(tb testing.TB, root string) map[string]string {
	tb.Helper()
	m := map[string]string{}
	for _, l := range lines(tb, filepath.Join(root, "etc", "os-release")) {
		if k, v, ok := strings.Cut(l, "="); ok {
			m[k] = strings.Trim(v, `"`)
		}
	}
	return m
}

// dpkgRead derives the purls of a dpkg status file: every paragraph whose
// Status ends in "installed", with the distro from os-release and the
// source package from "Source: name" or "Source: name (version)".
func dpkgRead(tb testing.TB, root string) []string {
	rel := osRelease(tb, root)
	data := string(mustRead(tb, filepath.Join(root, "var", "lib", "dpkg", "status")))
	var out []string
	for _, para := range strings.Split(data, "\n\n") {
		f := map[string]string{}
		for _, l := range strings.Split(para, "\n") {
			if k, v, ok := strings.Cut(l, ": "); ok && !strings.HasPrefix(l, " ") {
				f[k] = v
			}
		}
		// The states in which dpkg has the package's files installed.
		st := strings.Fields(f["Status"])
		onDisk := len(st) == 3 && slices.Contains([]string{"installed", "triggers-pending", "triggers-awaited", "half-configured", "unpacked"}, st[2])
		if f["Package"] == "" || !onDisk {
			continue
		}
		q := map[string]string{"arch": f["Architecture"], "distro": rel["ID"] + "-" + rel["VERSION_ID"]}
		if src := f["Source"]; src != "" {
			name, ver, _ := strings.Cut(src, " (")
			if name != f["Package"] {
				q["source"] = name
			}
			if ver = strings.TrimSuffix(ver, ")"); ver != "" && ver != f["Version"] {
				q["source_version"] = ver
			}
		}
		out = append(out, packageurl.NewPackageURL("deb", rel["ID"], f["Package"], f["Version"], packageurl.QualifiersFromMap(q), "").ToString())
	}
	return set(out)
}

// apkRead derives the purls of an apk installed database: P (name), V
// (version), A (arch) and o (origin) lines of each blank-line separated
// entry.
func apkRead(tb testing.TB, root string) []string {
	rel := osRelease(tb, root)
	var out []string
	f := map[string]string{}
	flush := func() {
		if f["P"] != "" {
			q := map[string]string{"arch": f["A"], "distro": rel["ID"] + "-" + rel["VERSION_ID"]}
			if f["o"] != "" && f["o"] != f["P"] {
				q["origin"] = f["o"]
			}
			out = append(out, packageurl.NewPackageURL("apk", rel["ID"], f["P"], f["V"], packageurl.QualifiersFromMap(q), "").ToString())
		}
		f = map[string]string{}
	}
	sc := bufio.NewScanner(strings.NewReader(string(mustRead(tb, filepath.Join(root, "lib", "apk", "db", "installed")))))
	for sc.Scan() {
		l := sc.Text()
		if l == "" {
			flush()
			continue
		}
		if len(l) > 2 && l[1] == ':' {
			f[l[:1]] = l[2:]
		}
	}
	flush()
	return set(out)
}

func purlsOf(res *sbom.Result) []string {
	var out []string
	for _, c := range res.Components {
		out = append(out, c.Purl)
	}
	return out
}

// TestDpkgStatuses: a package is a component while its files are on disk:
// installed, unpacked, half-configured, or with triggers pending or
// awaited (right after an upgrade); not when only its configuration files
// are left, when it was never completely installed, or in a paragraph
// without a Status.
func TestDpkgStatuses(t *testing.T) {
	for dir, want := range map[string][]string{
		"dpkg-statuses": {"wantdeinstall_installed", "wantinstall_installed", "wantinstall_unpacked", "wantpurge_installed"},
		"dpkg-triggers": {"awaitpkg", "halfpkg", "trigpkg"},
	} {
		root := filepath.Join("testdata", "os", dir)
		res := mustExtract(t, root)
		var got []string
		for _, c := range res.Components {
			got = append(got, c.Name)
		}
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: packages (-want +got):\n%s", dir, diff)
		}
	}
}

// TestExtractOSPackages: dpkg, apk and RPM databases at their paths under a
// root give distribution purls with the distro and the source package; the
// expected purls are derived from the databases themselves.
func TestExtractOSPackages(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		read reader
		eco  string
	}{
		{"debian12", dpkgRead, "Debian:12"},
		{"alpine318", apkRead, "Alpine:v3.18"},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			root := filepath.Join("testdata", "os", tc.dir)
			res := mustExtract(t, root)
			if len(res.Errors) > 0 {
				t.Errorf("errors: %v", res.Errors)
			}
			want := tc.read(t, root)
			if len(want) < 10 {
				t.Fatalf("independent reading found %d packages", len(want))
			}
			if diff := cmp.Diff(want, purlsOf(res)); diff != "" {
				t.Errorf("Extract(%q) purls mismatch (-want +got):\n%s", root, diff)
			}
			for _, c := range res.Components {
				if c.Ecosystem != tc.eco {
					t.Errorf("%s: ecosystem %q, want %q", c.Purl, c.Ecosystem, tc.eco)
				}
			}
			// Only OS packages: the language extractors find nothing.
			res2, err := sbom.Extract(context.Background(), root, sbom.Options{Kinds: sbom.Languages})
			if err != nil || len(res2.Components) != 0 {
				t.Errorf("Extract(Languages) = %d components, %v; want none", len(res2.Components), err)
			}
		})
	}

	t.Run("azurelinux_distroless_manifest", func(t *testing.T) {
		res := mustExtract(t, filepath.Join("testdata", "os", "azurelinux-distroless"))
		want := []string{
			"pkg:rpm/azurelinux/filesystem@1.1-9.cm2?arch=x86_64&distro=mariner-2.0&upstream=filesystem-1.1-9.cm2.src.rpm",
			"pkg:rpm/azurelinux/glibc@2.35-2.cm2?arch=x86_64&distro=mariner-2.0&upstream=glibc-2.35-2.cm2.src.rpm",
			"pkg:rpm/azurelinux/mariner-release@2.0-12.cm2?arch=noarch&distro=mariner-2.0&upstream=mariner-release-2.0-12.cm2.src.rpm",
			"pkg:rpm/azurelinux/openssl-libs@1.1.1k-15.cm2?arch=x86_64&distro=mariner-2.0&upstream=openssl-1.1.1k-15.cm2.src.rpm",
		}
		if diff := cmp.Diff(want, purlsOf(res)); diff != "" {
			t.Errorf("purls mismatch (-want +got):\n%s", diff)
		}
		for _, c := range res.Components {
			if c.Ecosystem != "Azure Linux:2.0" {
				t.Errorf("%s: ecosystem %q, want Azure Linux:2.0", c.Purl, c.Ecosystem)
			}
		}
		// A manifest that is not one (a name per line) is a file skipped
		// with its reason, not packages without versions.
		root := t.TempDir()
		mustWrite(t, filepath.Join(root, "var", "lib", "rpmmanifest", "container-manifest-2"), []byte("glibc\nopenssl-libs\n"))
		res = mustExtract(t, root)
		if len(res.Components) != 0 || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Error(), "tab-separated") {
			t.Errorf("a broken manifest: %d components, errors %v", len(res.Components), res.Errors)
		}
	})

	t.Run("rpm_berkeley_db", func(t *testing.T) {
		res := mustExtract(t, filepath.Join("testdata", "os", "rpm-fedora32"))
		want := []string{"pkg:rpm/fedora/hello@0.0.1-rls?arch=x86_64&distro=fedora-32&epoch=1&upstream=hello-0.0.1-rls.src.rpm"}
		if diff := cmp.Diff(want, purlsOf(res)); diff != "" {
			t.Errorf("purls mismatch (-want +got):\n%s", diff)
		}
		if got := res.Components[0].Licenses; !slices.Equal(got, []string{"GPL"}) {
			t.Errorf("licenses = %v, want [GPL]", got)
		}
	})

	t.Run("rpm_sqlite_el9", func(t *testing.T) {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			t.Skipf("no go command: %v", err)
		}
		db := filepath.Join(strings.TrimSpace(string(out)), "github.com", "google", "osv-scalibr@v0.5.3",
			"extractor", "filesystem", "os", "rpm", "testdata", "rpmdb.sqlite")
		data, err := os.ReadFile(db)
		if err != nil {
			t.Skipf("scalibr's test database is not in the module cache: %v", err)
		}
		root := t.TempDir()
		mustWrite(t, filepath.Join(root, "usr", "lib", "sysimage", "rpm", "rpmdb.sqlite"), data)
		mustWrite(t, filepath.Join(root, "etc", "os-release"), []byte("ID=rocky\nVERSION_ID=9.3\n"))
		res := mustExtract(t, root)
		if len(res.Components) < 100 || len(res.Errors) > 0 {
			t.Fatalf("Extract = %d components, errors %v; want the el9 image's packages", len(res.Components), res.Errors)
		}
		for _, c := range res.Components {
			if !strings.HasPrefix(c.Purl, "pkg:rpm/rocky/") || !strings.Contains(c.Purl, "distro=rocky-9.3") || c.Ecosystem != "Rocky Linux:9" {
				t.Errorf("%s: ecosystem %q", c.Purl, c.Ecosystem)
			}
		}
	})
}

func mustWrite(tb testing.TB, p string, data []byte) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestExtractHostRoot extracts this machine's own root, as `sentinel sbom /`
// does, when it is a dpkg system: every installed package of its status
// file is found, the walk stays on the root's file system, and nothing
// under /proc or /sys is read. Skipped in -short mode and elsewhere.
func TestExtractHostRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("walks the whole host file system")
	}
	if _, err := os.Stat("/var/lib/dpkg/status"); err != nil {
		t.Skip("not a dpkg host")
	}
	res, err := sbom.Extract(context.Background(), "/", sbom.Options{Kinds: sbom.OSPackages})
	if err != nil {
		t.Fatal(err)
	}
	want := dpkgRead(t, "/")
	got := map[string]bool{}
	for _, c := range res.Components {
		got[c.Purl] = true
	}
	missing := 0
	for _, w := range want {
		if !got[w] {
			missing++
			if missing < 5 {
				t.Errorf("package %s of /var/lib/dpkg/status not found", w)
			}
		}
	}
	proc := regexp.MustCompile(`^(proc|sys|dev)/`)
	for _, e := range append(res.Errors, res.Warnings...) {
		if proc.MatchString(e.Path) {
			t.Errorf("the walk entered another file system: %v", e)
		}
	}
	t.Logf("%d files walked, %d OS packages (%d in the status file)", res.Walked, len(res.Components), len(want))
}

// TestExtractStaysOnFileSystem: the walk does not enter another file
// system below the root unless CrossMounts: a lockfile on the tmpfs at
// /dev/shm is not found from /dev (devtmpfs), and is with CrossMounts.
func TestExtractStaysOnFileSystem(t *testing.T) {
	dev, err1 := os.Stat("/dev")
	shm, err2 := os.Stat("/dev/shm")
	if err1 != nil || err2 != nil || sameDevice(dev, shm) {
		t.Skip("no separate file system at /dev/shm")
	}
	dir, err := os.MkdirTemp("/dev/shm", "sentinel-mount-test-")
	if err != nil {
		t.Skipf("cannot write to /dev/shm: %v", err)
	}
	defer os.RemoveAll(dir)
	mustWrite(t, filepath.Join(dir, "Cargo.lock"), mustRead(t, filepath.Join(lockfiles, "cargo-ripgrep", "Cargo.lock")))
	found := func(opts sbom.Options) bool {
		opts.Kinds = sbom.Languages
		res, err := sbom.Extract(context.Background(), "/dev", opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			if strings.HasSuffix(f.Path, filepath.Base(dir)+"/Cargo.lock") {
				return true
			}
		}
		return false
	}
	if found(sbom.Options{}) {
		t.Error("the walk of /dev entered /dev/shm")
	}
	if !found(sbom.Options{CrossMounts: true}) {
		t.Error("with CrossMounts the walk of /dev did not enter /dev/shm")
	}
}

// TestDpkgStatusDCorrupt: a distroless image keeps one dpkg status file per
// package under status.d; one that holds no package record (corrupt,
// garbage) is reported as skipped, not passed over in silence, and the
// others are still read.
func TestDpkgStatusDCorrupt(t *testing.T) {
	root := t.TempDir()
	osRelease, err := os.ReadFile(filepath.Join("testdata", "os", "debian12", "etc", "os-release"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"etc/os-release":                      string(osRelease),
		"var/lib/dpkg/status.d/base-files":    "Package: base-files\nVersion: 12.4+deb12u5\nArchitecture: amd64\n\n",
		"var/lib/dpkg/status.d/libc6":         "Package libc6\nVersion 2.36-9\n", // no colons: no record
		"var/lib/dpkg/status.d/libc6.md5sums": "0123456789abcdef0123456789abcdef  lib/x86_64-linux-gnu/libc.so.6\n",
		"var/lib/dpkg/status.d/empty":         "",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := mustExtract(t, root)
	if got := purlsOf(res); !slices.Equal(got, []string{"pkg:deb/debian/base-files@12.4%2Bdeb12u5?arch=amd64&distro=debian-12"}) {
		t.Errorf("components = %q, want base-files alone", got)
	}
	var skipped []string
	for _, e := range res.Errors {
		skipped = append(skipped, e.Path)
		if !strings.Contains(e.Reason, "no package record") {
			t.Errorf("%s: reason %q does not say what is wrong", e.Path, e.Reason)
		}
	}
	if want := []string{"var/lib/dpkg/status.d/libc6"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped = %q, want %q", skipped, want)
	}
}
