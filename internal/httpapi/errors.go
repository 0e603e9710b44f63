package httpapi

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/sentinel-sca/sentinel"
)

// errorStatus is the one table from domain error codes to HTTP: status and
// the error code the body carries (the error table of docs/design.md).
var errorStatus = map[string]struct {
	status int
	code   string
}{
	sentinel.EINVALID:      {http.StatusBadRequest, "invalid_request"},
	sentinel.ENOTFOUND:     {http.StatusNotFound, "not_found"},
	sentinel.ECONFLICT:     {http.StatusConflict, "conflict"},
	sentinel.EUNAUTHORIZED: {http.StatusUnauthorized, "unauthenticated"},
	sentinel.EFORBIDDEN:    {http.StatusForbidden, "insufficient_scope"},
	sentinel.EMETERED:      {http.StatusForbidden, "metered"},
	sentinel.ETOOLARGE:     {http.StatusRequestEntityTooLarge, "too_large"},
	sentinel.ERATELIMITED:  {http.StatusTooManyRequests, "rate_limited"},
	sentinel.ECAPACITY:     {http.StatusTooManyRequests, "scan_capacity"},
	sentinel.EGONE:         {http.StatusGone, "gone"},
	sentinel.EUNAVAILABLE:  {http.StatusServiceUnavailable, "unavailable"},
	sentinel.EINTERNAL:     {http.StatusInternalServerError, "internal"},
}

// ErrorBody is every error response's JSON.
type ErrorBody struct {
	Error         string `json:"error"`
	Message       string `json:"message"`
	RequestID     string `json:"request_id"`
	Field         string `json:"field,omitempty"`
	RequiredScope string `json:"required_scope,omitempty"`
	// Errors are the individual problems of an invalid_request, when there
	// are several (an SBOM that fails its schema): path and reason.
	Errors []sentinel.ErrorDetail `json:"errors,omitempty"`
}

// StatusOf returns the HTTP status and body code for err.
func StatusOf(err error) (int, string) {
	s, ok := errorStatus[sentinel.ErrorCode(err)]
	if !ok {
		s = errorStatus[sentinel.EINTERNAL]
	}
	return s.status, s.code
}

// WriteError answers with err as JSON. Internal errors are logged with the
// request id and shown to the caller only as "internal error".
func (s *Server) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	status, code := StatusOf(err)
	body := ErrorBody{Error: code, Message: sentinel.ErrorMessage(err), RequestID: requestID(r.Context())}
	if e := sentinel.AsError(err); e != nil {
		body.Field, body.RequiredScope, body.Errors = e.Field, e.Scope, e.Details
	}
	if status >= 500 {
		s.Logger.LogAttrs(r.Context(), slog.LevelError, "request failed", slog.String("request_id", body.RequestID),
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	switch code {
	case "rate_limited":
		w.Header().Set("Retry-After", "30")
	case "scan_capacity":
		if w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", "30")
		}
	case "unavailable":
		// The store or another dependency is away for a moment (a
		// database restart): clients retry after a short wait.
		if w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", "5")
		}
	}
	WriteJSON(w, status, body)
}

// WriteJSON answers with v as JSON and the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
