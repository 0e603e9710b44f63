package sbom

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"path"
	"strconv"

	cpb "github.com/google/osv-scalibr/binary/proto/config_go_proto"
	"github.com/google/osv-scalibr/extractor"
	"github.com/google/osv-scalibr/extractor/filesystem"
	"github.com/google/osv-scalibr/purl"
)

// bun's binary lockfile, bun.lockb, which bun wrote by default before 1.2,
// and 1.2 and later still write where a project keeps it (format 3).
//
// The file is bun's in-memory lockfile written out with little-endian
// integers: a header line pair, a format version (a u32), a 32-byte hash of
// the resolved packages and the size of what follows (a u64). Then the
// packages, stored by field: their count, an alignment (8), the number of
// fields (8, or 7 before bun 0.6.8 wrote scripts), the absolute start and
// end of the field arrays, and the arrays one after the other: name (a
// string, 8 bytes), name hash (8), resolution (64, 72 in format 3), dependencies and
// resolutions (each a slice {offset, length} of u32s into the buffers
// below), then meta, bin and scripts, which are not read. Then six buffers,
// each as the absolute start and end of its bytes, followed by a type-name
// line and padding before the bytes: the hoisting trees (not read), the
// hoisted dependencies (not read), the resolutions (a u32 package id per
// dependency), the dependencies (26 bytes each: name string, name hash,
// behavior bits, version tag, version literal), external strings (not
// read) and the string bytes every long string points into. Later data
// (workspace versions, trusted dependencies, overrides, patches) is not
// read.
//
// A string is 8 bytes: up to 8 bytes inline, padded with zeros, when the
// last byte's high bit is clear; otherwise a u32 offset into the string
// bytes and a u32 length with its high bit set. A resolution is a tag byte,
// 7 bytes of padding and 56 bytes of value (64 in format 3): for a registry
// package its tarball address (a string) and its version (major, minor,
// patch as u32s and 4 bytes of padding, or as u64s in format 3, then the
// pre-release and build as external strings: a string and a hash each);
// for a git or GitHub package the owner,
// repository, committish, resolved commit and package name (strings); for a
// folder, symlink, workspace or tarball its path or address (a string).
//
// Every offset and length is checked against the file: a truncated or
// corrupt file is an error, never a panic.

var bunLockb = bunLockbExtractor{ownExtractor{name: "javascript/bunlockb", required: isBunLockb, read: readBunLockb}}

// bunLockbExtractor reads a bun.lockb once for both its packages and its
// graph (onePass): bunLockbGraph takes the decoded file.
type bunLockbExtractor struct{ ownExtractor }

var _ onePass = bunLockbExtractor{}

func (e bunLockbExtractor) factory() extractorFactory {
	return func(*cpb.PluginConfig) (filesystem.Extractor, error) { return e, nil }
}

// shadowed reports whether a bun.lock is beside the bun.lockb: bun reads
// that one, and so does Sentinel.
func (bunLockbExtractor) shadowed(in *filesystem.ScanInput) bool {
	return in.FS != nil && anyFile(in.FS, path.Dir(in.Path), "bun.lock")
}

// parse implements onePass.
func (bunLockbExtractor) parse(b []byte) (any, error) {
	f, err := decodeBunLockb(b)
	if err != nil {
		return nil, fmt.Errorf("bun's binary lockfile could not be read (%w): %s", err, bunLockbHint)
	}
	return f, nil
}

// packages implements onePass: a registry package as its name and
// version, a git or GitHub package, a tarball as its name (and the
// version a registry tarball's address names). The root, the workspace
// members and the folders and symlinks are the project's own.
func (bunLockbExtractor) packages(doc any, p string) []*extractor.Package {
	var out []*extractor.Package
	seen := map[string]bool{}
	for _, pk := range doc.(*bunLockbFile).packages {
		name, version, ok := pk.component()
		if !ok || seen[name+"@"+version] {
			continue
		}
		seen[name+"@"+version] = true
		out = append(out, &extractor.Package{Name: name, Version: version, PURLType: purl.TypeNPM, Location: extractor.LocationFromPath(p)})
	}
	return out
}

