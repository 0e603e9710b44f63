package sbom

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	rpmdb "github.com/erikvarga/go-rpmdb/pkg"
	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/extractor/filesystem/language/golang/gobinary"
	"github.com/google/osv-scalibr/extractor/filesystem/language/java/archive"
	"github.com/google/osv-scalibr/extractor/filesystem/language/rust/cargoauditable"
	scalibrfs "github.com/google/osv-scalibr/fs"
	"github.com/google/osv-scalibr/inventory"
	rustaudit "github.com/rust-secure-code/go-rustaudit"
)

// Built software on a host: Go and Rust programs, Java archives.
//
// What a lockfile says was built is not always what runs: a server has a
// Go program copied to /usr/local/bin and a Spring Boot application in
// /opt, and neither left a lockfile there. Both carry the list of what
// went into them:
//
//   - a Go program, its build information (debug/buildinfo): the main
//     module, every module it was linked with at its exact version, and
//     the toolchain that built it, which is the standard library's
//     version (pkg:golang/stdlib), exactly, unlike go.mod's go line;
//   - a Rust program built with cargo auditable (as Alpine, Chimera and
//     many container images build them), the crates it was linked with,
//     at their exact versions, in its .dep-v0 section: crates.io's and
//     git's, not the program's own (local) crates nor build-only ones;
//   - a Java archive (.jar, .war, .ear and the like), the
//     META-INF/maven/<group>/<artifact>/pom.properties Maven writes into
//     it, also in the archives nested inside it (a WAR's WEB-INF/lib, a
//     Spring Boot BOOT-INF/lib), and its file name where it has none.
//
// scalibr's gobinary and java/archive extractors and the rustaudit library
// read them; each is given the file itself to read from (io.ReaderAt),
// never its whole content in memory. A program reads only its headers and
// the section that lists its dependencies; an archive only its directory
// and the small files Maven wrote.
//
// The files the operating system's package manager installed are left
// to it: a Debian-built program or /usr/share/java archive is dpkg's
// package, matched against the distribution's advisories, which know its
// backported fixes (the embedded versions do not). osFiles reads which
// files those are from dpkg's, apk's and RPM's own lists, when the
// scanned root holds them.

// notProgram are extensions of source, text and data files: a Go or Rust
// program is never written so, though a script beside it may be
// executable. Scalibr passes over a few of them by name and stats the
// rest for their mode; a tree of sources is mostly these.
var notProgram = map[string]bool{
	".bash": true, ".bat": true, ".c": true, ".cfg": true, ".cmd": true, ".conf": true, ".cpp": true,
	".cs": true, ".csproj": true, ".css": true, ".csv": true, ".dart": true, ".erb": true, ".ex": true,
	".exs": true, ".gemspec": true, ".gif": true, ".go": true, ".gradle": true, ".h": true, ".hcl": true,
	".htm": true, ".html": true, ".ini": true, ".java": true, ".jl": true, ".jpeg": true, ".jpg": true,
	".js": true, ".json": true, ".jsx": true, ".kt": true, ".kts": true, ".lock": true, ".lua": true,
	".md": true, ".mjs": true, ".php": true, ".pl": true, ".png": true, ".properties": true, ".ps1": true,
	".py": true, ".rb": true, ".rbi": true, ".rs": true, ".rst": true, ".sbt": true, ".scala": true,
	".scss": true, ".sh": true, ".sql": true, ".svg": true, ".swift": true, ".tf": true, ".toml": true,
	".ts": true, ".tsx": true, ".txt": true, ".xml": true, ".yaml": true, ".yml": true,
}

// minProgram is the smallest executable the Go and Rust program readers
// open: such a program is several hundred kilobytes at least, the scripts
// and small tools beside it are not worth a look.
const minProgram = 256 << 10

// MaxBinarySize is the largest program or archive Extract opens (1 GiB):
// only a part of it is read, so this is far above DefaultMaxFileSize.
const MaxBinarySize = 1 << 30

// maxArchiveOpened bounds what the archive reader inflates from one
// archive and the archives inside it.
const maxArchiveOpened = 512 << 20

// goBinary is scalibr's Go program reader, on executables large enough to
// be one, with the toolchain as the standard library.
type goBinary struct {
	filesystem.Extractor
}

// FileRequired implements filesystem.Extractor.
func (g goBinary) FileRequired(api filesystem.FileAPI) bool { return programRequired(g.Extractor, api) }

