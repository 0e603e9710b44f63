package sentinel

import (
	"errors"
	"fmt"
)

// Error codes. Only internal/httpapi maps them to HTTP statuses (one table);
// only internal/agent maps them to exit codes.
const (
	EINVALID      = "invalid"      // bad input: 400 invalid_request
	ENOTFOUND     = "not_found"    // unknown id, or another organization's: 404
	ECONFLICT     = "conflict"     // already exists, wrong state: 409
	EUNAUTHORIZED = "unauthorized" // no or bad credentials: 401 unauthenticated
	EFORBIDDEN    = "forbidden"    // credentials lack a scope: 403 insufficient_scope
	EMETERED      = "metered"      // monthly meter exhausted: 403 metered
	ETOOLARGE     = "too_large"    // body over the limit: 413
	ERATELIMITED  = "rate_limited" // per-key limit: 429
	ECAPACITY     = "scan_capacity"
	EGONE         = "gone" // expired or revoked share: 410
	EUNAVAILABLE  = "unavailable"
	EINTERNAL     = "internal"
)

// Error is a domain error: a code from the list above, a message fit for the
// person who made the request, and optional detail fields (the offending
// request field, the scope that was required).
type Error struct {
	Code    string
	Message string
	// Field names the request field at fault, for EINVALID.
	Field string
	// Scope names the scope that was required, for EFORBIDDEN.
	Scope string
	// Details are the individual problems behind an EINVALID, each with
	// the path in the request where it is (an SBOM that fails its schema).
	Details []ErrorDetail
}

// ErrorDetail is one problem of an invalid request.
type ErrorDetail struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("sentinel error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// InvalidField returns an EINVALID error that names the request field at fault.
func InvalidField(field, format string, args ...any) *Error {
	return &Error{Code: EINVALID, Field: field, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, "" for nil,
// and EINTERNAL for any other error.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the human message of the first *Error in err's chain.
// Any other error reads "internal error": its text may hold details that are
// not for the caller.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// AsError returns the first *Error in err's chain, or nil.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}