func isBunLockb(p string) bool { return path.Base(p) == bunBinaryLock }

// bunLockbHeader starts every bun.lockb.
const bunLockbHeader = "#!/usr/bin/env bun\nbun-lockfile-format-v0\n"

// bunLockbHint says how to get a lockfile Sentinel reads from a bun.lockb
// it could not read.
const bunLockbHint = "write the text lockfile beside it " +
	"(bun install --save-text-lockfile --frozen-lockfile --lockfile-only, bun 1.1.39 or later) and scan again"

// Resolution tags of bun.lockb.
const (
	bunResRoot          = 1
	bunResNpm           = 2
	bunResFolder        = 4
	bunResLocalTarball  = 8
	bunResGitHub        = 16
	bunResGit           = 32
	bunResSymlink       = 64
	bunResWorkspace     = 72
	bunResRemoteTarball = 80
)

// bunDepDev is the behavior bit of a dependency package.json declares in
// devDependencies.
const bunDepDev = 1 << 3

// Sizes of what is read of a package, per package. A resolution is 64
// bytes in format 2 and 72 in format 3, where a version's major, minor and
// patch became u64s (bunResolutionSize).
const (
	bunStringSize     = 8
	bunSliceSize      = 8
	bunDependencySize = 26
)

// bunResolutionSize is the size of a package's resolution in the format.
func bunResolutionSize(format uint32) uint64 {
	if format >= 3 {
		return 72
	}
	return 64
}

// bunLockbPackage is what Sentinel reads of one package of a bun.lockb.
type bunLockbPackage struct {
	name    string
	tag     byte
	version string // a registry package's version
	// url is a registry package's tarball address, a tarball's address or
	// path, or a folder, symlink or workspace's path.
	url string
	// A git or GitHub package's source.
	owner, repo, committish, resolved string
	deps                              []bunLockbDep
}

// bunLockbDep is one dependency of a package and the package it resolved
// to (-1 when it is not resolved).
type bunLockbDep struct {
	name     string
	behavior byte
	to       int
}

// bunLockbFile is a decoded bun.lockb.
type bunLockbFile struct {
	format   uint32
	packages []bunLockbPackage
}

// bunReader reads a bun.lockb with every read bounds-checked.
type bunReader struct {
	b   []byte
	pos uint64
}

func (r *bunReader) u64(what string) (uint64, error) {
	if r.pos > uint64(len(r.b)) || uint64(len(r.b))-r.pos < 8 {
		return 0, fmt.Errorf("truncated at byte %d: no room for %s", r.pos, what)
	}
	v := binary.LittleEndian.Uint64(r.b[r.pos:])
	r.pos += 8
	return v, nil
}

// array reads a buffer's start and end and gives its bytes, which must be
// a whole number of elements of size.
func (r *bunReader) array(what string, size uint64) ([]byte, error) {
	start, err := r.u64(what + " start")
	if err != nil {
		return nil, err
	}
	end, err := r.u64(what + " end")
	if err != nil {
		return nil, err
	}
	switch {
	case start == 0 || start < r.pos-16 || start > end:
		return nil, fmt.Errorf("%s: bad range %d-%d at byte %d", what, start, end, r.pos-16)
	case end > uint64(len(r.b)):
		return nil, fmt.Errorf("%s: ends at byte %d, past the end of the file (%d bytes): truncated", what, end, len(r.b))
	case (end-start)%size != 0:
		return nil, fmt.Errorf("%s: %d bytes, not a whole number of %d-byte entries", what, end-start, size)
	}
	r.pos = end
	return r.b[start:end], nil
}

