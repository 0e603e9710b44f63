package report

import (
	"fmt"
	"sort"

	cdx "github.com/CycloneDX/cyclonedx-go"

	sentinel "github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/sbom"
)

// PropSuppressed is the CycloneDX vulnerability property naming a
// suppressed (component, advisory): "<bom-ref>=<kind>" with kind ignore or
// vex.
const PropSuppressed = "sentinel:suppressed"

// annotate enriches bom with every finding and marks the suppressed ones.
func annotate(bom *cdx.BOM, r *Report) {
	matches := map[string][]sentinel.AdvisoryMatch{}
	type key struct{ ref, id string }
	sup := map[key]*Suppression{}
	for _, f := range r.Findings {
		matches[f.Purl] = append(matches[f.Purl], f.Advisory)
		if f.Suppressed != nil {
			sup[key{f.Purl, f.Advisory.ID}] = f.Suppressed
		}
	}
	sbom.Enrich(bom, matches)
	if bom.Vulnerabilities == nil || len(sup) == 0 {
		return
	}
	vulns := *bom.Vulnerabilities
	for i := range vulns {
		v := &vulns[i]
		if v.Affects == nil {
			continue
		}
		var props []cdx.Property
		var first *Suppression
		every := true
		for _, a := range *v.Affects {
			s := sup[key{a.Ref, v.ID}]
			if s == nil {
				every = false
				continue
			}
			if first == nil {
				first = s
			}
			props = append(props, cdx.Property{Name: PropSuppressed, Value: a.Ref + "=" + s.Kind})
		}
		if len(props) == 0 {
			continue
		}
		sort.Slice(props, func(i, j int) bool { return props[i].Value < props[j].Value })
		if v.Properties == nil {
			v.Properties = &[]cdx.Property{}
		}
		*v.Properties = append(*v.Properties, props...)
		if every {
			v.Analysis = analysis(first)
		}
	}
}

// analysis describes a suppression as a CycloneDX impact analysis.
// OpenVEX justifications map to the nearest CycloneDX ones; an ignore
// entry (an accepted risk) has no CycloneDX state, so only its detail is
// written.
func analysis(s *Suppression) *cdx.VulnerabilityAnalysis {
	switch {
	case s.Kind == "vex" && s.Status == VEXFixed:
		return &cdx.VulnerabilityAnalysis{State: cdx.IASResolved, Detail: vexDetail(s)}
	case s.Kind == "vex":
		return &cdx.VulnerabilityAnalysis{State: cdx.IASNotAffected, Justification: cdxJustification(s.Justification), Detail: vexDetail(s)}
	}
	return &cdx.VulnerabilityAnalysis{Detail: fmt.Sprintf("Accepted risk until %s (%s): %s", s.Expires, s.Source, s.Reason)}
}

func vexDetail(s *Suppression) string {
	d := "OpenVEX " + s.Status
	if s.Justification != "" {
		d += " (" + s.Justification + ")"
	}
	if s.Reason != "" {
		d += ": " + s.Reason
	}
	return d + " [" + s.Source + "]"
}

func cdxJustification(j string) cdx.ImpactAnalysisJustification {
	switch j {
	case "component_not_present", "vulnerable_code_not_present":
		return cdx.IAJCodeNotPresent
	case "vulnerable_code_not_in_execute_path":
		return cdx.IAJCodeNotReachable
	case "vulnerable_code_cannot_be_controlled_by_adversary":
		return cdx.IAJRequiresEnvironment
	case "inline_mitigations_already_exist":
		return cdx.IAJProtectedByMitigatingControl
	}
	return ""
}
