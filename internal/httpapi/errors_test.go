package httpapi

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sentinel-sca/sentinel"
)

// TestUnavailableRetryAfter checks that an unavailable store answers 503
// with Retry-After, so that clients wait and retry rather than fail.
func TestUnavailableRetryAfter(t *testing.T) {
	s := &Server{}
	s.init()
	w := httptest.NewRecorder()
	s.WriteError(w, httptest.NewRequest("GET", "/v1/findings", nil), sentinel.Errorf(sentinel.EUNAVAILABLE, "database away"))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Fatalf("status %d, Retry-After %q; want 503 with Retry-After", w.Code, w.Header().Get("Retry-After"))
	}
}
