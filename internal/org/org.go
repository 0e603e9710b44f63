// Package org serves what belongs to a whole organization rather than to
// one capability: its settings, its audit log and its monthly meters.
package org

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// Store is what package org reads, and Update its write transaction. The
// store implements it (store.Bind[org.Tx]).
type Store interface {
	sentinel.OrgFinder
	// FindAuditEntries returns audit entries oldest first.
	FindAuditEntries(ctx context.Context, f sentinel.AuditFilter) ([]*sentinel.AuditEntry, string, error)
	// MeterStatuses returns every meter's limit and use this month.
	MeterStatuses(ctx context.Context, orgID string) ([]sentinel.MeterStatus, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what package org writes in one transaction.
type Tx interface {
	sentinel.AuditWriter
	UpdateOrg(ctx context.Context, id string, u sentinel.OrgUpdate) error
}

// Settings is the organization as GET and PATCH /v1/organization show it.
type Settings struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
	// Catalog is the primary compliance catalog: nist-800-53, pci-dss-4 or
	// iso-27001-2022.
	Catalog string `json:"catalog"`
	// ShareDays is how long a new Evidence Bundle share stays active.
	ShareDays int `json:"share_days"`
	// RequireVerifiedTargets makes external scans wait for proof that the
	// organization controls a site.
	RequireVerifiedTargets bool      `json:"require_verified_targets"`
	CreatedAt              time.Time `json:"created_at"`
}

// SettingsOf returns the settings view of an organization.
func SettingsOf(o *sentinel.Organization) Settings {
	return Settings{ID: o.ID, Slug: o.Slug, Name: o.Name, Catalog: o.Catalog, ShareDays: int(o.SharePeriod / (24 * time.Hour)),
		RequireVerifiedTargets: o.RequireVerifiedTargets, CreatedAt: o.CreatedAt}
}

// SettingsUpdate is PATCH /v1/organization's body; absent fields stay.
type SettingsUpdate struct {
	Name                   *string `json:"name,omitempty" maxLength:"200"`
	Catalog                *string `json:"catalog,omitempty" enum:"nist-800-53,pci-dss-4,iso-27001-2022"`
	ShareDays              *int    `json:"share_days,omitempty" minimum:"1" maximum:"30"`
	RequireVerifiedTargets *bool   `json:"require_verified_targets,omitempty"`
}

// Service serves the organization's audit log and meters.
type Service struct {
	DB Store
}

// Routes are the audit log and meter operations.
func (s *Service) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/audit-logs", Scope: sentinel.ScopeAuditLogsRead, Query: []string{"since", "until", "action", "limit", "cursor"},
			Summary: "The organization's audit log inside a time window, oldest first.", Response: httpapi.ListResponse[sentinel.AuditEntry]{},
			Handler: s.listAudit},
		{Method: "GET", Path: "/v1/organization", Scope: sentinel.ScopeAdmin,
			Summary: "The organization's settings.", Response: Settings{}, Handler: s.settings},
		{Method: "PATCH", Path: "/v1/organization", Scope: sentinel.ScopeAdmin,
			Summary: "Change the organization's settings: name, compliance catalog, share lifetime, verified scan targets.",
			Request: SettingsUpdate{}, Response: Settings{}, Handler: s.updateSettings},
		{Method: "GET", Path: "/v1/meters", Scope: sentinel.ScopeAdmin,
			Summary: "The organization's monthly meters: limit and use this month.", Response: httpapi.ListResponse[sentinel.MeterStatus]{},
			Handler: s.meters},
	}
}

func (s *Service) meters(w http.ResponseWriter, r *http.Request) error {
	ms, err := s.DB.MeterStatuses(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, httpapi.ListResponse[sentinel.MeterStatus]{Data: ms})
	return nil
}

func (s *Service) listAudit(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	f := sentinel.AuditFilter{OrgID: httpapi.PrincipalFromContext(r.Context()).OrgID, Action: r.URL.Query().Get("action"), Page: page}
	if f.Since, err = httpapi.TimeParam(r, "since"); err != nil {
		return err
	}
	if f.Until, err = httpapi.TimeParam(r, "until"); err != nil {
		return err
	}
	es, next, err := s.DB.FindAuditEntries(r.Context(), f)
	if err != nil {
		return err
	}
	httpapi.WriteList(w, es, next)
	return nil
}

func (s *Service) settings(w http.ResponseWriter, r *http.Request) error {
	o, err := s.DB.FindOrgByID(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, SettingsOf(o))
	return nil
}

func (s *Service) updateSettings(w http.ResponseWriter, r *http.Request) error {
	var req SettingsUpdate
	if err := httpapi.DecodeJSON(r.Body, 16<<10, &req); err != nil {
		return err
	}
	if req.Name != nil && (strings.TrimSpace(*req.Name) == "" || len(*req.Name) > 200) {
		return sentinel.InvalidField("name", "name must be 1 to 200 characters")
	}
	if req.ShareDays != nil && (*req.ShareDays < 1 || *req.ShareDays > 30) {
		return sentinel.InvalidField("share_days", "share_days must be from 1 to 30")
	}
	u := sentinel.OrgUpdate{Name: req.Name, Catalog: req.Catalog, RequireVerifiedTargets: req.RequireVerifiedTargets}
	if req.ShareDays != nil {
		d := time.Duration(*req.ShareDays) * 24 * time.Hour
		u.SharePeriod = &d
	}
	p := httpapi.PrincipalFromContext(r.Context())
	err := s.DB.Update(r.Context(), func(tx Tx) error {
		if err := tx.UpdateOrg(r.Context(), p.OrgID, u); err != nil {
			return err
		}
		return tx.Audit(r.Context(), p.OrgID, httpapi.Actor(r), "organization.update", p.OrgID, map[string]any{
			"name": req.Name, "catalog": req.Catalog, "share_days": req.ShareDays, "require_verified_targets": req.RequireVerifiedTargets})
	})
	if err != nil {
		return err
	}
	return s.settings(w, r)
}
