package scan_test

import (
	"slices"
	"strings"
	"testing"

	sentinel "github.com/sentinel-sca/sentinel"
)

// TestScan_Libraries scans a site serving the real files of Debian 12's
// libjs-* packages (rebuilt, so only the Debian rows of the catalog know
// them) and real npm distributables, two jQuery, two Bootstrap and two
// Moment versions among them, plus a jQuery whose banner was stripped
// (named by its version constant).
func TestScan_Libraries(t *testing.T) {
	site, _, cdnPages := libsSite(t)
	res := mustScan(t, site, testConfig())
	checkDetections(t, res, []want{
		// Debian's rebuilt copies: the catalog's Debian rows name them.
		{name: "jQuery", versions: []string{"3.6.1", "1.12.4", "3.4.1", "3.7.1"}, purl: "pkg:npm/jquery@3.6.1", kinds: []string{sentinel.EvidenceHash, sentinel.EvidenceFingerprint}},
		{name: "jQuery UI", versions: []string{"1.13.2"}, purl: "pkg:npm/jquery-ui@1.13.2", kinds: []string{sentinel.EvidenceHash}},
		{name: "Bootstrap", versions: []string{"3.3.7", "4.6.1"}, purl: "pkg:npm/bootstrap@3.3.7", kinds: []string{sentinel.EvidenceHash}},
		{name: "Underscore.js", versions: []string{"1.13.4"}, purl: "pkg:npm/underscore@1.13.4", kinds: []string{sentinel.EvidenceHash}},
		{name: "Moment.js", versions: []string{"2.29.1", "2.29.4"}, purl: "pkg:npm/moment@2.29.1", kinds: []string{sentinel.EvidenceHash}},
		{name: "AngularJS", versions: []string{"1.7.9"}, purl: "pkg:npm/angular@1.7.9", kinds: []string{sentinel.EvidenceHash}},
		{name: "Vue.js", versions: []string{"2.6.14"}, purl: "pkg:npm/vue@2.6.14", kinds: []string{sentinel.EvidenceHash}},
		{name: "Lodash", versions: []string{"4.17.15"}, purl: "pkg:npm/lodash@4.17.15", kinds: []string{sentinel.EvidenceHash}},
	})
	if d := find(res, "jQuery", "3.4.1"); d != nil {
		if d.Confidence != sentinel.ConfidenceHash {
			t.Errorf("jQuery 3.4.1 confidence %d, want %d", d.Confidence, sentinel.ConfidenceHash)
		}
		hasPath := false
		for _, e := range d.Evidence {
			hasPath = hasPath || (e.Kind == sentinel.EvidencePath && e.Version == "3.4.1")
		}
		if !hasPath {
			t.Errorf("jQuery 3.4.1: no versioned CDN path evidence in %+v", d.Evidence)
		}
	}
	// The banner-stripped copy: its version from jQuery's own constant.
	if d := find(res, "jQuery", "3.7.1"); d != nil {
		if d.Purl != "pkg:npm/jquery@3.7.1" || d.Confidence != sentinel.ConfidenceBanner {
			t.Errorf("jQuery 3.7.1 without banner: purl %q confidence %d, want pkg:npm/jquery@3.7.1 and %d", d.Purl, d.Confidence, sentinel.ConfidenceBanner)
		}
		if !slices.ContainsFunc(d.Evidence, func(e sentinel.DetectionEvidence) bool {
			return strings.HasPrefix(e.Detail, "version constant: ") && strings.HasSuffix(e.URL, "/assets/jquery.min.js")
		}) {
			t.Errorf("jQuery 3.7.1 evidence %+v: want the version constant of assets/jquery.min.js", d.Evidence)
		}
	}
	if n := cdnPages.Load(); n != 0 {
		t.Errorf("the CDN host's pages were requested %d times; only its assets may be", n)
	}
	if res.Stats.Pages != 2 {
		t.Errorf("Stats.Pages = %d, want 2", res.Stats.Pages)
	}
}

// TestScan_WordPress scans real WordPress 6.1.9 files (Debian's package)
// behind WordPress-shaped pages. WordPress appends ?ver= to every asset:
// for lodash it says 4.17.19 while the file is 4.17.21, and for a plugin it
// is the only version there is; neither is reported as a version.
func TestScan_WordPress(t *testing.T) {
	res := mustScan(t, wordpressSite(t), testConfig())
	checkDetections(t, res, []want{
		{name: "WordPress", versions: []string{"6.1.9"}, purl: "pkg:bitnami/wordpress@6.1.9", kinds: []string{sentinel.EvidenceGenerator, sentinel.EvidenceHeader, sentinel.EvidenceCMSPath, sentinel.EvidencePath}},
		{name: "jQuery", versions: []string{"3.6.1"}, purl: "pkg:npm/jquery@3.6.1", kinds: []string{sentinel.EvidenceHash}},
		{name: "jQuery Migrate", versions: []string{"3.3.2"}, purl: "pkg:npm/jquery-migrate@3.3.2", kinds: []string{sentinel.EvidenceHash}},
		{name: "jQuery UI", versions: []string{"1.13.2"}, purl: "pkg:npm/jquery-ui@1.13.2"},
		{name: "Lodash", versions: []string{"4.17.21"}, purl: "pkg:npm/lodash@4.17.21", kinds: []string{sentinel.EvidenceHash}},
		{name: "Moment.js", versions: []string{"2.29.4"}, purl: "pkg:npm/moment@2.29.4"},
		{name: "WordPress plugin contact-form-7", versions: []string{""}, kinds: []string{sentinel.EvidencePath, sentinel.EvidenceFingerprint}},
		// The theme's style.css header names its version (?ver= says the same, weakly).
		{name: "WordPress theme twentytwentythree", versions: []string{"1.0"}, kinds: []string{sentinel.EvidenceFingerprint, sentinel.EvidencePath}},
		{name: "PHP", versions: []string{"8.2.7"}, purl: "pkg:bitnami/php@8.2.7", kinds: []string{sentinel.EvidenceHeader}},
	})
	// The fingerprint rule for the plugin and its directory are one
	// detection, not two names for one plugin.
	for _, d := range res.Detections {
		if d.Name == "Contact Form 7" {
			t.Errorf("the plugin is reported twice: %q beside \"WordPress plugin contact-form-7\"", d.Name)
		}
	}
	if d := find(res, "WordPress", "6.1.9"); d != nil && d.Confidence != sentinel.ConfidenceGenerator {
		t.Errorf("WordPress confidence %d, want %d (generator)", d.Confidence, sentinel.ConfidenceGenerator)
	}
}
