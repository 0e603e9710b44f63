package intel

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// LoadStats counts what a load did. A malformed record never aborts a load:
// it is skipped and counted under a reason (the Skip* constants).
type LoadStats struct {
	// Loaded is the number of records decoded.
	Loaded int `json:"loaded"`
	// Skipped counts skipped records by reason.
	Skipped map[string]int `json:"skipped,omitempty"`
	// Examples holds the first few skip messages ("name: reason: detail"),
	// enough for an operator to find a bad file.
	Examples []string `json:"examples,omitempty"`
}

// maxExamples bounds LoadStats.Examples.
const maxExamples = 10

// SkippedTotal is the sum of Skipped.
func (s LoadStats) SkippedTotal() int {
	n := 0
	for _, v := range s.Skipped {
		n += v
	}
	return n
}

func (s *LoadStats) skip(name, reason string, err error) {
	if s.Skipped == nil {
		s.Skipped = make(map[string]int)
	}
	s.Skipped[reason]++
	if len(s.Examples) < maxExamples {
		s.Examples = append(s.Examples, fmt.Sprintf("%s: %v", name, err))
	}
}

// Add merges o into s.
func (s *LoadStats) Add(o LoadStats) {
	s.Loaded += o.Loaded
	for k, v := range o.Skipped {
		if s.Skipped == nil {
			s.Skipped = make(map[string]int)
		}
		s.Skipped[k] += v
	}
	for _, e := range o.Examples {
		if len(s.Examples) < maxExamples {
			s.Examples = append(s.Examples, e)
		}
	}
}

// add decodes one record's bytes and appends it, or counts the skip.
func (s *LoadStats) add(out []*Advisory, name string, data []byte) []*Advisory {
	a, err := DecodeAdvisory(data)
	if err != nil {
		reason := SkipInvalidJSON
		var de *DecodeError
		if errors.As(err, &de) {
			reason = de.Reason
		}
		s.skip(name, reason, err)
		return out
	}
	s.Loaded++
	return append(out, a)
}

// LoadDir reads every *.json file under dir (recursively, in lexical order)
// as one OSV record; other files are ignored. The error is non-nil only when
// dir cannot be walked or ctx is done; bad records are counted in the stats.
func LoadDir(ctx context.Context, dir string) ([]*Advisory, LoadStats, error) {
	var out []*Advisory
	var st LoadStats
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			st.skip(p, SkipRead, err)
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".json") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			st.skip(p, SkipRead, err)
			return nil
		}
		if info.Size() > MaxRecordSize {
			st.skip(p, SkipTooLarge, fmt.Errorf("%d bytes", info.Size()))
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			st.skip(p, SkipRead, err)
			return nil
		}
		out = st.add(out, p, data)
		return nil
	})
	if err != nil {
		return out, st, fmt.Errorf("load osv dir %q: %w", dir, err)
	}
	return out, st, nil
}

// LoadZip reads every *.json entry of a zip (the layout osv.dev publishes as
// <ECOSYSTEM>/all.zip: one record per entry) as one OSV record.
func LoadZip(ctx context.Context, r io.ReaderAt, size int64) ([]*Advisory, LoadStats, error) {
	var st LoadStats
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, st, fmt.Errorf("open osv zip: %w", err)
	}
	out := make([]*Advisory, 0, len(zr.File))
	for _, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return out, st, fmt.Errorf("load osv zip: %w", err)
		}
		if f.FileInfo().IsDir() || !strings.EqualFold(path.Ext(f.Name), ".json") {
			continue
		}
		data, reason, err := readZipEntry(f, MaxRecordSize)
		if err != nil {
			st.skip(f.Name, reason, err)
			continue
		}
		out = st.add(out, f.Name, data)
	}
	return out, st, nil
}

// readZipEntry reads one entry, refusing entries over MaxRecordSize
// whatever their header claims.
func readZipEntry(f *zip.File, limit int64) ([]byte, string, error) {
	if f.UncompressedSize64 > uint64(limit) {
		return nil, SkipTooLarge, fmt.Errorf("%d bytes", f.UncompressedSize64)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, SkipRead, err
	}
	defer rc.Close()
	// The header's size is only a hint (it may lie): it sizes the buffer,
	// the limit bounds the read.
	buf := bytes.NewBuffer(make([]byte, 0, f.UncompressedSize64+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(rc, limit+1)); err != nil {
		return nil, SkipRead, err
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, SkipTooLarge, fmt.Errorf("more than %d bytes", limit)
	}
	return data, "", nil
}

// LoadZipFile is LoadZip on a file.
func LoadZipFile(ctx context.Context, name string) ([]*Advisory, LoadStats, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, LoadStats{}, fmt.Errorf("load osv zip: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, LoadStats{}, fmt.Errorf("load osv zip: %w", err)
	}
	advs, st, err := LoadZip(ctx, f, info.Size())
	if err != nil {
		return advs, st, fmt.Errorf("load %q: %w", name, err)
	}
	return advs, st, nil
}

// LoadURL downloads a zip of OSV records (such as
// https://osv-vulnerabilities.storage.googleapis.com/PyPI/all.zip) with
// client and loads it. The download goes to a temporary file, not memory,
// because the large ecosystems are hundreds of MiB.
func LoadURL(ctx context.Context, client *http.Client, rawURL string) ([]*Advisory, LoadStats, error) {
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, LoadStats{}, fmt.Errorf("load osv url: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, LoadStats{}, fmt.Errorf("load osv url: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, LoadStats{}, fmt.Errorf("load osv url %q: status %s", rawURL, resp.Status)
	}
	tmp, err := os.CreateTemp("", "sentinel-osv-*.zip")
	if err != nil {
		return nil, LoadStats{}, fmt.Errorf("load osv url: %w", err)
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}()
	n, err := io.Copy(tmp, resp.Body)
	if err != nil {
		return nil, LoadStats{}, fmt.Errorf("download %q: %w", rawURL, err)
	}
	advs, st, err := LoadZip(ctx, tmp, n)
	if err != nil {
		return advs, st, fmt.Errorf("load %q: %w", rawURL, err)
	}
	return advs, st, nil
}

// loadEcosystems loads <base>/<ecosystem>/all.zip for each ecosystem, where
// base is a directory or an http(s) URL (osv.dev's bucket, or osv-scanner's
// offline cache directory .../osv-scanner). A missing zip is an error: the
// caller asked for that ecosystem.
func loadEcosystems(ctx context.Context, client *http.Client, base string, ecosystems []string) ([]*Advisory, LoadStats, error) {
	var all []*Advisory
	var st LoadStats
	remote := strings.HasPrefix(base, "http://") || strings.HasPrefix(base, "https://")
	eco := append([]string(nil), ecosystems...)
	sort.Strings(eco)
	for _, e := range eco {
		var advs []*Advisory
		var s LoadStats
		var err error
		if remote {
			advs, s, err = LoadURL(ctx, client, strings.TrimSuffix(base, "/")+"/"+url.PathEscape(e)+"/all.zip")
		} else {
			advs, s, err = LoadZipFile(ctx, filepath.Join(base, e, "all.zip"))
		}
		st.Add(s)
		all = append(all, advs...)
		if err != nil {
			return all, st, fmt.Errorf("load ecosystem %q: %w", e, err)
		}
	}
	return all, st, nil
}
