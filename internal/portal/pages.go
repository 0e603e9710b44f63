package portal

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/assets"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/inventory"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// pageSize is how many rows a list page shows.
const pageSize = 50

// list is a page of an API list and the links around it.
type list[T any] struct {
	Items []T
	// Next is the link to the next page ("" on the last); First the link
	// back to the first when this is not it.
	Next, First string
}

// listOf calls a list operation with the page's cursor and the filters in
// query, and returns its items with the links of the next and first
// pages (the same filters, another cursor).
func listOf[T any](s *Site, r *http.Request, c *reqCtx, path string, query url.Values) (list[T], error) {
	var out list[T]
	q := url.Values{}
	for k, v := range query {
		if len(v) > 0 && v[0] != "" {
			q[k] = v
		}
	}
	cursor := r.URL.Query().Get("cursor")
	api := url.Values{"limit": {itoa(pageSize)}}
	for k, v := range q {
		api[k] = v
	}
	if cursor != "" {
		api.Set("cursor", cursor)
	}
	var resp httpapi.ListResponse[T]
	if err := s.call(r, c, http.MethodGet, path, api, nil, &resp); err != nil {
		return out, err
	}
	out.Items = resp.Data
	if resp.NextCursor != "" {
		n := url.Values{}
		for k, v := range q {
			n[k] = v
		}
		n.Set("cursor", resp.NextCursor)
		out.Next = r.URL.Path + "?" + n.Encode()
	}
	if cursor != "" {
		out.First = r.URL.Path
		if len(q) > 0 {
			out.First += "?" + q.Encode()
		}
	}
	return out, nil
}

type overviewData struct {
	Summary *sentinel.FindingSummary
	Bands   []bandCount
	Trend   trendChart
	// Intel is nil when the role cannot read intel status.
	Intel *intelView
	Now   time.Time
}

type bandCount struct {
	Band  string
	Count int
	// Width is the bar's length in the chart, 0-100.
	Width int
}

type intelView struct {
	Status *intelsvc.StatusResponse
	// LastOK is when the newest successful sync finished ("" before the
	// first); Stale is the intel service's own verdict on its age.
	LastOK string
	Age    string
	Stale  bool
	// Failed names the feeds whose newest sync failed.
	Failed []intelsvc.FeedStatus
}

func (s *Site) overview(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	var sum sentinel.FindingSummary
	if err := s.call(r, c, http.MethodGet, "/v1/findings/summary", url.Values{"days": {"30"}}, nil, &sum); err != nil {
		return err
	}
	d := overviewData{Summary: &sum, Now: s.now(), Trend: newTrendChart(sum.Trend)}
	maxBand := 1
	for _, b := range bandOrder {
		maxBand = max(maxBand, sum.OpenByBand[b])
	}
	for _, b := range bandOrder {
		n := sum.OpenByBand[b]
		d.Bands = append(d.Bands, bandCount{Band: b, Count: n, Width: n * 100 / maxBand})
	}
	if c.can(sentinel.ScopeSCAIntelRead) {
		var st intelsvc.StatusResponse
		if err := s.call(r, c, http.MethodGet, "/v1/sca/intel/status", nil, nil, &st); err != nil {
			return err
		}
		iv := &intelView{Status: &st}
		if f := st.Freshness; f != nil {
			iv.Stale = f.Stale
			if f.SyncedAt != nil {
				iv.LastOK = ts(*f.SyncedAt)
				iv.Age = ago(s.now(), *f.SyncedAt)
			}
		}
		for _, f := range st.Feeds {
			if f.LastError != "" {
				iv.Failed = append(iv.Failed, f)
			}
		}
		d.Intel = iv
	}
	s.render(w, r, c, http.StatusOK, "overview.html", &view{Title: "Overview", Active: "overview", Data: d})
	return nil
}

var bandOrder = []string{sentinel.BandCritical, sentinel.BandHigh, sentinel.BandMedium, sentinel.BandLow}

type inventoryData struct {
	Name, Version string
	Result        *inventory.SearchResult
	// Coverage is the inventory per ecosystem, shown without a search.
	Coverage *inventory.Coverage
}

func (s *Site) inventory(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	q := r.URL.Query()
	d := inventoryData{Name: strings.TrimSpace(q.Get("name")), Version: strings.TrimSpace(q.Get("version"))}
	v := &view{Title: "Inventory", Active: "inventory", Data: &d}
	if d.Name != "" {
		var res inventory.SearchResult
		err := s.call(r, c, http.MethodGet, "/api/v1/inventory/components/search", url.Values{"name": {d.Name}, "version": {d.Version}}, nil, &res)
		if ae, ok := err.(*apiError); ok && ae.Status == http.StatusBadRequest {
			v.Error, v.Field = ae.Body.Message, ae.Body.Field
			s.render(w, r, c, ae.Status, "inventory.html", v)
			return nil
		}
		if err != nil {
			return err
		}
		d.Result = &res
	} else {
		var cov inventory.Coverage
		if err := s.call(r, c, http.MethodGet, "/v1/inventory/ecosystems", nil, nil, &cov); err != nil {
			return err
		}
		d.Coverage = &cov
	}
	s.render(w, r, c, http.StatusOK, "inventory.html", v)
	return nil
}

