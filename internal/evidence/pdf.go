package evidence

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// SeverityCounts counts open and accepted findings by risk band.
type SeverityCounts struct {
	Critical, High, Medium, Low int
}

// Total is the sum of the four bands.
func (s SeverityCounts) Total() int { return s.Critical + s.High + s.Medium + s.Low }

// Cover is the content of a bundle's cover.pdf.
type Cover struct {
	OrganizationName string
	OrganizationSlug string
	BundleID         string // "bundle_..."
	Description      string // the free-text label given at issuance
	CreatedAt        time.Time
	WindowStart      time.Time
	WindowEnd        time.Time
	Severity         SeverityCounts
	KnownExploited   int // findings whose advisory is in the known-exploited catalog
	Components       int // distinct components (by purl) in the consolidated SBOM
	Submissions      int // SBOM submissions included
	Scopes           []string
}

// scopeText describes each value of a bundle's include list.
var scopeText = map[string]string{
	"sbom":       "CycloneDX 1.5 SBOMs: every agent submission, unchanged, and the consolidated inventory",
	"drift":      "drift.csv: components added, removed or changed over the window",
	"findings":   "findings.csv: open and accepted findings tied to components",
	"audit":      "audit.csv: the audit log for the window",
	"compliance": "compliance.csv: hits per control of the primary catalog",
}

