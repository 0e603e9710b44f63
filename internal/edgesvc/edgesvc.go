// Package edgesvc is the service side of edge intel: POST /v1/edge/events
// takes observations of adversary traffic from an edge network or a WAF
// (Sentinel's JSON batch, or a ModSecurity JSON audit log), resolves each
// to the asset it targeted, correlates it with that asset's open findings
// (package edge), and raises the risk of the findings it matches, once per
// window, with edge.correlation_match and, when the band rises,
// finding.escalated.
//
// # Hosts and assets
//
// An observation names the host it targeted (the Host header, lower case,
// without a port). It belongs to every asset of the organization named
// https://<host> or http://<host> (the sites external scans reach, named
// by their origin) or <host> itself (a host an agent reports, named by its
// certificate). An observation whose host names no asset is counted as
// unresolved and otherwise ignored: traffic to a host Sentinel knows
// nothing about cannot raise any finding's risk.
//
// # Correlation and windows
//
// Each asset's open findings become edge.FindingRefs: advisory id,
// aliases, purl, CWE, and as locations the URLs of the finding's evidence
// (where an external scan saw the component). A batch is correlated in
// memory first, then, only when something matched, written in one
// transaction: the matched findings are locked (PostgreSQL; SQLite has one
// writer), their stored windows (table edge_windows) are read, and
// edge.DefaultPolicy is applied to every match in the order the traffic
// happened. A decision to emit raises the finding's risk score (persisted,
// with its band, and a tighter SLA for a higher band) and writes
// edge.correlation_match; a rise in band also writes finding.escalated
// with exactly the specification's fields (finding.EscalatedData). The
// points added are kept with the window (boost): the findings package's
// reconciliation adds them to the risk it computes from the advisory, so
// that the next SBOM or scan of the asset does not undo them. Matching
// traffic inside a window only updates the window's count.
// Traffic that matches nothing writes nothing at all.
//
// Observations themselves are not stored: they are attacker-controlled
// text (queries, headers, payloads may carry anything, credentials
// included), and what Sentinel needs of them is the window count and the
// brief the event carries (edge.NewMatchEvent: path, never the query).
package edgesvc

import (
	"context"
	"log/slog"
	"sort"
	"sync"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/edge"
	"github.com/sentinel-sca/sentinel/internal/finding"
)

