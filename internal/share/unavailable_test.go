package share_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/share"
)

// awayStore is a store whose database cannot be reached.
type awayStore struct{ share.Store }

func (awayStore) FindBundleByTokenHash(context.Context, []byte) (*sentinel.Bundle, error) {
	return nil, sentinel.Errorf(sentinel.EUNAVAILABLE, "the database is away")
}

// TestUnavailableStoreAnswers503 checks that the share site answers 503
// with Retry-After, not 500, while its database cannot be reached (a
// PostgreSQL restart): the recipient is told to come back shortly.
func TestUnavailableStoreAnswers503(t *testing.T) {
	site := &share.Site{DB: awayStore{}, Logger: slog.New(slog.DiscardHandler), Now: time.Now}
	token := strings.Repeat("a", 48)
	for _, path := range []string{"/s/" + token, "/s/" + token + "/download"} {
		w := httptest.NewRecorder()
		site.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Errorf("GET %s: status %d, Retry-After %q; want 503 with Retry-After", path, w.Code, w.Header().Get("Retry-After"))
		}
	}
}
