package sbom

import (
	"encoding/json"
	"strings"
	"sync"

	cdx "github.com/CycloneDX/cyclonedx-go"

	"github.com/sentinel-sca/sentinel/internal/sbom/schema"
)

// Licenses.
//
// Lockfiles and manifests record licenses as their authors wrote them: an
// SPDX identifier ("MIT"), an SPDX expression ("MIT OR Apache-2.0"), or
// free text ("SEE LICENSE IN LICENSE", "BSD"). CycloneDX keeps those apart:
// a license by id (which must be on the SPDX list, matched here without
// regard to case and written as the list writes it), one expression, or a
// license by name for anything else. The SPDX list is the one in the
// embedded spdx.schema.json that the CycloneDX schemas validate ids against.

var spdxIDs = sync.OnceValue(func() map[string]string {
	ids := map[string]string{}
	b, err := schema.Files.ReadFile("spdx.schema.json")
	if err != nil {
		return ids
	}
	var s struct {
		Enum []string `json:"enum"`
	}
	if json.Unmarshal(b, &s) != nil {
		return ids
	}
	for _, id := range s.Enum {
		ids[strings.ToLower(id)] = id
	}
	return ids
})

// spdxID returns the SPDX list's spelling of id, or "" when id is not on
// the list.
func spdxID(id string) string { return spdxIDs()[strings.ToLower(strings.TrimSpace(id))] }

// spdxExpression reports whether s is a compound SPDX license expression
// (with AND, OR or WITH) whose license and exception ids are all on the
// list or LicenseRef-s, and returns it with the ids spelt as the list
// spells them.
func spdxExpression(s string) (string, bool) {
	s = strings.TrimSpace(s)
	repl := strings.NewReplacer("(", " ( ", ")", " ) ")
	toks := strings.Fields(repl.Replace(s))
	if len(toks) < 3 {
		return "", false
	}
	out := make([]string, 0, len(toks))
	depth, wantOperand, compound := 0, true, false
	for _, t := range toks {
		switch {
		case t == "(":
			if !wantOperand {
				return "", false
			}
			depth++
			out = append(out, t)
		case t == ")":
			if wantOperand || depth == 0 {
				return "", false
			}
			depth--
			out = append(out, t)
		case t == "AND" || t == "OR" || t == "WITH" || t == "and" || t == "or" || t == "with":
			if wantOperand {
				return "", false
			}
			compound = true
			wantOperand = true
			out = append(out, strings.ToUpper(t))
		default:
			if !wantOperand {
				return "", false
			}
			id := strings.TrimSuffix(t, "+")
			switch {
			case spdxID(id) != "":
				id = spdxID(id)
			case strings.HasPrefix(id, "LicenseRef-") || strings.HasPrefix(id, "DocumentRef-"):
			default:
				return "", false
			}
			if strings.HasSuffix(t, "+") {
				id += "+"
			}
			out = append(out, id)
			wantOperand = false
		}
	}
	if wantOperand || depth != 0 || !compound {
		return "", false
	}
	return strings.NewReplacer("( ", "(", " )", ")").Replace(strings.Join(out, " ")), true
}

// cdxLicenses turns a component's license strings into a CycloneDX
// license choice: one expression when the only string is a compound SPDX
// expression, else one license per string, by id where it is an SPDX id and
// by name otherwise. nil when there are none.
func cdxLicenses(ls []string) *cdx.Licenses {
	if len(ls) == 0 {
		return nil
	}
	if len(ls) == 1 {
		if e, ok := spdxExpression(ls[0]); ok {
			return &cdx.Licenses{{Expression: e}}
		}
	}
	out := make(cdx.Licenses, 0, len(ls))
	for _, l := range ls {
		if id := spdxID(strings.Trim(l, "()")); id != "" {
			out = append(out, cdx.LicenseChoice{License: &cdx.License{ID: id}})
		} else {
			out = append(out, cdx.LicenseChoice{License: &cdx.License{Name: l}})
		}
	}
	return &out
}