// decodeBunLockb reads a bun.lockb's packages and dependencies.
func decodeBunLockb(b []byte) (*bunLockbFile, error) {
	if len(b) < len(bunLockbHeader) || string(b[:len(bunLockbHeader)]) != bunLockbHeader {
		return nil, fmt.Errorf("not a bun.lockb: the file does not start with %q", bunLockbHeader)
	}
	r := &bunReader{b: b, pos: uint64(len(bunLockbHeader))}
	if len(b) < len(bunLockbHeader)+4 {
		return nil, fmt.Errorf("truncated after the header: no format version")
	}
	f := &bunLockbFile{format: binary.LittleEndian.Uint32(b[r.pos:])}
	// Format 2 is what bun 0.1.7 to 1.1 write (1.0.36 and 1.1.38 were
	// tried), format 3 what bun 1.2 writes when told to keep the binary
	// lockfile (1.2.23 was tried); another is refused rather than misread.
	if f.format != 2 && f.format != 3 {
		return nil, fmt.Errorf("unknown bun.lockb format version %d (versions 2 and 3 are read)", f.format)
	}
	resSize := bunResolutionSize(f.format)
	r.pos += 4 + 32 // the format and the hash
	total, err := r.u64("the data size")
	if err != nil {
		return nil, err
	}
	if total > uint64(len(b)) {
		return nil, fmt.Errorf("truncated: the file says %d bytes of data, it has %d", total, len(b))
	}
	r.b = b[:total] // nothing past the data size is read

	count, err := r.u64("the package count")
	if err != nil {
		return nil, err
	}
	align, err := r.u64("the package alignment")
	if err != nil {
		return nil, err
	}
	if align != 8 {
		return nil, fmt.Errorf("package alignment %d, not 8: not a lockfile this reader knows", align)
	}
	fields, err := r.u64("the package field count")
	if err != nil {
		return nil, err
	}
	if fields != 7 && fields != 8 {
		return nil, fmt.Errorf("%d package fields, not 7 or 8: not a lockfile this reader knows", fields)
	}
	begin, err := r.u64("the packages' start")
	if err != nil {
		return nil, err
	}
	end, err := r.u64("the packages' end")
	if err != nil {
		return nil, err
	}
	perPackage := 2*bunStringSize + resSize + 2*bunSliceSize
	if begin > end || end > uint64(len(r.b)) || begin < r.pos {
		return nil, fmt.Errorf("packages: bad range %d-%d in a file of %d bytes of data", begin, end, len(r.b))
	}
	if count > (end-begin)/perPackage {
		return nil, fmt.Errorf("packages: %d packages do not fit in %d bytes: truncated or corrupt", count, end-begin)
	}
	n := int(count)
	// Each field's array starts after the arrays of the fields before it
	// (before is their size per package).
	at := func(before uint64) []byte { return r.b[begin+before*count:] }
	names := at(0)
	resolutions := at(2 * bunStringSize) // after name and name hash
	depSlices := at(2*bunStringSize + resSize)
	resSlices := at(2*bunStringSize + resSize + bunSliceSize)

	r.pos = end
	if _, err := r.array("trees", 1); err != nil {
		return nil, err
	}
	if _, err := r.array("hoisted dependencies", 4); err != nil {
		return nil, err
	}
	resolved, err := r.array("resolutions", 4)
	if err != nil {
		return nil, err
	}
	deps, err := r.array("dependencies", bunDependencySize)
	if err != nil {
		return nil, err
	}
	if _, err := r.array("external strings", 16); err != nil {
		return nil, err
	}
	strs, err := r.array("string bytes", 1)
	if err != nil {
		return nil, err
	}
	var bad error
	str := func(s []byte, what string) string {
		v, err := bunString(s, strs)
		if err != nil && bad == nil {
			bad = fmt.Errorf("%s: %w", what, err)
		}
		return v
	}
	// Each package's dependencies are its own range of the buffer: more
	// than the buffer holds in all is a corrupt file, not work to do.
	budget := uint64(len(deps) / bunDependencySize)
	f.packages = make([]bunLockbPackage, n)
	for i := range f.packages {
		p := &f.packages[i]
		p.name = str(names[i*bunStringSize:][:bunStringSize], fmt.Sprintf("package %d's name", i))
		res := resolutions[uint64(i)*resSize:][:resSize]
		p.tag = res[0]
		v := res[8:]
		what := fmt.Sprintf("package %d (%s)'s resolution", i, p.name)
		switch p.tag {
		case bunResNpm:
			p.url = str(v[0:8], what)
			p.version = bunVersion(f.format, v[8:], func(s []byte) string { return str(s, what) })
		case bunResGit, bunResGitHub:
			p.owner, p.repo = str(v[0:8], what), str(v[8:16], what)
			p.committish, p.resolved = str(v[16:24], what), str(v[24:32], what)
		case bunResFolder, bunResLocalTarball, bunResSymlink, bunResWorkspace, bunResRemoteTarball:
			p.url = str(v[0:8], what)
		}
		ds := depSlices[i*bunSliceSize:][:bunSliceSize]
		rs := resSlices[i*bunSliceSize:][:bunSliceSize]
		off, ln := uint64(binary.LittleEndian.Uint32(ds)), uint64(binary.LittleEndian.Uint32(ds[4:]))
		roff, rln := uint64(binary.LittleEndian.Uint32(rs)), uint64(binary.LittleEndian.Uint32(rs[4:]))
		if ln != rln || (off+ln)*bunDependencySize > uint64(len(deps)) || (roff+rln)*4 > uint64(len(resolved)) {
			return nil, fmt.Errorf("package %d (%s): dependencies %d+%d outside the %d recorded", i, p.name, off, ln, len(deps)/bunDependencySize)
		}
		if ln > budget {
			return nil, fmt.Errorf("package %d (%s): more dependencies than the %d recorded", i, p.name, len(deps)/bunDependencySize)
		}
		budget -= ln
		for j := uint64(0); j < ln; j++ {
			d := deps[(off+j)*bunDependencySize:][:bunDependencySize]
			to := int64(binary.LittleEndian.Uint32(resolved[(roff+j)*4:]))
			if to >= int64(n) {
				to = -1 // not resolved (bun writes the largest u32)
			}
			p.deps = append(p.deps, bunLockbDep{name: str(d[0:8], what+" dependency"), behavior: d[16], to: int(to)})
		}
		if bad != nil {
			return nil, bad
		}
	}
	return f, nil
}

