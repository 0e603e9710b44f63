package webhooks

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// Request limits (docs/design.md).
const (
	maxURL         = 2048
	maxDescription = 256
	maxPatterns    = 50
)

// CreateRequest is POST /v1/webhooks's body (the specification's fields).
type CreateRequest struct {
	URL         string   `json:"url" maxLength:"2048"`
	Events      []string `json:"events" minItems:"1" maxItems:"50"`
	Description string   `json:"description,omitempty" maxLength:"256"`
}

// UpdateRequest is PATCH /v1/webhooks/{id}'s body; absent fields stay.
type UpdateRequest struct {
	URL         *string   `json:"url,omitempty" maxLength:"2048"`
	Events      *[]string `json:"events,omitempty" minItems:"1" maxItems:"50"`
	Description *string   `json:"description,omitempty" maxLength:"256"`
	Active      *bool     `json:"active,omitempty"`
}

// Webhook is a registration as the API shows it: never its secret.
type Webhook struct {
	ID          string    `json:"id"`
	URL         string    `json:"url"`
	Events      []string  `json:"events"`
	Description string    `json:"description"`
	Active      bool      `json:"active"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	// PreviousSecretExpiresAt is set while a rotated-out secret still
	// signs deliveries.
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at,omitempty"`
}

// WithSecret is the answer to creation and rotation: the only two times
// the secret is shown.
type WithSecret struct {
	Webhook
	Secret string `json:"secret"`
}

// Deleted answers DELETE /v1/webhooks/{id}.
type Deleted struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// TestResponse answers the test operation (202): the synthetic event and
// its delivery, which GET .../deliveries shows.
type TestResponse struct {
	EventID    string `json:"event_id"`
	DeliveryID string `json:"delivery_id"`
	Status     string `json:"status"`
}

// Delivery is one event's delivery to a webhook as the API shows it.
type Delivery struct {
	ID        string `json:"id"`
	WebhookID string `json:"webhook_id"`
	EventID   string `json:"event_id"`
	EventType string `json:"event_type"`
	// Status is waiting (behind an earlier delivery about the same
	// subject), pending, delivering (an attempt is in flight), succeeded or
	// failed (given up; redeliverable).
	Status   string `json:"status"`
	Attempts int    `json:"attempts"`
	// LastResponseCode is the last attempt's HTTP status; null when no
	// answer arrived.
	LastResponseCode *int   `json:"last_response_code"`
	LastError        string `json:"last_error,omitempty"`
	// LastAttemptID is the Service-Delivery UUID of the last attempt.
	LastAttemptID string     `json:"last_attempt_id,omitempty"`
	LastAttemptAt *time.Time `json:"last_attempt_at,omitempty"`
	NextAttemptAt *time.Time `json:"next_attempt_at,omitempty"`
	DeliveredAt   *time.Time `json:"delivered_at,omitempty"`
	// RetryUntil is when retries stop (24 hours after the event).
	RetryUntil time.Time `json:"retry_until"`
	CreatedAt  time.Time `json:"created_at"`
}

// TestData is the data of a webhook.test event.
type TestData struct {
	WebhookID string `json:"webhook_id"`
	Message   string `json:"message"`
}

func sec(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

func secPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := sec(*t)
	return &v
}

func (s *Service) view(w *sentinel.Webhook) Webhook {
	v := Webhook{ID: w.ID, URL: w.URL, Events: w.Events, Description: w.Description, Active: w.Active,
		CreatedAt: sec(w.CreatedAt), UpdatedAt: sec(w.UpdatedAt)}
	if w.PrevSecretUntil != nil && w.PrevSecretUntil.After(s.Now()) {
		v.PreviousSecretExpiresAt = secPtr(w.PrevSecretUntil)
	}
	if v.Events == nil {
		v.Events = []string{}
	}
	return v
}

