package sbom

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	cdx "github.com/CycloneDX/cyclonedx-go"

	sentinel "github.com/sentinel-sca/sentinel"
)

// Enrich adds advisory matches to bom as CycloneDX vulnerabilities. matches
// is keyed by component bom-ref or purl; keys that name no component of bom
// are ignored. One vulnerability is written per advisory ID, affecting every
// matched component (CycloneDX's recommended shape), with:
//
//   - id and source (OSV, linking osv.dev);
//   - aliases (CVE, GHSA, ...) as references, with their own source;
//   - a rating: score, severity, method (CVSSv31, CVSSv3, CVSSv4 or other
//     from the vector's prefix) and the vector;
//   - CWEs as integers;
//   - a recommendation naming the nearest fix and all fixed versions per
//     affected component;
//   - affects by bom-ref, with the installed version marked affected;
//   - properties sentinel:kev, sentinel:kev_date_added, sentinel:kev_ransomware,
//     sentinel:nearest_fix and sentinel:eol (see the package comment).
//
// Vulnerabilities are sorted by ID, so output stays deterministic. The result
// validates against the CycloneDX 1.5 schema.
func Enrich(bom *cdx.BOM, matches map[string][]sentinel.AdvisoryMatch) {
	if bom == nil || len(matches) == 0 {
		return
	}
	type comp struct{ ref, name, version string }
	byKey := map[string]comp{}
	var walk func([]cdx.Component)
	walk = func(cs []cdx.Component) {
		for _, c := range cs {
			ref := c.BOMRef
			if ref == "" {
				ref = c.PackageURL
			}
			if ref != "" {
				cc := comp{ref: ref, name: fullName(c), version: c.Version}
				if c.BOMRef != "" {
					byKey[c.BOMRef] = cc
				}
				if c.PackageURL != "" {
					if _, taken := byKey[c.PackageURL]; !taken {
						byKey[c.PackageURL] = cc
					}
				}
			}
			if c.Components != nil {
				walk(*c.Components)
			}
		}
	}
	if bom.Components != nil {
		walk(*bom.Components)
	}

	type hit struct {
		c comp
		m sentinel.AdvisoryMatch
	}
	byID := map[string][]hit{}
	for _, key := range slices.Sorted(maps.Keys(matches)) {
		c, ok := byKey[key]
		if !ok {
			continue
		}
		for _, m := range matches[key] {
			if m.ID == "" {
				continue
			}
			byID[m.ID] = append(byID[m.ID], hit{c, m})
		}
	}
	if len(byID) == 0 {
		return
	}

	var vulns []cdx.Vulnerability
	if bom.Vulnerabilities != nil {
		vulns = *bom.Vulnerabilities
	}
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		hits := byID[id]
		slices.SortFunc(hits, func(a, b hit) int { return strings.Compare(a.c.ref, b.c.ref) })
		first := hits[0].m
		v := cdx.Vulnerability{
			ID:          id,
			Source:      advisorySource(id),
			Description: first.Summary,
		}
		if !first.Modified.IsZero() {
			v.Updated = first.Modified.UTC().Format(time.RFC3339)
		}
		if refs := aliasReferences(id, first.Aliases); len(refs) > 0 {
			v.References = &refs
		}
		if r := rating(first); r != nil {
			v.Ratings = &[]cdx.VulnerabilityRating{*r}
		}
		if cwes := cweNumbers(first.CWEs); len(cwes) > 0 {
			v.CWEs = &cwes
		}

		var affects []cdx.Affects
		var recs []string
		var props []cdx.Property
		kev, ransom, eol := false, false, false
		kevDate := ""
		seen := map[string]bool{}
		for _, h := range hits {
			if seen[h.c.ref] {
				continue
			}
			seen[h.c.ref] = true
			a := cdx.Affects{Ref: h.c.ref}
			if h.c.version != "" {
				a.Range = &[]cdx.AffectedVersions{{Version: h.c.version, Status: cdx.VulnerabilityStatusAffected}}
			}
			affects = append(affects, a)
			recs = append(recs, recommendation(h.c.name, h.c.version, h.m, len(hits) > 1))
			if h.m.NearestFix != "" {
				props = append(props, cdx.Property{Name: PropNearestFix, Value: h.c.ref + "=" + h.m.NearestFix})
			}
			kev = kev || h.m.KEV
			ransom = ransom || h.m.KEVRansomware
			if h.m.KEVDateAdded != "" && kevDate == "" {
				kevDate = h.m.KEVDateAdded
			}
			eol = eol || (h.m.EOL != nil && h.m.EOL.EOL)
		}
		v.Affects = &affects
		v.Recommendation = strings.Join(recs, "\n")
		if kev {
			props = append(props, cdx.Property{Name: PropKEV, Value: "true"})
			if kevDate != "" {
				props = append(props, cdx.Property{Name: PropKEVDateAdded, Value: kevDate})
			}
			if ransom {
				props = append(props, cdx.Property{Name: PropKEVRansom, Value: "true"})
			}
		}
		if eol {
			props = append(props, cdx.Property{Name: PropEOL, Value: "true"})
		}
		if len(props) > 0 {
			v.Properties = &props
		}
		vulns = append(vulns, v)
	}
	slices.SortStableFunc(vulns, func(a, b cdx.Vulnerability) int { return strings.Compare(a.ID, b.ID) })
	bom.Vulnerabilities = &vulns
}

