package intel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/intel"
	"github.com/sentinel-sca/sentinel/internal/testing/purltest"
)

// The benchmarks run on a synthetic corpus made from the real fixture
// records: each record is copied with a distinct id ("<id>-S<k>") and
// distinct package names ("<name>-s<k>"), re-encoded to JSON, so decoding
// and indexing see as many distinct strings as a real corpus of that size.
//
//	go test ./internal/intel -run '^$' -bench . -benchtime 1x -cpu 1
const (
	benchAdvisories = 200_000
	benchDecode     = 100_000
	benchSBOM       = 10_000
)

var (
	corpusOnce sync.Once
	corpusRaw  [][]byte
)

// benchCorpus returns benchAdvisories JSON records, built once.
func benchCorpus(tb testing.TB) [][]byte {
	tb.Helper()
	f := mustFixtures(tb)
	corpusOnce.Do(func() {
		var base []*intel.Advisory
		for _, a := range f.advisories {
			if !a.IsWithdrawn() && len(a.Affected) > 0 {
				base = append(base, a)
			}
		}
		corpusRaw = make([][]byte, 0, benchAdvisories)
		for k := 0; len(corpusRaw) < benchAdvisories; k++ {
			for _, a := range base {
				if len(corpusRaw) == benchAdvisories {
					break
				}
				c := *a
				c.ID = fmt.Sprintf("%s-S%d", a.ID, k)
				c.Affected = make([]intel.Affected, len(a.Affected))
				copy(c.Affected, a.Affected)
				for i := range c.Affected {
					c.Affected[i].Package.Name = fmt.Sprintf("%s-s%d", a.Affected[i].Package.Name, k)
					c.Affected[i].Package.Purl = ""
				}
				raw, err := json.Marshal(&c)
				if err != nil {
					panic(err)
				}
				corpusRaw = append(corpusRaw, raw)
			}
		}
	})
	return corpusRaw
}

func decodeAll(b *testing.B, raws [][]byte) []*intel.Advisory {
	b.Helper()
	out := make([]*intel.Advisory, 0, len(raws))
	for _, r := range raws {
		a, err := intel.DecodeAdvisory(r)
		if err != nil {
			b.Fatalf("decode: %v", err)
		}
		out = append(out, a)
	}
	return out
}

// BenchmarkDecode decodes 100,000 records per iteration (goal: <= 30 s).
func BenchmarkDecode(b *testing.B) {
	raws := benchCorpus(b)[:benchDecode]
	var bytes int64
	for _, r := range raws {
		bytes += int64(len(r))
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		decodeAll(b, raws)
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu_s/100k")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchDecode, "ns/record")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/100k")
}

// heapInUse returns the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// buildIndex decodes the corpus, builds the index and measures the heap it
// keeps once the decoded records are dropped.
func buildIndex(b *testing.B) (*intel.Index, []string, uint64, time.Duration) {
	b.Helper()
	f := mustFixtures(b)
	raws := benchCorpus(b)
	before := heapInUse()
	advs := decodeAll(b, raws)
	start := time.Now()
	idx := intel.NewIndex(advs, f.kev, f.eol, intel.Options{Now: func() time.Time { return fixedNow }})
	build := time.Since(start)
	// Package names of the corpus, for building SBOMs: (ecosystem, name,
	// versions seen in events).
	var pkgs []string
	rng := rand.New(rand.NewPCG(3, 4))
	for _, a := range advs {
		for _, aff := range a.Affected {
			var vs []string
			for _, r := range aff.Ranges {
				if r.Type == intel.RangeGit {
					continue
				}
				for _, e := range r.Events {
					for _, v := range []string{e.Introduced, e.Fixed, e.LastAffected} {
						if v != "" && v != "0" {
							vs = append(vs, v)
						}
					}
				}
			}
			vs = append(vs, aff.Versions...)
			if len(vs) == 0 {
				continue
			}
			p := purltest.FromEcosystem(aff.Package.Ecosystem, aff.Package.Name, vs[rng.IntN(len(vs))])
			if p != "" {
				pkgs = append(pkgs, p)
			}
		}
	}
	advs = nil
	runtime.KeepAlive(advs)
	after := heapInUse()
	return idx, pkgs, after - before, build
}

var (
	indexOnce  sync.Once
	benchIndex *intel.Index
	benchPurls []string
	indexBytes uint64
	indexBuild time.Duration
)