// Store is what the package reads, and Update its write transaction. The
// store implements it (store.Bind[edgesvc.Tx]).
type Store interface {
	sentinel.OrgFinder
	FindAssets(ctx context.Context, f sentinel.AssetFilter) ([]*sentinel.Asset, string, error)
	FindFindings(ctx context.Context, f sentinel.FindingFilter) ([]*sentinel.Finding, string, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what the package writes in one transaction.
type Tx interface {
	sentinel.Clock
	sentinel.EventWriter
	sentinel.AuditWriter
	// LockFindings locks findings for the transaction (PostgreSQL).
	LockFindings(ctx context.Context, orgID string, ids []string) error
	EdgeWindows(ctx context.Context, orgID string, ids []string) (map[string]*sentinel.EdgeWindow, error)
	SaveEdgeWindow(ctx context.Context, w *sentinel.EdgeWindow) error
	FindingForUpdate(ctx context.Context, orgID, id string) (*sentinel.Finding, error)
	SaveFinding(ctx context.Context, f *sentinel.Finding) error
}

// DefaultMaxBody bounds a request's body: 32 MiB, a few thousand
// ModSecurity audit log entries or a full JSON batch.
const DefaultMaxBody = 32 << 20

// Service ingests edge observations.
type Service struct {
	DB     Store
	Logger *slog.Logger
	// Policy is the risk amplification policy (default
	// edge.DefaultPolicy).
	Policy edge.Policy
	// MaxBody bounds a request's body (default DefaultMaxBody).
	MaxBody int64

	once sync.Once
}

func (s *Service) init() {
	s.once.Do(func() {
		if s.Logger == nil {
			s.Logger = slog.New(slog.DiscardHandler)
		}
		if s.Policy == (edge.Policy{}) {
			s.Policy = edge.DefaultPolicy
		}
		if s.MaxBody <= 0 {
			s.MaxBody = DefaultMaxBody
		}
	})
}

// Result counts what an ingest did.
type Result struct {
	// Accepted observations were read; Rejected could not be (Errors
	// says why, per item).
	Accepted int `json:"accepted"`
	Rejected int `json:"rejected"`
	// Errors lists the rejected items (at most MaxErrors; ErrorsTruncated
	// says when there were more).
	Errors          []edge.ItemError `json:"errors"`
	ErrorsTruncated bool             `json:"errors_truncated,omitempty"`
	// NotAttacks counts ModSecurity entries without any rule match
	// (logged for their status alone), skipped.
	NotAttacks int `json:"not_attacks,omitempty"`
	// Unresolved counts observations whose host names no asset.
	Unresolved int `json:"unresolved"`
	// Correlated counts observations that matched at least one open
	// finding; Matches the (observation, finding) pairs.
	Correlated int `json:"correlated"`
	Matches    int `json:"matches"`
	// Alerts counts edge.correlation_match events written, Escalated
	// finding.escalated ones; the other matches were counted in their
	// windows.
	Alerts    int `json:"alerts"`
	Escalated int `json:"escalated"`
	// Findings are the findings the batch matched.
	Findings []string `json:"findings"`
}

// MaxErrors bounds the per-item errors an answer lists.
const MaxErrors = 1000

// AssetNames are the asset names an observation of host belongs to: the
// site's origin in https and http, and the host itself.
func AssetNames(host string) []string {
	return []string{"https://" + host, "http://" + host, host}
}

// hit is one observation matching one finding.
type hit struct {
	obs *edge.Observation
	m   edge.Match
}

// Ingest correlates observations of org's traffic with its open findings
// and applies the window policy (see the package comment). res may carry
// counts from decoding; Ingest adds its own.
func (s *Service) Ingest(ctx context.Context, org *sentinel.Organization, obs []edge.Observation, res *Result, actor sentinel.Actor) error {
	s.init()
	res.Accepted += len(obs)
	assets := map[string][]*sentinel.Asset{}  // host -> assets
	corr := map[string]*edge.Correlator{}     // asset id -> its findings
	assetByID := map[string]*sentinel.Asset{} // asset id -> asset
	var hits []hit
	for i := range obs {
		o := &obs[i]
		as, ok := assets[o.Host]
		if !ok {
			var err error
			if as, err = s.resolve(ctx, org.ID, o.Host); err != nil {
				return err
			}
			assets[o.Host] = as
			for _, a := range as {
				assetByID[a.ID] = a
				if corr[a.ID], err = s.correlator(ctx, org.ID, a); err != nil {
					return err
				}
			}
		}
		if len(as) == 0 {
			res.Unresolved++
			continue
		}
		matched := false
		for _, a := range as {
			for _, m := range corr[a.ID].Match(o) {
				hits = append(hits, hit{o, m})
				matched = true
			}
		}
		if matched {
			res.Correlated++
		}
	}
	res.Matches = len(hits)
	if len(hits) == 0 {
		return nil
	}
	// The policy counts windows in the order traffic happened, whatever
	// the order of the batch.
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].obs.Time.Before(hits[j].obs.Time) })
	seen := map[string]bool{}
	var ids []string
	for _, h := range hits {
		if !seen[h.m.FindingID] {
			seen[h.m.FindingID] = true
			ids = append(ids, h.m.FindingID)
		}
	}
	sort.Strings(ids)
	res.Findings = ids
	alerts, escalated := 0, 0
	err := s.DB.Update(ctx, func(tx Tx) error {
		alerts, escalated = 0, 0
		if err := tx.LockFindings(ctx, org.ID, ids); err != nil {
			return err
		}
		windows, err := tx.EdgeWindows(ctx, org.ID, ids)
		if err != nil {
			return err
		}
		findings := map[string]*sentinel.Finding{}
		for _, id := range ids {
			f, err := tx.FindingForUpdate(ctx, org.ID, id)
			if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
				continue
			}
			if err != nil {
				return err
			}
			if f.Status == sentinel.StatusOpen {
				findings[id] = f
			}
		}
		dirty := map[string]bool{}
		for _, h := range hits {
			f := findings[h.m.FindingID]
			if f == nil {
				continue // no longer open
			}
			w := windows[f.ID]
			var st *edge.State
			if w != nil {
				st = &edge.State{WindowStart: w.WindowStart, Count: w.Count, Reached: w.Reached, LastSeen: w.LastSeen, Total: w.Total}
			}
			d := s.Policy.Apply(st, h.obs.Time, h.obs.Action, f.RiskScore)
			nw := &sentinel.EdgeWindow{FindingID: f.ID, OrgID: org.ID, WindowStart: d.State.WindowStart, Count: d.State.Count,
				Reached: d.State.Reached, LastSeen: d.State.LastSeen, Total: d.State.Total}
			if w != nil {
				nw.Boost = w.Boost
			}
			if d.Emit {
				nw.Boost += d.RiskScore - f.RiskScore
			}
			windows[f.ID] = nw
			if !d.Emit {
				continue
			}
			prev := f.RiskScore
			if d.RiskScore != prev {
				f.RiskScore, f.Band = d.RiskScore, sentinel.Band(d.RiskScore)
				if due := tx.Now().Add(sentinel.SLAWindow(f.Band)); due.Before(f.SLADueAt) {
					f.SLADueAt = due // a higher band tightens the SLA, never loosens it
				}
				dirty[f.ID] = true
			}
			alerts++
			if _, err := tx.EmitEvent(ctx, org, sentinel.EventEdgeCorrelationMatch, f.ID, edge.NewMatchEvent(h.obs, h.m, d, s.Policy)); err != nil {
				return err
			}
			if d.Escalated {
				escalated++
				if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingEscalated, f.ID, finding.EscalatedData(f, assetByID[f.AssetID], prev)); err != nil {
					return err
				}
			}
		}
		for _, id := range ids {
			if w := windows[id]; w != nil && findings[id] != nil {
				if err := tx.SaveEdgeWindow(ctx, w); err != nil {
					return err
				}
			}
			if dirty[id] {
				if err := tx.SaveFinding(ctx, findings[id]); err != nil {
					return err
				}
			}
		}
		return tx.Audit(ctx, org.ID, actor, "edge.ingest", "", map[string]any{
			"accepted": res.Accepted, "correlated": res.Correlated, "alerts": alerts, "escalated": escalated, "findings": len(ids)})
	})
	if err != nil {
		return err
	}
	res.Alerts, res.Escalated = alerts, escalated
	return nil
}

