// Package assets serves the organization's assets: the hosts and projects
// agents report and the sites external scans reach. A site is registered
// with a target URL and a scan schedule (daily by default; scheduled scans
// are started by package scans on one replica at a time), and can be
// proved to be the organization's: a token published at
// <site>/.well-known/sentinel-verification.txt, or in a DNS TXT record of
// _sentinel.<host>. An organization may require that proof before a site
// is scanned (PATCH /v1/organization, require_verified_targets).
package assets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/scans"
)

// Store is what package assets reads, and Update its write transaction.
// The store implements it (store.Bind[assets.Tx]).
type Store interface {
	sentinel.OrgFinder
	FindAssets(ctx context.Context, f sentinel.AssetFilter) ([]*sentinel.Asset, string, error)
	FindAssetByID(ctx context.Context, orgID, id string) (*sentinel.Asset, error)
	FindFindings(ctx context.Context, f sentinel.FindingFilter) ([]*sentinel.Finding, string, error)
	FindScans(ctx context.Context, f sentinel.ScanFilter) ([]*sentinel.Scan, string, error)
	// LatestSubmissions returns each host's newest SBOM submission;
	// SubmissionItems its components.
	LatestSubmissions(ctx context.Context, orgID string) ([]*sentinel.Submission, error)
	SubmissionItems(ctx context.Context, orgID, id string) ([]sentinel.InventoryItem, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what package assets writes in one transaction.
type Tx interface {
	sentinel.EventWriter
	sentinel.AuditWriter
	EnsureSite(ctx context.Context, orgID, name, target, criticality, schedule string) (*sentinel.Asset, bool, error)
	UpdateAsset(ctx context.Context, orgID, id string, u sentinel.AssetUpdate) (*sentinel.Asset, error)
	MarkAssetVerified(ctx context.Context, orgID, id, method string) (*sentinel.Asset, error)
}

// Resolver looks up DNS TXT records; *net.Resolver implements it.
type Resolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
}

// Service serves the assets API.
type Service struct {
	DB Store
	// Policy guards the verification fetch like any outbound request.
	Policy netguard.Policy
	// Resolver answers the DNS proof (default net.DefaultResolver).
	Resolver Resolver
}

// View is an asset as the API shows it: with, for a site, how to prove
// the organization controls it.
type View struct {
	sentinel.Asset
	Verification *Verification `json:"verification,omitempty"`
}

// Verification tells how to prove control of a site.
type Verification struct {
	Token string `json:"token"`
	// HTTPURL is where to publish Token as the whole body.
	HTTPURL string `json:"http_url"`
	// DNSName is the name whose TXT record may hold Token instead.
	DNSName string `json:"dns_name"`
	// Verified is true once either proof was seen.
	Verified bool `json:"verified"`
}

// ViewOf returns the API view of an asset.
func ViewOf(a *sentinel.Asset) View {
	v := View{Asset: *a}
	if a.Kind == sentinel.AssetSite {
		host := a.Name
		if u, err := url.Parse(a.Name); err == nil {
			host = u.Hostname()
		}
		v.Verification = &Verification{Token: a.VerifyToken, HTTPURL: a.Name + wellKnown, DNSName: "_sentinel." + host,
			Verified: a.VerifiedAt != nil}
	}
	return v
}

const wellKnown = "/.well-known/sentinel-verification.txt"

// Detail is GET /v1/assets/{id}: the asset, its current components, its
// open findings and its latest scans.
type Detail struct {
	View
	// Components are the latest scan's detections (sites) or the latest
	// submission's components (hosts).
	Components []Component        `json:"components"`
	Findings   []sentinel.Finding `json:"findings"`
	// OpenByBand counts open findings per band.
	OpenByBand map[string]int  `json:"open_by_band"`
	Scans      []sentinel.Scan `json:"scans"`
}

// Component is one current component of an asset.
type Component struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Purl    string `json:"purl,omitempty"`
	// Source is the scan or submission that saw it.
	Source string `json:"source"`
}

// CreateRequest is POST /v1/assets's body: a site to scan on a schedule.
type CreateRequest struct {
	Target      string `json:"target" maxLength:"2048"`
	Criticality string `json:"criticality,omitempty" enum:"low,medium,high,critical"`
	Schedule    string `json:"schedule,omitempty" enum:"off,hourly,daily,weekly"`
}

// UpdateRequest is PATCH /v1/assets/{id}'s body.
type UpdateRequest struct {
	Criticality *string `json:"criticality,omitempty" enum:"low,medium,high,critical"`
	Schedule    *string `json:"schedule,omitempty" enum:"off,hourly,daily,weekly"`
}

