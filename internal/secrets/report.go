package secrets

import (
	"fmt"
	"log/slog"
	"time"
)

// Schema names the JSON report format and SchemaVersion its version; a
// consumer checks both.
const (
	Schema        = "sentinel-secrets-report"
	SchemaVersion = 1
)

// Report is one scan: every detection, suppressed or not. It is the JSON
// output as is, and holds no raw value in any exported field.
type Report struct {
	Schema        string `json:"schema"`
	SchemaVersion int    `json:"schema_version"`
	Tool          Tool   `json:"tool"`
	Engine        Engine `json:"engine"`
	// Root is the scanned directory as given.
	Root    string    `json:"root"`
	Created time.Time `json:"created,omitzero"`
	// FingerprintKeyID names the key the fingerprints were made with
	// (Fingerprinter.KeyID): fingerprints compare only under one key.
	FingerprintKeyID string `json:"fingerprint_key_id"`
	// History is true when git history was scanned as well as the tree.
	History bool    `json:"history"`
	Summary Summary `json:"summary"`
	// Detections are the unsuppressed detections, sorted by file, line,
	// column, rule and commit.
	Detections []Detection `json:"detections"`
	// Suppressed are the detections an ignore entry accepted, each with
	// its Suppression.
	Suppressed []Detection `json:"suppressed,omitempty"`
	// Skipped lists files that were not scanned for a reason the user may
	// want to know (too large, unreadable); binary files and the paths
	// the engine's allowlist excludes are only counted.
	Skipped  []Skipped `json:"skipped,omitempty"`
	Warnings []string  `json:"warnings,omitempty"`
}

// Tool names the program that made the report.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Engine names the detection engine and its rule set.
type Engine struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Rules is the number of rules of the default rule set.
	Rules int `json:"rules"`
}

// Summary counts a scan.
type Summary struct {
	// Files and Bytes count the text files scanned in the tree.
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// BinaryFiles counts files skipped as binary (only path rules ran).
	BinaryFiles int `json:"binary_files"`
	// Commits counts the commits whose changes were scanned (History).
	Commits int `json:"commits,omitempty"`
	// Detections and Suppressed count the two lists; Secrets counts the
	// distinct fingerprints among the unsuppressed detections.
	Detections int `json:"detections"`
	Suppressed int `json:"suppressed"`
	Secrets    int `json:"secrets"`
	// Verifiable counts the unsuppressed detections the service can check
	// with their provider.
	Verifiable int `json:"verifiable"`
	// Providers counts unsuppressed detections per provider ("" is
	// written as "other").
	Providers map[string]int `json:"providers,omitempty"`
}

// Skipped is a file that was not scanned, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Suppression says which ignore entry accepted a detection.
type Suppression struct {
	Source  string `json:"source"`
	Reason  string `json:"reason"`
	Expires string `json:"expires"`
}

// Detection is one secret found at one place. Its exported fields are safe
// to print, log, marshal and send anywhere; the raw value is reachable only
// through Credential.
type Detection struct {
	// RuleID and Description are the gitleaks rule's.
	RuleID      string `json:"rule_id"`
	Description string `json:"description"`
	// Provider is the service the secret belongs to when the rule names
	// one (github, gitlab, slack, stripe, npm, aws, ...), else "".
	Provider string `json:"provider,omitempty"`
	// Verifiable is true when the service can check the secret with its
	// provider (package verify).
	Verifiable bool `json:"verifiable"`
	// File is slash-separated and relative to the scanned directory; for
	// a detection in git history, relative to the repository's top level.
	File string `json:"file"`
	// Line is 1-based; Column is the 1-based character position of the
	// secret in that line, 0 when unknown (a secret found after decoding).
	Line   int `json:"line"`
	Column int `json:"column,omitempty"`
	// Commit and CommitDate are set for detections in git history.
	Commit     string `json:"commit,omitempty"`
	CommitDate string `json:"commit_date,omitempty"`
	// Fingerprint is the keyed fingerprint of the value (Fingerprinter).
	Fingerprint string `json:"fingerprint"`
	// Redacted shows the value's kind and length, never enough to use it
	// (Redact).
	Redacted string `json:"redacted"`
	// Paired is true for an AWS access key id found with its secret
	// access key nearby: only then can it be verified.
	Paired bool `json:"paired,omitempty"`
	// Entropy is the Shannon entropy of the value, in bits per character.
	Entropy float64 `json:"entropy"`
	// Tags are the rule's tags and, for a secret found inside encoded
	// text, how it was decoded ("decoded:base64").
	Tags []string `json:"tags,omitempty"`
	// Suppression is set on the detections in Report.Suppressed.
	Suppression *Suppression `json:"suppression,omitempty"`

	cred Credential
}

// Credential returns the raw value (and its companion, for AWS). It is for
// the agent's submission to the service and nothing else; see Credential.
func (d *Detection) Credential() Credential { return d.cred }

// String describes d without its value; fmt uses it for %v, %+v and %s.
func (d Detection) String() string {
	s := fmt.Sprintf("%s %s:%d %s %s", d.RuleID, d.File, d.Line, d.Redacted, d.Fingerprint)
	if d.Commit != "" {
		s += " commit " + d.Commit
	}
	return s
}

// GoString is String, for %#v.
func (d Detection) GoString() string { return "secrets.Detection{" + d.String() + "}" }

// LogValue gives slog the safe fields.
func (d Detection) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("rule_id", d.RuleID),
		slog.String("file", d.File),
		slog.Int("line", d.Line),
		slog.String("fingerprint", d.Fingerprint),
		slog.String("redacted", d.Redacted),
	)
}

// HasDetections reports whether r has unsuppressed detections: the
// agent's signal to fail a build.
func (r *Report) HasDetections() bool { return len(r.Detections) > 0 }
