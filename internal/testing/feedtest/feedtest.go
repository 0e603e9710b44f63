// Package feedtest serves the published intel feeds from a loopback
// server with the layout of the real ones, built from the real records in
// internal/intel/testdata:
//
//	/osv/<ecosystem>/all.zip            every record of the ecosystem
//	/osv/<ecosystem>/modified_id.csv    "<modified>,<id>" per record, newest first
//	/osv/<ecosystem>/<id>.json          one record
//	/kev.json                           the CISA KEV catalog
//	/eol                                endoflife.date API v1 products/full
//
// A test changes a record (Touch), breaks a path (Fail) and reads which
// paths were requested (Requests).
package feedtest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// Site is a loopback feed server.
type Site struct {
	URL string // base URL: OSV base is URL+"/osv"

	mu       sync.Mutex
	records  map[string]map[string][]byte // ecosystem -> id -> record
	kev      []byte
	eol      []byte
	fail     map[string]int // path -> status
	requests []string
}

// Testdata is internal/intel/testdata.
func Testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "intel", "testdata")
}

// Start serves the feeds until the test ends. ecosystems selects the OSV
// ecosystems of testdata/osv served (all when none are named).
func Start(tb testing.TB, ecosystems ...string) *Site {
	tb.Helper()
	td := Testdata()
	s := &Site{records: map[string]map[string][]byte{}, fail: map[string]int{}}
	dirs, err := os.ReadDir(filepath.Join(td, "osv"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() || (len(ecosystems) > 0 && !contains(ecosystems, d.Name())) {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(td, "osv", d.Name(), "*.json"))
		s.records[d.Name()] = map[string][]byte{}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			s.records[d.Name()][strings.TrimSuffix(filepath.Base(f), ".json")] = b
		}
	}
	if s.kev, err = os.ReadFile(filepath.Join(td, "kev", "known_exploited_vulnerabilities.json")); err != nil {
		tb.Fatal(err)
	}
	if s.eol, err = EOLDocument(filepath.Join(td, "eol")); err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Ecosystems lists the OSV ecosystems served.
func (s *Site) Ecosystems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for e := range s.records {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// Touch replaces a record's fields (top-level keys of the OSV JSON) and
// sets its modified time to at; a record not served yet is added.
func (s *Site) Touch(tb testing.TB, eco, id string, at time.Time, fields map[string]any) {
	tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := map[string]any{"id": id, "schema_version": "1.6.0"}
	if b, ok := s.records[eco][id]; ok {
		if err := json.Unmarshal(b, &rec); err != nil {
			tb.Fatal(err)
		}
	}
	for k, v := range fields {
		rec[k] = v
	}
	rec["modified"] = at.UTC().Format(time.RFC3339)
	b, err := json.Marshal(rec)
	if err != nil {
		tb.Fatal(err)
	}
	if s.records[eco] == nil {
		s.records[eco] = map[string][]byte{}
	}
	s.records[eco][id] = b
}

// Drop removes a record's JSON file but leaves it listed in
// modified_id.csv at time at, as a bucket does for a record it withdrew
// from the listing late.
func (s *Site) Drop(eco, id string, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[eco][id] = []byte("gone:" + at.UTC().Format(time.RFC3339))
}

// Fail answers status for path (such as "/kev.json"); 0 serves it again.
func (s *Site) Fail(p string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if status == 0 {
		delete(s.fail, p)
		return
	}
	s.fail[p] = status
}

// SetKEV replaces the KEV catalog served.
func (s *Site) SetKEV(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kev = b
}

// KEV returns the KEV catalog served.
func (s *Site) KEV() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.kev)
}

// Requests returns the paths requested since the last call.
func (s *Site) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.requests
	s.requests = nil
	return out
}

