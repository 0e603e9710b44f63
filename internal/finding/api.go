package finding

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// Routes returns the findings API.
func (e *Engine) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/findings", Scope: sentinel.ScopeFindingsRead,
			Query:   []string{"status", "category", "cwe", "kev", "development", "severity", "band", "asset", "purl", "advisory", "owner", "sort", "limit", "cursor"},
			Summary: "List findings; status may be a comma-separated list; sort=risk lists the highest risk first (default: by id).", Response: httpapi.ListResponse[sentinel.Finding]{},
			Handler: e.list},
		{Method: "GET", Path: "/v1/findings/summary", Scope: sentinel.ScopeFindingsRead, Query: []string{"days"},
			Summary:  "The organization's findings at a glance: open by band, known-exploited, overdue, the top ten of each, and the daily trend of new, resolved and unresolved findings; reused for up to 15 seconds (computed_at).",
			Response: sentinel.FindingSummary{}, Handler: e.summary},
		{Method: "GET", Path: "/v1/findings/{id}/history", Scope: sentinel.ScopeFindingsRead,
			Summary:  "A finding's history: its events and the audit entries of changes to it, oldest first.",
			Response: httpapi.ListResponse[sentinel.FindingHistoryEntry]{}, Handler: e.history},
		{Method: "GET", Path: "/v1/findings/{id}", Scope: sentinel.ScopeFindingsRead,
			Summary: "One finding.", Response: sentinel.Finding{}, Handler: e.get},
		{Method: "PATCH", Path: "/v1/findings/{id}", Scope: sentinel.ScopeFindingsWrite,
			Summary: "Change a finding's status (open, accepted with reason and accepted_until, false_positive with reason) or owner.",
			Request: Update{}, Response: sentinel.Finding{}, Handler: e.patch},
	}
}

func (e *Engine) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := sentinel.FindingFilter{OrgID: httpapi.PrincipalFromContext(r.Context()).OrgID, Page: page,
		Category: q.Get("category"), CWE: q.Get("cwe"), Severity: q.Get("severity"), Band: q.Get("band"), AssetID: q.Get("asset"),
		Purl: q.Get("purl"), Advisory: q.Get("advisory"), Owner: q.Get("owner"), Sort: q.Get("sort")}
	if f.Sort != "" && f.Sort != sentinel.FindingSortRisk {
		return sentinel.InvalidField("sort", "sort must be risk, or absent to list by id")
	}
	if s := q.Get("status"); s != "" {
		for _, st := range strings.Split(s, ",") {
			switch st {
			case sentinel.StatusOpen, sentinel.StatusAccepted, sentinel.StatusResolved, sentinel.StatusFalsePositive:
				f.Status = append(f.Status, st)
			default:
				return sentinel.InvalidField("status", "status must be open, accepted, resolved or false_positive")
			}
		}
	}
	if f.Category != "" && !slices.Contains(sentinel.Categories, f.Category) {
		return sentinel.InvalidField("category", "category must be one of %s", strings.Join(sentinel.Categories, ", "))
	}
	switch f.Band {
	case "", sentinel.BandCritical, sentinel.BandHigh, sentinel.BandMedium, sentinel.BandLow:
	default:
		return sentinel.InvalidField("band", "band must be critical, high, medium or low")
	}
	switch f.Severity {
	case "", sentinel.SeverityCritical, sentinel.SeverityHigh, sentinel.SeverityMedium, sentinel.SeverityLow, sentinel.SeverityNone, sentinel.SeverityUnknown:
	default:
		return sentinel.InvalidField("severity", "severity must be critical, high, medium, low, none or unknown")
	}
	// The asset is named by its id or by its name.
	if f.AssetID != "" && !sentinel.HasPrefix(f.AssetID, sentinel.PrefixAsset) {
		as, _, err := e.DB.FindAssets(r.Context(), sentinel.AssetFilter{OrgID: f.OrgID, Name: f.AssetID, Page: sentinel.Page{Limit: 1}})
		if err != nil {
			return err
		}
		if len(as) == 0 {
			httpapi.WriteList(w, []*sentinel.Finding{}, "")
			return nil
		}
		f.AssetID = as[0].ID
	}
	if f.KEV, err = boolParam(q, "kev"); err != nil {
		return err
	}
	if f.Development, err = boolParam(q, "development"); err != nil {
		return err
	}
	fs, next, err := e.DB.FindFindings(r.Context(), f)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, fs, next)
	return nil
}

func (e *Engine) get(w http.ResponseWriter, r *http.Request) error {
	f, err := e.DB.FindFindingByID(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, 200, f)
	return nil
}

func (e *Engine) patch(w http.ResponseWriter, r *http.Request) error {
	var u Update
	if err := httpapi.DecodeJSON(r.Body, 64<<10, &u); err != nil {
		return err
	}
	p := httpapi.PrincipalFromContext(r.Context())
	org, err := e.DB.FindOrgByID(r.Context(), p.OrgID)
	if err != nil {
		return err
	}
	f, err := e.Apply(r.Context(), org, r.PathValue("id"), u, httpapi.Actor(r))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, 200, f)
	return nil
}

// maxHistory bounds each kind of entry (events, audit entries) in a
// finding's history.
const maxHistory = 500

func (e *Engine) history(w http.ResponseWriter, r *http.Request) error {
	orgID := httpapi.PrincipalFromContext(r.Context()).OrgID
	f, err := e.DB.FindFindingByID(r.Context(), orgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	h, err := e.DB.FindingHistory(r.Context(), orgID, f.ID, maxHistory)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, httpapi.ListResponse[sentinel.FindingHistoryEntry]{Data: h})
	return nil
}

// boolParam reads an optional true/false query parameter: nil when absent.
func boolParam(q url.Values, name string) (*bool, error) {
	switch q.Get(name) {
	case "":
		return nil, nil
	case "true":
		return new(true), nil
	case "false":
		return new(false), nil
	}
	return nil, sentinel.InvalidField(name, "%s must be true or false", name)
}
