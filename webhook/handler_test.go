package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sentinel-sca/sentinel/webhook"
)

func TestReceiver(t *testing.T) {
	envelope := func(typ string) []byte {
		return []byte(`{"id":"evt_1","type":"` + typ + `","created_at":"2023-11-14T22:13:20Z","organization":"acme","data":{"finding_id":"fnd_1"}}`)
	}
	signed := func(b []byte) string { return webhook.SignatureHeader(t0, b, secret) }

	tests := []struct {
		name        string
		method      string
		body        []byte
		signature   string
		eventHeader string
		handleErr   error
		wantStatus  int
		wantHandled bool
	}{
		{"handled", http.MethodPost, envelope("finding.created"), signed(envelope("finding.created")), "finding.created", nil, http.StatusNoContent, true},
		{"no_event_header", http.MethodPost, envelope("webhook.test"), signed(envelope("webhook.test")), "", nil, http.StatusNoContent, true},
		{"unknown_type_skipped", http.MethodPost, envelope("finding.teleported"), signed(envelope("finding.teleported")), "finding.teleported", nil, http.StatusNoContent, false},
		{"handler_fails", http.MethodPost, envelope("finding.created"), signed(envelope("finding.created")), "", errors.New("db down"), http.StatusInternalServerError, true},
		{"bad_signature", http.MethodPost, envelope("finding.created"), signed(envelope("finding.reopened")), "", nil, http.StatusUnauthorized, false},
		{"no_signature", http.MethodPost, envelope("finding.created"), "", "", nil, http.StatusUnauthorized, false},
		{"malformed_signature", http.MethodPost, envelope("finding.created"), "v1=abc", "", nil, http.StatusBadRequest, false},
		{"stale_signature", http.MethodPost, envelope("finding.created"), webhook.SignatureHeader(t0.Add(-time.Hour), envelope("finding.created"), secret), "", nil, http.StatusUnauthorized, false},
		{"event_header_mismatch", http.MethodPost, envelope("finding.created"), signed(envelope("finding.created")), "scan.failed", nil, http.StatusBadRequest, false},
		{"not_an_envelope", http.MethodPost, []byte(`[1,2]`), signed([]byte(`[1,2]`)), "", nil, http.StatusBadRequest, false},
		{"envelope_without_id", http.MethodPost, []byte(`{"type":"finding.created"}`), signed([]byte(`{"type":"finding.created"}`)), "", nil, http.StatusBadRequest, false},
		{"too_large", http.MethodPost, []byte(strings.Repeat("x", 2048)), signed([]byte(strings.Repeat("x", 2048))), "", nil, http.StatusRequestEntityTooLarge, false},
		{"get", http.MethodGet, nil, "", "", nil, http.StatusMethodNotAllowed, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []webhook.Event
			rc := &webhook.Receiver{
				Secret:       secret,
				Now:          func() time.Time { return t0 },
				MaxBodyBytes: 1024,
				Handle: func(ctx context.Context, e webhook.Event) error {
					got = append(got, e)
					return tt.handleErr
				},
			}
			req := httptest.NewRequest(tt.method, "/hook", strings.NewReader(string(tt.body)))
			if tt.signature != "" {
				req.Header.Set(webhook.HeaderSignature, tt.signature)
			}
			if tt.eventHeader != "" {
				req.Header.Set(webhook.HeaderEvent, tt.eventHeader)
			}
			req.Header.Set(webhook.HeaderDelivery, "0b6d2c4e-9a43-4e0e-a9a4-1f7d0a3e5b11")
			rec := httptest.NewRecorder()
			rc.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %q)", rec.Code, tt.wantStatus, rec.Body.String())
			}
			if handled := len(got) > 0; handled != tt.wantHandled {
				t.Fatalf("handled = %v, want %v", handled, tt.wantHandled)
			}
			if tt.wantHandled {
				var want webhook.Event
				if err := json.Unmarshal(tt.body, &want); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]webhook.Event{want}, got); diff != "" {
					t.Errorf("events mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestHandler_EndToEnd(t *testing.T) {
	var got webhook.Event
	srv := httptest.NewServer(webhook.Handler(secret, 0, func(ctx context.Context, e webhook.Event) error {
		got = e
		return nil
	}))
	defer srv.Close()

	b := []byte(`{"id":"evt_9","type":"scan.completed","created_at":"2026-01-02T03:04:05Z","organization":"acme","data":{"scan_id":"scan_1"}}`)
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(webhook.HeaderSignature, webhook.SignatureHeader(time.Now(), b, secret))
	req.Header.Set(webhook.HeaderEvent, "scan.completed")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("status = %d, want 204", resp.StatusCode)
	}
	want := webhook.Event{
		ID: "evt_9", Type: "scan.completed", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Organization: "acme", Data: json.RawMessage(`{"scan_id":"scan_1"}`),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("event mismatch (-want +got):\n%s", diff)
	}
}

func TestReceiver_NoSecret(t *testing.T) {
	rc := &webhook.Receiver{}
	req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader("{}"))
	req.Header.Set(webhook.HeaderSignature, webhook.SignatureHeader(time.Now(), []byte("{}"), ""))
	rec := httptest.NewRecorder()
	rc.ServeHTTP(rec, req)
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("status = %d, want 500 for a receiver without a secret", rec.Code)
	}
}
