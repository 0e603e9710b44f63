package intel

import (
	"archive/zip"
	"bytes"
	"cmp"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The snapshot's index.
//
// A snapshot of every OSV ecosystem holds hundreds of thousands of records,
// each its own zip entry, and archive/zip reads the whole central directory
// to open a zip: for 200,000 records that alone took half a second and
// 100 MB, on every gate run, to read the few records of one project.
//
// So the snapshot also carries an index: a last entry, index.zip, stored
// (not compressed) so that its bytes are a zip of their own, holding the
// parts a reader needs before the records (manifest.json, packages.txt,
// kev.txt, eol/*.json) with each entry of its packages.txt followed by
// "#<offset>": where that record's local file header starts in the
// snapshot. The snapshot's zip comment is "sentinel-intel-index <offset>",
// where index.zip's own local header starts. A reader finds the comment at
// the end of the file, opens the index, and reads each record it wants at
// its offset, checking that the local header there names that record. A
// snapshot without the comment, or whose index cannot be read, is read
// through the zip's directory as before; Read, which needs every record,
// always is. The records themselves are written as before, so a reader
// that does not know the index reads the snapshot as it always did.

const (
	indexEntry   = "index.zip"
	indexComment = "sentinel-intel-index "
)

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// recordWriter writes records as raw entries: compressed here, with their
// sizes and checksum in the local header, so that the offset of each
// header is known as it is written (an entry written through CreateHeader
// is finished only when the next one begins).
type recordWriter struct {
	zw  *zip.Writer
	cw  *countWriter
	fw  *flate.Writer
	buf bytes.Buffer
}

func newRecordWriter(zw *zip.Writer, cw *countWriter) *recordWriter {
	fw, _ := flate.NewWriter(nil, 5) // archive/zip's level
	return &recordWriter{zw: zw, cw: cw, fw: fw}
}

// put writes data as the entry name and returns where its local header
// starts.
func (rw *recordWriter) put(name string, data []byte) (int64, error) {
	rw.buf.Reset()
	rw.fw.Reset(&rw.buf)
	if _, err := rw.fw.Write(data); err != nil {
		return 0, err
	}
	if err := rw.fw.Close(); err != nil {
		return 0, err
	}
	return putRaw(rw.zw, rw.cw, &zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(data),
		CompressedSize64: uint64(rw.buf.Len()), UncompressedSize64: uint64(len(data))}, rw.buf.Bytes())
}

// putRaw writes fh and its data, as they are, to zw, which writes to cw,
// and returns where the entry's local header starts. CreateRaw with the
// sizes known writes them into the local header (no data descriptor).
func putRaw(zw *zip.Writer, cw *countWriter, fh *zip.FileHeader, data []byte) (int64, error) {
	w, err := zw.CreateRaw(fh)
	if err != nil {
		return 0, err
	}
	// The header is written: 30 bytes, the name and the extra field.
	if err := zw.Flush(); err != nil {
		return 0, err
	}
	off := cw.n - 30 - int64(len(fh.Name)) - int64(len(fh.Extra))
	_, err = w.Write(data)
	return off, err
}

// indexPart is one entry of the index.
type indexPart struct {
	name string
	data []byte
}

// writeIndex writes the index of parts as the last entry of zw, which
// writes to cw, and names its offset in the zip comment.
func writeIndex(zw *zip.Writer, cw *countWriter, parts []indexPart) error {
	var buf bytes.Buffer
	iw := zip.NewWriter(&buf)
	for _, p := range parts {
		f, err := iw.CreateHeader(&zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: zipTime})
		if err != nil {
			return err
		}
		if _, err := f.Write(p.data); err != nil {
			return err
		}
	}
	if err := iw.Close(); err != nil {
		return err
	}
	// Stored, with its sizes in the local header: a reader takes the
	// index's bytes from there.
	b := buf.Bytes()
	off, err := putRaw(zw, cw, &zip.FileHeader{Name: indexEntry, Method: zip.Store, CRC32: crc32.ChecksumIEEE(b),
		CompressedSize64: uint64(len(b)), UncompressedSize64: uint64(len(b))}, b)
	if err != nil {
		return err
	}
	return zw.SetComment(indexComment + strconv.FormatInt(off, 10))
}

// openIndex opens the index of the snapshot r of size bytes; ok is false
// when it has none that can be read.
func openIndex(r io.ReaderAt, size int64) (index *zip.Reader, ok bool) {
	comment, ok := zipComment(r, size)
	if !ok || !strings.HasPrefix(comment, indexComment) {
		return nil, false
	}
	off, err := strconv.ParseInt(strings.TrimPrefix(comment, indexComment), 10, 64)
	if err != nil {
		return nil, false
	}
	h, err := readLocalHeader(r, size, off)
	if err != nil || h.name != indexEntry || h.method != zip.Store || h.flags&flagDataDescriptor != 0 ||
		h.compressed != h.uncompressed || h.data+h.compressed > size {
		return nil, false
	}
	zr, err := zip.NewReader(io.NewSectionReader(r, h.data, h.compressed), h.compressed)
	if err != nil {
		return nil, false
	}
	return zr, true
}

// zipComment returns the comment of the zip r of size bytes, from its end
// of central directory record.
func zipComment(r io.ReaderAt, size int64) (string, bool) {
	const eocdLen = 22
	n := min(size, eocdLen+0xffff)
	if n < eocdLen {
		return "", false
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
		return "", false
	}
	for i := int(n) - eocdLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(buf[i:]) == 0x06054b50 && int(binary.LittleEndian.Uint16(buf[i+20:])) == int(n)-i-eocdLen {
			return string(buf[i+eocdLen:]), true
		}
	}
	return "", false
}

