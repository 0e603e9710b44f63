package intel_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/intel"
)

// TestSnapshotIndex: a snapshot carries an index that ReadFor reads its
// records through, without the zip's directory: every offset of it is
// where the zip's own directory says the record is, and the answers are
// the whole snapshot's. Read still reads every record through the
// directory.
func TestSnapshotIndex(t *testing.T) {
	f := mustFixtures(t)
	ctx := context.Background()
	z := writeSnapshot(t, &intel.Snapshot{Created: fixedNow, Advisories: f.advisories, KEV: f.kev, EOL: f.eol})

	// The offsets are the directory's.
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(zr.Comment, "sentinel-intel-index ") {
		t.Fatalf("zip comment %q", zr.Comment)
	}
	at := map[string]int64{}
	var index *zip.File
	for _, e := range zr.File {
		off, err := e.DataOffset()
		if err != nil {
			t.Fatal(err)
		}
		at[e.Name] = off
		if e.Name == "index.zip" {
			index = e
		}
	}
	if index == nil {
		t.Fatal("no index.zip entry")
	}
	ib := entryBytes(t, index)
	inner, err := zip.NewReader(bytes.NewReader(ib), int64(len(ib)))
	if err != nil {
		t.Fatal(err)
	}
	var list []byte
	for _, e := range inner.File {
		if e.Name == "packages.txt" {
			list = entryBytes(t, e)
		}
	}
	checked := 0
	for line := range strings.SplitSeq(string(list), "\n") {
		fields := strings.Split(line, "\t")
		for _, e := range fields[min(2, len(fields)):] {
			name, o, ok := strings.Cut(e, "#")
			off, err := strconv.ParseInt(o, 10, 64)
			if !ok || err != nil {
				t.Fatalf("entry %q has no offset", e)
			}
			got, err := intel.ReadLocalHeader(bytes.NewReader(z), int64(len(z)), off)
			if err != nil || got != name {
				t.Fatalf("offset %d of %s: local header of %q (%v)", off, name, got, err)
			}
			if _, ok := at[name]; !ok {
				t.Fatalf("%s is listed but not in the zip", name)
			}
			checked++
		}
	}
	if checked < len(f.advisories)/2 {
		t.Fatalf("checked %d offsets for %d records", checked, len(f.advisories))
	}

	sr := openSnapshot(t, z)
	if !sr.Indexed() {
		t.Fatal("the snapshot was not read through its index")
	}
	if sr.Records() != len(f.advisories) {
		t.Errorf("Records() = %d, want %d", sr.Records(), len(f.advisories))
	}
	now := intel.Options{Now: func() time.Time { return fixedNow }}
	set := fixturePurls(f.advisories)
	snap, st, err := sr.ReadFor(ctx, set)
	if err != nil {
		t.Fatal(err)
	}
	if st.SkippedTotal() != 0 || st.Loaded == 0 {
		t.Errorf("ReadFor: %+v", st)
	}
	if diff := cmp.Diff(f.index.MatchBatch(set), snap.Index(now).MatchBatch(set)); diff != "" {
		t.Errorf("ReadFor through the index answers differently (-whole +index):\n%s", diff)
	}
	whole, st, err := sr.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Advisories) != len(f.advisories) || st.SkippedTotal() != 0 {
		t.Errorf("Read: %d records, %+v; want %d", len(whole.Advisories), st, len(f.advisories))
	}
}

// TestSnapshotIndexDamaged: a snapshot whose comment points nowhere is
// read through its directory with the same answers; a record is read at
// an offset only when the entry there is that record.
func TestSnapshotIndexDamaged(t *testing.T) {
	f := mustFixtures(t)
	ctx := context.Background()
	now := intel.Options{Now: func() time.Time { return fixedNow }}
	z := writeSnapshot(t, &intel.Snapshot{Created: fixedNow, Advisories: f.advisories, KEV: f.kev, EOL: f.eol})
	set := fixturePurls(f.advisories)

	// The comment is the last bytes of the file: point it elsewhere.
	i := bytes.LastIndex(z, []byte("sentinel-intel-index "))
	for _, bad := range []string{"0", "1", "99999999999"} {
		d := append([]byte(nil), z[:i]...)
		c := "sentinel-intel-index " + bad
		if len(c) > len(z)-i {
			continue
		}
		c += strings.Repeat(" ", len(z)-i-len(c))
		d = append(d, c...)
		sr := openSnapshot(t, d)
		if sr.Indexed() {
			t.Fatalf("offset %s: read through an index that is not there", bad)
		}
		snap, _, err := sr.ReadFor(ctx, set)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(f.index.MatchBatch(set), snap.Index(now).MatchBatch(set)); diff != "" {
			t.Errorf("offset %s: answers differently (-whole +got):\n%s", bad, diff)
		}
	}

	// A record is read at an offset only when the entry there is the one
	// the index names: another record's, a place inside an entry, a place
	// past the end are errors, never another record.
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	var recs []*zip.File
	for _, e := range zr.File {
		if strings.HasPrefix(e.Name, "osv/") {
			recs = append(recs, e)
		}
	}
	if len(recs) < 2 {
		t.Fatal("fewer than two records")
	}
	header := func(e *zip.File) int64 {
		off, err := e.DataOffset()
		if err != nil {
			t.Fatal(err)
		}
		return off - 30 - int64(len(e.Name)) - int64(len(e.Extra))
	}
	r, size := bytes.NewReader(z), int64(len(z))
	got, _, err := intel.ReadRecordAt(r, size, header(recs[0]), recs[0].Name)
	if err != nil {
		t.Fatalf("the record at its own offset: %v", err)
	}
	if !bytes.Equal(got, entryBytes(t, recs[0])) {
		t.Errorf("the record read at its offset differs from the zip's")
	}
	for name, off := range map[string]int64{
		"another record's": header(recs[1]),
		"inside an entry":  header(recs[0]) + 7,
		"past the end":     size + 100,
		"negative":         -5,
	} {
		if data, reason, err := intel.ReadRecordAt(r, size, off, recs[0].Name); err == nil || reason == "" {
			t.Errorf("%s offset: read %d bytes (%q, %v)", name, len(data), reason, err)
		}
	}
}

// entryBytes reads a zip entry.
func entryBytes(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
