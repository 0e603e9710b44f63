package intelsvc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intel"
)

// Where intel comes from: OSV, KEV and end-of-life data read from files,
// directories or URLs, and the records a sync already stored (which an
// incremental sync merges with what changed).

// storedAdvisories returns the stored records with the given ids: looked
// up one by one for a small batch, read in one pass for a large one.
func (s *Service) storedAdvisories(ctx context.Context, ids map[string]bool) ([]*intel.Advisory, error) {
	var out []*intel.Advisory
	add := func(id string, raw []byte) {
		a, err := intel.DecodeAdvisory(raw)
		if err != nil {
			s.logger().Warn("stored advisory no longer decodes; skipped", "id", id, "err", err)
			return
		}
		out = append(out, a)
	}
	if len(ids) <= 2000 {
		for id := range ids {
			raw, err := s.DB.AdvisoryRaw(ctx, id)
			if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("read advisory %s: %w", id, err)
			}
			add(id, raw)
		}
		return out, nil
	}
	err := s.DB.StreamAdvisories(ctx, func(id string, raw []byte) error {
		if ids[id] {
			add(id, raw)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read advisories: %w", err)
	}
	return out, nil
}

// storedCarriers returns the stored records that name one of the CVEs as
// their id or an alias. Only records whose text holds one are decoded.
func (s *Service) storedCarriers(ctx context.Context, cves []string) ([]*intel.Advisory, error) {
	var out []*intel.Advisory
	err := s.DB.StreamAdvisories(ctx, func(id string, raw []byte) error {
		for _, c := range cves {
			if bytes.Contains(raw, []byte(c)) {
				if a, err := intel.DecodeAdvisory(raw); err == nil {
					out = append(out, a)
				}
				return nil
			}
		}
		return nil
	})
	return out, err
}

// storedKEV returns the stored KEV catalog, nil when there is none.
func (s *Service) storedKEV(ctx context.Context) (*intel.KEVCatalog, error) {
	rows, err := s.DB.KEVEntries(ctx)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	cat := &intel.KEVCatalog{}
	for _, r := range rows {
		var e intel.KEVEntry
		if err := json.Unmarshal(r.Raw, &e); err == nil {
			cat.Vulnerabilities = append(cat.Vulnerabilities, e)
		}
	}
	cat.Count = len(cat.Vulnerabilities)
	return cat, nil
}

func isURL(s string) bool { return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") }

func loadOSV(ctx context.Context, c *http.Client, src string) ([]*intel.Advisory, intel.LoadStats, error) {
	if isURL(src) {
		return intel.LoadURL(ctx, c, src)
	}
	fi, err := os.Stat(src)
	if err != nil {
		return nil, intel.LoadStats{}, err
	}
	if fi.IsDir() {
		return intel.LoadDir(ctx, src)
	}
	return intel.LoadZipFile(ctx, src)
}

// statusError is an HTTP answer other than 200.
type statusError struct {
	url  string
	code int
	text string
}

func (e *statusError) Error() string { return fmt.Sprintf("GET %s: %s", e.url, e.text) }

// get opens src's body; any answer but 200 is a *statusError.
func get(ctx context.Context, c *http.Client, src string) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", src, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "sentinel-intel")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, &statusError{url: src, code: resp.StatusCode, text: resp.Status}
	}
	return resp.Body, nil
}

// fetch reads a file, or an http(s) URL's body (at most 256 MiB).
func fetch(ctx context.Context, c *http.Client, src string) ([]byte, error) {
	if !isURL(src) {
		return os.ReadFile(src)
	}
	body, err := get(ctx, c, src)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	return io.ReadAll(io.LimitReader(body, 256<<20))
}

func loadKEV(ctx context.Context, c *http.Client, src string) (*intel.KEVCatalog, error) {
	b, err := fetch(ctx, c, src)
	if err != nil {
		return nil, err
	}
	return intel.DecodeKEV(bytes.NewReader(b))
}

func loadEOL(ctx context.Context, src string) ([]*intel.EOLProduct, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		ps, _, err := intel.LoadEOLDir(ctx, src)
		return ps, err
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	p, err := intel.DecodeEOLProduct(strings.TrimSuffix(filepath.Base(src), ".json"), b)
	if err != nil {
		return nil, err
	}
	return []*intel.EOLProduct{p}, nil
}

// WriteSnapshot writes the stored intel as an offline snapshot for
// `sentinel ci --offline-db`.
func (s *Service) WriteSnapshot(ctx context.Context, w io.Writer) error {
	snap, err := s.snapshotFromStore(ctx)
	if err != nil {
		return err
	}
	snap.Created = time.Now().UTC()
	return intel.WriteSnapshot(w, snap)
}
