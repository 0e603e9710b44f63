package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// DefaultMaxBodyBytes bounds the body a [Receiver] reads when MaxBodyBytes is
// zero. Sentinel's envelopes are far smaller.
const DefaultMaxBodyBytes = 1 << 20

// Receiver is an http.Handler for consumers: it verifies each delivery,
// decodes the envelope, and passes events of known types to Handle.
//
// Responses: 204 when the event was handled or deliberately skipped; 400 for a
// malformed signature header, a body that is not an envelope, or a
// Service-Event header that disagrees with the body; 401 for a missing,
// stale or non-matching signature; 405 for methods other than POST; 413 for a
// body over MaxBodyBytes; 500 when Handle fails, so that Sentinel retries.
//
// Events of types this package does not know are logged and acknowledged
// without calling Handle: the specification asks consumers to treat unknown
// types as forward-compatible and never fail on them.
type Receiver struct {
	// Secret is the webhook's signing secret (whsec_...).
	Secret string
	// Tolerance is the allowed clock distance; zero means DefaultTolerance.
	Tolerance time.Duration
	// Handle processes one event. It may be called more than once for the same
	// event ID (at-least-once delivery). A non-nil error answers 500.
	Handle func(ctx context.Context, e Event) error
	// Logger receives skipped and failed deliveries; nil discards them.
	Logger *slog.Logger
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// MaxBodyBytes bounds the request body; zero means DefaultMaxBodyBytes.
	MaxBodyBytes int64
}

// Handler returns a [Receiver] with the given secret, tolerance and handle
// function, and defaults for everything else.
//
// handle takes the request's context first, as anything doing I/O should.
func Handler(secret string, tolerance time.Duration, handle func(ctx context.Context, e Event) error) http.Handler {
	return &Receiver{Secret: secret, Tolerance: tolerance, Handle: handle}
}

// ServeHTTP implements http.Handler.
func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	log := rc.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	limit := rc.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}

	now := time.Now
	if rc.Now != nil {
		now = rc.Now
	}
	if err := VerifyAt(rc.Secret, r.Header.Get(HeaderSignature), body, rc.Tolerance, now()); err != nil {
		switch {
		case errors.Is(err, ErrNoSecret):
			log.ErrorContext(r.Context(), "webhook receiver has no secret configured")
			http.Error(w, "receiver misconfigured", http.StatusInternalServerError)
		case errors.Is(err, ErrMalformedHeader):
			log.WarnContext(r.Context(), "webhook rejected", "reason", err)
			http.Error(w, "malformed signature header", http.StatusBadRequest)
		default:
			log.WarnContext(r.Context(), "webhook rejected", "reason", err)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
		}
		return
	}

	var e Event
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&e); err != nil || e.ID == "" || e.Type == "" {
		http.Error(w, "body is not an event envelope", http.StatusBadRequest)
		return
	}
	if h := r.Header.Get(HeaderEvent); h != "" && h != e.Type {
		http.Error(w, "Service-Event header does not match the event type", http.StatusBadRequest)
		return
	}
	if !sentinel.KnownEventType(e.Type) {
		log.InfoContext(r.Context(), "webhook event of unknown type skipped",
			"type", e.Type, "event_id", e.ID, "delivery", r.Header.Get(HeaderDelivery))
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if rc.Handle != nil {
		if err := rc.Handle(r.Context(), e); err != nil {
			log.ErrorContext(r.Context(), "webhook handler failed",
				"type", e.Type, "event_id", e.ID, "delivery", r.Header.Get(HeaderDelivery), "err", err)
			http.Error(w, "handler failed", http.StatusInternalServerError)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}
