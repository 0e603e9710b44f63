package evidence

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/sentinel-sca/sentinel"
)

// HashingStrategy describes, for verification.txt, how the consolidated
// CycloneDX is made deterministic.
const HashingStrategy = `sbom/consolidated.cdx.json is deterministic: the same inventory gives the same bytes and so the
same SHA-256. Components are deduplicated by purl (rows with the same purl on several assets become one
component listing every asset as a "sentinel:asset" property) and sorted by purl in byte order; each
component's bom-ref is its purl; a component that every asset's submission marks as needed only for
development has scope "excluded"; the dependency graph is kept ("dependencies", sorted by ref, each
dependsOn sorted and deduplicated, references to purls outside the inventory dropped). The document is
canonical JSON (RFC 8785 style): object keys sorted by code point, no insignificant white space, strings
with only the escapes JSON requires, integers without exponent. It carries no timestamp and no serial
number, which would change with every build; the bundle's creation time is stated in this file and in
each signature's RFC 3161 timestamp. Its SHA-256 is computed over the file's bytes as stored in the zip.`

// jsonString appends s as a canonical JSON string: only '"', '\\' and
// control characters are escaped (short forms where JSON has them), and
// invalid UTF-8 becomes U+FFFD.
func jsonString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\b':
				b = append(b, '\\', 'b')
			case c == '\f':
				b = append(b, '\\', 'f')
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// consolidated accumulates one purl's rows (the source sends a purl once
// per asset, adjacent) before writing it.
type consolidated struct {
	cur      *sentinel.EvidenceComponent
	assets   []string
	deps     []string
	out      *bufio.Writer
	spool    *bufio.Writer // the dependency graph, written after the components
	seen     map[uint64]struct{}
	seed     maphash.Seed
	count    int
	first    bool
	firstDep bool
	buf      []byte
}