// bunVersion reads a registry package's version, v being the resolution's
// value after the tarball address: in format 2 major, minor and patch as
// u32s and 4 bytes of padding, in format 3 as u64s; then the pre-release
// and the build, each a string and its hash.
func bunVersion(format uint32, v []byte, str func([]byte) string) string {
	var major, minor, patch uint64
	var tag []byte
	if format >= 3 {
		major, minor, patch = binary.LittleEndian.Uint64(v), binary.LittleEndian.Uint64(v[8:]), binary.LittleEndian.Uint64(v[16:])
		tag = v[24:]
	} else {
		major, minor, patch = uint64(binary.LittleEndian.Uint32(v)), uint64(binary.LittleEndian.Uint32(v[4:])), uint64(binary.LittleEndian.Uint32(v[8:]))
		tag = v[16:]
	}
	s := strconv.FormatUint(major, 10) + "." + strconv.FormatUint(minor, 10) + "." + strconv.FormatUint(patch, 10)
	if pre := str(tag[0:8]); pre != "" {
		s += "-" + pre
	}
	if build := str(tag[16:24]); build != "" {
		s += "+" + build
	}
	return s
}

// bunString decodes a bun string against the string bytes.
func bunString(s, strs []byte) (string, error) {
	if s[7]&0x80 == 0 {
		n := 0
		for n < 8 && s[n] != 0 {
			n++
		}
		return string(s[:n]), nil
	}
	off := uint64(binary.LittleEndian.Uint32(s))
	n := uint64(binary.LittleEndian.Uint32(s[4:]) & 0x7fffffff)
	if off+n > uint64(len(strs)) {
		return "", fmt.Errorf("string at %d+%d outside the %d string bytes", off, n, len(strs))
	}
	return string(strs[off : off+n]), nil
}

