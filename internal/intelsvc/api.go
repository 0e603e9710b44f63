package intelsvc

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/intel"
)

// StatusResponse describes the loaded intel.
type StatusResponse struct {
	Advisories        int    `json:"advisories"`
	Withdrawn         int    `json:"withdrawn"`
	KEV               int    `json:"kev"`
	KEVCatalogVersion string `json:"kev_catalog_version,omitempty"`
	EOLProducts       int    `json:"eol_products"`
	LoadedSync        int64  `json:"loaded_sync"`
	// Freshness is what the match API and the gate answer with.
	Freshness *sentinel.IntelFreshness `json:"freshness"`
	// Feeds are the published feeds this replica syncs from (none when
	// switched off) and the newest sync of each.
	Feeds     []FeedStatus     `json:"feeds"`
	Index     intel.IndexStats `json:"index"`
	LastSyncs []SyncInfo       `json:"last_syncs"`
}

// SyncInfo is one recorded sync.
type SyncInfo struct {
	ID         int64           `json:"id"`
	StartedAt  string          `json:"started_at"`
	FinishedAt string          `json:"finished_at"`
	Status     string          `json:"status"`
	Sources    json.RawMessage `json:"sources"`
	Stats      json.RawMessage `json:"stats"`
	Delta      json.RawMessage `json:"delta"`
	Error      string          `json:"error,omitempty"`
}

// AliasResponse answers GET /v1/sca/intel/advisories/{id} for an id that
// is not a record's own but its alias (a CVE): the records that carry it.
type AliasResponse struct {
	ID         string   `json:"id"`
	Advisories []string `json:"advisories"`
}

// KEVResponse answers GET /v1/sca/intel/kev.
type KEVResponse struct {
	CVE        string          `json:"cve"`
	KEV        bool            `json:"kev"`
	DateAdded  string          `json:"date_added,omitempty"`
	Ransomware bool            `json:"ransomware"`
	Entry      json.RawMessage `json:"entry,omitempty"`
	Advisories []string        `json:"advisories"`
}

// Routes returns the match and intel API.
func (s *Service) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/sca/match", Scope: sentinel.ScopeSCARead, Class: httpapi.ClassRead,
			Summary: "Match up to 10,000 purls against advisories, KEV and end-of-life data; results in request order.",
			Request: sentinel.MatchRequest{}, Response: sentinel.MatchResponse{}, Handler: s.match},
		{Method: "GET", Path: "/v1/sca/intel/status", Scope: sentinel.ScopeSCAIntelRead,
			Summary: "What intel is loaded, and the last syncs with their deltas.", Response: StatusResponse{}, Handler: s.status},
		{Method: "GET", Path: "/v1/sca/intel/advisories/{id}", Scope: sentinel.ScopeSCAIntelRead,
			Summary: "One advisory as its OSV record.", Response: map[string]any{}, Handler: s.advisory},
		{Method: "GET", Path: "/v1/sca/intel/kev", Scope: sentinel.ScopeSCAIntelRead, Query: []string{"cve"},
			Summary: "Whether a CVE is in the known-exploited catalog.", Response: KEVResponse{}, Handler: s.kev},
		{Method: "GET", Path: "/v1/sca/intel/export", Scope: sentinel.ScopeSCAIntelRead,
			Summary: "The intel as an offline snapshot (zip) for sentinel ci --offline-db.", Handler: s.export},
	}
}

func (s *Service) match(w http.ResponseWriter, r *http.Request) error {
	var req sentinel.MatchRequest
	if err := httpapi.DecodeJSON(r.Body, 8<<20, &req); err != nil {
		return err
	}
	if len(req.Purls) > sentinel.MaxMatchPurls {
		return sentinel.InvalidField("purls", "at most %d purls per request; split the batch", sentinel.MaxMatchPurls)
	}
	// In request order; an unparseable purl gets an error of its own
	// instead of failing the batch (intel.Index.MatchBatch).
	idx := s.Current(r.Context())
	if idx.Stats().Advisories == 0 {
		return NoIntel()
	}
	httpapi.WriteJSON(w, 200, sentinel.MatchResponse{Results: idx.MatchBatch(req.Purls), Intel: s.Freshness(r.Context())})
	return nil
}

func (s *Service) status(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var out StatusResponse
	var err error
	if out.Advisories, out.Withdrawn, out.KEV, out.EOLProducts, err = s.DB.IntelCounts(ctx); err != nil {
		return err
	}
	if m := s.kevMeta.Load(); m != nil {
		out.KEVCatalogVersion = m.CatalogVersion
	}
	out.LoadedSync, out.Index, out.Freshness = s.loaded.Load(), s.Index().Stats(), s.Freshness(ctx)
	if out.Feeds, err = s.feedStatus(ctx); err != nil {
		return err
	}
	syncs, err := s.DB.LastSyncs(ctx, 10)
	if err != nil {
		return err
	}
	out.LastSyncs = []SyncInfo{}
	for _, sy := range syncs {
		out.LastSyncs = append(out.LastSyncs, SyncInfo{ID: sy.ID, StartedAt: sy.StartedAt.Format("2006-01-02T15:04:05Z"),
			FinishedAt: sy.FinishedAt.Format("2006-01-02T15:04:05Z"), Status: sy.Status, Sources: raw(sy.Sources),
			Stats: raw(sy.Stats), Delta: raw(sy.Delta), Error: sy.Error})
	}
	httpapi.WriteJSON(w, 200, out)
	return nil
}

func raw(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("{}")
	}
	return json.RawMessage(s)
}

func (s *Service) advisory(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	b, err := s.DB.AdvisoryRaw(r.Context(), id)
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		// A CVE (or another alias) names the records that alias it.
		if ids := s.Current(r.Context()).AdvisoriesOf(id); len(ids) > 0 {
			httpapi.WriteJSON(w, http.StatusOK, AliasResponse{ID: id, Advisories: ids})
			return nil
		}
	}
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
	return nil
}

func (s *Service) kev(w http.ResponseWriter, r *http.Request) error {
	cve := strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("cve")))
	if !strings.HasPrefix(cve, "CVE-") || len(cve) > 32 {
		return sentinel.InvalidField("cve", "cve must be a CVE id such as CVE-2021-44228")
	}
	out := KEVResponse{CVE: cve, Advisories: []string{}}
	k, err := s.DB.KEVByCVE(r.Context(), cve)
	switch {
	case err == nil:
		out.KEV, out.DateAdded, out.Ransomware, out.Entry = true, k.DateAdded, k.Ransomware, k.Raw
	case sentinel.ErrorCode(err) != sentinel.ENOTFOUND:
		return err
	}
	if ids := s.Current(r.Context()).AdvisoriesOf(cve); len(ids) > 0 {
		out.Advisories = ids
	}
	httpapi.WriteJSON(w, 200, out)
	return nil
}

func (s *Service) export(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="sentinel-intel.zip"`)
	return s.WriteSnapshot(r.Context(), w)
}