func (s *Service) deliveryView(d *sentinel.Delivery) Delivery {
	v := Delivery{ID: d.ID, WebhookID: d.WebhookID, EventID: d.EventID, EventType: d.EventType, Status: d.State,
		Attempts: d.Attempts, LastError: d.LastError, LastAttemptID: d.LastAttemptID,
		LastAttemptAt: secPtr(d.LastAttemptAt), DeliveredAt: secPtr(d.DeliveredAt),
		RetryUntil: sec(d.Deadline), CreatedAt: sec(d.CreatedAt)}
	if d.LastStatus != 0 {
		code := d.LastStatus
		v.LastResponseCode = &code
	}
	if d.State == sentinel.DeliveryPending {
		if d.LeaseUntil.After(s.Now()) {
			v.Status = "delivering"
		} else {
			v.NextAttemptAt = secPtr(&d.NextAttemptAt)
		}
	}
	return v
}

// Routes returns the webhook routes. Every one needs webhooks:write: the
// scope list (docs/design.md) has no webhooks:read, and a webhook's URL and
// delivery log are as sensitive as its configuration.
func (s *Service) Routes() []httpapi.Route {
	s.init()
	scope := sentinel.ScopeWebhooksWrite
	test := func(path string) httpapi.Route {
		return httpapi.Route{Method: "POST", Path: path, Scope: scope, Class: httpapi.ClassWebhookTest, Status: http.StatusAccepted,
			Summary:  "Send a synthetic webhook.test event to the webhook's URL (10 per minute per webhook).",
			Response: TestResponse{}, Handler: s.test}
	}
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/webhooks", Scope: scope, Status: http.StatusCreated,
			Summary: "Register a webhook. The secret is shown once.", Request: CreateRequest{}, Response: WithSecret{},
			Handler: s.create},
		{Method: "GET", Path: "/v1/webhooks", Scope: scope, Query: []string{"limit", "cursor"},
			Summary: "List the organization's webhooks (never their secrets).", Response: httpapi.ListResponse[Webhook]{},
			Handler: s.list},
		{Method: "GET", Path: "/v1/webhooks/{id}", Scope: scope,
			Summary: "Get a webhook.", Response: Webhook{}, Handler: s.get},
		{Method: "PATCH", Path: "/v1/webhooks/{id}", Scope: scope,
			Summary: "Change a webhook's url, events, description or active flag. Deactivating fails its queued deliveries.",
			Request: UpdateRequest{}, Response: Webhook{}, Handler: s.update},
		{Method: "DELETE", Path: "/v1/webhooks/{id}", Scope: scope,
			Summary: "Delete a webhook and its deliveries.", Response: Deleted{}, Handler: s.delete},
		{Method: "POST", Path: "/v1/webhooks/{id}/rotate-secret", Scope: scope,
			Summary:  "Make a new secret, shown once; the old one keeps signing alongside it for 24 hours.",
			Response: WithSecret{}, Handler: s.rotate},
		{Method: "GET", Path: "/v1/webhooks/{id}/deliveries", Scope: scope, Query: []string{"status", "limit", "cursor"},
			Summary:  "The webhook's deliveries, newest event first: status, attempts, last response, next attempt.",
			Response: httpapi.ListResponse[Delivery]{}, Handler: s.listDeliveries},
		{Method: "POST", Path: "/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver", Scope: scope,
			Summary:  "Send a finished (succeeded or failed) delivery again, now, with a fresh 24-hour retry window.",
			Response: Delivery{}, Handler: s.redeliver},
		test("/v1/webhooks/{id}/test"),
		test("/webhooks/{id}/test"),
	}
}

func principal(r *http.Request) *sentinel.Principal { return httpapi.PrincipalFromContext(r.Context()) }

