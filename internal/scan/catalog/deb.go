package catalog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"github.com/sentinel-sca/sentinel/internal/scan/banner"
)

// debFile hashes the labelled .js and .css files of one Debian package.
//
// The package name and version come from the file name apt-get download
// gives it ("libjs-jquery_3.6.1+dfsg+~3.5.14-1_all.deb", with an epoch's
// colon written %3a). A file is labelled by the first banner in its first
// kilobyte when that banner names a library of the catalog (this is how the
// copies bundled by WordPress, phpMyAdmin or MediaWiki are recognised), else
// by a DebianRule for the package, at the package's upstream version.
func (b *builder) debFile(name string) error {
	base := path.Base(name)
	stem, ok := strings.CutSuffix(base, ".deb")
	parts := strings.Split(stem, "_")
	if !ok || len(parts) != 3 {
		return fmt.Errorf("file name %q is not NAME_VERSION_ARCH.deb", base)
	}
	pkgName := parts[0]
	pkgVersion, err := url.PathUnescape(parts[1])
	if err != nil {
		return fmt.Errorf("file name %q: %w", base, err)
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := debData(bufio.NewReader(io.LimitReader(f, maxDeb)))
	if err != nil {
		return err
	}
	defer data.Close()

	libs := b.libraries()
	var rules []DebianRule
	for _, r := range b.opts.DebianRules {
		if r.Package == pkgName && libs[r.Library] {
			rules = append(rules, r)
		}
	}
	upstream := upstreamVersion(pkgVersion)
	source := "deb:" + pkgName + "_" + pkgVersion
	var es []Entry
	unlabeled := 0
	err = eachTarFile(data, func(fname string, r io.Reader) error {
		fname = strings.TrimPrefix(fname, "./")
		ext := path.Ext(fname)
		if (ext != ".js" && ext != ".css") || strings.HasPrefix(fname, "usr/share/doc/") {
			return nil
		}
		content, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		lib, version := labelDebFile(fname, content, libs, rules, upstream)
		if lib == "" {
			unlabeled++
			return nil
		}
		es = append(es, Entry{SHA1: sha1.Sum(content), Library: lib, Version: version, File: fname, Source: source})
		return nil
	})
	if err != nil {
		return err
	}
	b.add(es, true)
	b.mu.Lock()
	b.stats.Debs++
	b.stats.DebUnlabeled += unlabeled
	b.mu.Unlock()
	b.log.Info("catalog: deb", "package", pkgName, "version", pkgVersion, "entries", len(es))
	return nil
}

// labelDebFile decides which library and version a packaged file is, or ""
// when it cannot tell.
func labelDebFile(fname string, content []byte, libs map[string]bool, rules []DebianRule, upstream string) (lib, version string) {
	head := content[:min(len(content), 1024)]
	// The file's own banner is the first; a later one is bundled.
	if ms := banner.Find(fname, head); len(ms) > 0 && libs[ms[0].Library] && (!ms[0].Code || namedAfter(fname, ms[0].Library)) {
		return ms[0].Library, ms[0].Version
	}
	// A version constant in a file named after its library (WordPress's
	// lodash.min.js, moment.min.js): banner.Find applies most such rules
	// only when the name matches, but a signature applies in any file, and
	// a bundle of another name that carries the library (WordPress's
	// date.min.js, with moment-timezone inside) is not that library.
	var code []banner.Match
	for _, m := range banner.Find(fname, content) {
		if m.Code && libs[m.Library] && namedAfter(fname, m.Library) {
			code = append(code, m)
		}
	}
	if len(code) == 1 {
		return code[0].Library, code[0].Version
	}
	if upstream == "" {
		return "", ""
	}
	for _, r := range rules {
		if r.Files.MatchString("/" + fname) {
			// A code constant (lodash's VERSION) that disagrees with the
			// package version means the file is not what the rule thinks.
			for _, m := range banner.Find(fname, content) {
				if m.Library == r.Library && m.Version != upstream {
					return "", ""
				}
			}
			return r.Library, upstream
		}
	}
	return "", ""
}

// namedAfter says whether a packaged file's path names a library, ignoring
// case and punctuation: "usr/share/wordpress/wp-includes/js/jquery/ui/core.js"
// names jquery-ui, ".../tinymce/wp-tinymce.js" tinymce, ".../dist/date.min.js"
// not moment-timezone. A scoped package is named by its last part, a name
// ending in ".js" ("chart.js") without it.
func namedAfter(fname, lib string) bool {
	if i := strings.LastIndexByte(lib, '/'); i >= 0 {
		lib = lib[i+1:]
	}
	lib = strings.TrimSuffix(lib, ".js")
	return strings.Contains(alnum(fname), alnum(lib))
}

// alnum lowercases s and drops all but its ASCII letters and digits.
func alnum(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			b = append(b, c)
		}
	}
	return string(b)
}

// debData returns the decompressed data.tar stream of a .deb (an ar
// archive holding debian-binary, control.tar.* and data.tar.*).
func debData(r *bufio.Reader) (io.ReadCloser, error) {
	magic := make([]byte, 8)
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != "!<arch>\n" {
		return nil, errors.New("not a .deb (ar) archive")
	}
	for {
		hdr := make([]byte, 60)
		if _, err := io.ReadFull(r, hdr); err != nil {
			return nil, errors.New("no data.tar member in .deb")
		}
		name := strings.TrimSuffix(strings.TrimSpace(string(hdr[0:16])), "/")
		size, err := strconv.ParseInt(strings.TrimSpace(string(hdr[48:58])), 10, 64)
		if err != nil || size < 0 || size > maxDeb {
			return nil, fmt.Errorf("bad ar member size in .deb")
		}
		if strings.HasPrefix(name, "data.tar") {
			body := io.LimitReader(r, size)
			switch path.Ext(name) {
			case ".xz":
				xr, err := xz.NewReader(body)
				if err != nil {
					return nil, fmt.Errorf("data.tar.xz: %w", err)
				}
				return io.NopCloser(xr), nil
			case ".zst":
				zr, err := zstd.NewReader(body, zstd.WithDecoderMaxMemory(1<<30))
				if err != nil {
					return nil, fmt.Errorf("data.tar.zst: %w", err)
				}
				return zr.IOReadCloser(), nil
			case ".gz":
				gr, err := gzip.NewReader(body)
				if err != nil {
					return nil, fmt.Errorf("data.tar.gz: %w", err)
				}
				return gr, nil
			case ".tar":
				return io.NopCloser(body), nil
			default:
				return nil, fmt.Errorf("unsupported member %q", name)
			}
		}
		skip := size + size%2 // members are 2-byte aligned
		if _, err := io.CopyN(io.Discard, r, skip); err != nil {
			return nil, fmt.Errorf("truncated .deb: %w", err)
		}
	}
}

// bytesReader avoids a copy when reading a tarball held in memory.
func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
