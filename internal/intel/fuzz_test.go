package intel_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/intel"
)

// FuzzDecodeAdvisory feeds arbitrary bytes to the OSV decoder and indexes
// whatever decodes: neither may panic, a decoded record has an id and keeps
// its bytes, and matching every affected package at every event version
// must not fail. Seeds: testdata/fuzz/FuzzDecodeAdvisory (small real
// records) and the malformed records of load_test.go.
func FuzzDecodeAdvisory(f *testing.F) {
	for _, s := range badRecordBytes {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := intel.DecodeAdvisory(data)
		if err != nil {
			if a != nil {
				t.Fatalf("DecodeAdvisory returned %v with error %v", a, err)
			}
			return
		}
		if a.ID == "" || string(a.Raw) != string(data) {
			t.Fatalf("DecodeAdvisory: id %q, raw kept %v", a.ID, string(a.Raw) == string(data))
		}
		idx := intel.NewIndex([]*intel.Advisory{a}, nil, nil, intel.Options{Now: func() time.Time { return fixedNow }})
		for _, aff := range a.Affected {
			vs := append([]string{"0", "1.0.0"}, aff.Versions...)
			for _, r := range aff.Ranges {
				for _, e := range r.Events {
					vs = append(vs, e.Introduced, e.Fixed, e.LastAffected, e.Limit)
				}
			}
			for _, v := range vs {
				res := idx.MatchPackage(aff.Package.Ecosystem, aff.Package.Name, v)
				for _, m := range res.Matches {
					if m.ID != a.ID || m.Severity == "" || m.FixedVersions == nil {
						t.Fatalf("MatchPackage(%q, %q, %q) = %+v", aff.Package.Ecosystem, aff.Package.Name, v, m)
					}
				}
			}
		}
	})
}

// FuzzOpenSnapshot opens arbitrary bytes as an offline snapshot and reads
// the records of a few packages: the index and its offsets come from the
// file, so a damaged or hostile one must give an error or skipped records,
// never a panic. The seed is a small snapshot with its index.
func FuzzOpenSnapshot(f *testing.F) {
	a, err := intel.DecodeAdvisory([]byte(`{"id":"TEST-1","modified":"2026-01-01T00:00:00Z","affected":[{"package":{"ecosystem":"npm","name":"left-pad"},"ranges":[{"type":"SEMVER","events":[{"introduced":"0"},{"fixed":"2.0.0"}]}]}]}`))
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := intel.WriteSnapshot(&buf, &intel.Snapshot{Created: fixedNow, Advisories: []*intel.Advisory{a}}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		sr, err := intel.OpenSnapshot(ctx, bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		snap, _, err := sr.ReadFor(ctx, []string{"pkg:npm/left-pad@1.0.0", "pkg:pypi/django@3.2"})
		if err == nil {
			snap.Index(intel.Options{Now: func() time.Time { return fixedNow }}).MatchBatch([]string{"pkg:npm/left-pad@1.0.0"})
		}
	})
}
