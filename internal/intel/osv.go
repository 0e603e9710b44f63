// Package intel imports vulnerability intelligence (OSV advisories, the CISA
// Known Exploited Vulnerabilities catalog, endoflife.date release data) and
// answers, from an in-memory index, "which advisories affect this package at
// this version, is any of them known-exploited, is a fix out, is the release
// end-of-life".
//
// The flow is: decode (DecodeAdvisory, DecodeKEV, DecodeEOLProduct) or load
// in bulk (LoadDir, LoadZip, LoadURL, ReadSnapshot) -> build
// an Index with NewIndex -> Match purls. Diff compares two snapshots for the
// daily watch; WriteSnapshot/ReadSnapshot move intel to air-gapped agents.
//
// OSV records are decoded into this package's own small structs rather than
// the protobuf bindings: encoding/json cannot read the bindings' timestamps,
// and the index needs only a few fields. Each Advisory keeps its raw bytes so
// the store can persist records verbatim and rebuild the index from them.
//
// Version order comes from osv-scalibr's semantic package, with a fast path
// for plain dotted numeric versions (see version.go) that is checked against
// it by tests. GIT ranges name commits, not versions: they never produce a
// match from a version alone; the index reports such advisories as
// undecided rather than guessing.
package intel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Advisory is one OSV record (https://ossf.github.io/osv-schema/), reduced to
// the fields Sentinel reads. Raw holds the record exactly as it was read.
type Advisory struct {
	SchemaVersion    string          `json:"schema_version,omitempty"`
	ID               string          `json:"id"`
	Modified         time.Time       `json:"modified"`
	Published        time.Time       `json:"published,omitzero"`
	Withdrawn        time.Time       `json:"withdrawn,omitzero"`
	Aliases          []string        `json:"aliases,omitempty"`
	Upstream         []string        `json:"upstream,omitempty"`
	Related          []string        `json:"related,omitempty"`
	Summary          string          `json:"summary,omitempty"`
	Details          string          `json:"details,omitempty"`
	Severity         []Severity      `json:"severity,omitempty"`
	Affected         []Affected      `json:"affected,omitempty"`
	References       []Reference     `json:"references,omitempty"`
	DatabaseSpecific json.RawMessage `json:"database_specific,omitempty"`

	// Raw is the record's original JSON. It is not part of the decoded
	// form; DecodeAdvisory sets it and WriteSnapshot writes it.
	Raw []byte `json:"-"`
}

// Severity is an OSV severity entry: a type (CVSS_V2, CVSS_V3, CVSS_V4,
// Ubuntu) and a score, which for CVSS types is the vector string.
type Severity struct {
	Type  string `json:"type"`
	Score string `json:"score"`
}

// Affected is one OSV affected entry: a package and the versions of it the
// advisory covers.
type Affected struct {
	Package           Package         `json:"package"`
	Severity          []Severity      `json:"severity,omitempty"`
	Ranges            []Range         `json:"ranges,omitempty"`
	Versions          []string        `json:"versions,omitempty"`
	EcosystemSpecific json.RawMessage `json:"ecosystem_specific,omitempty"`
	DatabaseSpecific  json.RawMessage `json:"database_specific,omitempty"`
}

// Package names an OSV package.
type Package struct {
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Purl      string `json:"purl,omitempty"`
}

// Range types defined by the OSV schema.
const (
	RangeSemver    = "SEMVER"
	RangeEcosystem = "ECOSYSTEM"
	RangeGit       = "GIT"
)

// Range is an OSV range: events over SEMVER, ECOSYSTEM or GIT versions.
type Range struct {
	Type             string          `json:"type"`
	Repo             string          `json:"repo,omitempty"`
	Events           []Event         `json:"events"`
	DatabaseSpecific json.RawMessage `json:"database_specific,omitempty"`
}

// Event is one range event; exactly one field is set in a valid record.
type Event struct {
	Introduced   string `json:"introduced,omitempty"`
	Fixed        string `json:"fixed,omitempty"`
	LastAffected string `json:"last_affected,omitempty"`
	Limit        string `json:"limit,omitempty"`
}

// Reference is an OSV reference link.
type Reference struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// Reasons a record is skipped by DecodeAdvisory and the loaders. They are the
// keys of LoadStats.Skipped.
const (
	SkipInvalidJSON = "invalid_json" // not JSON, or a field of the wrong type
	SkipMissingID   = "missing_id"   // no "id"
	SkipBadEvent    = "bad_event"    // a range event with zero or several keys
	SkipRead        = "read_error"   // the file or zip entry could not be read
	SkipTooLarge    = "too_large"    // larger than MaxRecordSize
)

// MaxRecordSize bounds one OSV record; real records are at most a few
// hundred KiB (long versions lists), so anything larger is refused rather
// than read into memory.
const MaxRecordSize = 16 << 20

// DecodeError is returned by DecodeAdvisory; Reason is one of the Skip*
// constants.
type DecodeError struct {
	Reason string
	Err    error
}

// Error returns "reason: detail".
func (e *DecodeError) Error() string { return e.Reason + ": " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// DecodeAdvisory decodes one OSV JSON record and keeps data as Raw (the
// caller must not modify data afterwards). The error is a *DecodeError.
func DecodeAdvisory(data []byte) (*Advisory, error) {
	var a Advisory
	// encoding/json's rules through go-json-experiment's v1-compatible
	// decoder, which does not validate the record in a pass of its own
	// before decoding it.
	if err := jsonv1.Unmarshal(data, &a); err != nil {
		return nil, &DecodeError{SkipInvalidJSON, err}
	}
	if a.ID == "" {
		return nil, &DecodeError{SkipMissingID, errors.New("record has no id")}
	}
	for i := range a.Affected {
		for j := range a.Affected[i].Ranges {
			for k, e := range a.Affected[i].Ranges[j].Events {
				if e.count() != 1 {
					return nil, &DecodeError{SkipBadEvent, fmt.Errorf("%s: affected[%d].ranges[%d].events[%d] has %d keys", a.ID, i, j, k, e.count())}
				}
			}
		}
	}
	a.Raw = data
	return &a, nil
}

func (e Event) count() int {
	n := 0
	for _, s := range []string{e.Introduced, e.Fixed, e.LastAffected, e.Limit} {
		if s != "" {
			n++
		}
	}
	return n
}

// IsWithdrawn reports whether the record carries a withdrawn time. A
// withdrawn advisory never matches.
func (a *Advisory) IsWithdrawn() bool { return !a.Withdrawn.IsZero() }

// databaseSpecific is the part of database_specific Sentinel reads (GHSA
// and others).
type databaseSpecific struct {
	Severity json.RawMessage `json:"severity"`
	CWEIDs   []string        `json:"cwe_ids"`
	CVSS     json.RawMessage `json:"cvss"`
}

// decodeSpecific reads the database_specific or ecosystem_specific object;
// anything that is not an object of the expected shape yields the zero value.
func decodeSpecific(raw json.RawMessage) databaseSpecific {
	var d databaseSpecific
	if len(raw) == 0 || raw[0] != '{' {
		return d
	}
	_ = json.Unmarshal(raw, &d) // a field of another shape is ignored, not fatal
	return d
}

// rawString returns the JSON string in raw, or "" when raw is not a string.
func rawString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}
