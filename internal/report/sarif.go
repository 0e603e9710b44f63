package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"

	sentinel "github.com/sentinel-sca/sentinel"
)

// SARIF identifiers. The schema URI is the OASIS errata01 schema, the one
// committed under testdata and validated against.
const (
	SARIFSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	SARIFVersion = "2.1.0"
	// InformationURI is the tool's home, written in the SARIF driver.
	InformationURI = "https://github.com/sentinel-sca/sentinel"
	// fingerprintKey names the partial fingerprint: GitHub would otherwise
	// hash the line of the lockfile, the same for every finding located at
	// line 1.
	fingerprintKey = "sentinelFinding/v1"
)

// The SARIF subset written here; field names follow SARIF 2.1.0.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool        sarifTool         `json:"tool"`
		Invocations []sarifInvocation `json:"invocations"`
		Results     []sarifResult     `json:"results"`
		Properties  map[string]any    `json:"properties,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string         `json:"id"`
		Name                 string         `json:"name"`
		ShortDescription     sarifText      `json:"shortDescription"`
		FullDescription      sarifText      `json:"fullDescription"`
		HelpURI              string         `json:"helpUri"`
		Help                 sarifHelp      `json:"help"`
		DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
		Properties           map[string]any `json:"properties"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool   `json:"executionSuccessful"`
		ExitCode            int    `json:"exitCode"`
		ExitCodeDescription string `json:"exitCodeDescription"`
	}
	sarifResult struct {
		RuleID              string             `json:"ruleId"`
		RuleIndex           int                `json:"ruleIndex"`
		Level               string             `json:"level"`
		Message             sarifText          `json:"message"`
		Locations           []sarifLocation    `json:"locations,omitempty"`
		PartialFingerprints map[string]string  `json:"partialFingerprints"`
		Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
		Properties          map[string]any     `json:"properties"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
	sarifSuppression struct {
		Kind          string `json:"kind"`
		Status        string `json:"status"`
		Justification string `json:"justification,omitempty"`
	}
)

// WriteSARIF writes SARIF 2.1.0 for GitHub code scanning: one rule per
// advisory (with security-severity, the CVSS score or a value standing for
// the severity label, so that GitHub ranks it), one result per (component,
// advisory) located at the component's manifests, level error for
// known-exploited, critical and high, warning otherwise, note for none.
// A suppressed finding keeps its result with an external, accepted SARIF
// suppression carrying the reason; GitHub shows it as dismissed.
func WriteSARIF(w io.Writer, r *Report, opts Options) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: r.Tool.Name, Version: r.Tool.Version, InformationURI: InformationURI, Rules: []sarifRule{}}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true, ExitCode: r.ExitCode,
			ExitCodeDescription: r.VerdictLine()}},
		Results:    []sarifResult{},
		Properties: map[string]any{"verdict": r.Verdict, "summary": r.Summary},
	}
	ruleIndex := map[string]int{}
	for _, f := range r.Findings {
		idx, ok := ruleIndex[f.Advisory.ID]
		if !ok {
			idx = len(run.Tool.Driver.Rules)
			ruleIndex[f.Advisory.ID] = idx
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(f.Advisory))
		}
		res := sarifResult{
			RuleID: f.Advisory.ID, RuleIndex: idx, Level: sarifLevel(f.Advisory),
			Message:             sarifText{Text: findingMessage(f)},
			PartialFingerprints: map[string]string{fingerprintKey: fingerprint(f)},
			Properties: map[string]any{"purl": f.Purl, "kev": f.Advisory.KEV, "severity": f.Advisory.Severity,
				"fixed_versions": nonNil(f.Advisory.FixedVersions)},
		}
		if f.Advisory.NearestFix != "" {
			res.Properties["nearest_fix"] = f.Advisory.NearestFix
		}
		if f.Development {
			res.Properties["development"] = true
		}
		for _, l := range f.Locations {
			res.Locations = append(res.Locations, sarifLocation{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: sarifURI(opts.URIPrefix, l), URIBaseID: "%SRCROOT%"},
				Region:           sarifRegion{StartLine: 1},
			}})
		}
		if s := f.Suppressed; s != nil {
			res.Suppressions = []sarifSuppression{{Kind: "external", Status: "accepted", Justification: suppressionCell(s)}}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: SARIFSchema, Version: SARIFVersion, Runs: []sarifRun{run}})
}

func sarifRuleOf(m sentinel.AdvisoryMatch) sarifRule {
	short := m.Summary
	if short == "" {
		short = m.ID
	}
	full := short
	if len(m.Aliases) > 0 {
		full += " (" + strings.Join(orderedAliases(m.Aliases), ", ") + ")"
	}
	tags := []string{"security", "vulnerability", "dependency"}
	if m.KEV {
		tags = append(tags, "known-exploited")
	}
	tags = append(tags, m.CWEs...)
	props := map[string]any{
		"security-severity": securitySeverity(m),
		"tags":              tags,
		"precision":         "very-high",
	}
	var md strings.Builder
	fmt.Fprintf(&md, "**%s**", m.ID)
	if len(m.Aliases) > 0 {
		fmt.Fprintf(&md, " (%s)", strings.Join(orderedAliases(m.Aliases), ", "))
	}
	fmt.Fprintf(&md, ": %s\n\nSeverity: %s", short, m.Severity)
	if m.CVSSVector != "" {
		fmt.Fprintf(&md, " (`%s`)", m.CVSSVector)
	}
	if m.KEV {
		fmt.Fprintf(&md, "\n\nListed in the CISA Known Exploited Vulnerabilities catalog")
		if m.KEVDateAdded != "" {
			fmt.Fprintf(&md, " since %s", m.KEVDateAdded)
		}
		md.WriteString(".")
	}
	if len(m.FixedVersions) > 0 {
		fmt.Fprintf(&md, "\n\nFixed in: %s.", strings.Join(m.FixedVersions, ", "))
	}
	fmt.Fprintf(&md, "\n\nDetails: https://osv.dev/vulnerability/%s", m.ID)
	return sarifRule{
		ID: m.ID, Name: ruleName(m.ID),
		ShortDescription: sarifText{Text: short}, FullDescription: sarifText{Text: full},
		HelpURI:              "https://osv.dev/vulnerability/" + m.ID,
		Help:                 sarifHelp{Text: stripMarkdown(md.String()), Markdown: md.String()},
		DefaultConfiguration: sarifConfig{Level: sarifLevel(m)},
		Properties:           props,
	}
}

// ruleName turns an id into SARIF's PascalCase-ish rule name.
func ruleName(id string) string {
	return "VulnerableDependency" + strings.NewReplacer("-", "", ".", "", ":", "", "_", "").Replace(id)
}

func stripMarkdown(s string) string {
	return strings.NewReplacer("**", "", "`", "").Replace(s)
}