// BenchmarkMatchSBOM matches a 10,000-component SBOM against 200,000
// advisories (goal: <= 10 ms per SBOM on one core; index <= 1 GiB).
//
//	all_affected_pkgs: every component is a package with advisories, its
//	  version taken from the advisories' own events (about half match);
//	realistic_10pct: one component in ten has advisories, the rest are
//	  packages the index does not know (closer to a real SBOM).
func BenchmarkMatchSBOM(b *testing.B) {
	indexOnce.Do(func() { benchIndex, benchPurls, indexBytes, indexBuild = buildIndex(b) })
	st := benchIndex.Stats()
	rng := rand.New(rand.NewPCG(5, 6))
	all := make([]string, benchSBOM)
	for i := range all {
		all[i] = benchPurls[rng.IntN(len(benchPurls))]
	}
	mixed := make([]string, benchSBOM)
	for i := range mixed {
		if i%10 == 0 {
			mixed[i] = benchPurls[rng.IntN(len(benchPurls))]
		} else {
			mixed[i] = fmt.Sprintf("pkg:npm/unknown-package-%d@1.%d.0", i, i%7)
		}
	}
	for _, c := range []struct {
		name  string
		purls []string
	}{{"all_affected_pkgs", all}, {"realistic_10pct", mixed}} {
		b.Run(c.name, func(b *testing.B) {
			matches := 0
			cpu0 := cpuTime()
			for b.Loop() {
				matches = 0
				for _, r := range benchIndex.MatchBatch(c.purls) {
					matches += len(r.Matches)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N)/1000, "cpu_ms/sbom")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchSBOM, "ns/component")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/sbom")
			b.ReportMetric(float64(matches), "matches/sbom")
			b.ReportMetric(float64(st.Advisories), "advisories")
			b.ReportMetric(float64(indexBytes)/(1<<20), "index_MiB")
			b.ReportMetric(indexBuild.Seconds(), "build_s")
		})
	}
}

var (
	snapshotOnce  sync.Once
	snapshotBytes []byte
	snapshotPurls []string
)

// BenchmarkOfflineSnapshot reads an offline snapshot of 100,000 advisories
// for a 10,000-component SBOM (one component in ten has advisories) and
// matches it, as `sentinel ci --offline-db` does:
//
//	for_purls: OpenSnapshot, ReadFor (only the records of the SBOM's
//	  packages), NewIndex, MatchBatch: what the gate does;
//	whole: ReadSnapshot (every record), NewIndex, MatchBatch: what it did
//	  before snapshots listed their packages.
func BenchmarkOfflineSnapshot(b *testing.B) {
	snapshotOnce.Do(func() {
		advs := decodeAll(b, benchCorpus(b)[:benchDecode])
		f := mustFixtures(b)
		var buf bytes.Buffer
		if err := intel.WriteSnapshot(&buf, &intel.Snapshot{Created: fixedNow, Advisories: advs, KEV: f.kev, EOL: f.eol}); err != nil {
			b.Fatal(err)
		}
		snapshotBytes = buf.Bytes()
		rng := rand.New(rand.NewPCG(7, 8))
		for i := range benchSBOM {
			p := ""
			if i%10 == 0 {
				a := advs[rng.IntN(len(advs))]
				for _, aff := range a.Affected {
					for _, r := range aff.Ranges {
						for _, e := range r.Events {
							if p == "" && e.Fixed != "" {
								p = purltest.FromEcosystem(aff.Package.Ecosystem, aff.Package.Name, e.Fixed)
							}
						}
					}
				}
			}
			if p == "" {
				p = fmt.Sprintf("pkg:npm/unknown-package-%d@1.%d.0", i, i%7)
			}
			snapshotPurls = append(snapshotPurls, p)
		}
	})
	ctx := context.Background()
	z := snapshotBytes
	first := -1 // matches of the first way: the other must find as many
	for _, c := range []struct {
		name string
		read func() (*intel.Snapshot, intel.LoadStats, error)
	}{
		{"for_purls", func() (*intel.Snapshot, intel.LoadStats, error) {
			sr, err := intel.OpenSnapshot(ctx, bytes.NewReader(z), int64(len(z)))
			if err != nil {
				return nil, intel.LoadStats{}, err
			}
			return sr.ReadFor(ctx, snapshotPurls)
		}},
		{"whole", func() (*intel.Snapshot, intel.LoadStats, error) {
			return intel.ReadSnapshot(ctx, bytes.NewReader(z), int64(len(z)))
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var decoded, matches int
			for b.Loop() {
				s, st, err := c.read()
				if err != nil {
					b.Fatal(err)
				}
				decoded, matches = st.Loaded, 0
				for _, r := range s.Index(intel.Options{Now: func() time.Time { return fixedNow }}).MatchBatch(snapshotPurls) {
					matches += len(r.Matches)
				}
			}
			if first < 0 {
				first = matches
			} else if matches != first {
				b.Fatalf("%s found %d matches, the other way %d", c.name, matches, first)
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/gate")
			b.ReportMetric(float64(decoded), "records_decoded")
			b.ReportMetric(float64(matches), "matches")
			b.ReportMetric(float64(len(z))/(1<<20), "snapshot_MiB")
		})
	}
}
