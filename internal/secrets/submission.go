package secrets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"
)

// SubmissionSchema names the agent-to-service wire format.
const (
	SubmissionSchema        = "sentinel-secrets-submission"
	SubmissionSchemaVersion = 1
)

// Submission limits, checked by ParseSubmission.
const (
	MaxSubmissionItems = 10_000
	// MaxValueSize bounds a value or companion: the longest secrets
	// gitleaks finds are private keys (an RSA-8192 PEM is under 7 KiB).
	MaxValueSize = 16 << 10
)

// Submission is what the agent sends to the service's secrets submission
// endpoint. It is the only JSON form in Sentinel that carries raw values,
// in SubmissionItem.Value and Companion, and it travels only over the
// agent listener's mutual TLS: never written to disk by the agent, never
// logged (String, GoString and LogValue of its items leave the values
// out), never echoed in a response.
type Submission struct {
	Schema        string           `json:"schema"`
	SchemaVersion int              `json:"schema_version"`
	Tool          Tool             `json:"tool"`
	Engine        Engine           `json:"engine"`
	Root          string           `json:"root"`
	Created       time.Time        `json:"created,omitzero"`
	History       bool             `json:"history"`
	Items         []SubmissionItem `json:"items"`
}

// SubmissionItem is one detection with its raw value.
type SubmissionItem struct {
	RuleID     string `json:"rule_id"`
	Provider   string `json:"provider,omitempty"`
	File       string `json:"file"`
	Line       int    `json:"line"`
	Column     int    `json:"column,omitempty"`
	Commit     string `json:"commit,omitempty"`
	CommitDate string `json:"commit_date,omitempty"`
	// LocalFingerprint is the agent's fingerprint, under the agent's key:
	// it lets the operator match a service finding to the agent's local
	// output. The service computes its own from Value.
	LocalFingerprint string `json:"local_fingerprint"`
	Redacted         string `json:"redacted"`
	Value            string `json:"value"`
	Companion        string `json:"companion,omitempty"`
}

// NewSubmission builds the submission of r's unsuppressed detections. A
// detection without a value (a PKCS#12 file found by its name) is sent
// without one.
func NewSubmission(r *Report) *Submission {
	s := &Submission{
		Schema: SubmissionSchema, SchemaVersion: SubmissionSchemaVersion,
		Tool: r.Tool, Engine: r.Engine, Root: r.Root, Created: r.Created, History: r.History,
		Items: make([]SubmissionItem, 0, len(r.Detections)),
	}
	for i := range r.Detections {
		d := &r.Detections[i]
		s.Items = append(s.Items, SubmissionItem{
			RuleID: d.RuleID, Provider: d.Provider, File: d.File, Line: d.Line, Column: d.Column,
			Commit: d.Commit, CommitDate: d.CommitDate, LocalFingerprint: d.Fingerprint, Redacted: d.Redacted,
			Value: d.cred.Value(), Companion: d.cred.Companion(),
		})
	}
	return s
}

// ErrInvalidSubmission is wrapped by every ParseSubmission error. No error
// message quotes a value.
var ErrInvalidSubmission = errors.New("invalid secrets submission")

// ParseSubmission decodes a submission strictly (unknown fields refused)
// and checks its schema and limits. The service calls it on the body it
// received over mutual TLS, then recomputes each item's fingerprint with
// its own key (Fingerprinter.Fingerprint(item.Value)) and redacts with
// Redact, never trusting the agent's.
func ParseSubmission(data []byte) (*Submission, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Submission
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidSubmission, jsonProblem(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: data after the JSON object", ErrInvalidSubmission)
	}
	if s.Schema != SubmissionSchema || s.SchemaVersion != SubmissionSchemaVersion {
		return nil, fmt.Errorf("%w: schema must be %q version %d", ErrInvalidSubmission, SubmissionSchema, SubmissionSchemaVersion)
	}
	if len(s.Items) > MaxSubmissionItems {
		return nil, fmt.Errorf("%w: %d items, at most %d", ErrInvalidSubmission, len(s.Items), MaxSubmissionItems)
	}
	for i, it := range s.Items {
		switch {
		case it.RuleID == "":
			return nil, fmt.Errorf("%w: items[%d].rule_id is empty", ErrInvalidSubmission, i)
		case it.File == "":
			return nil, fmt.Errorf("%w: items[%d].file is empty", ErrInvalidSubmission, i)
		case it.Line < 0 || it.Column < 0:
			return nil, fmt.Errorf("%w: items[%d]: negative line or column", ErrInvalidSubmission, i)
		case len(it.Value) > MaxValueSize || len(it.Companion) > MaxValueSize:
			return nil, fmt.Errorf("%w: items[%d]: value longer than %d bytes", ErrInvalidSubmission, i, MaxValueSize)
		}
	}
	return &s, nil
}

// jsonProblem describes a decoding error without quoting the input: a
// syntax error's message can carry a character of a value, a type error's
// the offending field only.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("field %s: wrong type", te.Field)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated JSON"
	}
	// DisallowUnknownFields: `json: unknown field "name"` names a key,
	// not a value.
	return err.Error()
}

// Credential returns the item's raw value and companion.
func (it *SubmissionItem) Credential() Credential { return NewCredential(it.Value, it.Companion) }

// String describes the item without its value.
func (it SubmissionItem) String() string {
	return fmt.Sprintf("%s %s:%d %s", it.RuleID, it.File, it.Line, it.Redacted)
}

// GoString is String, for %#v.
func (it SubmissionItem) GoString() string { return "secrets.SubmissionItem{" + it.String() + "}" }

// LogValue gives slog the item without its value.
func (it SubmissionItem) LogValue() slog.Value {
	return slog.GroupValue(slog.String("rule_id", it.RuleID), slog.String("file", it.File),
		slog.Int("line", it.Line), slog.String("redacted", it.Redacted))
}