// checkURL validates a target URL for registration: shape, scheme and
// every address its host resolves to (netguard).
func (s *Service) checkURL(ctx context.Context, u string) error {
	if u == "" {
		return sentinel.InvalidField("url", "url is required")
	}
	if len(u) > maxURL {
		return sentinel.InvalidField("url", "url must be at most %d characters", maxURL)
	}
	if err := netguard.CheckURL(ctx, u, s.Policy); err != nil {
		var ne *netguard.Error
		if errors.As(err, &ne) {
			return sentinel.InvalidField("url", "%s", ne.Reason)
		}
		return err // the request's context ended
	}
	return nil
}

// checkEvents validates subscription patterns and returns them without
// duplicates, in the order given.
func checkEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return nil, sentinel.InvalidField("events", "events must list at least one event type or pattern (an exact type, group.* or *)")
	}
	if len(events) > maxPatterns {
		return nil, sentinel.InvalidField("events", "events may list at most %d entries", maxPatterns)
	}
	var out []string
	for _, e := range events {
		if !sentinel.ValidEventPattern(e) {
			return nil, sentinel.InvalidField("events", "unknown event type or pattern %q; use an exact type (e.g. finding.created), group.* or *", e)
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

func checkDescription(d string) error {
	if len([]rune(d)) > maxDescription {
		return sentinel.InvalidField("description", "description must be at most %d characters", maxDescription)
	}
	return nil
}

// newSecret returns a webhook secret and its sealed form, bound to id.
func (s *Service) newSecret(id string) (string, []byte) {
	plain := "whsec_" + seal.Token(32)
	return plain, s.Box.Seal([]byte(plain), []byte(id))
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) error {
	var req CreateRequest
	if err := httpapi.DecodeJSON(r.Body, s.MaxBody, &req); err != nil {
		return err
	}
	events, err := checkEvents(req.Events)
	if err != nil {
		return err
	}
	if err := checkDescription(req.Description); err != nil {
		return err
	}
	if err := s.checkURL(r.Context(), req.URL); err != nil {
		return err
	}
	p := principal(r)
	id := sentinel.NewID(sentinel.PrefixWebhook)
	plain, sealed := s.newSecret(id)
	wh := &sentinel.Webhook{ID: id, OrgID: p.OrgID, URL: req.URL, Description: req.Description, Events: events, Active: true, Secret: sealed}
	err = s.DB.Update(r.Context(), func(tx Tx) error {
		if err := tx.CreateWebhook(r.Context(), wh); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "webhook.create", id, map[string]any{"url": wh.URL, "events": events})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, WithSecret{Webhook: s.view(wh), Secret: plain})
	return nil
}

func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	ws, next, err := s.DB.ListWebhooks(r.Context(), principal(r).OrgID, page)
	if err != nil {
		return err
	}
	httpapi.WriteListOf(w, ws, next, s.view)
	return nil
}

func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	wh, err := s.DB.FindWebhook(r.Context(), principal(r).OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, s.view(wh))
	return nil
}

func (s *Service) update(w http.ResponseWriter, r *http.Request) error {
	var req UpdateRequest
	if err := httpapi.DecodeJSON(r.Body, s.MaxBody, &req); err != nil {
		return err
	}
	p := principal(r)
	id := r.PathValue("id")
	// An unknown id is 404 before any validation of the body's values.
	if _, err := s.DB.FindWebhook(r.Context(), p.OrgID, id); err != nil {
		return err
	}
	details := map[string]any{}
	if req.Events != nil {
		events, err := checkEvents(*req.Events)
		if err != nil {
			return err
		}
		req.Events = &events
		details["events"] = events
	}
	if req.Description != nil {
		if err := checkDescription(*req.Description); err != nil {
			return err
		}
		details["description"] = *req.Description
	}
	if req.URL != nil {
		if err := s.checkURL(r.Context(), *req.URL); err != nil {
			return err
		}
		details["url"] = *req.URL
	}
	if req.Active != nil {
		details["active"] = *req.Active
	}
	var wh *sentinel.Webhook
	err := s.DB.Update(r.Context(), func(tx Tx) (err error) {
		wh, err = tx.UpdateWebhook(r.Context(), p.OrgID, id, sentinel.WebhookUpdate{URL: req.URL, Events: req.Events, Description: req.Description, Active: req.Active})
		if err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "webhook.update", id, details)
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, s.view(wh))
	return nil
}

