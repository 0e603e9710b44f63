package intel_test

import (
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
