package scan

import (
	"slices"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// TestAppEcosystemsSynced: every application the scan names with a purl
// (WordPress as pkg:bitnami/wordpress, Drupal 8+ as pkg:composer/...) is
// in an ecosystem the service syncs by default; otherwise a detected
// version would never be matched against an advisory.
func TestAppEcosystemsSynced(t *testing.T) {
	for key, app := range apps {
		if app.purl == nil {
			continue
		}
		for _, v := range []string{"6.1.1", "7.58", "9.5.2"} {
			p := app.purl(v)
			if p == "" {
				continue
			}
			eco, _, _, err := purl.ToEcosystem(p)
			if err != nil {
				t.Errorf("%s: %s: %v", key, p, err)
				continue
			}
			if !slices.Contains(intelsvc.DefaultEcosystems, purl.BaseEcosystem(eco)) {
				t.Errorf("%s: %s is in ecosystem %q, which the service does not sync by default", key, p, eco)
			}
		}
	}
}
