package edge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// modsecEntry is the part of a ModSecurity v2 JSON audit log entry
// (SecAuditLogFormat JSON) that Sentinel reads, as mod_security 2.9 writes
// it: one object per line with "transaction" (part A), "request" (B),
// "response" (F) and "audit_data" (H). Unknown members are ignored: parts
// C, E, I, J and K add members, and versions differ.
type modsecEntry struct {
	Transaction struct {
		Time          string `json:"time"`
		TransactionID string `json:"transaction_id"`
		RemoteAddress string `json:"remote_address"`
	} `json:"transaction"`
	Request struct {
		RequestLine string        `json:"request_line"`
		Headers     modsecHeaders `json:"headers"`
	} `json:"request"`
	Response struct {
		Status jsontext.Value `json:"status"`
	} `json:"response"`
	AuditData struct {
		Messages []string `json:"messages"`
		Action   *struct {
			Intercepted bool `json:"intercepted"`
		} `json:"action"`
		Producer   jsontext.Value `json:"producer"`
		EngineMode string         `json:"engine_mode"`
	} `json:"audit_data"`
}

// modsecJSON reads audit log entries with the JSON v2 decoder (the
// encoding/json/v2 proposal's reference implementation), which reads them
// about 2.5 times as fast as encoding/json: the entries are large (mod_security
// 2.9 writes every message twice, in messages and error_messages) and the
// reader must keep up with a busy WAF. mod_security does not promise valid
// UTF-8 (it logs what clients send) or unique header names, so both are
// accepted; invalid bytes become U+FFFD.
var modsecJSON = jsonv2.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

// jsonv2Problem describes a decoding error by where it happened, without
// the input.
func jsonv2Problem(err error) string {
	var se *jsontext.SyntacticError
	var me *jsonv2.SemanticError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d", se.ByteOffset)
	case errors.As(err, &me):
		where := string(me.JSONPointer)
		if where == "" {
			where = "the top level"
		}
		return fmt.Sprintf("unexpected %s at %s", me.JSONKind, where)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "truncated JSON"
	}
	return "malformed JSON"
}

// ErrNotAnAttack is returned by ParseModSecEntry for an entry without any
// rule message: ModSecurity logs those for their response status alone
// (SecAuditLogRelevantStatus), and they are no evidence of an attack.
var ErrNotAnAttack = errors.New("audit log entry has no rule match")

// modsecTime is mod_security 2's transaction time, "23/Nov/2026:17:47:31.345987 +0000".
const modsecTime = "02/Jan/2006:15:04:05.999999 -0700"

// maxEntry bounds one audit log line. Parts A, B, F and H of a request
// with large headers stay well under it; an entry with bodies (parts C,
// E, I) may not, and is refused rather than read without bound.
const maxEntry = 4 << 20

// ParseModSecEntry reads one entry of a ModSecurity v2 JSON audit log into
// an Observation. The host is the request's Host header; the source the
// connection's remote address (not X-Forwarded-For, which the client
// writes). The action is "blocked" when ModSecurity intercepted the
// request (audit_data.action.intercepted, or a message "Access denied"),
// "detected" when rules matched without blocking (DetectionOnly, or an
// anomaly score under the threshold), and "allowed" for an explicit
// "Access allowed". The primary rule is the most severe attack rule
// that is not an anomaly-scoring rule. Over-long values are truncated.
func ParseModSecEntry(data []byte) (Observation, error) {
	var e modsecEntry
	if err := jsonv2.Unmarshal(data, &e, modsecJSON); err != nil {
		return Observation{}, fmt.Errorf("not a ModSecurity JSON audit log entry: %s", jsonv2Problem(err))
	}
	if e.Transaction.Time == "" || e.Request.RequestLine == "" {
		return Observation{}, errors.New("not a ModSecurity JSON audit log entry: no transaction time or request line (log parts A and B are needed)")
	}
	t, err := time.Parse(modsecTime, e.Transaction.Time)
	if err != nil {
		return Observation{}, fmt.Errorf("transaction time %q: not in mod_security's format", truncate(e.Transaction.Time, 64))
	}
	if !plausibleTime(t) {
		return Observation{}, fmt.Errorf("transaction time %q: outside the years 1970 to 9999", truncate(e.Transaction.Time, 64))
	}
	o := Observation{
		Time:          t.UTC(),
		TransactionID: truncate(e.Transaction.TransactionID, 128),
		Action:        ActionDetected,
	}
	if a, err := netip.ParseAddr(e.Transaction.RemoteAddress); err == nil {
		o.Source = a.Unmap().String()
	} else {
		return Observation{}, fmt.Errorf("remote address %q is not an IP address", truncate(e.Transaction.RemoteAddress, 64))
	}
	method, target, ok := parseRequestLine(e.Request.RequestLine)
	if !ok {
		return Observation{}, fmt.Errorf("request line %q is not METHOD TARGET PROTOCOL", truncate(e.Request.RequestLine, 128))
	}
	o.Method = method
	o.Path, o.Query, o.Host = splitTarget(target)
	if o.Host == "" {
		o.Host = truncate(normalizeHost(e.Request.Headers.host), maxHost)
	}
	o.UserAgent = truncate(e.Request.Headers.userAgent, maxUserAgent)
	if s := strings.TrimSpace(string(e.Response.Status)); s != "" {
		fmt.Sscan(s, &o.Status)
	}
	o.Producer = producer(e.AuditData.Producer)

	if len(e.AuditData.Messages) == 0 {
		return o, ErrNotAnAttack
	}
	intercepted := e.AuditData.Action != nil && e.AuditData.Action.Intercepted
	allowed := false
	for _, m := range e.AuditData.Messages {
		if strings.HasPrefix(m, "Access denied") {
			intercepted = true
		}
		if strings.HasPrefix(m, "Access allowed") {
			allowed = true
		}
		if len(o.Rules) < maxRules {
			o.Rules = append(o.Rules, parseModSecMessage(m))
		}
	}
	switch {
	case intercepted && !strings.EqualFold(e.AuditData.EngineMode, "DETECTION_ONLY"):
		o.Action = ActionBlocked
	case allowed:
		o.Action = ActionAllowed
	}
	primary := primaryRule(o.Rules)
	if primary != nil {
		o.RuleID, o.Message, o.Severity = primary.ID, primary.Message, primary.Severity
	}
	enrich(&o, e.Request.Headers.text)
	return o, nil
}

