package intel

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"time"
)

// Snapshot file layout (a zip):
//
//	manifest.json        {"format": SnapshotFormat, "version": 1, "created": ..., counts}
//	osv/<id>.json        each advisory's raw record, byte for byte
//	kev.json             the KEV catalog as published
//	eol/<product>.json   each endoflife.date product file
//
// Entries are written in sorted order with a fixed modification time, so the
// same snapshot gives the same bytes. A reader keys records by their "id",
// not by file name.
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
	zw := zip.NewWriter(w)
	put := func(name string, data []byte) error {
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
	for _, id := range ids {
		raw, err := rawOf(advs[id].Raw, advs[id])
		if err != nil {
			return fmt.Errorf("write snapshot advisory %q: %w", id, err)
		}
		if err := put("osv/"+fileSafe(id)+".json", raw); err != nil {
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
	if err := zw.Close(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	return nil
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
	var st LoadStats
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, st, fmt.Errorf("read snapshot: %w", err)
	}
	s := &Snapshot{}
	sawManifest := false
	for _, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return nil, st, fmt.Errorf("read snapshot: %w", err)
		}
		name := f.Name
		if f.FileInfo().IsDir() {
			continue
		}
		data, reason, err := readZipEntry(f)
		if err != nil {
			if strings.HasPrefix(name, "osv/") {
				st.skip(name, reason, err)
				continue
			}
			return nil, st, fmt.Errorf("read snapshot %q: %w", name, err)
		}
		switch {
		case name == "manifest.json":
			var m manifest
			if err := json.Unmarshal(data, &m); err != nil {
				return nil, st, fmt.Errorf("read snapshot manifest: %w", err)
			}
			if m.Format != SnapshotFormat {
				return nil, st, ErrNotSnapshot
			}
			if m.Version > SnapshotVersion {
				return nil, st, fmt.Errorf("read snapshot: version %d is newer than %d", m.Version, SnapshotVersion)
			}
			s.Created = m.Created
			sawManifest = true
		case strings.HasPrefix(name, "osv/") && path.Ext(name) == ".json":
			s.Advisories = st.add(s.Advisories, name, data)
		case name == "kev.json":
			k, err := DecodeKEV(bytes.NewReader(data))
			if err != nil {
				return nil, st, fmt.Errorf("read snapshot: %w", err)
			}
			s.KEV = k
		case strings.HasPrefix(name, "eol/") && path.Ext(name) == ".json":
			p, err := DecodeEOLProduct(strings.TrimSuffix(path.Base(name), ".json"), data)
			if err != nil {
				return nil, st, fmt.Errorf("read snapshot: %w", err)
			}
			s.EOL = append(s.EOL, p)
		}
	}
	if !sawManifest {
		return nil, st, ErrNotSnapshot
	}
	return s, st, nil
}

// ReadSnapshotFile is ReadSnapshot on a file (sentinel ci --offline-db).
func ReadSnapshotFile(ctx context.Context, name string) (*Snapshot, LoadStats, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, LoadStats{}, fmt.Errorf("read snapshot: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, LoadStats{}, fmt.Errorf("read snapshot: %w", err)
	}
	s, st, err := ReadSnapshot(ctx, f, info.Size())
	if err != nil {
		return nil, st, fmt.Errorf("read snapshot %q: %w", name, err)
	}
	return s, st, nil
}
