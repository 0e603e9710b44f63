package iocs_test

import (
	"context"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/iocs"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/benchdata"
)

// benchIndicators are the dry runs measured: every version of a popular
// package (one the newest submission lists; about a third of the live
// hosts have it), a range of it, and a package of the long tail.
var benchIndicators = []struct{ name, pkg, versions string }{
	{"popular_any", benchdata.Name(shape.Package(shape.Subs-1, 0)), "*"},
	{"popular_range", benchdata.Name(shape.Package(shape.Subs-1, 0)), ">=1.1.0 <1.3.0"},
	{"tail", benchdata.Name(shape.Package(shape.Subs-1, shape.PerSub-1)), "1.0.0, 1.1.0, 1.2.0"},
}

var shape = benchdata.Search1M

// seedIndicators fills the store with the 1,000,000 inventory rows of
// benchdata.Search1M and 100,000 findings, defines the indicators and
// applies the first to half of its matching hosts, so that its dry run
// finds findings to create and findings already open.
func seedIndicators(b *testing.B, s *server.Server, org *sentinel.Organization) {
	ctx := context.Background()
	now := time.Now()
	benchdata.SeedInventory(b, s.DB, org.ID, shape, now.Add(-365*24*time.Hour))
	benchdata.SeedFindings(b, s.DB, org.ID, benchdata.Findings{N: 100_000, Hosts: shape.Hosts, Owners: 20}, now)
	var first *sentinel.IOC
	err := s.DB.InTx(ctx, func(tx *store.Tx) error {
		for _, bi := range benchIndicators {
			i := &sentinel.IOC{ID: sentinel.NewID(sentinel.PrefixIOC), OrgID: org.ID, Ecosystem: "npm", Name: bi.pkg,
				NameKey: purl.InventoryKey("npm", bi.pkg), Versions: bi.versions, Reason: "bench: " + bi.name, Severity: sentinel.SeverityHigh}
			if err := tx.CreateIOC(ctx, i); err != nil {
				return err
			}
			if first == nil {
				first = i
			}
		}
		var err error
		first, _, err = tx.SetIOCStatus(ctx, org.ID, first.ID, sentinel.IOCApplied)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	p, err := s.IOCs.Preview(ctx, first)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range p.Matches[:len(p.Matches)/2] {
		_, err := s.Findings.Reconcile(ctx, finding.Input{Org: org, Asset: m.Host, AssetKind: sentinel.AssetHost, Source: m.Kind,
			SubmissionID: m.SourceID, Partial: true, Components: []sentinel.Component{{Purl: m.Purl, Version: m.Version}}})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDryRun1M measures an indicator's dry run (what applying it
// would do: its matching live components, hosts, submissions, counts per
// version, findings to create and already open) over 1,000,000 inventory
// rows and 100,000 findings, on SQLite and PostgreSQL. Goal: 200 ms.
func BenchmarkDryRun1M(b *testing.B) {
	for _, engine := range []string{store.SQLite, store.Postgres} {
		b.Run(engine, func(b *testing.B) {
			s, org := benchdata.Open(b, engine, "iocs-dryrun-1m", func(s *server.Server, org *sentinel.Organization) {
				seedIndicators(b, s, org)
			})
			ctx := context.Background()
			defined, _, err := s.DB.FindIOCs(ctx, org.ID, "", sentinel.Page{Limit: 100})
			if err != nil {
				b.Fatal(err)
			}
			for _, bi := range benchIndicators {
				var ioc *sentinel.IOC
				for _, i := range defined {
					if i.Reason == "bench: "+bi.name {
						ioc = i
					}
				}
				if ioc == nil {
					b.Fatalf("indicator %s not seeded", bi.name)
				}
				b.Run(bi.name, func(b *testing.B) {
					var p *iocs.Preview
					for b.Loop() {
						if p, err = s.IOCs.Preview(ctx, ioc); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
					b.ReportMetric(float64(p.Components), "matches")
					b.ReportMetric(float64(p.WouldCreate), "would-create")
					b.ReportMetric(float64(p.AlreadyOpen), "already-open")
				})
			}
		})
	}
}
