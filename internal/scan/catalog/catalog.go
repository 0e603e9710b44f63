// Package catalog is the known-file catalog of the external scan: the SHA-1
// of every distributable file of the common front-end libraries, as npm
// publishes them and as Debian and the CMSs Debian packages ship them
// (rebuilt, so they differ byte for byte from npm's), each with the library
// (its npm name), version, file and source it came from.
//
// A scan hashes every script and style sheet it fetches and looks the hash
// up here: a hit names the exact file, so it is the strongest evidence the
// scan has (confidence 100).
//
// The catalog's file format is a gzip-compressed CSV, sorted by hash, with
// the header "sha1,library,version,file,source". A curated catalog is
// embedded in the binary ([Default]); [Build] makes a fresh one from the npm
// registry and a directory of Debian packages, and [Load] reads one that
// Build wrote, so an operator can refresh the catalog without a new release.
// data/SOURCES.md says where the embedded catalog's rows came from.
//
// One hash can map to several rows: a file that did not change between two
// releases (a CSS file across patch versions) names both versions. [Lookup]
// returns every row, and the scan reports a version only when the rows, or
// other evidence, settle on one.
package catalog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed" // the curated catalog
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Entry is one known file.
type Entry struct {
	// SHA1 is the file's SHA-1.
	SHA1 [20]byte
	// Library is the npm package name ("jquery", "@popperjs/core").
	Library string
	// Version is the library version the file belongs to.
	Version string
	// File is the file's path inside its source ("dist/jquery.min.js",
	// "usr/share/wordpress/wp-includes/js/jquery/jquery.min.js").
	File string
	// Source names where the file came from: "npm:jquery@3.6.1",
	// "deb:wordpress_6.1.9+dfsg1-0+deb12u1".
	Source string
}

// Catalog is an immutable set of entries sorted by hash; it is safe for
// concurrent use.
type Catalog struct {
	entries []Entry
}

// header is the first CSV row of the file format.
var header = []string{"sha1", "library", "version", "file", "source"}

// MaxFileSize bounds the uncompressed size Read accepts, so a hostile or
// broken catalog file cannot exhaust memory.
const MaxFileSize = 256 << 20

// New returns a catalog of entries (copied, sorted, and with exact
// duplicates of (hash, library, version) removed, the first kept).
func New(entries []Entry) *Catalog {
	es := slices.Clone(entries)
	sort.SliceStable(es, func(i, j int) bool {
		if c := bytes.Compare(es[i].SHA1[:], es[j].SHA1[:]); c != 0 {
			return c < 0
		}
		if es[i].Library != es[j].Library {
			return es[i].Library < es[j].Library
		}
		return es[i].Version < es[j].Version
	})
	out := es[:0]
	for i, e := range es {
		if i > 0 {
			p := out[len(out)-1]
			if p.SHA1 == e.SHA1 && p.Library == e.Library && p.Version == e.Version {
				continue
			}
		}
		out = append(out, e)
	}
	return &Catalog{entries: slices.Clip(out)}
}

// Len returns the number of entries.
func (c *Catalog) Len() int {
	if c == nil {
		return 0
	}
	return len(c.entries)
}

// Entries returns a copy of the entries, sorted by hash.
func (c *Catalog) Entries() []Entry {
	if c == nil {
		return nil
	}
	return slices.Clone(c.entries)
}

// Lookup returns the entries of a file's SHA-1, or nil. The slice is shared:
// do not modify it.
func (c *Catalog) Lookup(sum [20]byte) []Entry {
	if c == nil {
		return nil
	}
	i := sort.Search(len(c.entries), func(i int) bool {
		return bytes.Compare(c.entries[i].SHA1[:], sum[:]) >= 0
	})
	j := i
	for j < len(c.entries) && c.entries[j].SHA1 == sum {
		j++
	}
	if i == j {
		return nil
	}
	return c.entries[i:j:j]
}

// Write writes the catalog in the file format (gzip CSV).
func (c *Catalog) Write(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(zw)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write catalog: %w", err)
	}
	for _, e := range c.entries {
		if err := cw.Write([]string{hex.EncodeToString(e.SHA1[:]), e.Library, e.Version, e.File, e.Source}); err != nil {
			return fmt.Errorf("write catalog: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write catalog: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write catalog: %w", err)
	}
	return nil
}

// WriteFile writes the catalog to a file, atomically (a temporary file in
// the same directory, then a rename).
func (c *Catalog) WriteFile(name string) (err error) {
	f, err := os.CreateTemp(dirOf(name), ".catalog-*")
	if err != nil {
		return fmt.Errorf("write catalog %q: %w", name, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriter(f)
	if err := c.Write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write catalog %q: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write catalog %q: %w", name, err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("write catalog %q: %w", name, err)
	}
	if err := os.Rename(f.Name(), name); err != nil {
		return fmt.Errorf("write catalog %q: %w", name, err)
	}
	return nil
}

func dirOf(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[:i+1]
	}
	return "."
}

// Read reads a catalog in the file format.
func Read(r io.Reader) (*Catalog, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	defer zr.Close()
	cr := csv.NewReader(io.LimitReader(zr, MaxFileSize))
	cr.FieldsPerRecord = len(header)
	cr.ReuseRecord = true
	first, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("read catalog header: %w", err)
	}
	if !slices.Equal(first, header) {
		return nil, fmt.Errorf("read catalog: header is %q, want %q", first, header)
	}
	var es []Entry
	intern := map[string]string{}
	in := func(s string) string {
		if v, ok := intern[s]; ok {
			return v
		}
		s = strings.Clone(s)
		intern[s] = s
		return s
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read catalog: %w", err)
		}
		var e Entry
		if len(rec[0]) != 40 {
			return nil, fmt.Errorf("read catalog line %d: sha1 %q is not 40 hex digits", line, rec[0])
		}
		if _, err := hex.Decode(e.SHA1[:], []byte(rec[0])); err != nil {
			return nil, fmt.Errorf("read catalog line %d: %w", line, err)
		}
		if rec[1] == "" || rec[2] == "" {
			return nil, fmt.Errorf("read catalog line %d: empty library or version", line)
		}
		e.Library, e.Version, e.File, e.Source = in(rec[1]), in(rec[2]), strings.Clone(rec[3]), in(rec[4])
		es = append(es, e)
	}
	return New(es), nil
}

// Load reads a catalog file that Build wrote (see [Catalog.WriteFile]).
func Load(name string) (*Catalog, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	defer f.Close()
	c, err := Read(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("load catalog %q: %w", name, err)
	}
	return c, nil
}

//go:embed data/catalog.csv.gz
var embedded []byte

// defaultCatalog parses the embedded catalog once; the result is read-only.
var defaultCatalog = sync.OnceValues(func() (*Catalog, error) {
	return Read(bytes.NewReader(embedded))
})

// Default returns the curated catalog embedded in the binary. It is parsed
// on first use and shared; callers must not modify it (its API cannot).
func Default() (*Catalog, error) {
	return defaultCatalog()
}
