package intel_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/intel"
)

// fixedNow is the clock of every test: the day the fixtures were taken.
var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

type fixtures struct {
	advisories []*intel.Advisory
	stats      intel.LoadStats
	kev        *intel.KEVCatalog
	eol        []*intel.EOLProduct
	index      *intel.Index
}

var (
	fixOnce sync.Once
	fix     fixtures
	fixErr  error
)

// mustFixtures loads testdata/osv (real records), testdata/synthetic,
// testdata/kev and testdata/eol once per test binary and indexes them.
func mustFixtures(tb testing.TB) *fixtures {
	tb.Helper()
	fixOnce.Do(func() {
		ctx := context.Background()
		var st intel.LoadStats
		for _, dir := range []string{"testdata/osv", "testdata/synthetic"} {
			advs, s, err := intel.LoadDir(ctx, dir)
			if err != nil {
				fixErr = err
				return
			}
			fix.advisories = append(fix.advisories, advs...)
			st.Add(s)
		}
		fix.stats = st
		f, err := os.Open(filepath.Join("testdata", "kev", "known_exploited_vulnerabilities.json"))
		if err != nil {
			fixErr = err
			return
		}
		defer f.Close()
		if fix.kev, err = intel.DecodeKEV(f); err != nil {
			fixErr = err
			return
		}
		if fix.eol, _, err = intel.LoadEOLDir(ctx, filepath.Join("testdata", "eol")); err != nil {
			fixErr = err
			return
		}
		fix.index = intel.NewIndex(fix.advisories, fix.kev, fix.eol, intel.Options{Now: func() time.Time { return fixedNow }})
	})
	if fixErr != nil {
		tb.Fatalf("load fixtures: %v", fixErr)
	}
	return &fix
}
