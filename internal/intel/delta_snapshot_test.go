package intel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/sentinel-sca/sentinel/internal/intel"
)

// find returns the fixture advisory with the given id.
func find(t *testing.T, advs []*intel.Advisory, id string) *intel.Advisory {
	t.Helper()
	for _, a := range advs {
		if a.ID == id {
			return a
		}
	}
	t.Fatalf("fixture %s not found", id)
	return nil
}

// edited decodes a copy of a's raw record after edit has changed it as a
// generic JSON object, as a newer version of the record would look.
func edited(t *testing.T, a *intel.Advisory, edit func(m map[string]any)) *intel.Advisory {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.Raw, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	m["modified"] = "2026-11-21T10:00:00Z"
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out, err := intel.DecodeAdvisory(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDiff(t *testing.T) {
	f := mustFixtures(t)
	ansi := find(t, f.advisories, "GHSA-whgm-jr23-g3j9")    // npm, CVSS 7.5 high, fixed 0.0.8
	drupal := find(t, f.advisories, "DRUPAL-CORE-2018-002") // no severity; KEV
	plone := find(t, f.advisories, "PYSEC-2014-39")
	musl := find(t, f.advisories, "ALPINE-CVE-2025-26519")
	hyper := find(t, f.advisories, "RUSTSEC-2017-0002")

	oldKEV := &intel.KEVCatalog{Vulnerabilities: []intel.KEVEntry{{CVEID: "CVE-2018-7600", DateAdded: "2021-11-03"}}}
	newKEV := &intel.KEVCatalog{Vulnerabilities: []intel.KEVEntry{
		{CVEID: "CVE-2018-7600", DateAdded: "2021-11-03"},
		{CVEID: "CVE-2021-23424", DateAdded: "2026-11-20", KnownRansomwareCampaignUse: "Known"}, // ansi-html's alias
		{CVEID: "CVE-2099-0001", DateAdded: "2026-11-20"},                                       // no advisory carries it
	}}
	old := &intel.Snapshot{Advisories: []*intel.Advisory{ansi, drupal, plone, musl}, KEV: oldKEV}
	cur := &intel.Snapshot{
		Advisories: []*intel.Advisory{
			// severity raised: the v3.1 vector becomes 9.8.
			edited(t, ansi, func(m map[string]any) {
				m["severity"] = []any{map[string]any{"type": "CVSS_V3", "score": "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"}}
			}),
			// a fix added on a new 7.x range.
			edited(t, drupal, func(m map[string]any) {
				aff := m["affected"].([]any)[0].(map[string]any)
				aff["ranges"] = append(aff["ranges"].([]any), map[string]any{
					"type":   "ECOSYSTEM",
					"events": []any{map[string]any{"introduced": "7.0"}, map[string]any{"fixed": "7.58"}},
				})
			}),
			// withdrawn.
			edited(t, plone, func(m map[string]any) { m["withdrawn"] = "2026-11-21T09:00:00Z" }),
			// unchanged.
			musl,
			// new.
			hyper,
		},
		KEV: newKEV,
	}
	got := intel.Diff(old, cur)
	modified := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	want := intel.Delta{
		New: []string{"RUSTSEC-2017-0002"},
		Changed: []intel.AdvisoryChange{
			{ID: "DRUPAL-CORE-2018-002", Modified: modified, OldSeverity: "unknown", NewSeverity: "unknown", FixesAdded: []string{"Packagist/drupal/core@7.58"}},
			{ID: "GHSA-whgm-jr23-g3j9", Modified: modified, OldSeverity: "high", NewSeverity: "critical", SeverityRaised: true},
			{ID: "PYSEC-2014-39", Modified: modified, OldSeverity: "unknown", NewSeverity: "unknown", Withdrawn: true},
		},
		NewKEV: []intel.KEVListing{
			{CVE: "CVE-2021-23424", DateAdded: "2026-11-20", Ransomware: true, Advisories: []string{"GHSA-whgm-jr23-g3j9"}},
			{CVE: "CVE-2099-0001", DateAdded: "2026-11-20", Advisories: []string{}},
		},
		// Every package a new, changed or newly known-exploited advisory
		// names; the unchanged musl record's package is not among them.
		Packages: []intel.PackageRef{
			{Ecosystem: "Packagist", Name: "drupal/core"},
			{Ecosystem: "PyPI", Name: "plone"},
			{Ecosystem: "crates.io", Name: "hyper"},
			{Ecosystem: "npm", Name: "ansi-html"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Diff mismatch (-want +got):\n%s", diff)
	}
	for _, c := range got.Changed {
		if !c.Meaningful() {
			t.Errorf("change %s not Meaningful", c.ID)
		}
	}
	if d := intel.Diff(old, old); len(d.New)+len(d.Changed)+len(d.NewKEV) != 0 {
		t.Errorf("Diff(old, old) = %+v, want empty", d)
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	f := mustFixtures(t)
	s := &intel.Snapshot{
		Created:    time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
		Advisories: f.advisories,
		KEV:        f.kev,
		EOL:        f.eol,
	}
	var buf1, buf2 bytes.Buffer
	if err := intel.WriteSnapshot(&buf1, s); err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	if err := intel.WriteSnapshot(&buf2, s); err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	if !bytes.Equal(buf1.Bytes(), buf2.Bytes()) {
		t.Error("WriteSnapshot is not deterministic")
	}
	got, st, err := intel.ReadSnapshot(context.Background(), bytes.NewReader(buf1.Bytes()), int64(buf1.Len()))
	if err != nil {
		t.Fatalf("ReadSnapshot: %v", err)
	}
	if st.Loaded != len(f.advisories) || st.SkippedTotal() != 0 {
		t.Errorf("ReadSnapshot stats = %+v, want %d loaded", st, len(f.advisories))
	}
	// Raw bytes survive byte for byte, so the decoded forms are equal too.
	sortByID := cmpopts.SortSlices(func(a, b *intel.Advisory) bool { return a.ID < b.ID })
	sortEOL := cmpopts.SortSlices(func(a, b *intel.EOLProduct) bool { return a.Product < b.Product })
	// Compare raw bytes (also json.RawMessage) with bytes.Equal: the
	// reflective default takes seconds on the 1.2 MB catalog.
	fastBytes := cmp.Comparer(func(a, b []byte) bool { return bytes.Equal(a, b) })
	if diff := cmp.Diff(s, got, sortByID, sortEOL, fastBytes); diff != "" {
		t.Errorf("ReadSnapshot(WriteSnapshot(s)) mismatch (-want +got):\n%s", diff)
	}
	// The index built from the snapshot answers as the original does.
	idx := got.Index(intel.Options{Now: func() time.Time { return fixedNow }})
	for _, p := range []string{"pkg:composer/drupal/core@8.5.0", "pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30", "pkg:npm/jquery@1.12.4"} {
		want := f.index.MatchBatch([]string{p})
		have := idx.MatchBatch([]string{p})
		if diff := cmp.Diff(want, have); diff != "" {
			t.Errorf("match %q after snapshot mismatch (-want +got):\n%s", p, diff)
		}
	}
	// A zip that is not a snapshot is refused.
	z := osvZip(t, map[string][]byte{"a.json": []byte(`{"id":"A"}`)})
	if _, _, err := intel.ReadSnapshot(context.Background(), bytes.NewReader(z), int64(len(z))); err == nil {
		t.Error("ReadSnapshot(osv zip) error = nil, want ErrNotSnapshot")
	}
}
