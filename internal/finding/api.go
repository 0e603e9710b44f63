package finding

import (
	"net/http"
	"strings"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// Routes returns the findings API.
func (e *Engine) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/findings", Scope: sentinel.ScopeFindingsRead,
			Query:   []string{"status", "category", "kev", "severity", "band", "asset", "purl", "advisory", "limit", "cursor"},
			Summary: "List findings; status may be a comma-separated list.", Response: httpapi.ListResponse[sentinel.Finding]{},
			Handler: e.list},
		{Method: "GET", Path: "/v1/findings/{id}", Scope: sentinel.ScopeFindingsRead,
			Summary: "One finding.", Response: sentinel.Finding{}, Handler: e.get},
		{Method: "PATCH", Path: "/v1/findings/{id}", Scope: sentinel.ScopeFindingsWrite,
			Summary: "Change a finding's status (open, accepted with reason and accepted_until, false_positive with reason) or owner.",
			Request: Update{}, Response: sentinel.Finding{}, Handler: e.patch},
		{Method: "GET", Path: "/v1/assets", Scope: sentinel.ScopeAssetsRead,
			Summary: "The organization's assets.", Response: httpapi.ListResponse[sentinel.Asset]{}, Handler: e.assets},
	}
}

func (e *Engine) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := store.FindingFilter{OrgID: httpapi.PrincipalFromContext(r.Context()).OrgID, Page: page,
		Category: q.Get("category"), Severity: q.Get("severity"), Band: q.Get("band"), AssetID: q.Get("asset"),
		Purl: q.Get("purl"), Advisory: q.Get("advisory")}
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
	switch q.Get("kev") {
	case "":
	case "true":
		t := true
		f.KEV = &t
	case "false":
		v := false
		f.KEV = &v
	default:
		return sentinel.InvalidField("kev", "kev must be true or false")
	}
	fs, next, err := e.DB.FindFindings(r.Context(), f)
	if err != nil {
		return err
	}
	out := httpapi.ListResponse[sentinel.Finding]{Data: make([]sentinel.Finding, 0, len(fs)), NextCursor: next}
	for _, x := range fs {
		out.Data = append(out.Data, *x)
	}
	httpapi.WriteJSON(w, 200, out)
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

func (e *Engine) assets(w http.ResponseWriter, r *http.Request) error {
	as, err := e.DB.ListAssets(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID)
	if err != nil {
		return err
	}
	out := httpapi.ListResponse[sentinel.Asset]{Data: make([]sentinel.Asset, 0, len(as))}
	for _, a := range as {
		out.Data = append(out.Data, *a)
	}
	httpapi.WriteJSON(w, 200, out)
	return nil
}