type componentData struct {
	Name, Version string
	Result        *inventory.SearchResult
	// Matches has the advisories of each matching purl (only purls with a
	// version can be matched).
	Matches  []sentinel.MatchResult
	Findings list[sentinel.Finding]
	Now      time.Time
}

func (s *Site) component(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	q := r.URL.Query()
	d := componentData{Name: strings.TrimSpace(q.Get("name")), Version: strings.TrimSpace(q.Get("version")), Now: s.now()}
	if d.Name == "" {
		http.Redirect(w, r, "/inventory", http.StatusSeeOther)
		return nil
	}
	var res inventory.SearchResult
	if err := s.call(r, c, http.MethodGet, "/api/v1/inventory/components/search", url.Values{"name": {d.Name}, "version": {d.Version}}, nil, &res); err != nil {
		return err
	}
	d.Result = &res
	var purls []string
	for _, m := range res.Components {
		if m.Purl != "" && m.Version != "" && !slices.Contains(purls, m.Purl) {
			purls = append(purls, m.Purl)
		}
	}
	if len(purls) > 0 {
		var mr sentinel.MatchResponse
		if err := s.call(r, c, http.MethodPost, "/v1/sca/match", nil, sentinel.MatchRequest{Purls: purls}, &mr); err != nil {
			return err
		}
		d.Matches = mr.Results
	}
	// The open findings about this component, when the role reads them
	// and there is one purl to ask for.
	if len(purls) == 1 && c.can(sentinel.ScopeFindingsRead) {
		fs, err := listOf[sentinel.Finding](s, r, c, "/v1/findings", url.Values{"purl": {purls[0]}, "status": {sentinel.StatusOpen}, "sort": {sentinel.FindingSortRisk}})
		if err != nil {
			return err
		}
		d.Findings = fs
	}
	title := d.Name
	if d.Version != "" {
		title += " " + d.Version
	}
	s.render(w, r, c, http.StatusOK, "component.html", &view{Title: title, Active: "inventory", Data: &d})
	return nil
}

// findingFilters are the Findings page's filters, as its form and the API
// both name them.
var findingFilters = []string{"status", "band", "kev", "development", "category", "asset", "owner", "purl", "advisory"}

type findingsData struct {
	Filter   map[string]string
	Findings list[sentinel.Finding]
	// AssetName names the asset of the asset filter.
	AssetName string
	Now       time.Time
}

func (s *Site) findings(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	q := r.URL.Query()
	f := map[string]string{}
	api := url.Values{"sort": {sentinel.FindingSortRisk}}
	for _, k := range findingFilters {
		f[k] = strings.TrimSpace(q.Get(k))
	}
	// Open findings unless the form asks for another status; "any" lists
	// every status.
	if _, asked := q["status"]; !asked {
		f["status"] = sentinel.StatusOpen
	}
	d := findingsData{Filter: f, Now: s.now(), AssetName: strings.TrimSpace(q.Get("asset_name"))}
	v := &view{Title: "Findings", Active: "findings", Data: &d}
	// The form names an asset by its name; links name it by id.
	if d.AssetName != "" && f["asset"] == "" {
		var as httpapi.ListResponse[assets.View]
		if err := s.call(r, c, http.MethodGet, "/v1/assets", url.Values{"name": {d.AssetName}, "limit": {"1"}}, nil, &as); err != nil {
			return err
		}
		if len(as.Data) == 0 {
			v.Error, v.Field = "There is no asset named "+d.AssetName+".", "asset"
			s.render(w, r, c, http.StatusBadRequest, "findings.html", v)
			return nil
		}
		f["asset"] = as.Data[0].ID
	}
	for k, val := range f {
		if val != "" && !(k == "status" && val == "any") {
			api.Set(k, val)
		}
	}
	fs, err := listOf[sentinel.Finding](s, r, c, "/v1/findings", api)
	if ae, ok := err.(*apiError); ok && ae.Status == http.StatusBadRequest {
		v.Error, v.Field = ae.Body.Message, ae.Body.Field
		s.render(w, r, c, ae.Status, "findings.html", v)
		return nil
	}
	if err != nil {
		return err
	}
	d.Findings = fs
	if d.AssetName == "" && f["asset"] != "" {
		// A link named the asset by id; its findings name it.
		d.AssetName = f["asset"]
		if len(fs.Items) > 0 {
			d.AssetName = fs.Items[0].AssetName
		}
	}
	s.render(w, r, c, http.StatusOK, "findings.html", v)
	return nil
}

