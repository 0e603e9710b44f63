package portal

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/assets"
)

type assetsData struct {
	Kind, State, Name string
	Assets            list[assets.View]
	// Form keeps what the site form sent when the API refused it.
	Form map[string]string
}

func (s *Site) assetsPage(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, v *view, form map[string]string) error {
	q := r.URL.Query()
	d := &assetsData{Kind: q.Get("kind"), State: q.Get("state"), Name: strings.TrimSpace(q.Get("name")), Form: form}
	as, err := listOf[assets.View](s, r, c, "/v1/assets", url.Values{"kind": {d.Kind}, "state": {d.State}, "name": {d.Name}})
	if err != nil {
		return err
	}
	d.Assets = as
	v.Title, v.Active, v.Data = "Assets", "assets", d
	s.render(w, r, c, status, "assets.html", v)
	return nil
}

func (s *Site) assets(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.assetsPage(w, r, c, http.StatusOK, &view{}, nil)
}

// createAsset registers a site to scan on a schedule (POST /v1/assets).
func (s *Site) createAsset(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := r.PostForm
	body := assets.CreateRequest{Target: strings.TrimSpace(f.Get("target")), Criticality: f.Get("criticality"), Schedule: f.Get("schedule")}
	var a assets.View
	err := s.call(r, c, http.MethodPost, "/v1/assets", nil, body, &a)
	if ae, ok := err.(*apiError); ok && (ae.Status == http.StatusBadRequest || ae.Status == http.StatusConflict) {
		return s.assetsPage(w, r, c, ae.Status, &view{Error: ae.Body.Message, Field: ae.Body.Field},
			map[string]string{"target": body.Target, "criticality": body.Criticality, "schedule": body.Schedule})
	}
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/assets/"+url.PathEscape(a.ID), http.StatusSeeOther)
	return nil
}

type assetData struct {
	assets.Detail
	Now time.Time
}

func (s *Site) asset(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d := &assetData{Now: s.now()}
	if err := s.call(r, c, http.MethodGet, "/v1/assets/"+url.PathEscape(r.PathValue("id")), nil, nil, &d.Detail); err != nil {
		return err
	}
	// Highest risk first, as on the Findings page.
	slices.SortStableFunc(d.Findings, func(a, b sentinel.Finding) int { return b.RiskScore - a.RiskScore })
	s.render(w, r, c, http.StatusOK, "asset.html", &view{Title: d.Name, Active: "assets", Data: d})
	return nil
}

// scanAsset starts a scan of a site asset's target (POST /v1/scans).
func (s *Site) scanAsset(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	var a assets.Detail
	if err := s.call(r, c, http.MethodGet, "/v1/assets/"+url.PathEscape(r.PathValue("id")), nil, nil, &a); err != nil {
		return err
	}
	if a.Kind != sentinel.AssetSite || a.Target == "" {
		return &apiError{Status: http.StatusBadRequest, Body: apiBody("invalid_request", "only sites are scanned from outside; "+a.Name+" is a "+a.Kind)}
	}
	var sc sentinel.Scan
	if err := s.call(r, c, http.MethodPost, "/v1/scans", nil, map[string]string{"target": a.Target}, &sc); err != nil {
		return err
	}
	http.Redirect(w, r, "/scans/"+url.PathEscape(sc.ID), http.StatusSeeOther)
	return nil
}

type scansData struct {
	Status string
	Scans  list[sentinel.Scan]
	Form   map[string]string
}

func (s *Site) scansPage(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, v *view, form map[string]string) error {
	d := &scansData{Status: r.URL.Query().Get("status"), Form: form}
	sc, err := listOf[sentinel.Scan](s, r, c, "/v1/scans", url.Values{"status": {d.Status}, "asset": {r.URL.Query().Get("asset")}})
	if err != nil {
		return err
	}
	d.Scans = sc
	for _, x := range sc.Items {
		if x.Status == sentinel.ScanQueued || x.Status == sentinel.ScanRunning {
			w.Header().Set("Refresh", "5") // no JavaScript: the list reloads while scans run
			break
		}
	}
	v.Title, v.Active, v.Data = "Scans", "scans", d
	s.render(w, r, c, status, "scans.html", v)
	return nil
}

func (s *Site) scans(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.scansPage(w, r, c, http.StatusOK, &view{}, nil)
}

// startScan queues a scan of a URL (POST /v1/scans: the organization's cap
// and meter apply, and the request waits for a slot like the API's).
func (s *Site) startScan(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f := r.PostForm
	body := map[string]string{"target": strings.TrimSpace(f.Get("target"))}
	for _, k := range []string{"criticality", "schedule"} {
		if v := f.Get(k); v != "" {
			body[k] = v
		}
	}
	var sc sentinel.Scan
	err := s.call(r, c, http.MethodPost, "/v1/scans", nil, body, &sc)
	if ae, ok := err.(*apiError); ok && ae.Status < 500 && ae.Status != http.StatusNotFound {
		return s.scansPage(w, r, c, ae.Status, &view{Error: ae.Body.Message, Field: ae.Body.Field}, body)
	}
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/scans/"+url.PathEscape(sc.ID), http.StatusSeeOther)
	return nil
}

func (s *Site) scan(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	var sc sentinel.Scan
	if err := s.call(r, c, http.MethodGet, "/v1/scans/"+url.PathEscape(r.PathValue("id")), nil, nil, &sc); err != nil {
		return err
	}
	if sc.Status == sentinel.ScanQueued || sc.Status == sentinel.ScanRunning {
		w.Header().Set("Refresh", "3")
	}
	s.render(w, r, c, http.StatusOK, "scan.html", &view{Title: "Scan " + sc.ID, Active: "scans", Data: &sc})
	return nil
}

func (s *Site) cancelScan(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id := r.PathValue("id")
	if err := s.call(r, c, http.MethodPost, "/v1/scans/"+url.PathEscape(id)+"/cancel", nil, nil, nil); err != nil {
		return err
	}
	redirect(w, r, "/scans/"+url.PathEscape(id), "scan_canceled")
	return nil
}

type submissionsData struct {
	Host        string
	Submissions list[sentinel.Submission]
}

func (s *Site) submissions(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d := &submissionsData{Host: strings.TrimSpace(r.URL.Query().Get("host"))}
	subs, err := listOf[sentinel.Submission](s, r, c, "/v1/sbom/submissions", url.Values{"host": {d.Host}, "order": {"newest"}})
	if err != nil {
		return err
	}
	d.Submissions = subs
	s.render(w, r, c, http.StatusOK, "submissions.html", &view{Title: "SBOM submissions", Active: "submissions", Data: d})
	return nil
}

// submissionDocument downloads a submission's original bytes, streamed
// from the API as they are.
func (s *Site) submissionDocument(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	return s.stream(w, r, c, "/v1/sbom/submissions/"+url.PathEscape(r.PathValue("id"))+"/document")
}
