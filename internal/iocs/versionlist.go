package iocs

import (
	"encoding/json"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/sentinel-sca/sentinel"
)

// VersionList is the versions field of a new indicator: an expression (see
// ParseVersions), or a JSON array of versions or expressions, each an
// alternative (["1.0.0", "1.0.1"] is "1.0.0 || 1.0.1"), the shape feeds of
// malicious versions come in.
type VersionList string

// UnmarshalJSON reads a string or an array of strings.
func (v *VersionList) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*v = VersionList(s)
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return sentinel.InvalidField("versions", `versions must be a string ("1.0.0, 1.0.1", ">=1.2.0 <1.3.0", "*") or an array of versions`)
	}
	parts := make([]string, 0, len(list))
	for _, p := range list {
		if p = strings.TrimSpace(p); p == "" {
			return sentinel.InvalidField("versions", "versions holds an empty entry")
		}
		parts = append(parts, p)
	}
	*v = VersionList(strings.Join(parts, " || "))
	return nil
}

// Schema documents both shapes in the OpenAPI description.
func (VersionList) Schema(huma.Registry) *huma.Schema {
	max := maxExpr
	return &huma.Schema{
		Description: `An expression ("=4.17.20", "1.0.0, 1.0.1", ">=1.2.0 <1.3.0", "<2.0.0 || >=3.0.0 <3.1.0", "*"), or an array of versions or expressions, each an alternative.`,
		OneOf:       []*huma.Schema{{Type: "string", MaxLength: &max}, {Type: "array", Items: &huma.Schema{Type: "string"}}},
	}
}