// parseRequestLine splits "GET /path?q HTTP/1.1". HTTP/0.9 lines have no
// protocol.
func parseRequestLine(l string) (method, target string, ok bool) {
	f := strings.Fields(l)
	if len(f) < 2 || len(f) > 3 {
		return "", "", false
	}
	for _, c := range f[0] {
		if c < '!' || c > '~' {
			return "", "", false
		}
	}
	return truncate(strings.ToUpper(f[0]), 32), f[1], true
}

// splitTarget splits a request target into path, query and, for the
// absolute form a proxy receives ("http://host/path"), host.
func splitTarget(target string) (path, query, host string) {
	if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
		if u, err := url.Parse(target); err == nil {
			host = truncate(normalizeHost(u.Host), maxHost)
			target = u.RequestURI()
		}
	}
	path, query, _ = strings.Cut(target, "?")
	if path == "" {
		path = "/"
	}
	return truncate(path, maxPath), truncate(query, maxQuery), host
}

// modsecHeaders reads the request headers object without building a map:
// the Host and User-Agent values, and every value, lower-cased and joined
// by newlines, for the signature tests. mod_security writes a value as a
// string, or, for a repeated header in some builds, an array of strings.
type modsecHeaders struct {
	host, userAgent string
	text            []byte
}

// UnmarshalJSONFrom implements the JSON v2 decoder's UnmarshalerFrom.
func (h *modsecHeaders) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() == 'n' {
		return nil
	}
	if tok.Kind() != '{' {
		return errors.New("headers is not an object")
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		key := name.String()
		start := len(h.text)
		switch dec.PeekKind() {
		case '"':
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if h.text, err = jsontext.AppendUnquote(h.text, v); err != nil {
				return err
			}
		case '[':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			for dec.PeekKind() != ']' {
				if dec.PeekKind() != '"' {
					if err := dec.SkipValue(); err != nil {
						return err
					}
					continue
				}
				v, err := dec.ReadValue()
				if err != nil {
					return err
				}
				if len(h.text) > start {
					h.text = append(h.text, ", "...)
				}
				if h.text, err = jsontext.AppendUnquote(h.text, v); err != nil {
					return err
				}
			}
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
		default:
			if err := dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		value := h.text[start:]
		switch {
		case strings.EqualFold(key, "host"):
			h.host = string(value)
		case strings.EqualFold(key, "user-agent"):
			h.userAgent = string(value)
		}
		if len(value) > maxData {
			h.text = h.text[:start+maxData]
		}
		h.text = append(h.text, '\n')
	}
	_, err = dec.ReadToken()
	return err
}

// producer joins audit_data.producer (a string, or a list of the engine
// and rule set names).
func producer(raw jsontext.Value) string {
	var list []string
	if jsonv2.Unmarshal(raw, &list, modsecJSON) == nil {
		return truncate(strings.Join(list, "; "), 256)
	}
	var s string
	if jsonv2.Unmarshal(raw, &s, modsecJSON) == nil {
		return truncate(s, 256)
	}
	return ""
}