// advisorySource names the database an advisory ID comes from. Every ID the
// intel layer serves is an OSV record, so the link is to osv.dev, which
// resolves all of them.
func advisorySource(id string) *cdx.Source {
	return &cdx.Source{Name: "OSV", URL: "https://osv.dev/vulnerability/" + id}
}

func aliasSource(alias string) *cdx.Source {
	switch {
	case strings.HasPrefix(alias, "CVE-"):
		return &cdx.Source{Name: "NVD", URL: "https://nvd.nist.gov/vuln/detail/" + alias}
	case strings.HasPrefix(alias, "GHSA-"):
		return &cdx.Source{Name: "GitHub Advisory Database", URL: "https://github.com/advisories/" + alias}
	default:
		return advisorySource(alias)
	}
}

func aliasReferences(id string, aliases []string) []cdx.VulnerabilityReference {
	var refs []cdx.VulnerabilityReference
	for _, a := range slices.Compact(slices.Sorted(slices.Values(aliases))) {
		if a == "" || a == id {
			continue
		}
		refs = append(refs, cdx.VulnerabilityReference{ID: a, Source: aliasSource(a)})
	}
	return refs
}

// rating turns a match's CVSS data or severity label into one rating; nil
// when the match has neither.
func rating(m sentinel.AdvisoryMatch) *cdx.VulnerabilityRating {
	sev := severity(m.Severity)
	if m.CVSSVector == "" && m.CVSSScore == 0 && (sev == "" || sev == cdx.SeverityUnknown) {
		return nil
	}
	r := &cdx.VulnerabilityRating{Severity: sev, Method: scoringMethod(m.CVSSVector), Vector: m.CVSSVector}
	if m.CVSSScore > 0 {
		s := m.CVSSScore
		r.Score = &s
	}
	return r
}

func scoringMethod(vector string) cdx.ScoringMethod {
	switch {
	case strings.HasPrefix(vector, "CVSS:3.1/"):
		return cdx.ScoringMethodCVSSv31
	case strings.HasPrefix(vector, "CVSS:3.0/"):
		return cdx.ScoringMethodCVSSv3
	case strings.HasPrefix(vector, "CVSS:4.0/"):
		return cdx.ScoringMethodCVSSv4
	case strings.HasPrefix(vector, "AV:") && strings.Contains(vector, "Au:"):
		return cdx.ScoringMethodCVSSv2
	default:
		return cdx.ScoringMethodOther
	}
}

func severity(s string) cdx.Severity {
	switch strings.ToLower(s) {
	case sentinel.SeverityCritical:
		return cdx.SeverityCritical
	case sentinel.SeverityHigh:
		return cdx.SeverityHigh
	case sentinel.SeverityMedium, "moderate":
		return cdx.SeverityMedium
	case sentinel.SeverityLow:
		return cdx.SeverityLow
	case sentinel.SeverityNone:
		return cdx.SeverityNone
	case "info":
		return cdx.SeverityInfo
	case "":
		return ""
	default:
		return cdx.SeverityUnknown
	}
}

// cweNumbers turns "CWE-79" (or "79") into 79, dropping anything else, sorted
// and unique.
func cweNumbers(cwes []string) []int {
	var out []int
	for _, c := range cwes {
		n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(c)), "CWE-"))
		if err == nil && n >= 0 {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fullName is how a recommendation names a component: with its group,
// as its ecosystem writes the two together (a Maven groupId and artifactId
// with a colon, an npm scope and name with a slash).
func fullName(c cdx.Component) string {
	if c.Group == "" {
		return c.Name
	}
	if strings.HasPrefix(c.PackageURL, "pkg:maven/") {
		return c.Group + ":" + c.Name
	}
	return c.Group + "/" + c.Name
}

func recommendation(name, version string, m sentinel.AdvisoryMatch, prefix bool) string {
	var s string
	switch {
	case m.NearestFix != "" && len(m.FixedVersions) > 0:
		s = fmt.Sprintf("Upgrade %s to %s or later (fixed in: %s).", name, m.NearestFix, strings.Join(m.FixedVersions, ", "))
	case m.NearestFix != "":
		s = fmt.Sprintf("Upgrade %s to %s or later.", name, m.NearestFix)
	case len(m.FixedVersions) > 0:
		s = fmt.Sprintf("No fix above %s %s is known; fixed in: %s.", name, version, strings.Join(m.FixedVersions, ", "))
	default:
		s = fmt.Sprintf("No fixed version of %s is known.", name)
	}
	if prefix && version != "" {
		return name + "@" + version + ": " + s
	}
	return s
}