// WriteCover writes the cover PDF: a cover page, an executive summary and
// the organization's metadata. It uses only the PDF core fonts (Helvetica),
// so text is limited to Windows-1252; other characters print as ".". The
// document dates are CreatedAt, so the same Cover gives the same bytes.
func WriteCover(w io.Writer, c Cover) error {
	if strings.TrimSpace(c.OrganizationName) == "" || c.BundleID == "" {
		return errors.New("write cover: organization name and bundle id are required")
	}
	if c.WindowEnd.Before(c.WindowStart) {
		return errors.New("write cover: window ends before it starts")
	}
	counts := []int{c.Severity.Critical, c.Severity.High, c.Severity.Medium, c.Severity.Low, c.KnownExploited, c.Components, c.Submissions}
	for _, n := range counts {
		if n < 0 {
			return errors.New("write cover: negative count")
		}
	}

	pdf := fpdf.New("P", "mm", "A4", "")
	tr := pdf.UnicodeTranslatorFromDescriptor("") // cp1252 for the core fonts
	text := func(s string) string { return tr(clean(s)) }
	created := c.CreatedAt.UTC()
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.SetCatalogSort(true) // resources in a stable order: same Cover, same bytes
	pdf.SetTitle(text("Evidence Bundle "+c.BundleID+" - "+c.OrganizationName), false)
	pdf.SetAuthor("Sentinel", false)
	pdf.SetCreator("Sentinel", false)
	pdf.SetProducer("Sentinel", false)
	pdf.SetMargins(20, 20, 20)
	pdf.SetAutoPageBreak(true, 20)
	pdf.AliasNbPages("{nb}")
	pdf.SetFooterFunc(func() {
		pdf.SetY(-14)
		pdf.SetFont("Helvetica", "", 8)
		pdf.SetTextColor(110, 110, 110)
		pdf.CellFormat(0, 5, text(fmt.Sprintf("Evidence Bundle %s - %s - page %d of {nb}", c.BundleID, c.OrganizationName, pdf.PageNo())), "", 0, "C", false, 0, "")
	})
	pageWidth, _ := pdf.GetPageSize()
	contentWidth := pageWidth - 40
	day := func(t time.Time) string { return t.UTC().Format("2006-01-02") }
	stamp := func(t time.Time) string { return t.UTC().Format(time.RFC3339) }
	windowDays := int(c.WindowEnd.Sub(c.WindowStart).Round(time.Hour).Hours() / 24)

	heading := func(s string) {
		pdf.SetFont("Helvetica", "B", 16)
		pdf.SetTextColor(20, 40, 80)
		pdf.CellFormat(0, 10, text(s), "", 1, "L", false, 0, "")
		pdf.SetDrawColor(20, 40, 80)
		pdf.SetLineWidth(0.4)
		y := pdf.GetY()
		pdf.Line(20, y, 20+contentWidth, y)
		pdf.Ln(5)
		pdf.SetTextColor(0, 0, 0)
	}
	row := func(label, value string) {
		pdf.SetFont("Helvetica", "B", 10)
		pdf.CellFormat(50, 7, text(label), "", 0, "L", false, 0, "")
		pdf.SetFont("Helvetica", "", 10)
		pdf.MultiCell(contentWidth-50, 7, text(value), "", "L", false)
	}
	para := func(s string) {
		pdf.SetFont("Helvetica", "", 11)
		pdf.MultiCell(0, 6, text(s), "", "L", false)
		pdf.Ln(3)
	}

	// Cover page.
	pdf.AddPage()
	pdf.Ln(40)
	pdf.SetFont("Helvetica", "", 14)
	pdf.SetTextColor(90, 90, 90)
	pdf.CellFormat(0, 8, "Software Supply-Chain Evidence Bundle", "", 1, "L", false, 0, "")
	pdf.Ln(4)
	pdf.SetFont("Helvetica", "B", 28)
	pdf.SetTextColor(20, 40, 80)
	pdf.MultiCell(0, 13, text(c.OrganizationName), "", "L", false)
	pdf.Ln(6)
	pdf.SetTextColor(0, 0, 0)
	row("Bundle", c.BundleID)
	row("Created", stamp(c.CreatedAt))
	row("Window covered", fmt.Sprintf("%s to %s (%d days)", day(c.WindowStart), day(c.WindowEnd), windowDays))
	if c.Description != "" {
		row("Description", c.Description)
	}
	pdf.Ln(20)
	pdf.SetFont("Helvetica", "I", 10)
	pdf.SetTextColor(90, 90, 90)
	pdf.MultiCell(0, 5.5, text("Every file in this bundle, this document included, is signed. "+
		"verification.txt lists each file's SHA-256, its signing certificate and the exact "+
		"cosign verify-blob command that checks it offline."), "", "L", false)
	pdf.SetTextColor(0, 0, 0)

	// Executive summary.
	pdf.AddPage()
	heading("Executive summary")
	exploited := "none of them is"
	switch c.KnownExploited {
	case 0:
	case 1:
		exploited = "1 of them is"
	default:
		exploited = fmt.Sprintf("%d of them are", c.KnownExploited)
	}
	para(fmt.Sprintf("From %s to %s, %s submitted %s, describing %s. "+
		"At bundle creation, %s open or accepted; %s listed in the known-exploited vulnerabilities catalog.",
		day(c.WindowStart), day(c.WindowEnd), c.OrganizationName,
		plural(c.Submissions, "SBOM", "SBOMs"), plural(c.Components, "distinct component", "distinct components"),
		plural(c.Severity.Total(), "finding is", "findings are"), exploited))
	pdf.Ln(2)
	table := [][2]string{
		{"Critical", fmt.Sprint(c.Severity.Critical)},
		{"High", fmt.Sprint(c.Severity.High)},
		{"Medium", fmt.Sprint(c.Severity.Medium)},
		{"Low", fmt.Sprint(c.Severity.Low)},
		{"Total findings", fmt.Sprint(c.Severity.Total())},
		{"Known exploited", fmt.Sprint(c.KnownExploited)},
		{"Components", fmt.Sprint(c.Components)},
		{"SBOM submissions", fmt.Sprint(c.Submissions)},
	}
	pdf.SetFont("Helvetica", "B", 10)
	pdf.SetFillColor(225, 230, 240)
	pdf.CellFormat(80, 8, "Measure", "1", 0, "L", true, 0, "")
	pdf.CellFormat(40, 8, "Count", "1", 1, "R", true, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	for _, r := range table {
		pdf.CellFormat(80, 7, r[0], "1", 0, "L", false, 0, "")
		pdf.CellFormat(40, 7, r[1], "1", 1, "R", false, 0, "")
	}
	pdf.Ln(6)
	pdf.SetFont("Helvetica", "", 9)
	pdf.SetTextColor(90, 90, 90)
	pdf.MultiCell(0, 5, "Severity bands come from each finding's risk score (0 to 100): critical 90 and above, "+
		"high 70 to 89, medium 40 to 69, low below 40.", "", "L", false)
	pdf.SetTextColor(0, 0, 0)

	// Organization metadata.
	pdf.AddPage()
	heading("Organization and bundle")
	row("Organization", c.OrganizationName)
	row("Organization slug", c.OrganizationSlug)
	row("Bundle", c.BundleID)
	row("Created", stamp(c.CreatedAt))
	row("Window start", stamp(c.WindowStart))
	row("Window end", stamp(c.WindowEnd))
	if c.Description != "" {
		row("Description", c.Description)
	}
	row("Included scopes", strings.Join(c.Scopes, ", "))
	pdf.Ln(6)
	heading("Contents")
	for _, s := range c.Scopes {
		d, ok := scopeText[s]
		if !ok {
			d = s
		}
		pdf.SetFont("Helvetica", "", 10)
		pdf.MultiCell(0, 6, text("- "+d), "", "L", false)
	}
	pdf.MultiCell(0, 6, "- cover.pdf: this document", "", "L", false)
	pdf.MultiCell(0, 6, "- verification.txt: signatures, certificates and verification commands", "", "L", false)

	if err := pdf.Output(w); err != nil {
		return fmt.Errorf("write cover: %w", err)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// clean drops control characters except newlines and tabs.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