// readBunLockb is Extract's reading (onePass gives the walk's).
func readBunLockb(in *filesystem.ScanInput, b []byte) ([]*extractor.Package, error) {
	var e bunLockbExtractor
	if e.shadowed(in) {
		return nil, nil
	}
	doc, err := e.parse(b)
	if err != nil {
		return nil, err
	}
	return e.packages(doc, in.Path), nil
}

// component is the package's name and version as a component, and false
// for the project's own packages and what is not resolved.
func (p bunLockbPackage) component() (name, version string, ok bool) {
	if p.name == "" {
		return "", "", false
	}
	switch p.tag {
	case bunResNpm:
		return p.name, p.version, true
	case bunResGit, bunResGitHub, bunResLocalTarball:
		// A git commit or a file: no version, as bun.lock's are given.
		return p.name, "", true
	case bunResRemoteTarball:
		if n, v, ok := tarballAddress(p.url); ok && n == p.name {
			return p.name, v, true
		}
		return p.name, "", true
	}
	return "", "", false
}

// vcs is a git or GitHub package's vcs_url.
func (p bunLockbPackage) vcs() string {
	commit := p.resolved
	if commit == "" {
		commit = p.committish
	}
	switch p.tag {
	case bunResGitHub:
		if p.owner == "" || p.repo == "" {
			return ""
		}
		return vcsURL("https://github.com/"+p.owner+"/"+p.repo, commit)
	case bunResGit:
		return vcsURL(p.repo, commit)
	}
	return ""
}

// bunLockbReadable reports whether the bun.lockb in dir is one this
// reader reads: only then does it stand for the node_modules beside it.
func bunLockbReadable(fsys fs.FS, dir string) bool {
	b, err := fs.ReadFile(fsys, path.Join(dir, bunBinaryLock))
	if err != nil {
		return false
	}
	_, err = decodeBunLockb(b)
	return err == nil
}

// bunLockbGraph reads a bun.lockb's dependency graph: each package's
// resolved dependencies, the root's and each workspace member's direct
// dependencies (devDependencies apart), and git sources.
func bunLockbGraph(data []byte, lk *lockIndex) error {
	f, ok := lk.pre.(*bunLockbFile)
	if !ok {
		var err error
		if f, err = decodeBunLockb(data); err != nil {
			return err
		}
	}
	idx := make([]int, len(f.packages)) // package -> component, -1 for none
	for i, p := range f.packages {
		idx[i] = -1
		if name, version, ok := p.component(); ok {
			c, found := lk.find(name, version)
			if version == "" {
				c, found = lk.byNameVer[lk.norm(name)+"@"]
			}
			if found {
				idx[i] = c
				lk.setVCS(c, p.vcs())
			}
		}
	}
	for i, p := range f.packages {
		var dir string
		switch p.tag {
		case bunResRoot:
		case bunResWorkspace:
			dir = p.url
			lk.link("", dir) // the root holds its workspace members
		default:
			if idx[i] < 0 {
				continue
			}
		}
		for _, d := range p.deps {
			if d.to < 0 {
				continue
			}
			t := f.packages[d.to]
			if p.tag == bunResRoot || p.tag == bunResWorkspace {
				if t.tag == bunResWorkspace {
					if t.url != dir {
						lk.link(dir, t.url) // a member's dependency on another
					}
					continue
				}
				if idx[d.to] < 0 {
					continue
				}
				if d.behavior&bunDepDev != 0 {
					lk.devRoot(dir, idx[d.to])
				} else {
					lk.root(dir, idx[d.to])
				}
				continue
			}
			if idx[d.to] >= 0 {
				lk.edge(idx[i], idx[d.to])
			}
		}
	}
	return nil
}