func sarifLevel(m sentinel.AdvisoryMatch) string {
	switch {
	case m.KEV, m.Severity == sentinel.SeverityCritical, m.Severity == sentinel.SeverityHigh:
		return "error"
	case m.Severity == sentinel.SeverityNone:
		return "note"
	}
	return "warning"
}

// securitySeverity is GitHub's "security-severity" property: a number 0.0
// to 10.0 as a string. The CVSS base score when known, else a value inside
// the band GitHub uses for the label (critical >= 9.0, high >= 7.0, medium
// >= 4.0, low > 0); unknown is ranked medium, so it is neither hidden nor
// inflated.
func securitySeverity(m sentinel.AdvisoryMatch) string {
	if m.CVSSScore > 0 {
		return fmt.Sprintf("%.1f", m.CVSSScore)
	}
	switch m.Severity {
	case sentinel.SeverityCritical:
		return "9.5"
	case sentinel.SeverityHigh:
		return "8.0"
	case sentinel.SeverityLow:
		return "2.0"
	case sentinel.SeverityNone:
		return "0.0"
	}
	return "5.5"
}

func findingMessage(f Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s is affected by %s", f.Name, f.Version, f.Advisory.ID)
	if a := orderedAliases(f.Advisory.Aliases); len(a) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(a[:min(len(a), 3)], ", "))
	}
	fmt.Fprintf(&b, ", severity %s", f.Advisory.Severity)
	if f.Advisory.KEV {
		b.WriteString(", known exploited (CISA KEV)")
	}
	if f.Advisory.NearestFix != "" {
		fmt.Fprintf(&b, ". Upgrade to %s or later.", f.Advisory.NearestFix)
	} else {
		b.WriteString(". No fixed version is known.")
	}
	return b.String()
}

// fingerprint is stable across runs and moves of the manifest: the purl
// without version would merge upgrades, so the purl with its version and
// the advisory id are hashed.
func fingerprint(f Finding) string {
	sum := sha256.Sum256([]byte(f.Purl + "\x00" + f.Advisory.ID))
	return hex.EncodeToString(sum[:16])
}

// sarifURI joins the prefix (the scanned directory relative to the
// repository) and the manifest path, as a relative URI with forward slashes.
func sarifURI(prefix, loc string) string {
	p := strings.ReplaceAll(prefix, "\\", "/")
	if p == "" || p == "." {
		return loc
	}
	return path.Join(p, loc)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