// programRequired reports whether ex claims the file and it is large
// enough to be a program (minProgram).
func programRequired(ex filesystem.Extractor, api filesystem.FileAPI) bool {
	if notProgram[strings.ToLower(path.Ext(api.Path()))] {
		return false // before scalibr's check, which stats most files for their mode
	}
	if !ex.FileRequired(api) {
		return false
	}
	fi, err := api.Stat()
	return err == nil && fi.Size() >= minProgram
}

// Extract implements filesystem.Extractor: the toolchain ("go") becomes
// the standard library, and a main module built from a checkout
// ("(devel)") is left out: it names no release advisories could list.
func (g goBinary) Extract(ctx context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	inv, err := g.Extractor.Extract(ctx, in)
	pkgs := inv.Packages[:0]
	for _, p := range inv.Packages {
		switch {
		case p.Name == "go":
			if p.Version == "" || strings.HasPrefix(p.Version, "devel") {
				continue
			}
			p.Name = "stdlib"
		case p.Version == "" || p.Version == "(devel)":
			continue
		}
		pkgs = append(pkgs, p)
	}
	inv.Packages = pkgs
	return inv, err
}

// rustBinary reads the crates a Rust program built with cargo auditable
// lists; scalibr's extractor decides which files to open.
type rustBinary struct {
	filesystem.Extractor
}

// FileRequired implements filesystem.Extractor.
func (r rustBinary) FileRequired(api filesystem.FileAPI) bool {
	return programRequired(r.Extractor, api)
}

// Extract implements filesystem.Extractor: scalibr's would report the
// program's own crates (source "local") as crates.io's, so the list is
// read here, with the library scalibr uses.
func (rustBinary) Extract(_ context.Context, in *filesystem.ScanInput) (inventory.Inventory, error) {
	ra, ok := in.Reader.(io.ReaderAt)
	if !ok {
		return inventory.Inventory{}, errors.New("the program cannot be read at random offsets")
	}
	info, err := rustaudit.GetDependencyInfo(ra)
	if errors.Is(err, rustaudit.ErrUnknownFileFormat) || errors.Is(err, rustaudit.ErrNoRustDepInfo) {
		return inventory.Inventory{}, nil // not a program cargo auditable built
	}
	if err != nil {
		return inventory.Inventory{}, fmt.Errorf("read the crates the program lists: %w", err)
	}
	var pkgs []*extractor.Package
	for _, p := range info.Packages {
		if p.Kind != rustaudit.Runtime || p.Source == "local" || p.Name == "" || p.Version == "" {
			continue
		}
		pkgs = append(pkgs, &extractor.Package{Name: p.Name, Version: p.Version, PURLType: "cargo",
			Location: extractor.LocationFromPath(in.Path)})
	}
	return inventory.Inventory{Packages: pkgs}, nil
}

// newJavaArchive builds scalibr's archive reader without hashing each
// archive (a whole read of it) and with a bound on what it inflates.
func newJavaArchive(*cpb.PluginConfig) (filesystem.Extractor, error) {
	no := false
	return archive.New(&cpb.PluginConfig{PluginSpecific: []*cpb.PluginSpecificConfig{{
		Config: &cpb.PluginSpecificConfig_JavaArchive{JavaArchive: &cpb.JavaArchiveConfig{
			MaxOpenedBytes: maxArchiveOpened,
			HashJars:       &no,
		}},
	}}})
}

// binaryExtractor reports whether ex reads built software (Binaries).
func binaryExtractor(ex filesystem.Extractor) bool {
	n := ex.Name()
	return n == gobinary.Name || n == archive.Name || n == cargoauditable.Name
}

// extractBinary reads one program or archive through its open file.
// Nothing is reported of a file that turns out not to be one (an
// executable that is neither a Go program nor a Rust one cargo auditable
// built).
func extractBinary(ctx context.Context, fsys scalibrfs.FS, absRoot string, j job, owned *osFiles) fileOutcome {
	var out fileOutcome
	if owned.owns(j.path) {
		return out
	}
	f, err := fsys.Open(j.path)
	if err != nil {
		for _, ex := range j.exs {
			out.errs = append(out.errs, FileError{Path: j.path, Extractor: ex.Name(), Reason: err.Error()})
		}
		return out
	}
	defer f.Close()
	var r io.Reader = f
	if _, ok := f.(io.ReaderAt); !ok {
		// Not a file on disk (an fs.FS of another kind): the readers
		// would copy it whole, so it is bounded here.
		r = io.LimitReader(f, MaxBinarySize)
	}
	for _, ex := range j.exs {
		pkgs, err := runExtractorOn(ctx, fsys, absRoot, j, ex, r)
		comps, ok := out.components(j.path, ex.Name(), pkgs, err)
		if !ok || len(comps) == 0 {
			continue
		}
		out.files = append(out.files, File{Path: j.path, Extractor: ex.Name(), Packages: len(comps)})
		out.comps = append(out.comps, comps...)
	}
	return out
}