// writeConsolidated streams the organization's inventory from src as the
// consolidated CycloneDX 1.5 document (see HashingStrategy) and returns the
// number of distinct components.
func writeConsolidated(ctx context.Context, w io.Writer, src Source, org *sentinel.Organization, tmpDir string) (int, error) {
	spoolFile, err := os.CreateTemp(tmpDir, "sentinel-deps-*.json")
	if err != nil {
		return 0, fmt.Errorf("consolidated sbom: %w", err)
	}
	defer func() {
		spoolFile.Close()
		os.Remove(spoolFile.Name())
	}()
	c := &consolidated{
		out: bufio.NewWriterSize(w, 256<<10), spool: bufio.NewWriterSize(spoolFile, 256<<10),
		seen: make(map[uint64]struct{}), seed: maphash.MakeSeed(), first: true, firstDep: true,
	}
	// Keys in code point order: bomFormat, components, dependencies,
	// metadata, specVersion, version.
	c.out.WriteString(`{"bomFormat":"CycloneDX","components":[`)
	var last string
	err = src.EvidenceComponents(ctx, org.ID, func(ec *sentinel.EvidenceComponent) error {
		if ec.Purl == "" {
			return nil // nothing to deduplicate by: not part of the consolidated view
		}
		if ec.Purl < last {
			return fmt.Errorf("components out of order: %q after %q (the source must sort by purl in byte order)", ec.Purl, last)
		}
		last = ec.Purl
		if c.cur != nil && c.cur.Purl != ec.Purl {
			if err := c.flush(); err != nil {
				return err
			}
		}
		if c.cur == nil {
			cp := *ec
			c.cur = &cp
			c.assets = c.assets[:0]
			c.deps = c.deps[:0]
		}
		// Development-only where every asset says so.
		c.cur.Development = c.cur.Development && ec.Development
		if ec.Asset != "" {
			c.assets = append(c.assets, ec.Asset)
		}
		c.deps = append(c.deps, ec.DependsOn...)
		if c.count%4096 == 0 {
			return ctx.Err()
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("consolidated sbom: %w", err)
	}
	if c.cur != nil {
		if err := c.flush(); err != nil {
			return 0, err
		}
	}
	c.out.WriteString(`],"dependencies":[`)
	if err := c.spool.Flush(); err != nil {
		return 0, err
	}
	if _, err := spoolFile.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	if err := c.copyDeps(bufio.NewReaderSize(spoolFile, 256<<10)); err != nil {
		return 0, err
	}
	b := []byte(`],"metadata":{"component":{"bom-ref":`)
	b = jsonString(b, "org:"+org.Slug)
	b = append(b, `,"name":`...)
	b = jsonString(b, org.Name)
	b = append(b, `,"type":"application"},"properties":[{"name":"sentinel:components","value":`...)
	b = jsonString(b, strconv.Itoa(c.count))
	b = append(b, `},{"name":"sentinel:organization","value":`...)
	b = jsonString(b, org.Slug)
	b = append(b, `}],"tools":{"components":[{"name":"sentinel","type":"application"}]}},"specVersion":"1.5","version":1}`...)
	b = append(b, '\n')
	c.out.Write(b)
	return c.count, c.out.Flush()
}

// flush writes the accumulated component and spools its dependencies.
func (c *consolidated) flush() error {
	e := c.cur
	c.cur = nil
	slices.Sort(c.assets)
	c.assets = slices.Compact(c.assets)
	b := c.buf[:0]
	if !c.first {
		b = append(b, ',')
	}
	c.first = false
	b = append(b, `{"bom-ref":`...)
	b = jsonString(b, e.Purl)
	b = append(b, `,"name":`...)
	name := e.Name
	if name == "" {
		name = e.Purl
	}
	b = jsonString(b, name)
	props := make([][2]string, 0, len(c.assets)+1)
	for _, a := range c.assets {
		props = append(props, [2]string{"sentinel:asset", a})
	}
	if e.Ecosystem != "" {
		props = append(props, [2]string{"sentinel:ecosystem", e.Ecosystem})
	}
	if len(props) > 0 {
		b = append(b, `,"properties":[`...)
		for i, p := range props {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = jsonString(b, p[0])
			b = append(b, `,"value":`...)
			b = jsonString(b, p[1])
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"purl":`...)
	b = jsonString(b, e.Purl)
	if e.Development {
		b = append(b, `,"scope":"excluded"`...)
	}
	typ := e.Type
	if typ == "" {
		typ = "library"
	}
	b = append(b, `,"type":`...)
	b = jsonString(b, typ)
	if e.Version != "" {
		b = append(b, `,"version":`...)
		b = jsonString(b, e.Version)
	}
	b = append(b, '}')
	c.buf = b
	if _, err := c.out.Write(b); err != nil {
		return err
	}
	c.seen[maphash.String(c.seed, e.Purl)] = struct{}{}
	c.count++

	if len(c.deps) > 0 {
		slices.Sort(c.deps)
		c.deps = slices.Compact(c.deps)
		// Spool line: ref, then its dependencies, tab-separated (purls
		// never contain tabs or newlines once percent-encoded; stray ones
		// are dropped rather than breaking the spool format).
		line := append(c.buf[:0], clean1(e.Purl)...)
		for _, d := range c.deps {
			if d == "" || d == e.Purl {
				continue
			}
			line = append(line, '\t')
			line = append(line, clean1(d)...)
		}
		line = append(line, '\n')
		c.buf = line
		if _, err := c.spool.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// clean1 removes tabs and newlines, the spool's separators.
func clean1(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\t' || s[i] == '\n' {
			b := make([]byte, 0, len(s))
			for j := 0; j < len(s); j++ {
				if s[j] != '\t' && s[j] != '\n' {
					b = append(b, s[j])
				}
			}
			return string(b)
		}
	}
	return s
}

// copyDeps writes the spooled dependency graph, dropping references to
// purls that are not components of the document.
func (c *consolidated) copyDeps(r *bufio.Reader) error {
	for {
		line, err := r.ReadString('\n')
		if errors.Is(err, io.EOF) && line == "" {
			return nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		line = line[:len(line)-1]
		ref, rest, _ := cut(line)
		b := c.buf[:0]
		if !c.firstDep {
			b = append(b, ',')
		}
		c.firstDep = false
		b = append(b, `{"dependsOn":[`...)
		n := 0
		for rest != "" {
			var d string
			d, rest, _ = cut(rest)
			if _, ok := c.seen[maphash.String(c.seed, d)]; !ok {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			b = jsonString(b, d)
			n++
		}
		b = append(b, `],"ref":`...)
		b = jsonString(b, ref)
		b = append(b, '}')
		c.buf = b
		if _, err := c.out.Write(b); err != nil {
			return err
		}
	}
}

func cut(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\t' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
