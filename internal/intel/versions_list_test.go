package intel_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/intel"
)

// TestVersionsListSemantics: an OSV "versions" list names versions in the
// ecosystem's own semantics, so a listed "1.0" is the installed "1.0.0" in
// PyPI and Maven, and "v1.2.3" is "1.2.3" in Go; a version the ecosystem
// cannot order still matches by string equality.
func TestVersionsListSemantics(t *testing.T) {
	// GHSA-2qrg-x229-3v8q (real): org.zenframework.z8.dependencies.commons:
	// log4j-1.2.17 is affected at the listed version "2.0" only, with no
	// range.
	idx := mustFixtures(t).index

	// PYSEC-2012-5 (real, tornado) lists 0.2, 1.0, 1.1, 1.2, 2.0, 2.1, ...
	// beside a range that covers them. With the range removed (so that the
	// list alone decides), the same record checks PyPI's "1.0" == "1.0.0".
	tornado := loadRecord(t, "PyPI", "PYSEC-2012-5")
	for i := range tornado.Affected {
		tornado.Affected[i].Ranges = nil
	}
	// OSV-2017-109 (real, OSS-Fuzz unrar): GIT ranges only and a versions
	// list; OSS-Fuzz has no version order, so only string equality applies.
	unrar := loadRecord(t, "OSS-Fuzz", "OSV-2017-109")
	listOnly := intel.NewIndex([]*intel.Advisory{tornado, unrar}, nil, nil, intel.Options{Now: func() time.Time { return fixedNow }})

	tests := []struct {
		name string
		idx  *intel.Index
		purl string
		id   string
		want bool
	}{
		{"maven_listed_2.0_is_2.0.0", idx, "pkg:maven/org.zenframework.z8.dependencies.commons/log4j-1.2.17@2.0.0", "GHSA-2qrg-x229-3v8q", true},
		{"maven_listed_exact", idx, "pkg:maven/org.zenframework.z8.dependencies.commons/log4j-1.2.17@2.0", "GHSA-2qrg-x229-3v8q", true},
		{"maven_other_version", idx, "pkg:maven/org.zenframework.z8.dependencies.commons/log4j-1.2.17@2.0.1", "GHSA-2qrg-x229-3v8q", false},
		{"pypi_listed_1.0_is_1.0.0", listOnly, "pkg:pypi/tornado@1.0.0", "PYSEC-2012-5", true},
		{"pypi_listed_2.0_is_2.0.0.0", listOnly, "pkg:pypi/tornado@2.0.0.0", "PYSEC-2012-5", true},
		{"pypi_listed_exact", listOnly, "pkg:pypi/tornado@1.1", "PYSEC-2012-5", true},
		{"pypi_post_release_is_not_listed", listOnly, "pkg:pypi/tornado@1.0.post1", "PYSEC-2012-5", false},
		{"pypi_unlisted", listOnly, "pkg:pypi/tornado@2.2.1", "PYSEC-2012-5", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := tt.idx.Match(tt.purl)
			if err != nil {
				t.Fatalf("Match(%q): %v", tt.purl, err)
			}
			if got := slices.Contains(ids(ms), tt.id); got != tt.want {
				t.Errorf("Match(%q) has %s = %v, want %v (matches %v)", tt.purl, tt.id, got, tt.want, ids(ms))
			}
		})
	}

	// No order in OSS-Fuzz: the listed string matches, "5.6.1.2.0" does not
	// (it would in an ecosystem with numeric order) and is undecided.
	if r := listOnly.MatchPackage("OSS-Fuzz", "unrar", "5.6.1.2"); !slices.Contains(ids(r.Matches), "OSV-2017-109") {
		t.Errorf("MatchPackage(OSS-Fuzz, unrar, 5.6.1.2) = %v, want OSV-2017-109", ids(r.Matches))
	}
	if r := listOnly.MatchPackage("OSS-Fuzz", "unrar", "5.6.1.2.0"); len(r.Matches) != 0 || !slices.Contains(r.Undecided, "OSV-2017-109") {
		t.Errorf("MatchPackage(OSS-Fuzz, unrar, 5.6.1.2.0) = %v undecided %v, want no match and OSV-2017-109 undecided", ids(r.Matches), r.Undecided)
	}
}

func loadRecord(tb testing.TB, dir, id string) *intel.Advisory {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "osv", dir, id+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	a, err := intel.DecodeAdvisory(b)
	if err != nil {
		tb.Fatalf("DecodeAdvisory(%s): %v", id, err)
	}
	return a
}
