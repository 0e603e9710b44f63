package scans

import (
	"net/http"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// The scans API: start, list, get and cancel (routes and handlers; the
// work itself is in scans.go).

// Routes are the scans API.
func (s *Service) Routes() []httpapi.Route {
	s.init()
	create := func(path string) httpapi.Route {
		return httpapi.Route{Method: "POST", Path: path, Scope: sentinel.ScopeScansWrite, Class: httpapi.ClassScan, Status: http.StatusCreated,
			Summary: "Queue an external scan of a site (at the organization's 12 concurrent scans, waits up to 60 s for a slot, then 429 scan_capacity).",
			Request: CreateRequest{}, Response: sentinel.Scan{}, Handler: s.create}
	}
	return []httpapi.Route{
		create("/scans"),
		create("/v1/scans"),
		{Method: "GET", Path: "/v1/scans", Scope: sentinel.ScopeScansRead, Query: []string{"asset", "status", "limit", "cursor"},
			Summary: "List the organization's scans, newest first.", Response: httpapi.ListResponse[sentinel.Scan]{}, Handler: s.list},
		{Method: "GET", Path: "/v1/scans/{id}", Scope: sentinel.ScopeScansRead,
			Summary: "One scan, with its detections and their evidence.", Response: sentinel.Scan{}, Handler: s.get},
		{Method: "POST", Path: "/v1/scans/{id}/cancel", Scope: sentinel.ScopeScansWrite,
			Summary: "Cancel a queued or running scan.", Response: sentinel.Scan{}, Handler: s.cancel},
	}
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) error {
	var req CreateRequest
	if err := httpapi.DecodeJSON(r.Body, 16<<10, &req); err != nil {
		return err
	}
	if req.Criticality != "" && !sentinel.ValidCriticality(req.Criticality) {
		return sentinel.InvalidField("criticality", "criticality must be low, medium, high or critical")
	}
	if req.Schedule != "" && req.Schedule != sentinel.ScheduleOff && sentinel.ScheduleInterval(req.Schedule) == 0 {
		return sentinel.InvalidField("schedule", "schedule must be off, hourly, daily or weekly")
	}
	p := httpapi.PrincipalFromContext(r.Context())
	sc, err := s.Start(r.Context(), StartRequest{OrgID: p.OrgID, Target: req.Target, Criticality: req.Criticality,
		Schedule: req.Schedule, Actor: httpapi.Actor(r), Wait: true})
	if err != nil {
		if sentinel.ErrorCode(err) == sentinel.ECAPACITY {
			w.Header().Set("Retry-After", "30")
			httpapi.SetRateLimitHeaders(w.Header(), s.Cap.Max, 0, 30*time.Second)
		}
		return err
	}
	inUse, _ := s.Cap.InUse(r.Context(), p.OrgID)
	httpapi.SetRateLimitHeaders(w.Header(), s.Cap.Max, max(s.Cap.Max-inUse, 0), 0)
	httpapi.WriteJSON(w, http.StatusCreated, sc)
	return nil
}

func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := sentinel.ScanFilter{OrgID: httpapi.PrincipalFromContext(r.Context()).OrgID, AssetID: q.Get("asset"), Status: q.Get("status"), Page: page}
	switch f.Status {
	case "", sentinel.ScanQueued, sentinel.ScanRunning, sentinel.ScanCompleted, sentinel.ScanFailed, sentinel.ScanCanceled:
	default:
		return sentinel.InvalidField("status", "status must be queued, running, completed, failed or canceled")
	}
	scans, next, err := s.DB.FindScans(r.Context(), f)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, scans, next)
	return nil
}

func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	sc, err := s.DB.FindScan(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sc)
	return nil
}

func (s *Service) cancel(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.PrincipalFromContext(r.Context())
	sc, err := s.Cancel(r.Context(), p.OrgID, r.PathValue("id"), httpapi.Actor(r))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sc)
	return nil
}
