package client

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/agents/wire"
)

// Error is an error answer of the service: any status but the one a
// request wanted. Callers classify it with errors.As and its fields, never
// by its text.
type Error struct {
	Status int
	// Code is the body's "error" (wire.ErrorBody), e.g. rate_limited,
	// scan_capacity, metered; empty when the body is not the service's
	// JSON (an edge network's answer).
	Code    string
	Message string
	// Scope is the body's "required_scope" of an insufficient_scope answer.
	Scope string
	// RetryAfter is the Retry-After header's delay; 0 when absent.
	RetryAfter time.Duration
	// Details are the body's "errors": each problem of an invalid request
	// as "path: reason".
	Details []string
}

// Error reads as a sentence for the person at the terminal: the service's
// message, then its code and the HTTP status.
func (e *Error) Error() string {
	switch {
	case e.Message == "":
		return fmt.Sprintf("the service answered %d %s", e.Status, http.StatusText(e.Status))
	case e.Code == "":
		return fmt.Sprintf("%s (HTTP %d)", e.Message, e.Status)
	}
	s := fmt.Sprintf("%s (%s, HTTP %d)", e.Message, e.Code, e.Status)
	for _, d := range e.Details {
		s += "\n  " + d
	}
	return s
}

// StatusLine reads status first, as the CI gate explains a refusal:
// "401 Unauthorized unauthenticated: <message>".
func (e *Error) StatusLine() string {
	s := fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// RateLimited reports whether the answer asks the client to retry later:
// 429 rate_limited, or a 429 without a known code (as an edge network
// sends), but not 429 scan_capacity, which the service sends after it has
// already waited for a scan slot.
func (e *Error) RateLimited() bool {
	return e.Status == http.StatusTooManyRequests && e.Code != wire.CodeScanCapacity
}

// readError builds the Error of an answer with an unwanted status.
func readError(resp *http.Response) *Error {
	e := &Error{Status: resp.StatusCode, RetryAfter: ParseRetryAfter(resp.Header.Get("Retry-After"))}
	var body wire.ErrorBody
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if json.Unmarshal(data, &body) == nil {
		e.Code, e.Message, e.Scope = body.Error, body.Message, body.RequiredScope
		for _, d := range body.Errors {
			e.Details = append(e.Details, d.Path+": "+d.Reason)
		}
	}
	return e
}

// maxRetryAfter caps a Retry-After, so that the doubling waits of the
// retry policy cannot overflow.
const maxRetryAfter = 24 * time.Hour

// ParseRetryAfter reads a Retry-After header given in seconds; 0 when it
// is absent, not a positive number of seconds, or a date (the service
// sends seconds; the retry policy then starts from its default). It is at
// most a day.
func ParseRetryAfter(v string) time.Duration {
	s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || s <= 0 {
		return 0
	}
	return time.Duration(min(s, int64(maxRetryAfter/time.Second))) * time.Second
}
