package intel_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel/internal/intel"
	"github.com/sentinel-sca/sentinel/internal/testing/purltest"
)

// fixturePurls returns, for every affected package of the fixtures, a purl
// at each version its events name, and the same with the name's case
// changed (PyPI, npm and others normalise it, so the key must too).
func fixturePurls(advs []*intel.Advisory) []string {
	var out []string
	for _, a := range advs {
		for _, aff := range a.Affected {
			for _, r := range aff.Ranges {
				for _, e := range r.Events {
					for _, v := range []string{e.Introduced, e.Fixed, e.LastAffected} {
						if v == "" || v == "0" {
							continue
						}
						if p := purltest.FromEcosystem(aff.Package.Ecosystem, aff.Package.Name, v); p != "" {
							out = append(out, p)
						}
						if p := purltest.FromEcosystem(aff.Package.Ecosystem, strings.ToUpper(aff.Package.Name), v); p != "" {
							out = append(out, p)
						}
					}
				}
			}
		}
	}
	return out
}

func writeSnapshot(t *testing.T, s *intel.Snapshot) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := intel.WriteSnapshot(&buf, s); err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	return buf.Bytes()
}

func openSnapshot(t *testing.T, z []byte) *intel.SnapshotReader {
	t.Helper()
	sr, err := intel.OpenSnapshot(context.Background(), bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatalf("OpenSnapshot: %v", err)
	}
	return sr
}

// withoutEntry rewrites the zip z without the named entry: a snapshot as
// written before the package list existed.
func withoutEntry(t *testing.T, z []byte, name string) []byte {
	t.Helper()
	return rewriteEntry(t, z, name, func([]byte) []byte { return nil })
}

// TestSnapshotReadFor: the records ReadFor decodes for a set of purls
// give the same answers for those purls as the whole snapshot, while
// decoding only what they need.
func TestSnapshotReadFor(t *testing.T) {
	f := mustFixtures(t)
	ctx := context.Background()
	now := intel.Options{Now: func() time.Time { return fixedNow }}
	z := writeSnapshot(t, &intel.Snapshot{Created: fixedNow, Advisories: f.advisories, KEV: f.kev, EOL: f.eol})
	sr := openSnapshot(t, z)
	if sr.Records() != len(f.advisories) {
		t.Fatalf("Records() = %d, want %d", sr.Records(), len(f.advisories))
	}

	all := fixturePurls(f.advisories)
	if len(all) < 1000 {
		t.Fatalf("only %d purls from the fixtures", len(all))
	}
	// Every package of the fixtures, a few at a time, and with packages
	// the snapshot does not know and purls that do not parse.
	for _, set := range [][]string{
		all,
		all[:7],
		{"pkg:npm/jquery@1.12.4", "pkg:pypi/Django@3.2.0", "pkg:npm/no-such-package@1.0.0", "not a purl", "pkg:generic/x@1"},
		{"pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", "pkg:deb/debian/openssl@1.1.1n-0+deb11u3?distro=debian-11"},
	} {
		snap, st, err := sr.ReadFor(ctx, set)
		if err != nil {
			t.Fatalf("ReadFor: %v", err)
		}
		want := f.index.MatchBatch(set)
		have := snap.Index(now).MatchBatch(set)
		if diff := cmp.Diff(want, have); diff != "" {
			t.Fatalf("ReadFor(%d purls) answers differently from the whole snapshot (-want +got):\n%s", len(set), diff)
		}
		matched := 0
		for _, r := range want {
			matched += len(r.Matches)
		}
		if len(set) < 10 {
			if matched == 0 {
				t.Errorf("ReadFor(%v): no match at all: the comparison proves nothing", set)
			}
			if st.Loaded >= len(f.advisories)/4 {
				t.Errorf("ReadFor(%d purls) decoded %d of %d records, want only those of their packages", len(set), st.Loaded, len(f.advisories))
			}
		}
	}

	// A snapshot without the package list (written before it existed) is
	// read whole, with the same answers.
	old := openSnapshot(t, withoutEntry(t, z, "packages.txt"))
	set := all[:7]
	snap, st, err := old.ReadFor(ctx, set)
	if err != nil {
		t.Fatalf("ReadFor without a package list: %v", err)
	}
	if st.Loaded != len(f.advisories) {
		t.Errorf("ReadFor without a package list decoded %d records, want all %d", st.Loaded, len(f.advisories))
	}
	if diff := cmp.Diff(f.index.MatchBatch(set), snap.Index(now).MatchBatch(set)); diff != "" {
		t.Errorf("ReadFor without a package list answers differently (-want +got):\n%s", diff)
	}
}

