package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"reflect"
	"regexp"
	"strings"
	"time"
)

var (
	cveOnly = regexp.MustCompile(`^(?i:CVE)-\d{4}-\d{4,7}$`)
	cweOnly = regexp.MustCompile(`^(?i:CWE)-\d{1,5}$`)
)

// MaxBatch is the most observations one batch may hold.
const MaxBatch = 10_000

// ErrInvalidBatch is wrapped by every DecodeBatch error.
var ErrInvalidBatch = errors.New("invalid observation batch")

// ItemError is what is wrong with one observation of a batch.
type ItemError struct {
	// Index is the observation's position in the batch, from 0.
	Index int `json:"index"`
	// Field is the JSON field at fault ("observations[3].source"), or
	// the item itself ("observations[3]").
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (e ItemError) Error() string { return e.Field + ": " + e.Message }

// BatchError lists every invalid observation of a batch.
type BatchError struct {
	Items []ItemError `json:"items"`
}

func (e *BatchError) Error() string {
	if len(e.Items) == 1 {
		return fmt.Sprintf("%v: %v", ErrInvalidBatch, e.Items[0])
	}
	return fmt.Sprintf("%v: %d invalid observations, the first %v", ErrInvalidBatch, len(e.Items), e.Items[0])
}

func (e *BatchError) Unwrap() error { return ErrInvalidBatch }

// batchItem is one observation of the documented JSON format.
type batchItem struct {
	Time        *string  `json:"time"`
	Host        *string  `json:"host"`
	Path        string   `json:"path"`
	Query       string   `json:"query"`
	Method      string   `json:"method"`
	Source      *string  `json:"source"`
	UserAgent   string   `json:"user_agent"`
	Status      int      `json:"status"`
	RuleID      string   `json:"rule_id"`
	Message     string   `json:"message"`
	MatchedData string   `json:"matched_data"`
	CVEs        []string `json:"cves"`
	CWEs        []string `json:"cwes"`
	Tags        []string `json:"tags"`
	Action      *string  `json:"action"`
	Severity    string   `json:"severity"`
	Producer    string   `json:"producer"`
	ID          string   `json:"id"`
}

// DecodeBatch reads a batch of observations in Sentinel's JSON format:
//
//	{"observations": [{
//	  "time": "2026-11-21T22:19:05Z",        required, RFC 3339
//	  "host": "shop.example.com",            required, the targeted host
//	  "source": "203.0.113.7",               required, the client's IP address
//	  "action": "blocked",                   required: blocked, detected or allowed
//	  "path": "/api/login",                  optional, default "/"; must start with "/"
//	  "query": "q=1", "method": "POST", "user_agent": "...", "status": 403,
//	  "rule_id": "944150", "message": "Potential Remote Command Execution: Log4j / Log4shell",
//	  "matched_data": "${jndi:ldap://...}",  optional, the payload the rule matched
//	  "cves": ["CVE-2021-44228"], "cwes": ["CWE-917"],
//	  "tags": ["attack-rce", "language-java"],   CRS-style tags are understood
//	  "severity": "critical",                critical, high, medium, low or info
//	  "producer": "edge-waf/2.1", "id": "req-8f2c"   optional
//	}]}
//
// Decoding is strict: unknown fields, wrong types, missing required fields
// and out-of-range values are errors. Each invalid observation is listed in
// a *BatchError (with its index and field), and the valid ones are still
// returned, so that the caller can choose to refuse the whole batch (the
// API does, with every problem in one answer) or keep the good part. A
// batch that is not such an object, or holds more than MaxBatch
// observations, is an error without observations.
func DecodeBatch(data []byte) ([]Observation, error) {
	var top struct {
		Observations []json.RawMessage `json:"observations"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrInvalidBatch, jsonProblem(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: data after the JSON object", ErrInvalidBatch)
	}
	if top.Observations == nil {
		return nil, fmt.Errorf("%w: no \"observations\" array", ErrInvalidBatch)
	}
	if len(top.Observations) > MaxBatch {
		return nil, fmt.Errorf("%w: %d observations, at most %d in one batch", ErrInvalidBatch, len(top.Observations), MaxBatch)
	}
	out := make([]Observation, 0, len(top.Observations))
	var errs []ItemError
	for i, raw := range top.Observations {
		o, ie := decodeItem(raw)
		if ie != nil {
			ie.Index = i
			if ie.Field == "" {
				ie.Field = fmt.Sprintf("observations[%d]", i)
			} else {
				ie.Field = fmt.Sprintf("observations[%d].%s", i, ie.Field)
			}
			errs = append(errs, *ie)
			continue
		}
		out = append(out, o)
	}
	if len(errs) > 0 {
		return out, &BatchError{Items: errs}
	}
	return out, nil
}

func itemErr(field, format string, args ...any) *ItemError {
	return &ItemError{Field: field, Message: fmt.Sprintf(format, args...)}
}

func decodeItem(raw json.RawMessage) (Observation, *ItemError) {
	var it batchItem
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&it); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return Observation{}, itemErr("", "not an object")
			}
			return Observation{}, itemErr(te.Field, "wrong type: want %s, got %s", jsonKind(te.Type), te.Value)
		}
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return Observation{}, itemErr(strings.Trim(f, `"`), "unknown field")
		}
		return Observation{}, itemErr("", "not an object: %s", jsonProblem(err))
	}
	switch {
	case it.Time == nil:
		return Observation{}, itemErr("time", "required")
	case it.Host == nil:
		return Observation{}, itemErr("host", "required")
	case it.Source == nil:
		return Observation{}, itemErr("source", "required")
	case it.Action == nil:
		return Observation{}, itemErr("action", "required")
	}
	var o Observation
	t, err := time.Parse(time.RFC3339Nano, *it.Time)
	if err != nil {
		return o, itemErr("time", "not an RFC 3339 time (2026-11-21T22:19:05Z)")
	}
	if !plausibleTime(t) {
		return o, itemErr("time", "outside the years 1970 to 9999")
	}
	o.Time = t.UTC()
	host := normalizeHost(*it.Host)
	if host == "" || len(host) > maxHost || strings.ContainsAny(host, " /?#@\\\t\r\n") {
		return o, itemErr("host", "not a host name or address")
	}
	o.Host = host
	a, err := netip.ParseAddr(strings.TrimSpace(*it.Source))
	if err != nil || a.Zone() != "" {
		return o, itemErr("source", "not an IP address")
	}
	o.Source = a.Unmap().String()
	o.Action = Action(*it.Action)
	if !o.Action.valid() {
		return o, itemErr("action", "must be blocked, detected or allowed")
	}
	o.Path = it.Path
	if o.Path == "" {
		o.Path = "/"
	}
	if !strings.HasPrefix(o.Path, "/") || strings.ContainsAny(o.Path, "?# \t\r\n") || len(o.Path) > maxPath {
		return o, itemErr("path", "must start with / and hold no query, fragment or space (at most %d bytes)", maxPath)
	}
	if len(it.Query) > maxQuery || strings.ContainsAny(it.Query, "#\r\n") {
		return o, itemErr("query", "at most %d bytes, without # or line breaks", maxQuery)
	}
	o.Query = strings.TrimPrefix(it.Query, "?")
	if it.Method != "" {
		for _, c := range it.Method {
			if c < '!' || c > '~' || len(it.Method) > 32 {
				return o, itemErr("method", "not an HTTP method")
			}
		}
	}
	o.Method = strings.ToUpper(it.Method)
	if len(it.UserAgent) > maxUserAgent {
		return o, itemErr("user_agent", "at most %d bytes", maxUserAgent)
	}
	o.UserAgent = it.UserAgent
	if it.Status != 0 && (it.Status < 100 || it.Status > 599) {
		return o, itemErr("status", "not an HTTP status")
	}
	o.Status = it.Status
	if len(it.RuleID) > maxRuleID {
		return o, itemErr("rule_id", "at most %d bytes", maxRuleID)
	}
	o.RuleID = it.RuleID
	if len(it.Message) > maxMessage {
		return o, itemErr("message", "at most %d bytes", maxMessage)
	}
	o.Message = it.Message
	if len(it.MatchedData) > maxData {
		return o, itemErr("matched_data", "at most %d bytes", maxData)
	}
	if len(it.CVEs) > maxIDs || len(it.CWEs) > maxIDs {
		return o, itemErr("cves", "at most %d ids", maxIDs)
	}
	for i, c := range it.CVEs {
		if !cveOnly.MatchString(c) {
			return o, itemErr(fmt.Sprintf("cves[%d]", i), "not a CVE id (CVE-2021-44228)")
		}
		o.CVEs = append(o.CVEs, findCVEs(c)...)
	}
	for i, c := range it.CWEs {
		if !cweOnly.MatchString(c) {
			return o, itemErr(fmt.Sprintf("cwes[%d]", i), "not a CWE id (CWE-917)")
		}
		o.CWEs = append(o.CWEs, findCWEs(c)...)
	}
	if len(it.Tags) > maxTags {
		return o, itemErr("tags", "at most %d tags", maxTags)
	}
	for i, t := range it.Tags {
		if t == "" || len(t) > maxTag {
			return o, itemErr(fmt.Sprintf("tags[%d]", i), "empty or longer than %d bytes", maxTag)
		}
	}
	o.Tags = it.Tags
	if it.Severity != "" {
		o.Severity = Severity(it.Severity)
		if !o.Severity.valid() {
			return o, itemErr("severity", "must be critical, high, medium, low or info")
		}
	}
	if len(it.Producer) > 256 || len(it.ID) > 128 {
		return o, itemErr("producer", "producer at most 256 bytes, id at most 128")
	}
	o.Producer, o.TransactionID = it.Producer, it.ID
	if o.RuleID != "" || o.Message != "" || it.MatchedData != "" || len(o.Tags) > 0 {
		o.Rules = []RuleMatch{{ID: o.RuleID, Message: o.Message, Severity: o.Severity, Tags: o.Tags, Data: it.MatchedData}}
	}
	o.Tags = nil // enrich gathers them back from the rule
	enrich(&o, nil)
	return o, nil
}

// jsonProblem describes a decoding error in a sentence without quoting the
// input beyond a key name.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d", se.Offset)
	case errors.As(err, &te):
		if te.Field != "" {
			return fmt.Sprintf("field %s: wrong type, want %s", te.Field, jsonKind(te.Type))
		}
		return fmt.Sprintf("wrong type, want %s", jsonKind(te.Type))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated JSON"
	}
	return err.Error()
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
