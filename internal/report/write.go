package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"
	"text/tabwriter"
	"time"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// Format is an output format.
type Format string

// The output formats.
const (
	FormatTable     Format = "table"
	FormatJSON      Format = "json"
	FormatSARIF     Format = "sarif"
	FormatCycloneDX Format = "cyclonedx"
)

// Formats lists every format, for usage text.
var Formats = []Format{FormatTable, FormatJSON, FormatSARIF, FormatCycloneDX}

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q: use table, json, sarif or cyclonedx", s)
}

// Options tune the writers.
type Options struct {
	// NoVerdict leaves the verdict line out of the table, when the caller
	// prints it itself (the agent's error line on stderr).
	NoVerdict bool
	// URIPrefix is joined before every manifest path in SARIF, so that
	// locations are relative to the repository root when the scanned
	// directory is a subdirectory of it.
	URIPrefix string
	// Now is the clock of the CycloneDX timestamp; nil means the report's
	// Created time, else time.Now.
	Now func() time.Time
}

// Write writes r in format f.
func Write(w io.Writer, f Format, r *Report, opts Options) error {
	switch f {
	case FormatTable:
		return WriteTable(w, r, opts)
	case FormatJSON:
		return WriteJSON(w, r)
	case FormatSARIF:
		return WriteSARIF(w, r, opts)
	case FormatCycloneDX:
		return WriteCycloneDX(w, r, opts)
	}
	return fmt.Errorf("unknown format %q", f)
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteTable writes the readable table: the active findings, then the
// suppressed ones, then the summary and (unless opts.NoVerdict) the
// verdict.
func WriteTable(w io.Writer, r *Report, opts Options) error {
	var active, suppressed []Finding
	for _, f := range r.Findings {
		if f.Suppressed != nil {
			suppressed = append(suppressed, f)
		} else {
			active = append(active, f)
		}
	}
	var b strings.Builder
	if len(active) > 0 {
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "KEV\tSEVERITY\tPACKAGE\tINSTALLED\tFIX\tADVISORY\tMANIFEST")
		for _, f := range active {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", kevCell(f), severityCell(f), packageCell(f), installedCell(f),
				fixCell(f), advisoryCell(f), manifestCell(f))
		}
		tw.Flush()
	}
	if len(suppressed) > 0 {
		if len(active) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("Suppressed (listed, not counted in the verdict):\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, f := range suppressed {
			fmt.Fprintf(tw, "  %s\t%s\t%s %s\t%s\n", kevCell(f), advisoryCell(f), f.Name, f.Version, suppressionCell(f.Suppressed))
		}
		tw.Flush()
	}
	if len(r.EndOfLife) > 0 {
		if len(active)+len(suppressed) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("Past end of life (no more fixes from upstream; not counted in the verdict):\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, e := range r.EndOfLife {
			fmt.Fprintf(tw, "  %s\t%s %s\t%s\t%s\n", e.Name, e.EOL.Product, e.EOL.ReleaseCycle, eolCell(e.EOL), manifestOf(e.Locations))
		}
		tw.Flush()
	}
	if len(active)+len(suppressed)+len(r.EndOfLife) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(r.SummaryLine() + "\n")
	if l := r.DevelopmentLine(); l != "" {
		b.WriteString(l + "\n")
	}
	if !opts.NoVerdict {
		b.WriteString(r.VerdictLine() + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// eolCell says since when a cycle is past end of life, and its last
// release.
func eolCell(e sentinel.EOLStatus) string {
	out := "end of life"
	if e.EOLDate != "" {
		out += " since " + e.EOLDate
	}
	if e.Latest != "" {
		out += "; last release " + e.Latest
	}
	return out
}

func manifestOf(locs []string) string {
	if len(locs) == 0 {
		return ""
	}
	if len(locs) > 1 {
		return fmt.Sprintf("%s (+%d)", locs[0], len(locs)-1)
	}
	return locs[0]
}

// installedCell is the installed version, and, for a distribution's
// binary package matched through its source package (bsdutils through
// util-linux), the source package and version the fix is a version of.
func installedCell(f Finding) string {
	if !strings.HasPrefix(f.Purl, "pkg:deb/") && !strings.HasPrefix(f.Purl, "pkg:apk/") && !strings.HasPrefix(f.Purl, "pkg:rpm/") {
		return f.Version
	}
	_, name, version, err := purl.ToEcosystem(f.Purl)
	if err != nil || version == "" || (version == f.Version && name == f.Name) {
		return f.Version
	}
	return f.Version + " (" + name + " " + version + ")"
}

// packageCell is the package's name, marked "(dev)" when only
// development needs it.
func packageCell(f Finding) string {
	if f.Development {
		return f.Name + " (dev)"
	}
	return f.Name
}

func kevCell(f Finding) string {
	if !f.Advisory.KEV {
		return "-"
	}
	if f.Advisory.KEVRansomware {
		return "KEV+ransomware"
	}
	return "KEV"
}

func severityCell(f Finding) string {
	if f.Advisory.CVSSScore > 0 {
		return fmt.Sprintf("%s %.1f", f.Advisory.Severity, f.Advisory.CVSSScore)
	}
	return f.Advisory.Severity
}

func fixCell(f Finding) string {
	if f.Advisory.NearestFix != "" {
		return f.Advisory.NearestFix
	}
	return "no fix"
}

// advisoryCell is the id and its aliases: CVE then GHSA ids, at most
// three, then a count of the rest (database-specific ids such as Bitnami's).
func advisoryCell(f Finding) string {
	aliases := orderedAliases(f.Advisory.Aliases)
	if len(aliases) == 0 {
		return f.Advisory.ID
	}
	var shown []string
	for _, a := range aliases {
		if len(shown) < 3 && (strings.HasPrefix(a, "CVE-") || strings.HasPrefix(a, "GHSA-")) {
			shown = append(shown, a)
		}
	}
	if len(shown) == 0 {
		shown = aliases[:1]
	}
	s := f.Advisory.ID + " (" + strings.Join(shown, ", ")
	if n := len(aliases) - len(shown); n > 0 {
		s += fmt.Sprintf(" +%d", n)
	}
	return s + ")"
}

// orderedAliases puts CVE ids first, then GHSA ids, then the rest, each in
// the data's order.
func orderedAliases(aliases []string) []string {
	var cve, ghsa, rest []string
	for _, a := range aliases {
		switch {
		case strings.HasPrefix(a, "CVE-"):
			cve = append(cve, a)
		case strings.HasPrefix(a, "GHSA-"):
			ghsa = append(ghsa, a)
		default:
			rest = append(rest, a)
		}
	}
	return append(append(cve, ghsa...), rest...)
}

func manifestCell(f Finding) string {
	switch len(f.Locations) {
	case 0:
		return "-"
	case 1:
		return f.Locations[0]
	}
	return fmt.Sprintf("%s (+%d)", f.Locations[0], len(f.Locations)-1)
}

func suppressionCell(s *Suppression) string {
	if s.Kind == "vex" {
		why := s.Justification
		if why == "" {
			why = s.Reason
		}
		return fmt.Sprintf("VEX %s: %s (%s)", s.Status, why, path.Base(s.Source))
	}
	return fmt.Sprintf("ignored until %s: %s (%s)", s.Expires, s.Reason, s.Source)
}

// WriteCycloneDX writes the CycloneDX 1.5 SBOM of the scanned tree with
// every finding as a vulnerability (sbom.Enrich). A vulnerability whose
// every affected component is suppressed carries an analysis: not_affected
// with the mapped justification or resolved for VEX, the reason and expiry
// for an ignore entry; each suppressed (component, advisory) also gets a
// property sentinel:suppressed = "<bom-ref>=<kind>".
func WriteCycloneDX(w io.Writer, r *Report, opts Options) error {
	now := opts.Now
	if now == nil {
		if !r.Created.IsZero() {
			now = func() time.Time { return r.Created }
		} else {
			now = time.Now
		}
	}
	root := r.Project
	if root == "" {
		root = r.Root
	}
	bom := sbom.NewBOM(r.Components, sbom.BOMOptions{ToolVersion: r.Tool.Version, Host: r.Host, Root: root, Now: now, Projects: r.projects, GraphFiles: r.graphFiles})
	annotate(bom, r)
	return sbom.Encode(w, bom)
}
