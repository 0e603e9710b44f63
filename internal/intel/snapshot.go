package intel

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Snapshot file layout (a zip):
//
//	manifest.json        {"format": SnapshotFormat, "version": 1, "created": ..., counts}
//	packages.txt         which records name which package (below)
//	osv/<id>.json        each advisory's raw record, byte for byte
//	kev.json             the KEV catalog as published
//	kev.txt              what matching reads of each KEV entry (below)
//	eol/<product>.json   each endoflife.date product file
//	index.zip            the parts but the records and kev.json again, with
//	                     where each record is (snapshot_index.go)
//
// Entries are written in sorted order with a fixed modification time, so the
// same snapshot gives the same bytes. A reader keys records by their "id",
// not by file name.
//
// packages.txt lets a reader that matches a known set of packages (the
// offline CI gate) decode only the records that can match them, instead
// of every record: one line per package an affected entry names, sorted,
// "<ecosystem>\t<name>\t<entry>[\t<entry>...]" with the osv/ entry names of
// its records. A record whose package cannot be written on such a line
// (a name holding a tab or a line break) is listed on a line with an
// empty ecosystem and name, and always decoded. The list was added after
// version 1 was first written: a snapshot without it is read whole, and a
// reader that does not know it ignores it.
//
// kev.txt holds, for each entry of kev.json in its order, the three fields
// matching reads: "<cveID>\t<dateAdded>\t<knownRansomwareCampaignUse>".
// Decoding the whole catalog (about 1 MiB of JSON) took longer than the
// rest of a gate over one project; ReadFor reads this list instead, and
// only Read, which returns the snapshot whole, decodes kev.json. It was
// added after version 1 too: without it, or with a line not of that form,
// kev.json is decoded as before.
const (
	SnapshotFormat  = "sentinel-intel-snapshot"
	SnapshotVersion = 1
)

type manifest struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	Created    time.Time `json:"created,omitzero"`
	Advisories int       `json:"advisories"`
	KEV        int       `json:"kev"`
	EOL        int       `json:"eol"`
	KEVVersion string    `json:"kev_catalog_version,omitempty"`
}

