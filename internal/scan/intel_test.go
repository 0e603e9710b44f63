package scan_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/intel"
)

// TestDetections_MatchIntel checks that the purls the scan writes are the
// ones the intel index matches: real OSV records (testdata/osv) loaded with
// internal/intel, matched against what the scan found on the test sites.
func TestDetections_MatchIntel(t *testing.T) {
	advs, _, err := intel.LoadDir(context.Background(), filepath.Join("testdata", "osv"))
	if err != nil {
		t.Fatal(err)
	}
	idx := intel.NewIndex(advs, nil, nil, intel.Options{})

	site, _, _ := libsSite(t)
	var dets []sentinel.Detection
	dets = append(dets, mustScan(t, site, testConfig()).Detections...)
	dets = append(dets, mustScan(t, wordpressSite(t), testConfig()).Detections...)
	matched := map[string][]string{}
	for _, d := range dets {
		if d.Purl == "" {
			continue
		}
		ms, err := idx.Match(d.Purl)
		if err != nil {
			t.Errorf("Match(%q): %v", d.Purl, err)
			continue
		}
		for _, m := range ms {
			matched[d.Purl] = append(matched[d.Purl], m.ID)
		}
	}
	for purl, id := range map[string]string{
		"pkg:npm/jquery@1.12.4":   "GHSA-jpcq-cgw6-v4j6", // CVE-2020-11023, known exploited
		"pkg:npm/jquery@3.4.1":    "GHSA-jpcq-cgw6-v4j6",
		"pkg:npm/bootstrap@3.3.7": "GHSA-4p24-vmcr-4gqj",
		"pkg:npm/lodash@4.17.15":  "GHSA-35jh-r3h4-6jhm",
		"pkg:npm/moment@2.29.1":   "GHSA-8hfj-j24r-96c4",
		"pkg:npm/angular@1.7.9":   "GHSA-4w4v-5hc9-xrr2",
		"pkg:bitnami/php@8.2.7":   "BIT-php-2024-2756",
	} {
		got, ok := matched[purl]
		switch {
		case !ok && id != "":
			t.Errorf("%s: not detected or no advisory matched, want %s", purl, id)
		case id != "" && !slices.Contains(got, id):
			t.Errorf("%s matched %v, want %s among them", purl, got, id)
		}
	}
	// Releases past every advisory's fix match nothing.
	for _, purl := range []string{"pkg:npm/jquery-ui@1.13.2", "pkg:bitnami/wordpress@6.1.9", "pkg:npm/jquery@3.6.1"} {
		if got := matched[purl]; len(got) != 0 {
			t.Errorf("%s matched %v, want none", purl, got)
		}
	}
	t.Logf("matches: %v", matched)
}