type findingData struct {
	F       sentinel.Finding
	History []sentinel.FindingHistoryEntry
	Now     time.Time
	// Today is the earliest date a risk may be accepted until; MaxUntil the
	// latest (the API's 366 days).
	Today, MaxUntil string
	// Component is the inventory name and version of the finding's purl.
	Component sentinel.InventoryItem
	// Names are the email addresses of the users in the history.
	Names map[string]string
}

func (s *Site) loadFinding(r *http.Request, c *reqCtx) (*findingData, error) {
	id := r.PathValue("id")
	d := &findingData{Now: s.now()}
	if err := s.call(r, c, http.MethodGet, "/v1/findings/"+url.PathEscape(id), nil, nil, &d.F); err != nil {
		return nil, err
	}
	var h httpapi.ListResponse[sentinel.FindingHistoryEntry]
	if err := s.call(r, c, http.MethodGet, "/v1/findings/"+url.PathEscape(id)+"/history", nil, nil, &h); err != nil {
		return nil, err
	}
	d.History = h.Data
	slices.Reverse(d.History) // newest first
	d.Today = d.Now.UTC().Add(24 * time.Hour).Format(time.DateOnly)
	d.MaxUntil = d.Now.UTC().Add(365 * 24 * time.Hour).Format(time.DateOnly)
	d.Component = componentOf(d.F.Purl)
	var actors []string
	for _, h := range d.History {
		actors = append(actors, h.Actor)
	}
	d.Names = s.userNames(r, c, actors)
	return d, nil
}

// userNames maps the portal users among actors (ids "usr_…" in audit
// entries and records) to their email addresses, for people to read.
// Users are the portal's own records, looked up in the user's
// organization only.
func (s *Site) userNames(r *http.Request, c *reqCtx, actors []string) map[string]string {
	out := map[string]string{}
	for _, a := range actors {
		if _, done := out[a]; done || !strings.HasPrefix(a, sentinel.PrefixUser) || len(out) >= 100 {
			continue
		}
		if u, err := s.DB.FindUser(r.Context(), c.org.ID, a); err == nil {
			out[a] = u.Email
		}
	}
	return out
}

func (s *Site) finding(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.loadFinding(r, c)
	if err != nil {
		return err
	}
	s.render(w, r, c, http.StatusOK, "finding.html", &view{Title: d.F.AdvisoryID, Active: "findings", Data: d})
	return nil
}

// updateFinding applies one of the finding page's forms through
// PATCH /v1/findings/{id}: accept a risk (reason, until a date), mark a
// false positive (reason), reopen, or assign an owner.
func (s *Site) updateFinding(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id := r.PathValue("id")
	f := r.PostForm
	body := map[string]any{}
	switch f.Get("action") {
	case "accept":
		body["status"], body["reason"] = sentinel.StatusAccepted, f.Get("reason")
		if until := f.Get("accepted_until"); until != "" {
			t, err := time.Parse(time.DateOnly, until)
			if err != nil {
				return s.findingFormError(w, r, c, sentinel.InvalidField("accepted_until", "accepted_until must be a date such as 2027-01-31"))
			}
			// Until the end of that day, UTC.
			body["accepted_until"] = t.Add(24*time.Hour - time.Second).UTC().Format(time.RFC3339)
		}
	case "false_positive":
		body["status"], body["reason"] = sentinel.StatusFalsePositive, f.Get("reason")
	case "reopen":
		body["status"] = sentinel.StatusOpen
		if reason := f.Get("reason"); reason != "" {
			body["reason"] = reason
		}
	case "assign":
		body["owner"] = strings.TrimSpace(f.Get("owner"))
	default:
		return s.findingFormError(w, r, c, sentinel.InvalidField("action", "unknown action"))
	}
	err := s.call(r, c, http.MethodPatch, "/v1/findings/"+url.PathEscape(id), nil, body, nil)
	if ae, ok := err.(*apiError); ok && ae.Status == http.StatusBadRequest {
		return s.findingFormError(w, r, c, err)
	}
	if err != nil {
		return err
	}
	redirect(w, r, "/findings/"+url.PathEscape(id), "finding_updated")
	return nil
}

// findingFormError shows the finding page again with what the API (or
// the form) refused.
func (s *Site) findingFormError(w http.ResponseWriter, r *http.Request, c *reqCtx, err error) error {
	d, lerr := s.loadFinding(r, c)
	if lerr != nil {
		return lerr
	}
	status, _, msg := errorOf(err)
	v := &view{Title: d.F.AdvisoryID, Active: "findings", Data: d, Error: msg}
	if e := sentinel.AsError(err); e != nil {
		v.Field = e.Field
	}
	if ae, ok := err.(*apiError); ok {
		v.Field = ae.Body.Field
	}
	s.render(w, r, c, status, "finding.html", v)
	return nil
}

// componentOf returns the inventory name and version of a purl, for links
// to the component's page.
func componentOf(p string) sentinel.InventoryItem { return purl.ItemFromPurl(p, "", "") }

func itoa(n int) string { return strconv.Itoa(n) }