// Routes are the assets API.
func (s *Service) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/assets", Scope: sentinel.ScopeAssetsRead, Query: []string{"kind", "state", "name", "limit", "cursor"},
			Summary: "The organization's assets: hosts and projects agents report, sites scans reach.", Response: httpapi.ListResponse[View]{},
			Handler: s.list},
		{Method: "GET", Path: "/v1/assets/{id}", Scope: sentinel.ScopeAssetsRead,
			Summary: "One asset with its current components, open findings and latest scans.", Response: Detail{}, Handler: s.get},
		{Method: "POST", Path: "/v1/assets", Scope: sentinel.ScopeScansWrite, Status: http.StatusCreated,
			Summary: "Register a site to scan on a schedule (default daily).", Request: CreateRequest{}, Response: View{}, Handler: s.create},
		{Method: "PATCH", Path: "/v1/assets/{id}", Scope: sentinel.ScopeScansWrite,
			Summary: "Change an asset's criticality or a site's scan schedule.", Request: UpdateRequest{}, Response: View{}, Handler: s.update},
		{Method: "POST", Path: "/v1/assets/{id}/verify", Scope: sentinel.ScopeScansWrite,
			Summary: "Check the proof that the organization controls a site (the token at the well-known URL or in DNS).", Response: View{}, Handler: s.verify},
	}
}

func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := sentinel.AssetFilter{OrgID: httpapi.PrincipalFromContext(r.Context()).OrgID, Kind: q.Get("kind"), State: q.Get("state"), Name: q.Get("name"), Page: page}
	switch f.Kind {
	case "", sentinel.AssetHost, sentinel.AssetProject, sentinel.AssetSite:
	default:
		return sentinel.InvalidField("kind", "kind must be host, project or site")
	}
	switch f.State {
	case "", sentinel.AssetActive, sentinel.AssetDisappeared:
	default:
		return sentinel.InvalidField("state", "state must be active or disappeared")
	}
	as, next, err := s.DB.FindAssets(r.Context(), f)
	if err != nil {
		return err
	}
	httpapi.WriteListOf(w, as, next, ViewOf)
	return nil
}