func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := r.URL.Path
	s.requests = append(s.requests, p)
	if st := s.fail[p]; st != 0 {
		http.Error(w, "failing on purpose", st)
		return
	}
	switch {
	case p == "/kev.json":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(s.kev)
		return
	case p == "/eol":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(s.eol)
		return
	}
	rest, ok := strings.CutPrefix(p, "/osv/")
	if !ok {
		http.NotFound(w, r)
		return
	}
	eco, file := path.Split(rest)
	recs, ok := s.records[strings.TrimSuffix(eco, "/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch {
	case file == "all.zip":
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, id := range sortedIDs(recs) {
			if bytes.HasPrefix(recs[id], []byte("gone:")) {
				continue
			}
			fw, _ := zw.Create(id + ".json")
			_, _ = fw.Write(recs[id])
		}
		_ = zw.Close()
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(buf.Bytes())
	case file == "modified_id.csv":
		type line struct {
			at time.Time
			id string
		}
		var lines []line
		for id, b := range recs {
			if at, ok := bytes.CutPrefix(b, []byte("gone:")); ok {
				t, _ := time.Parse(time.RFC3339, string(at))
				lines = append(lines, line{t, id})
				continue
			}
			var m struct {
				Modified time.Time `json:"modified"`
			}
			_ = json.Unmarshal(b, &m)
			lines = append(lines, line{m.Modified, id})
		}
		sort.Slice(lines, func(i, j int) bool { return lines[i].at.After(lines[j].at) })
		for _, l := range lines {
			fmt.Fprintf(w, "%s,%s\n", l.at.UTC().Format(time.RFC3339), l.id)
		}
	case strings.HasSuffix(file, ".json"):
		b, ok := recs[strings.TrimSuffix(file, ".json")]
		if !ok || bytes.HasPrefix(b, []byte("gone:")) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	default:
		http.NotFound(w, r)
	}
}

func sortedIDs(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// EOLDocument writes the endoflife.date product files in dir (front
// matter as JSON) as the API v1 products/full answer: the same data in the
// API's shape (names, typed identifiers, isEol/eolFrom, latest objects).
func EOLDocument(dir string) ([]byte, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	type release struct {
		Name        string  `json:"name"`
		Label       string  `json:"label"`
		ReleaseDate string  `json:"releaseDate"`
		IsLTS       bool    `json:"isLts"`
		LTSFrom     *string `json:"ltsFrom"`
		IsEOL       bool    `json:"isEol"`
		EOLFrom     *string `json:"eolFrom"`
		Latest      *struct {
			Name string `json:"name"`
		} `json:"latest"`
	}
	type product struct {
		Name        string              `json:"name"`
		Label       string              `json:"label"`
		Identifiers []map[string]string `json:"identifiers"`
		Releases    []release           `json:"releases"`
	}
	today := time.Now().UTC().Format("2006-01-02")
	var result []product
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var fm struct {
			Title       string              `json:"title"`
			Identifiers []map[string]string `json:"identifiers"`
			Releases    []map[string]any    `json:"releases"`
		}
		if err := json.Unmarshal(b, &fm); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		p := product{Name: strings.TrimSuffix(filepath.Base(f), ".json"), Label: fm.Title, Identifiers: []map[string]string{}}
		for _, id := range fm.Identifiers {
			for typ, v := range id {
				p.Identifiers = append(p.Identifiers, map[string]string{"type": typ, "id": v})
			}
		}
		for _, r := range fm.Releases {
			rel := release{Name: fmt.Sprint(r["releaseCycle"]), Label: fmt.Sprint(r["releaseCycle"])}
			rel.ReleaseDate, _ = r["releaseDate"].(string)
			switch v := r["eol"].(type) {
			case string:
				rel.EOLFrom, rel.IsEOL = &v, v <= today
			case bool:
				rel.IsEOL = v
			}
			switch v := r["lts"].(type) {
			case string:
				rel.LTSFrom, rel.IsLTS = &v, v <= today
			case bool:
				rel.IsLTS = v
			}
			if l, ok := r["latest"].(string); ok {
				rel.Latest = &struct {
					Name string `json:"name"`
				}{l}
			}
			p.Releases = append(p.Releases, rel)
		}
		result = append(result, p)
	}
	return json.Marshal(map[string]any{"schema_version": "1.2.0", "total": len(result), "result": result})
}