// resolve returns the assets an observation of host belongs to.
func (s *Service) resolve(ctx context.Context, orgID, host string) ([]*sentinel.Asset, error) {
	var out []*sentinel.Asset
	if host == "" {
		return nil, nil
	}
	for _, name := range AssetNames(host) {
		as, _, err := s.DB.FindAssets(ctx, sentinel.AssetFilter{OrgID: orgID, Name: name, Page: sentinel.Page{Limit: 1}})
		if err != nil {
			return nil, err
		}
		out = append(out, as...)
	}
	return out, nil
}

// correlator prepares an asset's open findings for matching.
func (s *Service) correlator(ctx context.Context, orgID string, a *sentinel.Asset) (*edge.Correlator, error) {
	var refs []edge.FindingRef
	page := sentinel.Page{Limit: 1000}
	for {
		fs, next, err := s.DB.FindFindings(ctx, sentinel.FindingFilter{OrgID: orgID, AssetID: a.ID, Status: []string{sentinel.StatusOpen}, Page: page})
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			ref := edge.FindingRef{ID: f.ID, AssetID: f.AssetID, AdvisoryID: f.AdvisoryID, Aliases: f.Aliases, Purl: f.Purl, CWE: f.CWE,
				RiskScore: f.RiskScore, Criticality: a.Criticality}
			for _, e := range f.Evidence {
				if e.URL != "" {
					ref.Locations = append(ref.Locations, e.URL)
				}
			}
			refs = append(refs, ref)
		}
		if next == "" {
			break
		}
		page.Cursor = next
	}
	return edge.NewCorrelator(refs), nil
}
