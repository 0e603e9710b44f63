package intel

import (
	"math"
	"strings"

	gocvss30 "github.com/pandatix/go-cvss/30"
	gocvss31 "github.com/pandatix/go-cvss/31"
	gocvss40 "github.com/pandatix/go-cvss/40"

	"github.com/sentinel-sca/sentinel"
)

// CVSSBaseScore computes the base score of a CVSS v3.0, v3.1 or v4.0
// vector. For v4.0 only the base metrics are scored (threat and
// environmental metrics in the vector are ignored), so the result is the
// CVSS-B score. ok is false for any other or malformed vector.
func CVSSBaseScore(vector string) (score float64, ok bool) {
	vector = strings.TrimSpace(vector)
	switch {
	case strings.HasPrefix(vector, "CVSS:3.1/"):
		v, err := gocvss31.ParseVector(vector)
		if err != nil {
			return 0, false
		}
		return v.BaseScore(), true
	case strings.HasPrefix(vector, "CVSS:3.0/"):
		v, err := gocvss30.ParseVector(vector)
		if err != nil {
			return 0, false
		}
		return v.BaseScore(), true
	case strings.HasPrefix(vector, "CVSS:4.0/"):
		v, err := gocvss40.ParseVector(baseOnlyV4(vector))
		if err != nil {
			return 0, false
		}
		s := v.Score()
		return math.Round(s*10) / 10, true
	}
	return 0, false
}

// cvss4Base are the CVSS v4.0 base metrics.
var cvss4Base = map[string]bool{
	"AV": true, "AC": true, "AT": true, "PR": true, "UI": true,
	"VC": true, "VI": true, "VA": true, "SC": true, "SI": true, "SA": true,
}

// baseOnlyV4 drops every metric of a v4.0 vector that is not a base metric.
func baseOnlyV4(vector string) string {
	parts := strings.Split(vector, "/")
	kept := parts[:1]
	for _, p := range parts[1:] {
		k, _, _ := strings.Cut(p, ":")
		if cvss4Base[k] {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "/")
}

// SeverityFromScore maps a CVSS base score to a label: critical >= 9.0,
// high >= 7.0, medium >= 4.0, low > 0, none = 0.
func SeverityFromScore(score float64) string {
	switch {
	case score >= 9.0:
		return sentinel.SeverityCritical
	case score >= 7.0:
		return sentinel.SeverityHigh
	case score >= 4.0:
		return sentinel.SeverityMedium
	case score > 0:
		return sentinel.SeverityLow
	}
	return sentinel.SeverityNone
}

// SeverityFromLabel maps a database's own label (GHSA "CRITICAL", "HIGH",
// "MODERATE", "LOW"; Ubuntu "negligible", "important"; OSS-Fuzz "MEDIUM")
// to Sentinel's labels, or "" when the label is not known.
func SeverityFromLabel(label string) string {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "critical":
		return sentinel.SeverityCritical
	case "high", "important":
		return sentinel.SeverityHigh
	case "moderate", "medium":
		return sentinel.SeverityMedium
	case "low", "negligible":
		return sentinel.SeverityLow
	case "none":
		return sentinel.SeverityNone
	}
	return ""
}

// severityRank orders labels; higher is more severe.
func severityRank(s string) int {
	switch s {
	case sentinel.SeverityCritical:
		return 5
	case sentinel.SeverityHigh:
		return 4
	case sentinel.SeverityMedium:
		return 3
	case sentinel.SeverityLow:
		return 2
	case sentinel.SeverityNone:
		return 1
	}
	return 0
}

// sevInfo is a resolved severity.
type sevInfo struct {
	label  string
	score  float64
	vector string
}

// scoreFrom picks the vector to score from a severity list: CVSS v4.0 first
// (the newest, which GitHub shows when present), then v3.1, then v3.0.
// A list with only CVSS_V2 or Ubuntu entries yields ok=false for the score
// but may yield a label (Ubuntu).
func scoreFrom(sevs []Severity) (sevInfo, bool) {
	best := -1
	var out sevInfo
	for _, s := range sevs {
		rank := -1
		switch {
		case strings.HasPrefix(s.Score, "CVSS:4.0/"):
			rank = 3
		case strings.HasPrefix(s.Score, "CVSS:3.1/"):
			rank = 2
		case strings.HasPrefix(s.Score, "CVSS:3.0/"):
			rank = 1
		}
		if rank <= best {
			continue
		}
		if score, ok := CVSSBaseScore(s.Score); ok {
			best = rank
			out = sevInfo{label: SeverityFromScore(score), score: score, vector: s.Score}
		}
	}
	if best >= 0 {
		return out, true
	}
	for _, s := range sevs {
		if strings.EqualFold(s.Type, "Ubuntu") {
			if l := SeverityFromLabel(s.Score); l != "" {
				return sevInfo{label: l}, true
			}
		}
	}
	return sevInfo{}, false
}

// resolveSeverity is the severity of an advisory as seen through one
// affected entry (aff may be nil): a CVSS vector on the affected entry, then
// on the record, then a vector in the affected entry's database_specific
// (RustSec "cvss"); then a label from database_specific.severity (GHSA),
// the affected entry's ecosystem_specific or database_specific severity
// (OSS-Fuzz); else "unknown".
func resolveSeverity(a *Advisory, aff *Affected, top databaseSpecific) sevInfo {
	if aff != nil {
		if s, ok := scoreFrom(aff.Severity); ok {
			return s
		}
	}
	if s, ok := scoreFrom(a.Severity); ok {
		return s
	}
	var affDB, affEco databaseSpecific
	if aff != nil {
		affDB = decodeSpecific(aff.DatabaseSpecific)
		affEco = decodeSpecific(aff.EcosystemSpecific)
		if v := rawString(affDB.CVSS); v != "" {
			if s, ok := scoreFrom([]Severity{{Type: "CVSS", Score: v}}); ok {
				return s
			}
		}
	}
	for _, raw := range []databaseSpecific{top, affEco, affDB} {
		if l := SeverityFromLabel(rawString(raw.Severity)); l != "" {
			return sevInfo{label: l}
		}
	}
	return sevInfo{label: sentinel.SeverityUnknown}
}
