package intel_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intel"
)

func TestDecodeKEV(t *testing.T) {
	c := mustFixtures(t).kev
	// The fixture is catalogVersion 2025.06.10 with 1,364 entries.
	if c.CatalogVersion != "2025.06.10" || c.Count != 1364 || len(c.Vulnerabilities) != 1364 {
		t.Errorf("DecodeKEV: version %q count %d entries %d; want 2025.06.10, 1364, 1364", c.CatalogVersion, c.Count, len(c.Vulnerabilities))
	}
	got := c.Lookup()["CVE-2018-7600"]
	want := intel.KEVEntry{CVEID: "CVE-2018-7600", VendorProject: "Drupal", DateAdded: "2021-11-03", KnownRansomwareCampaignUse: "Known"}
	if got.CVEID != want.CVEID || got.VendorProject != want.VendorProject || got.DateAdded != want.DateAdded || !got.Ransomware() {
		t.Errorf("Lookup()[CVE-2018-7600] = %+v, want %+v", got, want)
	}
	if _, err := intel.DecodeKEV(strings.NewReader(`{"vulnerabilities": 3}`)); err == nil {
		t.Error("DecodeKEV(bad) error = nil, want error")
	}
}

func TestEOL(t *testing.T) {
	f := mustFixtures(t)
	tests := []struct {
		purl string
		want *sentinel.EOLStatus
	}{
		// jquery: cycle "1" eol true, latest 1.12.4.
		{"pkg:npm/jquery@1.12.4", &sentinel.EOLStatus{Product: "jquery", ReleaseCycle: "1", EOL: true, Latest: "1.12.4"}},
		// jquery cycle "3": eol false.
		{"pkg:npm/jquery@3.7.1", &sentinel.EOLStatus{Product: "jquery", ReleaseCycle: "3", EOL: false, Latest: "3.7.1"}},
		// the nuget identifier of jquery is pkg:nuget/jQuery.
		{"pkg:nuget/jQuery@2.2.4", &sentinel.EOLStatus{Product: "jquery", ReleaseCycle: "2", EOL: true, Latest: "2.2.4"}},
		// log4j: cycle "2.12" (eol 2021-12-14) is more specific than "2".
		{"pkg:maven/org.apache.logging.log4j/log4j-core@2.12.1", &sentinel.EOLStatus{Product: "log4j", ReleaseCycle: "2.12", EOL: true, EOLDate: "2021-12-14", Latest: "2.12.4"}},
		{"pkg:maven/org.apache.logging.log4j/log4j-core@2.17.1", &sentinel.EOLStatus{Product: "log4j", ReleaseCycle: "2", EOL: false, Latest: "2.26.1"}},
		// django 5.2: eol 2028-04-30, after the fixed clock 2026-11-21.
		{"pkg:pypi/Django@5.2.3", &sentinel.EOLStatus{Product: "django", ReleaseCycle: "5.2", EOL: false, EOLDate: "2028-04-30", Latest: "5.2.17"}},
		// drupal 11.3: eol 2026-12-16, still supported on 2026-11-21.
		{"pkg:composer/drupal/core@11.3.2", &sentinel.EOLStatus{Product: "drupal", ReleaseCycle: "11.3", EOL: false, EOLDate: "2026-12-16", Latest: "11.3.16"}},
		// nginx from Debian: revision and epoch stripped; 1.18 eol 2021-04-20.
		{"pkg:deb/debian/nginx@1.18.0-6.1%2Bdeb11u3?distro=debian-11", &sentinel.EOLStatus{Product: "nginx", ReleaseCycle: "1.18", EOL: true, EOLDate: "2021-04-20", Latest: "1.18.0"}},
		// angular: pkg:npm/%40angular/core; cycle 9 eol 2021-08-06.
		{"pkg:npm/%40angular/core@9.1.0", &sentinel.EOLStatus{Product: "angular", ReleaseCycle: "9", EOL: true, EOLDate: "2021-08-06", Latest: "9.1.13"}},
		// The external scan's names for server software and CMSs
		// (pkg:bitnami), through endoflife.date's Bitnami image and generic
		// package identifiers, or the product's own name.
		{"pkg:bitnami/nginx@1.18.0", &sentinel.EOLStatus{Product: "nginx", ReleaseCycle: "1.18", EOL: true, EOLDate: "2021-04-20", Latest: "1.18.0"}},
		{"pkg:bitnami/php@7.4.3", &sentinel.EOLStatus{Product: "php", ReleaseCycle: "7.4", EOL: true, EOLDate: "2022-11-28", Latest: "7.4.33"}},
		{"pkg:bitnami/node@14.17.0", &sentinel.EOLStatus{Product: "nodejs", ReleaseCycle: "14", EOL: true, EOLDate: "2023-04-30", Latest: "14.21.3"}},
		{"pkg:bitnami/tomcat@9.0.30", &sentinel.EOLStatus{Product: "tomcat", ReleaseCycle: "9.0", EOL: false, EOLDate: "2027-03-31", Latest: "9.0.121"}},
		// The standard library of a Go program or module is its
		// toolchain's release: Go 1.21, EOL 2024-08-13.
		{"pkg:golang/stdlib@1.21.13", &sentinel.EOLStatus{Product: "go", ReleaseCycle: "1.21", EOL: true, EOLDate: "2024-08-13", Latest: "1.21.13"}},
		// no product for lodash; no cycle for jquery 0.x.
		{"pkg:npm/lodash@4.17.15", nil},
		{"pkg:npm/jquery@0.9", nil},
	}
	for _, tt := range tests {
		got, err := f.index.EOL(tt.purl)
		if err != nil {
			t.Fatalf("EOL(%q): %v", tt.purl, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("EOL(%q) mismatch (-want +got):\n%s", tt.purl, diff)
		}
	}

	// The clock decides: the same drupal cycle is EOL a month later.
	later := intel.NewIndex(nil, nil, f.eol, intel.Options{Now: func() time.Time { return time.Date(2026, 12, 16, 0, 0, 0, 0, time.UTC) }})
	if got, _ := later.EOL("pkg:composer/drupal/core@11.3.2"); got == nil || !got.EOL {
		t.Errorf("EOL on 2026-12-16 = %+v, want EOL true", got)
	}
}