// flagDataDescriptor is set when a local header's sizes and checksum
// follow the data instead.
const flagDataDescriptor = 0x8

// localHeader is what a zip local file header says of its entry.
type localHeader struct {
	name                     string
	flags, method            uint16
	compressed, uncompressed int64
	data                     int64 // where the entry's bytes start
}

// readLocalHeader reads the local file header at off.
func readLocalHeader(r io.ReaderAt, size, off int64) (localHeader, error) {
	const fixed = 30
	var b [fixed]byte
	if off < 0 || off+fixed > size {
		return localHeader{}, fmt.Errorf("offset %d is outside the snapshot", off)
	}
	if _, err := r.ReadAt(b[:], off); err != nil {
		return localHeader{}, err
	}
	if binary.LittleEndian.Uint32(b[:]) != 0x04034b50 {
		return localHeader{}, fmt.Errorf("no zip entry at offset %d", off)
	}
	nameLen := int64(binary.LittleEndian.Uint16(b[26:]))
	extraLen := int64(binary.LittleEndian.Uint16(b[28:]))
	h := localHeader{
		flags:        binary.LittleEndian.Uint16(b[6:]),
		method:       binary.LittleEndian.Uint16(b[8:]),
		compressed:   int64(binary.LittleEndian.Uint32(b[18:])),
		uncompressed: int64(binary.LittleEndian.Uint32(b[22:])),
		data:         off + fixed + nameLen + extraLen,
	}
	if h.data > size {
		return localHeader{}, fmt.Errorf("the zip entry at offset %d runs past the snapshot", off)
	}
	name := make([]byte, nameLen)
	if _, err := r.ReadAt(name, off+fixed); err != nil {
		return localHeader{}, err
	}
	h.name = string(name)
	return h, nil
}

// inflaters are reused between records: a flate reader carries 40 KB of
// tables.
var inflaters sync.Pool

// readRecordAt reads the record entry name whose local header is at off,
// at most limit bytes of it.
func readRecordAt(r io.ReaderAt, size, off int64, name string, limit int64) ([]byte, string, error) {
	h, err := readLocalHeader(r, size, off)
	if err != nil {
		return nil, SkipRead, err
	}
	if h.name != name {
		return nil, SkipRead, fmt.Errorf("the index points at %q", h.name)
	}
	if h.uncompressed > limit {
		return nil, SkipTooLarge, fmt.Errorf("%d bytes", h.uncompressed)
	}
	var src io.Reader
	switch {
	case h.method == zip.Deflate:
		// A deflate stream ends itself: the reader stops at its last
		// block, whatever the header says of the size.
		sec := io.NewSectionReader(r, h.data, size-h.data)
		fr, _ := inflaters.Get().(io.ReadCloser)
		if fr == nil {
			fr = flate.NewReader(sec)
		} else if err := fr.(flate.Resetter).Reset(sec, nil); err != nil {
			return nil, SkipRead, err
		}
		defer inflaters.Put(fr)
		src = fr
	case h.method == zip.Store && h.flags&flagDataDescriptor == 0:
		src = io.NewSectionReader(r, h.data, h.compressed)
	default:
		return nil, SkipRead, fmt.Errorf("zip method %d cannot be read at an offset", h.method)
	}
	buf := bytes.NewBuffer(make([]byte, 0, h.uncompressed+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(src, limit+1)); err != nil {
		return nil, SkipRead, err
	}
	if int64(buf.Len()) > limit {
		return nil, SkipTooLarge, fmt.Errorf("more than %d bytes", limit)
	}
	return buf.Bytes(), "", nil
}

// readIndexed decodes the records of want, entries of the index's package
// list ("osv/<id>.json#<offset>"), in the order they are in the file.
func (sr *SnapshotReader) readIndexed(ctx context.Context, want map[string]bool) (*Snapshot, LoadStats, error) {
	type record struct {
		name string
		off  int64
	}
	var recs []record
	var st LoadStats
	for e := range want {
		i := strings.LastIndexByte(e, '#')
		off, err := strconv.ParseInt(e[i+1:], 10, 64)
		if i < 0 || err != nil {
			st.skip(e, SkipRead, errors.New("the index gives no offset"))
			continue
		}
		recs = append(recs, record{e[:i], off})
	}
	slices.SortFunc(recs, func(a, b record) int { return cmp.Compare(a.off, b.off) })
	s, rst, err := sr.decodeRecords(ctx, len(recs), func(i int) (string, []byte, string, error) {
		data, reason, err := readRecordAt(sr.r, sr.size, recs[i].off, recs[i].name, MaxRecordSize)
		return recs[i].name, data, reason, err
	})
	st.Add(rst)
	return s, st, err
}

// openWhole reads the zip's directory for the records and kev.json when
// the parts came from the index; once.
func (sr *SnapshotReader) openWhole() error {
	if !sr.indexed || sr.whole {
		return nil
	}
	zr, err := zip.NewReader(sr.r, sr.size)
	if err != nil {
		return fmt.Errorf("read snapshot: %w", err)
	}
	for _, f := range zr.File {
		sr.noteRecord(f)
	}
	sr.whole = true
	return nil
}