// zipTime is the modification time of every entry (zip cannot store times
// before 1980).
var zipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// WriteSnapshot writes s to w in the snapshot format. Advisories without Raw
// bytes are re-encoded from their decoded form.
func WriteSnapshot(w io.Writer, s *Snapshot) error {
	cw := &countWriter{w: w}
	zw := zip.NewWriter(cw)
	var index []indexPart // the parts, but the records and kev.json (snapshot_index.go)
	put := func(name string, data []byte) error {
		if !strings.HasPrefix(name, "osv/") && name != "kev.json" && name != packageListName {
			index = append(index, indexPart{name, data})
		}
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: zipTime})
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return err
	}
	advs := byID(s.Advisories)
	m := manifest{Format: SnapshotFormat, Version: SnapshotVersion, Created: s.Created.UTC(), Advisories: len(advs), EOL: len(s.EOL)}
	if s.KEV != nil {
		m.KEV = len(s.KEV.Vulnerabilities)
		m.KEVVersion = s.KEV.CatalogVersion
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	if err := put("manifest.json", mb); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	ids := make([]string, 0, len(advs))
	for id := range advs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if err := put(packageListName, packageList(ids, advs, advisoryEntry)); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	offsets := make(map[string]int64, len(ids))
	rw := newRecordWriter(zw, cw)
	for _, id := range ids {
		raw, err := rawOf(advs[id].Raw, advs[id])
		if err != nil {
			return fmt.Errorf("write snapshot advisory %q: %w", id, err)
		}
		if offsets[id], err = rw.put(advisoryEntry(id), raw); err != nil {
			return fmt.Errorf("write snapshot advisory %q: %w", id, err)
		}
	}
	if s.KEV != nil {
		raw, err := rawOf(s.KEV.Raw, s.KEV)
		if err != nil {
			return fmt.Errorf("write snapshot kev: %w", err)
		}
		if err := put("kev.json", raw); err != nil {
			return fmt.Errorf("write snapshot kev: %w", err)
		}
		if err := put(kevListName, kevList(s.KEV)); err != nil {
			return fmt.Errorf("write snapshot kev: %w", err)
		}
	}
	eol := append([]*EOLProduct(nil), s.EOL...)
	sort.Slice(eol, func(i, j int) bool { return eol[i].Product < eol[j].Product })
	for _, p := range eol {
		raw, err := rawOf(p.Raw, p)
		if err != nil {
			return fmt.Errorf("write snapshot eol %q: %w", p.Product, err)
		}
		if err := put("eol/"+fileSafe(p.Product)+".json", raw); err != nil {
			return fmt.Errorf("write snapshot eol %q: %w", p.Product, err)
		}
	}
	index = append(index, indexPart{packageListName, packageList(ids, advs, func(id string) string {
		return advisoryEntry(id) + "#" + strconv.FormatInt(offsets[id], 10)
	})})
	if err := writeIndex(zw, cw, index); err != nil {
		return fmt.Errorf("write snapshot index: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	return nil
}

// packageListName is the snapshot entry that lists the records of each
// package.
const packageListName = "packages.txt"

// kevListName is the snapshot entry that lists what matching reads of
// the KEV catalog.
const kevListName = "kev.txt"

// kevList is the kev.txt of c. A field holding a tab or a line break
// (never seen in the catalog) is written with spaces.
func kevList(c *KEVCatalog) []byte {
	clean := strings.NewReplacer("\t", " ", "\r", " ", "\n", " ")
	var b bytes.Buffer
	for _, v := range c.Vulnerabilities {
		b.WriteString(clean.Replace(v.CVEID))
		b.WriteByte('\t')
		b.WriteString(clean.Replace(v.DateAdded))
		b.WriteByte('\t')
		b.WriteString(clean.Replace(v.KnownRansomwareCampaignUse))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// readKEVList reads kev.txt into a catalog of those fields alone; ok is
// false when a line is not of the form.
func readKEVList(data []byte, version string) (c *KEVCatalog, ok bool) {
	c = &KEVCatalog{CatalogVersion: version}
	for line := range strings.SplitSeq(string(data), "\n") {
		if line == "" {
			continue
		}
		id, rest, ok1 := strings.Cut(line, "\t")
		date, ransom, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 || strings.Contains(ransom, "\t") {
			return nil, false
		}
		if id = strings.TrimSpace(id); id != "" {
			c.Vulnerabilities = append(c.Vulnerabilities, KEVEntry{CVEID: id, DateAdded: date, KnownRansomwareCampaignUse: ransom})
		}
	}
	c.Count = len(c.Vulnerabilities)
	return c, true
}

// advisoryEntry is the zip entry name of an advisory's record.
func advisoryEntry(id string) string { return "osv/" + fileSafe(id) + ".json" }

// packageList is the packages.txt of the advisories advs, ids sorted,
// with entry naming each record.
func packageList(ids []string, advs map[string]*Advisory, entry func(id string) string) []byte {
	type pkg struct{ eco, name string }
	entries := make(map[pkg][]string)
	for _, id := range ids {
		entry := entry(id)
		seen := make(map[pkg]bool)
		for _, aff := range advs[id].Affected {
			k := pkg{aff.Package.Ecosystem, aff.Package.Name}
			if k.eco == "" || k.name == "" {
				continue // never matched (NewIndex leaves it out)
			}
			if strings.ContainsAny(k.eco+k.name, "\t\r\n") {
				k = pkg{}
			}
			if !seen[k] {
				seen[k] = true
				entries[k] = append(entries[k], entry)
			}
		}
	}
	var b bytes.Buffer
	for _, k := range slices.SortedFunc(maps.Keys(entries), func(x, y pkg) int {
		return cmp.Or(strings.Compare(x.eco, y.eco), strings.Compare(x.name, y.name))
	}) {
		b.WriteString(k.eco)
		b.WriteByte('\t')
		b.WriteString(k.name)
		for _, e := range entries[k] {
			b.WriteByte('\t')
			b.WriteString(e)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func rawOf(raw []byte, v any) ([]byte, error) {
	if len(raw) > 0 {
		return raw, nil
	}
	return json.Marshal(v)
}

// fileSafe keeps ids usable as zip entry names: OSV ids are
// [A-Za-z0-9.:_-], but nothing stops a record from holding "/" or "..".
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == ':':
			return r
		}
		return '_'
	}, s)
}

// ErrNotSnapshot is returned by ReadSnapshot for a zip without a snapshot
// manifest.
var ErrNotSnapshot = errors.New("not a sentinel intel snapshot")

// ReadSnapshot reads a snapshot written by WriteSnapshot. Bad advisory
// records are skipped and counted as in the loaders; a bad manifest, KEV or
// EOL file is an error, since a snapshot is produced by us and should be
// whole.
func ReadSnapshot(ctx context.Context, r io.ReaderAt, size int64) (*Snapshot, LoadStats, error) {
	sr, err := OpenSnapshot(ctx, r, size)
	if err != nil {
		return nil, LoadStats{}, err
	}
	return sr.Read(ctx)
}

// ReadSnapshotFile is ReadSnapshot on a file.
func ReadSnapshotFile(ctx context.Context, name string) (*Snapshot, LoadStats, error) {
	sr, err := OpenSnapshotFile(ctx, name)
	if err != nil {
		return nil, LoadStats{}, err
	}
	defer sr.Close()
	s, st, err := sr.Read(ctx)
	if err != nil {
		return nil, st, fmt.Errorf("read snapshot %q: %w", name, err)
	}
	return s, st, nil
}

// SnapshotReader reads a snapshot in two steps. OpenSnapshot reads all
// but the advisory records: the manifest, the KEV catalog, the EOL data
// and the package list. Read then decodes every record, or ReadFor only
// those that can match a given set of purls: what a gate over one
// project needs of a database of every advisory.
type SnapshotReader struct {
	// Created, KEV and EOL are the snapshot's, as in Snapshot. When the
	// snapshot has kev.txt, KEV holds only what matching reads of each
	// entry (its cveID, dateAdded and knownRansomwareCampaignUse), as does
	// the Snapshot of ReadFor; Read decodes the whole catalog.
	Created time.Time
	KEV     *KEVCatalog
	EOL     []*EOLProduct

	kevFile   *zip.File // kev.json
	kevListed bool      // KEV was read from kev.txt

	// r and size are the snapshot's bytes. indexed is true when its parts
	// were read from its index (snapshot_index.go): records are then read
	// at the offsets the index's package list gives, and the zip's own
	// directory, an entry for each of hundreds of thousands of records, is
	// read only by Read, which needs them all.
	r          io.ReaderAt
	size       int64
	indexed    bool
	whole      bool // openWhole has read the zip's directory
	advisories int  // the manifest's count

	records []*zip.File // every osv/*.json entry, in file order
	// packageList is packages.txt as written, scanned by ReadFor for the
	// packages it is given; hasList is false when the snapshot has none,
	// and every record is read.
	packageList string
	hasList     bool
	ecosystems  map[string]bool // of the list, once scanned (nil if it is not of the form)
	scanned     bool            // ecosystems is set
	closer      io.Closer
}

// Ecosystems returns the base ecosystems ("npm", "Red Hat") the
// snapshot's records name; ok is false when the snapshot has no package
// list to tell.
func (s *SnapshotReader) Ecosystems() (ecosystems map[string]bool, ok bool) {
	if !s.hasList {
		return nil, false
	}
	if !s.scanned {
		s.scanList(nil)
	}
	return s.ecosystems, s.ecosystems != nil
}

// OpenSnapshot reads the snapshot's manifest, KEV catalog, EOL data and
// package list; the advisory records are read by Read or ReadFor.
func OpenSnapshot(ctx context.Context, r io.ReaderAt, size int64) (*SnapshotReader, error) {
	sr := &SnapshotReader{r: r, size: size}
	if index, ok := openIndex(r, size); ok {
		// The index holds every part but the records and kev.json, which
		// are read from where it says when they are needed.
		sr.indexed = true
		if err := sr.readParts(ctx, index); err != nil {
			return nil, err
		}
		return sr, nil
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	if err := sr.readParts(ctx, zr); err != nil {
		return nil, err
	}
	return sr, nil
}

// readParts reads the parts of the snapshot's zip (or of its index) but
// the records, and notes where the records and kev.json are.
func (sr *SnapshotReader) readParts(ctx context.Context, zr *zip.Reader) error {
	sawManifest := false
	var kevVersion string
	var listed []byte // kev.txt
	for _, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("read snapshot: %w", err)
		}
		name := f.Name
		if f.FileInfo().IsDir() || sr.noteRecord(f) {
			continue
		}
		if name == packageListName {
			// Tens of MiB for a snapshot of every ecosystem: read into a
			// string as it is, not copied into one.
			list, err := readZipString(f, maxSnapshotPart)
			if err != nil {
				return fmt.Errorf("read snapshot %q: %w", name, err)
			}
			sr.packageList, sr.hasList = list, true
			continue
		}
		if name != "manifest.json" && name != kevListName &&
			(!strings.HasPrefix(name, "eol/") || path.Ext(name) != ".json") {
			continue
		}
		data, _, err := readZipEntry(f, maxSnapshotPart)
		if err != nil {
			return fmt.Errorf("read snapshot %q: %w", name, err)
		}
		switch {
		case name == "manifest.json":
			var m manifest
			if err := json.Unmarshal(data, &m); err != nil {
				return fmt.Errorf("read snapshot manifest: %w", err)
			}
			if m.Format != SnapshotFormat {
				return ErrNotSnapshot
			}
			if m.Version > SnapshotVersion {
				return fmt.Errorf("read snapshot: version %d is newer than %d", m.Version, SnapshotVersion)
			}
			sr.Created = m.Created
			sr.advisories = m.Advisories
			kevVersion = m.KEVVersion
			sawManifest = true
		case name == kevListName:
			listed = data
		default: // eol/<product>.json
			p, err := DecodeEOLProduct(strings.TrimSuffix(path.Base(name), ".json"), data)
			if err != nil {
				return fmt.Errorf("read snapshot: %w", err)
			}
			sr.EOL = append(sr.EOL, p)
		}
	}
	if !sawManifest {
		return ErrNotSnapshot
	}
	if c, ok := readKEVList(listed, kevVersion); listed != nil && ok {
		sr.KEV, sr.kevListed = c, true
	} else if sr.kevFile != nil {
		var err error
		if sr.KEV, err = sr.decodeKEV(); err != nil {
			return err
		}
	}
	return nil
}

// noteRecord notes f when it is an advisory record (osv/*.json) or
// kev.json, which are read when they are needed (kev.json only when there
// is no kev.txt, or by Read); it reports whether f was one of them.
func (sr *SnapshotReader) noteRecord(f *zip.File) bool {
	switch {
	case strings.HasPrefix(f.Name, "osv/"):
		if path.Ext(f.Name) == ".json" && !f.FileInfo().IsDir() {
			sr.records = append(sr.records, f)
		}
		return true
	case f.Name == "kev.json":
		sr.kevFile = f
		return true
	}
	return false
}

// decodeKEV decodes kev.json whole.
func (sr *SnapshotReader) decodeKEV() (*KEVCatalog, error) {
	data, _, err := readZipEntry(sr.kevFile, maxSnapshotPart)
	if err != nil {
		return nil, fmt.Errorf("read snapshot %q: %w", sr.kevFile.Name, err)
	}
	k, err := DecodeKEV(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	return k, nil
}

// readZipString is readZipEntry into a string.
func readZipString(f *zip.File, limit int64) (string, error) {
	if f.UncompressedSize64 > uint64(limit) {
		return "", fmt.Errorf("%d bytes", f.UncompressedSize64)
	}
	rc, err := f.Open()
	if err != nil {
		return "", err
	}
	defer rc.Close()
	var b strings.Builder
	b.Grow(int(f.UncompressedSize64)) // a hint: the limit bounds the read
	if _, err := io.Copy(&b, io.LimitReader(rc, limit+1)); err != nil {
		return "", err
	}
	if int64(b.Len()) > limit {
		return "", fmt.Errorf("more than %d bytes", limit)
	}
	return b.String(), nil
}

// maxSnapshotPart is the largest manifest, package list, KEV catalog or
// EOL file a snapshot may hold: the package list of every OSV ecosystem
// is a few tens of MiB.
const maxSnapshotPart = 256 << 20

// listedPackage is a package as the package list is searched for it: its
// base ecosystem and its name normalised (purl.NormalizeName).
type listedPackage struct{ eco, name string }

// scanList reads packages.txt (see the layout above) for the entries of
// the records naming the packages in wanted, with the entries listed
// without a package, and notes the list's ecosystems. ok is false when a
// line does not have the form: then the list is of no use, and every
// record is read. Lines of other packages are passed over without
// allocating: a snapshot of every OSV ecosystem lists hundreds of
// thousands of packages, and a gate wants a few thousand.
func (sr *SnapshotReader) scanList(wanted map[listedPackage]bool) (want map[string]bool, ok bool) {
	want = make(map[string]bool)
	ecosystems := make(map[string]bool)
	prevEco := ""
	sr.scanned = true
	for line := range strings.SplitSeq(sr.packageList, "\n") {
		if line == "" {
			continue
		}
		eco, rest, ok1 := strings.Cut(line, "\t")
		name, entries, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 {
			return nil, false
		}
		if eco == "" && name == "" {
			for e := range strings.SplitSeq(entries, "\t") {
				want[e] = true
			}
			continue
		}
		base := purl.BaseEcosystem(eco)
		if eco != prevEco { // the list is sorted by ecosystem
			ecosystems[base], prevEco = true, eco
		}
		if len(wanted) == 0 || !wanted[listedPackage{base, purl.NormalizeName(base, name)}] {
			continue
		}
		for e := range strings.SplitSeq(entries, "\t") {
			want[e] = true
		}
	}
	sr.ecosystems = ecosystems
	return want, true
}

// OpenSnapshotFile is OpenSnapshot on a file, which stays open until
// Close.
func OpenSnapshotFile(ctx context.Context, name string) (*SnapshotReader, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	sr, err := OpenSnapshot(ctx, f, info.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read snapshot %q: %w", name, err)
	}
	sr.closer = f
	return sr, nil
}

// Close closes the file of OpenSnapshotFile.
func (sr *SnapshotReader) Close() error {
	if sr.closer == nil {
		return nil
	}
	return sr.closer.Close()
}

// Records is the number of advisory records the snapshot holds.
func (sr *SnapshotReader) Records() int {
	if sr.indexed {
		return sr.advisories
	}
	return len(sr.records)
}

// Read decodes every advisory record. Bad records are skipped and
// counted.
func (sr *SnapshotReader) Read(ctx context.Context) (*Snapshot, LoadStats, error) {
	if err := sr.openWhole(); err != nil {
		return nil, LoadStats{}, err
	}
	s, st, err := sr.read(ctx, nil)
	if err == nil && sr.kevListed {
		if s.KEV, err = sr.decodeKEV(); err != nil {
			return nil, st, err
		}
	}
	return s, st, err
}

// ReadFor decodes the records that can match the purls: those naming one
// of their packages. The index of the result matches each of the purls
// as the index of the whole snapshot does. A snapshot without a package
// list is read whole.
func (sr *SnapshotReader) ReadFor(ctx context.Context, purls []string) (*Snapshot, LoadStats, error) {
	if !sr.hasList {
		return sr.readWhole(ctx)
	}
	wanted := make(map[listedPackage]bool, len(purls))
	for _, p := range purls {
		_, eco, name, err := purl.Resolve(p)
		if err != nil {
			continue // matches nothing: the index answers its error
		}
		base := purl.BaseEcosystem(eco)
		wanted[listedPackage{base, purl.NormalizeName(base, name)}] = true
	}
	want, ok := sr.scanList(wanted)
	switch {
	case !ok:
		return sr.readWhole(ctx)
	case sr.indexed:
		return sr.readIndexed(ctx, want)
	}
	return sr.read(ctx, want)
}

// readWhole decodes every record, with the zip's directory read first if
// the parts came from the index.
func (sr *SnapshotReader) readWhole(ctx context.Context) (*Snapshot, LoadStats, error) {
	if err := sr.openWhole(); err != nil {
		return nil, LoadStats{}, err
	}
	return sr.read(ctx, nil)
}

// read decodes the records whose entry is in want, or all when want is
// nil.
func (sr *SnapshotReader) read(ctx context.Context, want map[string]bool) (*Snapshot, LoadStats, error) {
	files := sr.records
	if want != nil {
		files = make([]*zip.File, 0, len(want))
		for _, f := range sr.records {
			if want[f.Name] {
				files = append(files, f)
			}
		}
	}
	return sr.decodeRecords(ctx, len(files), func(i int) (string, []byte, string, error) {
		data, reason, err := readZipEntry(files[i], MaxRecordSize)
		return files[i].Name, data, reason, err
	})
}

// decodeRecords reads n records with get, which returns the i-th's entry
// name and bytes, or why it could not be read, and decodes them.
// Inflating and decoding is the gate's last step before matching, and the
// scan is over by then: the records are split between the cores in
// contiguous parts, and the parts joined in order.
func (sr *SnapshotReader) decodeRecords(ctx context.Context, n int, get func(i int) (name string, data []byte, reason string, err error)) (*Snapshot, LoadStats, error) {
	parts := min(runtime.GOMAXPROCS(0), n/minRecordsPerWorker)
	if parts < 1 {
		parts = 1
	}
	type part struct {
		advs []*Advisory
		st   LoadStats
		err  error
	}
	out := make([]part, parts)
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() {
			p := &out[i]
			for j := i * n / parts; j < (i+1)*n/parts; j++ {
				if p.err = ctx.Err(); p.err != nil {
					return
				}
				name, data, reason, err := get(j)
				if err != nil {
					p.st.skip(name, reason, err)
					continue
				}
				p.advs = p.st.add(p.advs, name, data)
			}
		})
	}
	wg.Wait()
	var st LoadStats
	s := &Snapshot{Created: sr.Created, KEV: sr.KEV, EOL: sr.EOL}
	for _, p := range out {
		if p.err != nil {
			return nil, st, fmt.Errorf("read snapshot: %w", p.err)
		}
		st.Add(p.st)
		s.Advisories = append(s.Advisories, p.advs...)
	}
	return s, st, nil
}

// minRecordsPerWorker is the fewest records read splits off to another
// core.
const minRecordsPerWorker = 64