func (s *Service) delete(w http.ResponseWriter, r *http.Request) error {
	p := principal(r)
	id := r.PathValue("id")
	err := s.DB.Update(r.Context(), func(tx Tx) error {
		if err := tx.DeleteWebhook(r.Context(), p.OrgID, id); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "webhook.delete", id, nil)
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, Deleted{ID: id, Deleted: true})
	return nil
}

func (s *Service) rotate(w http.ResponseWriter, r *http.Request) error {
	p := principal(r)
	id := r.PathValue("id")
	plain, sealed := s.newSecret(id)
	var wh *sentinel.Webhook
	err := s.DB.Update(r.Context(), func(tx Tx) (err error) {
		if wh, err = tx.RotateWebhookSecret(r.Context(), p.OrgID, id, sealed, tx.Now().Add(s.RotationOverlap)); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "webhook.rotate_secret", id,
			map[string]any{"previous_secret_expires_at": sec(tx.Now().Add(s.RotationOverlap))})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, WithSecret{Webhook: s.view(wh), Secret: plain})
	return nil
}

func (s *Service) test(w http.ResponseWriter, r *http.Request) error {
	p := principal(r)
	id := r.PathValue("id")
	org := &sentinel.Organization{ID: p.OrgID, Slug: p.OrgSlug}
	var resp TestResponse
	err := s.DB.Update(r.Context(), func(tx Tx) error {
		wh, err := tx.FindWebhook(r.Context(), p.OrgID, id)
		if err != nil {
			return err
		}
		if !wh.Active {
			return sentinel.Errorf(sentinel.ECONFLICT, "webhook %s is inactive; activate it before testing", id)
		}
		e, did, err := tx.EmitTestEvent(r.Context(), org, id, TestData{WebhookID: id,
			Message: "This is a test event from Sentinel. Verify the Service-Signature header, then answer 2xx."}, s.Window)
		if err != nil {
			return err
		}
		resp = TestResponse{EventID: e.ID, DeliveryID: did, Status: sentinel.DeliveryPending}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "webhook.test", id, map[string]any{"event_id": e.ID})
	})
	if err != nil {
		return err
	}
	signal(s.sendWake)
	httpapi.WriteJSON(w, http.StatusAccepted, resp)
	return nil
}

var deliveryStates = []string{sentinel.DeliveryWaiting, sentinel.DeliveryPending, sentinel.DeliverySucceeded, sentinel.DeliveryFailed}

func (s *Service) listDeliveries(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	state := r.URL.Query().Get("status")
	if state != "" && !slices.Contains(deliveryStates, state) {
		return sentinel.InvalidField("status", "status must be one of waiting, pending, succeeded, failed")
	}
	ds, next, err := s.DB.ListDeliveries(r.Context(), sentinel.DeliveryFilter{OrgID: principal(r).OrgID, WebhookID: r.PathValue("id"), State: state, Page: page})
	if err != nil {
		return err
	}
	httpapi.WriteListOf(w, ds, next, s.deliveryView)
	return nil
}

func (s *Service) redeliver(w http.ResponseWriter, r *http.Request) error {
	p := principal(r)
	id, did := r.PathValue("id"), r.PathValue("delivery_id")
	var d *sentinel.Delivery
	err := s.DB.Update(r.Context(), func(tx Tx) (err error) {
		if d, err = tx.Redeliver(r.Context(), p.OrgID, id, did, s.Window); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "webhook.redeliver", id, map[string]any{"delivery_id": did, "event_id": d.EventID})
	})
	if err != nil {
		return err
	}
	signal(s.sendWake)
	httpapi.WriteJSON(w, http.StatusOK, s.deliveryView(d))
	return nil
}
