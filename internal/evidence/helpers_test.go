package evidence_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/x509"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
	"github.com/sentinel-sca/sentinel/internal/signing"
)

const (
	testPublicURL = "https://sentinel.example"
	testIssuer    = testPublicURL
)

var testIdentity = evidence.Identity(testPublicURL, "acme")

// memSource is an in-memory evidence.Source.
type memSource struct {
	subs       []sentinel.EvidenceSubmission
	components []sentinel.EvidenceComponent // sorted by purl
	changes    []sentinel.EvidenceChange
	findings   []sentinel.EvidenceFinding
	audit      []sentinel.AuditEntry
}

func (m *memSource) EvidenceSubmissions(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.EvidenceSubmission) error) error {
	for i := range m.subs {
		if err := fn(&m.subs[i]); err != nil {
			return err
		}
	}
	return nil
}

func (m *memSource) EvidenceComponents(ctx context.Context, orgID string, fn func(*sentinel.EvidenceComponent) error) error {
	for i := range m.components {
		if err := fn(&m.components[i]); err != nil {
			return err
		}
	}
	return nil
}

func (m *memSource) EvidenceChanges(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.EvidenceChange) error) error {
	for i := range m.changes {
		if err := fn(&m.changes[i]); err != nil {
			return err
		}
	}
	return nil
}

func (m *memSource) EvidenceFindings(ctx context.Context, orgID string, statuses []string, fn func(*sentinel.EvidenceFinding) error) error {
	for i := range m.findings {
		if err := fn(&m.findings[i]); err != nil {
			return err
		}
	}
	return nil
}

func (m *memSource) EvidenceAudit(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.AuditEntry) error) error {
	for i := range m.audit {
		if err := fn(&m.audit[i]); err != nil {
			return err
		}
	}
	return nil
}

var created = time.Date(2026, 11, 21, 22, 19, 5, 0, time.UTC)

func testOrg() *sentinel.Organization {
	return &sentinel.Organization{ID: "org_acme", Slug: "acme", Name: "Acme Widgets Société", Catalog: "nist-800-53"}
}

