package intelsvc

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/scancap"
)

// GateRoute is the CI gate: a build-time scan. It holds one of the
// organization's scan slots while it runs (429 scan_capacity when none
// opens within 60 s) and counts against the monthly scans meter (403
// metered), which is how sentinel ci exits 77 and 78.
func (s *Service) GateRoute(capacity *scancap.Cap) httpapi.Route {
	return httpapi.Route{Method: "POST", Path: "/v1/sca/gate", Scope: sentinel.ScopeSCARead, Class: httpapi.ClassScan,
		Summary: "The CI gate: match a build's components, counted as a scan (concurrency cap, scans meter); verdict and exit code 70/71/72.",
		Request: sentinel.GateRequest{}, Response: sentinel.GateResponse{}, Status: http.StatusOK,
		Handler: func(w http.ResponseWriter, r *http.Request) error { return s.gate(w, r, capacity) }}
}

func (s *Service) gate(w http.ResponseWriter, r *http.Request, capacity *scancap.Cap) error {
	var req sentinel.GateRequest
	if err := httpapi.DecodeJSON(r.Body, 8<<20, &req); err != nil {
		return err
	}
	if len(req.Purls) > sentinel.MaxMatchPurls {
		return sentinel.InvalidField("purls", "at most %d purls per request; split the batch", sentinel.MaxMatchPurls)
	}
	p := httpapi.PrincipalFromContext(r.Context())
	// With no intel the gate cannot decide: it must not say OK.
	if st := s.Current(r.Context()).Stats(); st.Advisories == 0 {
		return NoIntel()
	}
	slot, err := capacity.Acquire(r.Context(), p.OrgID)
	if err != nil {
		if sentinel.ErrorCode(err) == sentinel.ECAPACITY {
			w.Header().Set("Retry-After", "30")
			httpapi.SetRateLimitHeaders(w.Header(), capacity.Max, 0, 30*time.Second)
		}
		return err
	}
	defer slot.Release(context.WithoutCancel(r.Context()))
	inUse, _ := capacity.InUse(r.Context(), p.OrgID)
	httpapi.SetRateLimitHeaders(w.Header(), capacity.Max, max(capacity.Max-inUse, 0), 0)
	// The meter counts a scan that ran: taken after the slot, so a caller
	// turned away at the cap is not charged.
	err = s.DB.Update(r.Context(), func(tx Tx) error {
		if err := tx.ConsumeMeter(r.Context(), p.OrgID, sentinel.MeterScans, 1); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "sca.gate", req.Project, map[string]any{"components": len(req.Purls)})
	})
	if err != nil {
		return err
	}
	out := sentinel.GateResponse{Results: s.Current(r.Context()).MatchBatch(req.Purls), Intel: s.Freshness(r.Context())}
	if s.Indicators != nil {
		ind, err := s.Indicators.IndicatorMatcher(r.Context(), p.OrgID)
		if err != nil {
			return err
		}
		for i := range out.Results {
			if res := &out.Results[i]; ind != nil && res.Error == "" {
				res.Matches = append(slices.Clip(res.Matches), ind(res.Purl)...)
			}
		}
	}
	out.Verdict, out.Summary = sentinel.DecideGate(out.Results)
	out.ExitCode = out.Verdict.ExitCode()
	w.Header().Set("X-Sentinel-Exit-Code", strconv.Itoa(out.ExitCode))
	httpapi.WriteJSON(w, http.StatusOK, out)
	return nil
}
