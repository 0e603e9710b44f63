package intel_test

import (
	"archive/zip"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sentinel-sca/sentinel/internal/intel"
)

// badRecords are malformed records with the reason each must be skipped
// under.
var badRecords = map[string]string{
	"not-json.json":    intel.SkipInvalidJSON,
	"array.json":       intel.SkipInvalidJSON,
	"no-id.json":       intel.SkipMissingID,
	"wrong-type.json":  intel.SkipInvalidJSON,
	"two-keys.json":    intel.SkipBadEvent,
	"empty-event.json": intel.SkipBadEvent,
}

var badRecordBytes = map[string]string{
	"not-json.json":    `{"id": "X-1", `,
	"array.json":       `[{"id": "X-2"}]`,
	"no-id.json":       `{"modified": "2024-01-01T00:00:00Z", "affected": []}`,
	"wrong-type.json":  `{"id": "X-3", "aliases": "CVE-1"}`,
	"two-keys.json":    `{"id": "X-4", "affected": [{"package": {"ecosystem": "npm", "name": "a"}, "ranges": [{"type": "SEMVER", "events": [{"introduced": "0", "fixed": "1.0.0"}]}]}]}`,
	"empty-event.json": `{"id": "X-5", "affected": [{"package": {"ecosystem": "npm", "name": "a"}, "ranges": [{"type": "SEMVER", "events": [{}]}]}]}`,
}

// copyRecords copies n real records into files map (name -> bytes).
func realRecords(t *testing.T, n int) map[string][]byte {
	t.Helper()
	out := make(map[string][]byte)
	err := filepath.WalkDir("testdata/osv", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".json" || len(out) >= n {
			return err
		}
		b, err := os.ReadFile(p)
		out[filepath.Base(p)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLoadDirSkipsAndCounts(t *testing.T) {
	dir := t.TempDir()
	good := realRecords(t, 20)
	for name, b := range good {
		sub := filepath.Join(dir, "nested", name[:3])
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, s := range badRecordBytes {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Files that are not .json are ignored, not counted.
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# not a record"), 0o644); err != nil {
		t.Fatal(err)
	}
	advs, st, err := intel.LoadDir(context.Background(), dir)
	if err != nil {
		t.Fatalf("LoadDir: %v", err)
	}
	want := intel.LoadStats{Loaded: len(good), Skipped: map[string]int{}}
	for _, r := range badRecords {
		want.Skipped[r]++
	}
	if diff := cmp.Diff(want, st, cmpopts.IgnoreFields(intel.LoadStats{}, "Examples")); diff != "" {
		t.Errorf("LoadDir stats mismatch (-want +got):\n%s", diff)
	}
	if len(st.Examples) != len(badRecords) {
		t.Errorf("LoadDir examples = %q, want %d", st.Examples, len(badRecords))
	}
	if len(advs) != len(good) {
		t.Errorf("LoadDir returned %d advisories, want %d", len(advs), len(good))
	}
	for _, a := range advs {
		if !bytes.Equal(a.Raw, good[a.ID+".json"]) {
			t.Errorf("advisory %s: Raw differs from the file", a.ID)
		}
	}
	if _, _, err := intel.LoadDir(context.Background(), filepath.Join(dir, "missing")); err == nil {
		t.Error("LoadDir(missing dir) error = nil, want error")
	}
}

// osvZip builds an all.zip like osv.dev's: one record per entry.
func osvZip(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(files[n]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadZipURLAndEcosystems(t *testing.T) {
	files := realRecords(t, 30)
	for n, s := range badRecordBytes {
		files[n] = []byte(s)
	}
	files["LICENSE.txt"] = []byte("ignored")
	z := osvZip(t, files)
	wantSkipped := map[string]int{}
	for _, r := range badRecords {
		wantSkipped[r]++
	}
	check := func(name string, advs []*intel.Advisory, st intel.LoadStats, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if st.Loaded != 30 || len(advs) != 30 {
			t.Errorf("%s: loaded %d (%d advisories), want 30", name, st.Loaded, len(advs))
		}
		if diff := cmp.Diff(wantSkipped, st.Skipped); diff != "" {
			t.Errorf("%s skipped mismatch (-want +got):\n%s", name, diff)
		}
	}

	advs, st, err := intel.LoadZip(context.Background(), bytes.NewReader(z), int64(len(z)))
	check("LoadZip", advs, st, err)

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/PyPI/all.zip" && r.URL.Path != "/crates.io/all.zip" {
			http.NotFound(w, r)
			return
		}
		w.Write(z)
	}))
	defer srv.Close()
	advs, st, err = intel.LoadURL(context.Background(), srv.Client(), srv.URL+"/PyPI/all.zip")
	check("LoadURL", advs, st, err)
	if _, _, err := intel.LoadURL(context.Background(), srv.Client(), srv.URL+"/npm/all.zip"); err == nil {
		t.Error("LoadURL(404) error = nil, want error")
	}

	// The osv.dev bucket layout, over HTTP and on disk (osv-scanner's
	// offline cache has the same shape).
	advs, st, err = intel.LoadEcosystems(context.Background(), srv.Client(), srv.URL, []string{"PyPI", "crates.io"})
	if err != nil || st.Loaded != 60 || len(advs) != 60 {
		t.Errorf("LoadEcosystems(url) = %d advisories, %+v, %v; want 60", len(advs), st, err)
	}
	base := t.TempDir()
	for _, eco := range []string{"PyPI", "Go"} {
		if err := os.MkdirAll(filepath.Join(base, eco), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, eco, "all.zip"), z, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	advs, st, err = intel.LoadEcosystems(context.Background(), nil, base, []string{"Go", "PyPI"})
	if err != nil || st.Loaded != 60 || len(advs) != 60 {
		t.Errorf("LoadEcosystems(dir) = %d advisories, %+v, %v; want 60", len(advs), st, err)
	}
	if _, _, err := intel.LoadEcosystems(context.Background(), nil, base, []string{"npm"}); err == nil {
		t.Error("LoadEcosystems(missing ecosystem) error = nil, want error")
	}
}

func TestLoadFixtures(t *testing.T) {
	f := mustFixtures(t)
	// testdata/osv holds 315 real records (osv/index.csv) and
	// testdata/synthetic one; all are well formed.
	if diff := cmp.Diff(intel.LoadStats{Loaded: 316}, f.stats); diff != "" {
		t.Errorf("fixture load stats mismatch (-want +got):\n%s", diff)
	}
	st := f.index.Stats()
	// 13 withdrawn records in the fixtures (osv/index.csv "withdrawn").
	if st.Withdrawn != 13 {
		t.Errorf("Stats().Withdrawn = %d, want 13", st.Withdrawn)
	}
	if st.Advisories+st.Withdrawn != 316 {
		t.Errorf("Stats() = %+v, want advisories+withdrawn = 316", st)
	}
	// The two GIT/ records have no package: nothing to index.
	if st.NoPackage != 2 {
		t.Errorf("Stats().NoPackage = %d, want 2", st.NoPackage)
	}
	if st.GitOnly == 0 {
		t.Errorf("Stats().GitOnly = 0, want the OSS-Fuzz GIT-only entries counted")
	}
}