func (s *Service) get(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	orgID := httpapi.PrincipalFromContext(ctx).OrgID
	a, err := s.DB.FindAssetByID(ctx, orgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	d := Detail{View: ViewOf(a), Components: []Component{}, Findings: []sentinel.Finding{}, OpenByBand: map[string]int{},
		Scans: []sentinel.Scan{}}
	fs, _, err := s.DB.FindFindings(ctx, sentinel.FindingFilter{OrgID: orgID, AssetID: a.ID, Status: []string{sentinel.StatusOpen},
		Page: sentinel.Page{Limit: 500}})
	if err != nil {
		return err
	}
	for _, f := range fs {
		d.Findings = append(d.Findings, *f)
		d.OpenByBand[f.Band]++
	}
	scans, _, err := s.DB.FindScans(ctx, sentinel.ScanFilter{OrgID: orgID, AssetID: a.ID, Page: sentinel.Page{Limit: 10}})
	if err != nil {
		return err
	}
	for _, sc := range scans {
		d.Scans = append(d.Scans, *sc)
	}
	switch a.Kind {
	case sentinel.AssetSite:
		for _, sc := range scans {
			if sc.Status != sentinel.ScanCompleted || sc.Stats == nil || !sc.Stats.Reachable {
				continue
			}
			for _, det := range sc.Detections {
				d.Components = append(d.Components, Component{Name: det.Name, Version: det.Version, Purl: det.Purl, Source: sc.ID})
			}
			break
		}
	default:
		subs, err := s.DB.LatestSubmissions(ctx, orgID)
		if err != nil {
			return err
		}
		if i := slices.IndexFunc(subs, func(x *sentinel.Submission) bool { return x.Host == a.Name }); i >= 0 {
			items, err := s.DB.SubmissionItems(ctx, orgID, subs[i].ID)
			if err != nil {
				return err
			}
			for _, it := range items {
				d.Components = append(d.Components, Component{Name: it.Name, Version: it.Version, Purl: it.Purl, Source: subs[i].ID})
			}
		}
	}
	httpapi.WriteJSON(w, http.StatusOK, d)
	return nil
}

func validSchedule(s string) bool {
	return s == sentinel.ScheduleOff || sentinel.ScheduleInterval(s) > 0
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) error {
	var req CreateRequest
	if err := httpapi.DecodeJSON(r.Body, 16<<10, &req); err != nil {
		return err
	}
	if req.Criticality == "" {
		req.Criticality = sentinel.CriticalityMedium
	}
	if req.Schedule == "" {
		req.Schedule = sentinel.ScheduleDaily
	}
	if !sentinel.ValidCriticality(req.Criticality) {
		return sentinel.InvalidField("criticality", "criticality must be low, medium, high or critical")
	}
	if !validSchedule(req.Schedule) {
		return sentinel.InvalidField("schedule", "schedule must be off, hourly, daily or weekly")
	}
	name, err := scans.SiteName(req.Target)
	if err != nil {
		return err
	}
	if err := netguard.CheckURL(r.Context(), req.Target, s.Policy); err != nil {
		return sentinel.InvalidField("target", "%s", err.Error())
	}
	p := httpapi.PrincipalFromContext(r.Context())
	org, err := s.DB.FindOrgByID(r.Context(), p.OrgID)
	if err != nil {
		return err
	}
	var a *sentinel.Asset
	err = s.DB.Update(r.Context(), func(tx Tx) error {
		var created bool
		var err error
		if a, created, err = tx.EnsureSite(r.Context(), p.OrgID, name, req.Target, req.Criticality, req.Schedule); err != nil {
			return err
		}
		if !created {
			return sentinel.Errorf(sentinel.ECONFLICT, "%s is already asset %s; change it with PATCH /v1/assets/%s", name, a.ID, a.ID)
		}
		if _, err := tx.EmitEvent(r.Context(), org, sentinel.EventAssetFirstSeen, "", map[string]any{
			"asset_id": a.ID, "name": a.Name, "kind": a.Kind, "criticality": a.Criticality, "target": a.Target}); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "asset.create", a.ID, map[string]any{"target": req.Target, "schedule": req.Schedule})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, ViewOf(a))
	return nil
}

func (s *Service) update(w http.ResponseWriter, r *http.Request) error {
	var req UpdateRequest
	if err := httpapi.DecodeJSON(r.Body, 16<<10, &req); err != nil {
		return err
	}
	if req.Criticality != nil && !sentinel.ValidCriticality(*req.Criticality) {
		return sentinel.InvalidField("criticality", "criticality must be low, medium, high or critical")
	}
	if req.Schedule != nil && !validSchedule(*req.Schedule) {
		return sentinel.InvalidField("schedule", "schedule must be off, hourly, daily or weekly")
	}
	p := httpapi.PrincipalFromContext(r.Context())
	id := r.PathValue("id")
	if req.Schedule != nil {
		a, err := s.DB.FindAssetByID(r.Context(), p.OrgID, id)
		if err != nil {
			return err
		}
		if a.Kind != sentinel.AssetSite {
			return sentinel.InvalidField("schedule", "only sites are scanned on a schedule; %s is a %s", a.Name, a.Kind)
		}
	}
	var a *sentinel.Asset
	err := s.DB.Update(r.Context(), func(tx Tx) (err error) {
		if a, err = tx.UpdateAsset(r.Context(), p.OrgID, id, sentinel.AssetUpdate{Criticality: req.Criticality, Schedule: req.Schedule}); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "asset.update", id, map[string]any{"criticality": req.Criticality, "schedule": req.Schedule})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ViewOf(a))
	return nil
}

func (s *Service) verify(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p := httpapi.PrincipalFromContext(ctx)
	a, err := s.DB.FindAssetByID(ctx, p.OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	if a.Kind != sentinel.AssetSite {
		return sentinel.InvalidField("id", "only sites are verified; %s is a %s", a.Name, a.Kind)
	}
	method, why := s.prove(ctx, a)
	if method == "" {
		return sentinel.InvalidField("target", "no proof found: %s", why)
	}
	err = s.DB.Update(ctx, func(tx Tx) (err error) {
		if a, err = tx.MarkAssetVerified(ctx, p.OrgID, a.ID, method); err != nil {
			return err
		}
		return tx.Audit(ctx, p.OrgID, httpapi.Actor(r), "asset.verify", a.ID, map[string]any{"method": method})
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ViewOf(a))
	return nil
}

// prove looks for the site's token over HTTP(S), then in DNS. It returns
// the method that found it, or "" and what was seen, in one sentence.
func (s *Service) prove(ctx context.Context, a *sentinel.Asset) (method, why string) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var reasons []string
	if err := s.proveHTTP(ctx, a); err == nil {
		return "http", ""
	} else {
		reasons = append(reasons, err.Error())
	}
	if err := s.proveDNS(ctx, a); err == nil {
		return "dns", ""
	} else {
		reasons = append(reasons, err.Error())
	}
	return "", strings.Join(reasons, "; ")
}

func (s *Service) proveHTTP(ctx context.Context, a *sentinel.Asset) error {
	u := a.Name + wellKnown
	if err := netguard.CheckURL(ctx, u, s.Policy); err != nil {
		return fmt.Errorf("%s: %v", u, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := netguard.NewClient(s.Policy, 10*time.Second).Do(req)
	if err != nil {
		var ge *netguard.Error
		if errors.As(err, &ge) {
			return fmt.Errorf("%s: %v", u, ge)
		}
		return fmt.Errorf("%s could not be fetched", u)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %d", u, resp.StatusCode)
	}
	if strings.TrimSpace(string(body)) != a.VerifyToken {
		return fmt.Errorf("%s does not hold the token", u)
	}
	return nil
}

func (s *Service) proveDNS(ctx context.Context, a *sentinel.Asset) error {
	r := s.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	host := a.Name
	if u, err := url.Parse(a.Name); err == nil {
		host = u.Hostname()
	}
	name := "_sentinel." + host
	txts, err := r.LookupTXT(ctx, name)
	if err != nil {
		return fmt.Errorf("DNS TXT of %s could not be read", name)
	}
	if slices.Contains(txts, a.VerifyToken) {
		return nil
	}
	return fmt.Errorf("no DNS TXT record of %s holds the token", name)
}
