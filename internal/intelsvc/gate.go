package intelsvc

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/scancap"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// Exit codes of the CI gate (specification, Errors).
const (
	ExitKEV        = 70 // a known-exploited component
	ExitVulnerable = 71 // a vulnerable component, none known-exploited
	ExitOK         = 72
	ExitCapacity   = 77 // scan_capacity: the concurrency cap was reached
	ExitMetered    = 78 // the monthly scans meter is exhausted
)

// GateRequest is POST /v1/sca/gate's body: the components a build found.
type GateRequest struct {
	Purls []string `json:"purls" maxItems:"10000"`
	// Project names what is being built, for the audit log.
	Project string `json:"project,omitempty" maxLength:"200"`
}

// GateSummary counts a gate's outcome.
type GateSummary struct {
	Components int `json:"components"`
	Vulnerable int `json:"vulnerable"`
	KEV        int `json:"kev"`
	Advisories int `json:"advisories"`
}

// GateResponse is the gate's verdict with every component's matches.
type GateResponse struct {
	// Verdict is kev, vulnerable or ok; ExitCode is the specification's
	// code for it (70, 71, 72).
	Verdict  string        `json:"verdict"`
	ExitCode int           `json:"exit_code"`
	Summary  GateSummary   `json:"summary"`
	Results  []MatchResult `json:"results"`
}

// Verdict decides the gate from match results: any known-exploited match is
// 70, else any match 71, else 72.
func Verdict(results []MatchResult) (string, int, GateSummary) {
	var s GateSummary
	for _, r := range results {
		if r.Error != "" {
			continue
		}
		s.Components++
		if len(r.Matches) > 0 {
			s.Vulnerable++
			s.Advisories += len(r.Matches)
		}
		for _, m := range r.Matches {
			if m.KEV {
				s.KEV++
				break
			}
		}
	}
	switch {
	case s.KEV > 0:
		return "kev", ExitKEV, s
	case s.Vulnerable > 0:
		return "vulnerable", ExitVulnerable, s
	}
	return "ok", ExitOK, s
}

// GateRoute is the CI gate: a build-time scan. It holds one of the
// organization's scan slots while it runs (429 scan_capacity when none
// opens within 60 s) and counts against the monthly scans meter (403
// metered), which is how sentinel ci exits 77 and 78.
func (s *Service) GateRoute(capacity *scancap.Cap) httpapi.Route {
	return httpapi.Route{Method: "POST", Path: "/v1/sca/gate", Scope: sentinel.ScopeSCARead, Class: httpapi.ClassScan,
		Summary: "The CI gate: match a build's components, counted as a scan (concurrency cap, scans meter); verdict and exit code 70/71/72.",
		Request: GateRequest{}, Response: GateResponse{}, Status: http.StatusOK,
		Handler: func(w http.ResponseWriter, r *http.Request) error { return s.gate(w, r, capacity) }}
}

func (s *Service) gate(w http.ResponseWriter, r *http.Request, capacity *scancap.Cap) error {
	var req GateRequest
	if err := httpapi.DecodeJSON(r.Body, 8<<20, &req); err != nil {
		return err
	}
	if len(req.Purls) > MaxMatchPurls {
		return sentinel.InvalidField("purls", "at most %d purls per request; split the batch", MaxMatchPurls)
	}
	p := httpapi.PrincipalFromContext(r.Context())
	// With no intel the gate cannot decide: it must not say OK.
	if st := s.Current(r.Context()).Stats(); st.Advisories == 0 {
		return sentinel.Errorf(sentinel.EUNAVAILABLE, "no advisory data is loaded yet, so the gate cannot decide; an operator must run sentineld intel sync")
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
	err = s.DB.InTx(r.Context(), func(tx *store.Tx) error {
		if err := tx.ConsumeMeter(r.Context(), p.OrgID, sentinel.MeterScans, 1); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "sca.gate", req.Project, map[string]any{"components": len(req.Purls)})
	})
	if err != nil {
		return err
	}
	out := GateResponse{Results: s.matchResults(r.Context(), req.Purls)}
	out.Verdict, out.ExitCode, out.Summary = Verdict(out.Results)
	w.Header().Set("X-Sentinel-Exit-Code", strconv.Itoa(out.ExitCode))
	httpapi.WriteJSON(w, http.StatusOK, out)
	return nil
}