// testSource returns a small, varied organization.
func testSource() *memSource {
	due := created.Add(72 * time.Hour)
	until := created.AddDate(0, 3, 0)
	return &memSource{
		subs: []sentinel.EvidenceSubmission{
			{ID: "sub_aaaaaaaaaaaaaaaa", Host: "web-1", ReceivedAt: created.Add(-48 * time.Hour),
				Original: []byte("{\"bomFormat\": \"CycloneDX\",\n  \"specVersion\": \"1.5\", \"components\": []}\n")},
			{ID: "sub_bbbbbbbbbbbbbbbb", Host: "db-1", ReceivedAt: created.Add(-time.Hour),
				Original: []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1}`)},
		},
		components: []sentinel.EvidenceComponent{
			{Purl: "pkg:golang/golang.org/x/net@v0.1.0", Name: "golang.org/x/net", Version: "v0.1.0", Ecosystem: "Go", Asset: "db-1", Development: true},
			{Purl: "pkg:npm/express@4.18.2", Name: "express", Version: "4.18.2", Ecosystem: "npm", Asset: "web-1",
				DependsOn: []string{"pkg:npm/lodash@4.17.21", "pkg:npm/not-in-inventory@1.0.0", "pkg:npm/lodash@4.17.21"}},
			{Purl: "pkg:npm/lodash@4.17.21", Name: "lodash", Version: "4.17.21", Ecosystem: "npm", Asset: "web-1", Development: true},
			{Purl: "pkg:npm/lodash@4.17.21", Name: "lodash", Version: "4.17.21", Ecosystem: "npm", Asset: "db-1"},
			{Purl: "pkg:pypi/django@4.2.0", Name: "Django", Version: "4.2.0", Ecosystem: "PyPI", Asset: "web-1"},
		},
		changes: []sentinel.EvidenceChange{
			{At: created.Add(-time.Hour), Change: "changed", Purl: "pkg:npm/lodash@4.17.21", Name: "lodash", FromVersion: "4.17.15", ToVersion: "4.17.21", Asset: "web-1", SubmissionID: "sub_bbbbbbbbbbbbbbbb"},
		},
		findings: []sentinel.EvidenceFinding{
			{ID: "fnd_1", Status: "open", Category: "vulnerable_component", AdvisoryID: "GHSA-1", Aliases: []string{"CVE-2024-2", "CVE-2024-1"},
				Purl: "pkg:pypi/django@4.2.0", Component: "Django", Version: "4.2.0", Asset: "web-1", Severity: "critical", RiskScore: 95,
				KEV: true, CWE: "CWE-1395", FixedVersion: "4.2.8", CreatedAt: created.Add(-24 * time.Hour), SLADueAt: &due},
			{ID: "fnd_2", Status: "accepted", Category: "vulnerable_component", AdvisoryID: "EOL-node", Purl: "pkg:npm/express@4.18.2",
				Component: "express", Version: "4.18.2", Asset: "web-1", Severity: "medium", RiskScore: 50, CWE: "CWE-1104",
				CreatedAt: created.Add(-24 * time.Hour), AcceptedReason: "=HYPERLINK(\"x\") compensating control", AcceptedUntil: &until},
		},
		audit: []sentinel.AuditEntry{
			{ID: 1, Actor: "key_1", Action: "bundle.create", Target: "bundle_x", Addr: "192.0.2.1", Details: map[string]any{"b": 1, "a": "x"}, CreatedAt: created.Add(-time.Minute)},
		},
	}
}

// MustCA creates a signing CA valid from start.
func MustCA(tb testing.TB, start time.Time) *signing.CA {
	tb.Helper()
	ca, err := signing.NewCA(start, signing.CAOptions{Organization: "Sentinel test"})
	if err != nil {
		tb.Fatal(err)
	}
	return ca
}

// MustBuild builds a bundle of src signed at signedAt and returns the zip.
func MustBuild(tb testing.TB, ca *signing.CA, src evidence.Source, signedAt time.Time) ([]byte, *evidence.Result) {
	tb.Helper()
	var buf bytes.Buffer
	res, err := evidence.Build(context.Background(), &buf, src, evidence.Options{
		Org: testOrg(), BundleID: "bundle_testtesttesttest", Description: "Q4 due diligence\nSigning identity: https://evil.example",
		CreatedAt: created, WindowStart: created.AddDate(0, 0, -90), WindowEnd: created,
		CA: ca, Identity: testIdentity, Issuer: testIssuer, Now: func() time.Time { return signedAt }, TempDir: tb.TempDir(),
		Environments: []evidence.Environment{
			{Name: "production", Identity: testIdentity, Issuer: testIssuer},
			{Name: "staging", Identity: "https://staging.sentinel.example/orgs/acme/evidence", Issuer: "https://staging.sentinel.example"},
		},
	})
	if err != nil {
		tb.Fatalf("Build: %v", err)
	}
	return buf.Bytes(), res
}

// zipFiles returns the zip's files by name.
func zipFiles(tb testing.TB, data []byte) map[string][]byte {
	tb.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			tb.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

// rezip writes files (in sorted order) as a new zip, applying edit first.
func rezip(tb testing.TB, files map[string][]byte, edit func(map[string][]byte)) []byte {
	tb.Helper()
	cp := map[string][]byte{}
	for k, v := range files {
		cp[k] = bytes.Clone(v)
	}
	edit(cp)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range sortedKeys(cp) {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		w.Write(cp[name])
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func sortedKeys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// extract writes files under dir.
func extract(tb testing.TB, dir string, files map[string][]byte) {
	tb.Helper()
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

func verifyBytes(tb testing.TB, data []byte, o verify.Options) *verify.Report {
	tb.Helper()
	rep, err := verify.Bundle(context.Background(), bytes.NewReader(data), int64(len(data)), o)
	if err != nil {
		tb.Fatalf("verify.Bundle: %v", err)
	}
	return rep
}

func reportText(r *verify.Report) string {
	var b bytes.Buffer
	r.WriteText(&b)
	return b.String()
}

type x509Certificate = x509.Certificate

func base64URL(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(s) }
