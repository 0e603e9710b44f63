package evidence_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
)

func testCover() evidence.Cover {
	created := time.Date(2026, 11, 21, 22, 19, 5, 0, time.UTC)
	return evidence.Cover{
		OrganizationName: "Acme Widgets Société",
		OrganizationSlug: "acme",
		BundleID:         "bundle_8f3k2m1q",
		Description:      "Q4 due diligence for Globex procurement",
		CreatedAt:        created,
		WindowStart:      created.AddDate(0, 0, -90),
		WindowEnd:        created,
		Severity:         evidence.SeverityCounts{Critical: 3, High: 17, Medium: 42, Low: 8},
		KnownExploited:   2,
		Components:       1234,
		Submissions:      56,
		Scopes:           []string{"sbom", "drift", "findings", "audit", "compliance"},
	}
}

func TestWriteCoverPdftotext(t *testing.T) {
	pdftotext := testenv.Tool(t, "pdftotext", "apt-get install poppler-utils")
	var buf bytes.Buffer
	if err := evidence.WriteCover(&buf, testCover()); err != nil {
		t.Fatalf("WriteCover: %v", err)
	}
	path := filepath.Join(t.TempDir(), "cover.pdf")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-layout", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	got := string(out)
	space := regexp.MustCompile(`\s+`)
	flat := space.ReplaceAllString(got, " ")
	for _, want := range []string{
		"Acme Widgets Société", // cp1252 é survives the core fonts
		"acme",
		"bundle_8f3k2m1q",
		"Q4 due diligence for Globex procurement",
		"2026-11-21T22:19:05Z",
		"2026-08-23 to 2026-11-21 (90 days)",
		"Executive summary",
		"Critical 3", "High 17", "Medium 42", "Low 8", "Total findings 70",
		"Known exploited 2", "Components 1234", "SBOM submissions 56",
		"2 of them are listed in the known-exploited",
		"sbom, drift, findings, audit, compliance",
		"page 3 of 3",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("pdftotext output lacks %q:\n%s", want, got)
		}
	}
}

func TestWriteCoverDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := evidence.WriteCover(&a, testCover()); err != nil {
		t.Fatal(err)
	}
	if err := evidence.WriteCover(&b, testCover()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("WriteCover: two runs on the same Cover differ")
	}
}

func TestWriteCoverInvalid(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*evidence.Cover)
	}{
		{name: "no_organization", modify: func(c *evidence.Cover) { c.OrganizationName = " " }},
		{name: "no_bundle_id", modify: func(c *evidence.Cover) { c.BundleID = "" }},
		{name: "window_reversed", modify: func(c *evidence.Cover) { c.WindowEnd = c.WindowStart.Add(-time.Hour) }},
		{name: "negative_count", modify: func(c *evidence.Cover) { c.Severity.High = -1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := testCover()
			tc.modify(&c)
			if err := evidence.WriteCover(&bytes.Buffer{}, c); err == nil {
				t.Error("WriteCover: no error")
			}
		})
	}
}