// TestSnapshotPackageListOddNames: a record whose package name cannot be
// written on a line of the list is listed without a package and always
// read, so it still matches.
func TestSnapshotPackageListOddNames(t *testing.T) {
	raw := []byte(`{"id":"TEST-ODD-1","modified":"2026-01-01T00:00:00Z","affected":[{"package":{"ecosystem":"npm","name":"odd\tname"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"2.0.0"}]}]}]}`)
	odd, err := intel.DecodeAdvisory(raw)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := intel.DecodeAdvisory([]byte(`{"id":"TEST-PLAIN-1","modified":"2026-01-01T00:00:00Z","affected":[{"package":{"ecosystem":"npm","name":"plain"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"2.0.0"}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	sr := openSnapshot(t, writeSnapshot(t, &intel.Snapshot{Created: fixedNow, Advisories: []*intel.Advisory{odd, plain}}))
	snap, st, err := sr.ReadFor(context.Background(), []string{"pkg:npm/unrelated@1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Loaded != 1 || len(snap.Advisories) != 1 || snap.Advisories[0].ID != "TEST-ODD-1" {
		t.Errorf("ReadFor(unrelated) read %d records %v, want only TEST-ODD-1", st.Loaded, snap.Advisories)
	}
}

// TestSnapshotKEVList: ReadFor takes the KEV entries from kev.txt, with
// the fields matching reads, and answers as the whole catalog does; Read
// still gives the whole catalog; a snapshot without kev.txt, or with a
// line of it broken, decodes kev.json instead.
func TestSnapshotKEVList(t *testing.T) {
	f := mustFixtures(t)
	ctx := context.Background()
	now := intel.Options{Now: func() time.Time { return fixedNow }}
	z := writeSnapshot(t, &intel.Snapshot{Created: fixedNow, Advisories: f.advisories, KEV: f.kev, EOL: f.eol})
	set := fixturePurls(f.advisories)
	want := f.index.MatchBatch(set)
	kev := 0
	for _, r := range want {
		for _, m := range r.Matches {
			if m.KEV {
				kev++
			}
		}
	}
	if kev == 0 {
		t.Fatal("no fixture match is known-exploited: the comparison proves nothing")
	}

	broken := rewriteEntry(t, z, "kev.txt", func(b []byte) []byte { return append([]byte("CVE-2021-44228 no tabs\n"), b...) })
	for name, z := range map[string][]byte{
		"with kev.txt":        z,
		"without kev.txt":     withoutEntry(t, z, "kev.txt"),
		"with a broken entry": broken,
	} {
		sr := openSnapshot(t, z)
		if got, want := len(sr.KEV.Vulnerabilities), len(f.kev.Vulnerabilities); got != want {
			t.Errorf("%s: KEV has %d entries, want %d", name, got, want)
		}
		if sr.KEV.CatalogVersion != f.kev.CatalogVersion {
			t.Errorf("%s: KEV catalog version %q, want %q", name, sr.KEV.CatalogVersion, f.kev.CatalogVersion)
		}
		snap, _, err := sr.ReadFor(ctx, set)
		if err != nil {
			t.Fatalf("%s: ReadFor: %v", name, err)
		}
		if diff := cmp.Diff(want, snap.Index(now).MatchBatch(set)); diff != "" {
			t.Errorf("%s: ReadFor answers differently from the whole catalog (-want +got):\n%s", name, diff)
		}
		whole, _, err := sr.Read(ctx)
		if err != nil {
			t.Fatalf("%s: Read: %v", name, err)
		}
		if diff := cmp.Diff(f.kev.Vulnerabilities, whole.KEV.Vulnerabilities); diff != "" {
			t.Errorf("%s: Read's KEV catalog is not the whole catalog (-want +got):\n%s", name, diff)
		}
	}
}

// rewriteEntry rewrites the zip z with the named entry's bytes changed by
// edit, or without the entry when edit returns nil. The zip is written
// anew, without the snapshot's comment: its index is not found.
func rewriteEntry(t *testing.T, z []byte, name string, edit func([]byte) []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	found := false
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == name {
			found = true
			if data = edit(data); data == nil {
				continue
			}
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatalf("the snapshot has no entry %s", name)
	}
	return buf.Bytes()
}