// parseModSecMessage reads the bracketed fields of one audit_data.messages
// string: `Warning. Pattern match ... [file "..."] [line "367"] [id
// "932130"] [msg "..."] [data "..."] [severity "CRITICAL"] [ver "..."]
// [tag "..."] [tag "..."]`.
func parseModSecMessage(m string) RuleMatch {
	var r RuleMatch
	for name, value := range bracketFields(m) {
		switch name {
		case "id":
			r.ID = truncate(value, maxRuleID)
		case "msg":
			r.Message = truncate(value, maxMessage)
		case "data":
			r.Data = truncate(value, maxData)
		case "severity":
			r.Severity = modsecSeverity(value)
		case "tag":
			if len(r.Tags) < maxTags {
				r.Tags = append(r.Tags, truncate(value, maxTag))
			}
		}
	}
	return r
}

// bracketFields yields the [name "value"] fields of a ModSecurity message.
// Values escape a quote as \" and a backslash as \\; a value ends at the
// first unescaped quote followed by "]".
func bracketFields(m string) func(yield func(string, string) bool) {
	return func(yield func(string, string) bool) {
		for {
			i := strings.Index(m, "[")
			if i < 0 {
				return
			}
			m = m[i+1:]
			j := strings.Index(m, " \"")
			if j <= 0 || strings.ContainsAny(m[:j], " []\"") {
				continue
			}
			name := m[:j]
			rest := m[j+2:]
			end, escaped := valueEnd(rest)
			if end < 0 {
				return
			}
			value := rest[:end]
			if escaped {
				value = unescapeValue.Replace(value)
			}
			if !yield(name, value) {
				return
			}
			m = rest[end+2:]
		}
	}
}

var unescapeValue = strings.NewReplacer(`\"`, `"`, `\\`, `\`)

// valueEnd returns the index of the quote that ends a bracketed value
// (an unescaped quote followed by "]"), or -1, and whether the value holds
// escapes.
func valueEnd(s string) (int, bool) {
	escaped := false
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '\\':
			if k+1 < len(s) && (s[k+1] == '"' || s[k+1] == '\\') {
				escaped = true
				k++
			}
		case '"':
			if k+1 < len(s) && s[k+1] == ']' {
				return k, escaped
			}
		}
	}
	return -1, escaped
}

// primaryRule picks the rule that best describes a request: among the
// rules that are not anomaly scoring, one naming a specific attack class
// (SQL injection, XSS, command execution, file inclusion, code injection,
// session fixation) before protocol and reputation rules, then the most
// severe, then the first logged; else the first rule with an id.
func primaryRule(rules []RuleMatch) *RuleMatch {
	var best *RuleMatch
	bestScore := -1
	for i := range rules {
		r := &rules[i]
		if r.ID == "" || evaluationRule(r.ID) {
			continue
		}
		score := r.Severity.rank()
		if specificAttack(r.Tags) {
			score += 10
		}
		if score > bestScore {
			best, bestScore = r, score
		}
	}
	if best == nil {
		for i := range rules {
			if rules[i].ID != "" {
				return &rules[i]
			}
		}
	}
	return best
}

// specificAttack reports whether tags name an attack class with a weakness
// (attackTags entries with a CWE).
func specificAttack(tags []string) bool {
	for _, t := range tags {
		if a, ok := attackTags[strings.ToLower(t)]; ok && a.cwe != "" {
			return true
		}
	}
	return false
}

// LineError is an audit log line ModSecReader could not read.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// ModSecReader reads a ModSecurity v2 JSON audit log (Serial, one entry
// per line) entry by entry.
type ModSecReader struct {
	sc   *bufio.Scanner
	line int
	// NotAttacks counts entries skipped for having no rule match.
	NotAttacks int
}

// NewModSecReader returns a reader of the log r.
func NewModSecReader(r io.Reader) *ModSecReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEntry)
	return &ModSecReader{sc: sc}
}

// Next returns the next observation. Entries without a rule match are
// skipped (and counted). A line that cannot be read gives a *LineError;
// the next call goes on with the following line. At the end of the log
// Next returns io.EOF; a line longer than 4 MiB or a read error ends the
// log with that error.
func (r *ModSecReader) Next() (Observation, error) {
	for r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		o, err := ParseModSecEntry(b)
		if errors.Is(err, ErrNotAnAttack) {
			r.NotAttacks++
			continue
		}
		if err != nil {
			return Observation{}, &LineError{Line: r.line, Err: err}
		}
		return o, nil
	}
	if err := r.sc.Err(); err != nil {
		return Observation{}, &LineError{Line: r.line + 1, Err: err}
	}
	return Observation{}, io.EOF
}