// osFiles are the files the operating system's package manager
// installed under the scanned root, read once, when the first program or
// archive is found, from dpkg's lists (var/lib/dpkg/info/*.list), apk's
// database (lib/apk/db/installed) and the RPM database (its packages'
// file lists, when the root is a directory on disk). A root without them
// (a project, a folder of a host) owns nothing.
type osFiles struct {
	fsys    fs.FS
	absRoot string // "" when fsys is not the disk's (Options.FS)
	once    sync.Once
	files   map[string]struct{}
}

// owns reports whether the package manager installed the file at p
// (relative to the root). Where /bin, /sbin and /lib are links into /usr,
// the walk sees usr/bin/x for the /bin/x a list names, so both are tried.
func (o *osFiles) owns(p string) bool {
	if o == nil {
		return false
	}
	o.once.Do(o.load)
	if len(o.files) == 0 {
		return false
	}
	if _, ok := o.files[p]; ok {
		return true
	}
	if rest, ok := strings.CutPrefix(p, "usr/"); ok {
		_, owned := o.files[rest]
		return owned
	}
	_, owned := o.files["usr/"+p]
	return owned
}

// load reads the package managers' lists of files; what cannot be read
// owns nothing.
func (o *osFiles) load() {
	o.files = map[string]struct{}{}
	lists, _ := fs.Glob(o.fsys, "var/lib/dpkg/info/*.list")
	for _, l := range lists {
		o.readLines(l, false)
	}
	for _, db := range []string{"lib/apk/db/installed", "usr/lib/apk/db/installed"} {
		o.readLines(db, true)
	}
	if o.absRoot != "" {
		for _, db := range rpmDatabases {
			o.readRPM(filepath.Join(o.absRoot, filepath.FromSlash(db)))
		}
	}
}

// rpmDatabases are where RPM keeps its database, in its three formats.
var rpmDatabases = []string{
	"var/lib/rpm/Packages", "var/lib/rpm/Packages.db", "var/lib/rpm/rpmdb.sqlite",
	"usr/lib/sysimage/rpm/Packages.db", "usr/lib/sysimage/rpm/rpmdb.sqlite",
}

// readRPM adds the files every package of the RPM database at file
// installed. A database that cannot be read adds nothing: its packages'
// programs are then read like any other.
func (o *osFiles) readRPM(file string) {
	if _, err := os.Stat(file); err != nil {
		return
	}
	db, err := rpmdb.Open(file)
	if err != nil {
		return
	}
	defer db.Close()
	pkgs, err := db.ListPackages()
	if err != nil {
		return
	}
	for _, p := range pkgs {
		names, err := p.InstalledFileNames()
		if err != nil {
			continue
		}
		for _, n := range names {
			if rel := strings.TrimPrefix(n, "/"); rel != "" && rel != n {
				o.files[path.Clean(rel)] = struct{}{}
			}
		}
	}
}

// readLines adds the paths a dpkg list names (one absolute path a line)
// or, with apkDB, an apk database does (F:<folder> then R:<file> lines).
func (o *osFiles) readLines(name string, apkDB bool) {
	f, err := o.fsys.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	dir := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !apkDB:
			if p := strings.TrimPrefix(line, "/"); p != "" && p != line {
				o.files[path.Clean(p)] = struct{}{}
			}
		case strings.HasPrefix(line, "F:"):
			dir = line[2:]
		case strings.HasPrefix(line, "R:"):
			o.files[path.Join(dir, line[2:])] = struct{}{}
		case line == "":
			dir = ""
		}
	}
}

// splitBinary parts matched into the Binaries extractors and the rest.
func splitBinary(matched []filesystem.Extractor) (bin, rest []filesystem.Extractor) {
	for _, ex := range matched {
		if binaryExtractor(ex) {
			bin = append(bin, ex)
		} else {
			rest = append(rest, ex)
		}
	}
	return bin, rest
}
