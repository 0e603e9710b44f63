// Package finding turns advisory matches into findings and keeps them true:
// one finding per (organization, asset, purl, advisory), with risk, band,
// SLA and compliance references; resolved when the component goes away or
// is fixed, reopened when it comes back; every change written with its event
// in one transaction.
//
// Every entry point writes findings through Reconcile: an SBOM submission,
// the daily watch that re-matches every live SBOM against fresh intel, and
// later external scans and IOCs. That is what makes "re-alert only on
// meaningful changes" one rule instead of four.
package finding

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// Matcher answers which advisories affect a purl. The intel index
// implements it.
type Matcher interface {
	Match(purl string) ([]sentinel.AdvisoryMatch, error)
}

// EOLChecker, when the Matcher also implements it, reports end-of-life
// status for a purl with no advisory at all.
type EOLChecker interface {
	EOL(purl string) *sentinel.EOLStatus
}

// Engine reconciles findings.
type Engine struct {
	DB *store.DB
	// Intel returns the current matcher; it changes after an intel sync.
	Intel func() Matcher
}

// Change is one meaningful change Reconcile made, for re-alerting.
type Change struct {
	FindingID string `json:"finding_id"`
	Purl      string `json:"purl"`
	Advisory  string `json:"advisory_id"`
	// Reason is new_advisory, kev_listed, severity_raised, fix_available,
	// reopened or resolved.
	Reason string `json:"reason"`
}

// Result summarises one reconciliation.
type Result struct {
	AssetID  string   `json:"asset_id"`
	Open     int      `json:"open"`
	Created  int      `json:"created"`
	Resolved int      `json:"resolved"`
	Changes  []Change `json:"changes"`
}

// Input is one asset's current components from one source.
type Input struct {
	Org        *sentinel.Organization
	Asset      string // the host or project name
	AssetKind  string // host, project, site
	Source     string // sbom, scan, ioc
	Components []sentinel.Component
	// SubmissionID names the SBOM submission the components came from.
	SubmissionID string
	// Watch marks the daily re-match: meaningful changes then emit
	// sbom.intel_match.
	Watch bool
	// Actor is who caused the reconciliation, for the audit log.
	Actor sentinel.Actor
}

type matchKey struct{ purl, advisory string }

// Reconcile writes the asset's findings for its current components.
func (e *Engine) Reconcile(ctx context.Context, in Input) (*Result, error) {
	if in.Source == "" {
		in.Source = "sbom"
	}
	if in.AssetKind == "" {
		in.AssetKind = "host"
	}
	m := e.Intel()
	current := map[matchKey]sentinel.AdvisoryMatch{}
	seen := map[string]bool{}
	for _, c := range in.Components {
		if c.Purl == "" || seen[c.Purl] {
			continue
		}
		seen[c.Purl] = true
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ms, err := m.Match(c.Purl)
		if err != nil {
			continue // an unparseable purl cannot match; the inventory keeps it
		}
		for _, a := range ms {
			current[matchKey{c.Purl, a.ID}] = a
		}
		if ec, ok := m.(EOLChecker); ok && len(ms) == 0 {
			if st := ec.EOL(c.Purl); st != nil && st.EOL {
				a := eolMatch(st)
				current[matchKey{c.Purl, a.ID}] = a
			}
		} else {
			for _, a := range ms {
				if a.EOL != nil && a.EOL.EOL {
					x := eolMatch(a.EOL)
					current[matchKey{c.Purl, x.ID}] = x
					break
				}
			}
		}
	}

	res := &Result{}
	err := e.DB.InTx(ctx, func(tx *store.Tx) error {
		*res = Result{}
		asset, created, err := tx.UpsertAsset(ctx, in.Org.ID, in.Asset, in.AssetKind)
		if err != nil {
			return err
		}
		res.AssetID = asset.ID
		if created {
			if _, err := tx.EmitEvent(ctx, in.Org, sentinel.EventAssetFirstSeen, "", map[string]any{
				"asset_id": asset.ID, "name": asset.Name, "kind": asset.Kind}); err != nil {
				return err
			}
		}
		existing, err := tx.AssetFindings(ctx, in.Org.ID, asset.ID, in.Source)
		if err != nil {
			return err
		}
		keys := make([]matchKey, 0, len(current))
		for k := range current {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].purl != keys[j].purl {
				return keys[i].purl < keys[j].purl
			}
			return keys[i].advisory < keys[j].advisory
		})
		for _, k := range keys {
			a := current[k]
			f := existing[k.purl+"\x00"+k.advisory]
			delete(existing, k.purl+"\x00"+k.advisory)
			ch, err := e.apply(ctx, tx, in, asset, f, k.purl, a)
			if err != nil {
				return err
			}
			res.Changes = append(res.Changes, ch...)
		}
		// What is no longer present is resolved.
		for _, f := range existing {
			if f.Status != sentinel.StatusOpen && f.Status != sentinel.StatusAccepted {
				continue
			}
			prev := f.Status
			now := tx.Now
			f.Status, f.StatusReason, f.ResolvedAt = sentinel.StatusResolved, "no longer present in the latest "+in.Source, &now
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
			if err := emitStatus(ctx, tx, in.Org, f, prev, "system"); err != nil {
				return err
			}
			res.Resolved++
			res.Changes = append(res.Changes, Change{f.ID, f.Purl, f.AdvisoryID, "resolved"})
		}
		for _, c := range res.Changes {
			if c.Reason == "new_advisory" {
				res.Created++
			}
		}
		meaningful := slices.ContainsFunc(res.Changes, func(c Change) bool { return c.Reason != "resolved" })
		if in.Watch && meaningful {
			if _, err := tx.EmitEvent(ctx, in.Org, sentinel.EventSBOMIntelMatch, "", map[string]any{
				"asset_id": asset.ID, "asset": asset.Name, "submission_id": in.SubmissionID, "changes": res.Changes}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reconcile findings of %s: %w", in.Asset, err)
	}
	open, _, err := e.DB.FindFindings(ctx, store.FindingFilter{OrgID: in.Org.ID, AssetID: res.AssetID, Status: []string{sentinel.StatusOpen}})
	if err == nil {
		res.Open = len(open)
	}
	return res, nil
}

// apply creates or refreshes one finding and returns what changed that
// matters.
func (e *Engine) apply(ctx context.Context, tx *store.Tx, in Input, asset *sentinel.Asset, f *sentinel.Finding, purl string, a sentinel.AdvisoryMatch) ([]Change, error) {
	now := tx.Now
	score := RiskScore(a, asset.Criticality)
	band := sentinel.Band(score)
	cwe := sentinel.CWEVulnerableDependency
	if strings.HasPrefix(a.ID, "EOL-") {
		cwe = sentinel.CWEUnmaintained
	}
	if f == nil {
		f = &sentinel.Finding{OrgID: in.Org.ID, AssetID: asset.ID, AssetName: asset.Name, Purl: purl, AdvisoryID: a.ID,
			Category: sentinel.CategoryVulnerableComponent, CWE: cwe, Status: sentinel.StatusOpen, Source: in.Source,
			FirstSeen: now, Compliance: Compliance(in.Org.Catalog, cwe)}
		fill(f, a, score, band, now)
		f.SLADueAt = now.Add(sentinel.SLAWindow(band))
		if err := tx.SaveFinding(ctx, f); err != nil {
			return nil, err
		}
		_, err := tx.EmitEvent(ctx, in.Org, sentinel.EventFindingCreated, f.ID, eventData(f))
		return []Change{{f.ID, purl, a.ID, "new_advisory"}}, err
	}
	var changes []Change
	prevScore, prevBand, prevKEV, prevFix := f.RiskScore, f.Band, f.KEV, f.NearestFix
	fill(f, a, score, band, now)
	if f.Status == sentinel.StatusResolved {
		f.Status, f.StatusReason, f.ResolvedAt = sentinel.StatusOpen, "present again", nil
		f.SLADueAt = now.Add(sentinel.SLAWindow(band))
		f.SLABreachedAt = nil
		if err := tx.SaveFinding(ctx, f); err != nil {
			return nil, err
		}
		if _, err := tx.EmitEvent(ctx, in.Org, sentinel.EventFindingReopened, f.ID, eventData(f)); err != nil {
			return nil, err
		}
		if err := emitStatus(ctx, tx, in.Org, f, sentinel.StatusResolved, "system"); err != nil {
			return nil, err
		}
		return []Change{{f.ID, purl, a.ID, "reopened"}}, nil
	}
	if sentinel.BandRank(band) > sentinel.BandRank(prevBand) {
		// A higher band tightens the SLA from now on, never loosens it.
		if due := now.Add(sentinel.SLAWindow(band)); due.Before(f.SLADueAt) {
			f.SLADueAt = due
		}
	}
	if err := tx.SaveFinding(ctx, f); err != nil {
		return nil, err
	}
	if f.KEV && !prevKEV {
		changes = append(changes, Change{f.ID, purl, a.ID, "kev_listed"})
	}
	if sentinel.BandRank(band) > sentinel.BandRank(prevBand) {
		changes = append(changes, Change{f.ID, purl, a.ID, "severity_raised"})
		if err := emitEscalated(ctx, tx, in.Org, f, asset, prevScore); err != nil {
			return nil, err
		}
	}
	if f.NearestFix != "" && prevFix == "" {
		changes = append(changes, Change{f.ID, purl, a.ID, "fix_available"})
	}
	return changes, nil
}

func fill(f *sentinel.Finding, a sentinel.AdvisoryMatch, score int, band string, now time.Time) {
	f.Summary, f.Aliases, f.Severity, f.CVSSScore = a.Summary, a.Aliases, a.Severity, a.CVSSScore
	f.KEV, f.KEVDateAdded, f.FixedVersions, f.NearestFix = a.KEV, a.KEVDateAdded, a.FixedVersions, a.NearestFix
	f.RiskScore, f.Band, f.LastSeen = score, band, now
}

func eolMatch(st *sentinel.EOLStatus) sentinel.AdvisoryMatch {
	summary := fmt.Sprintf("%s %s is past end of life", st.Product, st.ReleaseCycle)
	if st.EOLDate != "" {
		summary += " since " + st.EOLDate
	}
	return sentinel.AdvisoryMatch{ID: "EOL-" + st.Product + "-" + st.ReleaseCycle, Summary: summary,
		Severity: sentinel.SeverityMedium, Aliases: []string{}, CWEs: []string{sentinel.CWEUnmaintained}, FixedVersions: []string{}, EOL: st}
}

// RiskScore is a finding's 0-100 risk: the CVSS base score (x10) or the
// advisory's severity, raised to at least 90 (and by 15) for a
// known-exploited listing, then moved by the asset's criticality.
func RiskScore(a sentinel.AdvisoryMatch, criticality string) int {
	var base int
	if a.CVSSScore > 0 {
		base = int(math.Round(a.CVSSScore * 10))
	} else {
		base = map[string]int{sentinel.SeverityCritical: 95, sentinel.SeverityHigh: 75, sentinel.SeverityMedium: 50,
			sentinel.SeverityLow: 25, sentinel.SeverityNone: 10}[a.Severity]
		if base == 0 {
			base = 45 // unknown: treat as medium until the database says more
		}
	}
	if a.KEV {
		base = max(base+15, 90)
	}
	base += map[string]int{"critical": 10, "high": 5, "low": -10}[criticality]
	return min(max(base, 0), 100)
}

// Compliance returns the control references a supply-chain finding hits in
// an organization's primary catalog.
func Compliance(catalog, cwe string) []string {
	switch catalog {
	case "pci-dss-4":
		return []string{"PCI-DSS-4.0:6.3.1", "PCI-DSS-4.0:6.3.2", "PCI-DSS-4.0:6.3.3"}
	case "iso-27001-2022":
		return []string{"ISO-27001-2022:A.8.8"}
	}
	refs := []string{"NIST-800-53:RA-5", "NIST-800-53:SI-2", "NIST-800-53:CM-8"}
	if cwe == sentinel.CWEUnmaintained {
		refs = append(refs, "NIST-800-53:SA-22")
	}
	return refs
}

// EventData is the data of finding.created, finding.reopened and
// finding.sla_breached.
type EventData struct {
	FindingID  string   `json:"finding_id"`
	AssetID    string   `json:"asset_id"`
	Asset      string   `json:"asset"`
	Purl       string   `json:"purl"`
	AdvisoryID string   `json:"advisory_id"`
	Aliases    []string `json:"aliases"`
	Category   string   `json:"category"`
	CWE        string   `json:"cwe"`
	Severity   string   `json:"severity"`
	RiskScore  int      `json:"risk_score"`
	Band       string   `json:"band"`
	KEV        bool     `json:"kev"`
	NearestFix string   `json:"nearest_fix,omitempty"`
	Status     string   `json:"status"`
	SLADueAt   string   `json:"sla_due_at"`
}

func eventData(f *sentinel.Finding) EventData {
	return EventData{FindingID: f.ID, AssetID: f.AssetID, Asset: f.AssetName, Purl: f.Purl, AdvisoryID: f.AdvisoryID,
		Aliases: f.Aliases, Category: f.Category, CWE: f.CWE, Severity: f.Severity, RiskScore: f.RiskScore, Band: f.Band,
		KEV: f.KEV, NearestFix: f.NearestFix, Status: f.Status, SLADueAt: f.SLADueAt.UTC().Format(time.RFC3339)}
}

func emitStatus(ctx context.Context, tx *store.Tx, org *sentinel.Organization, f *sentinel.Finding, from, by string) error {
	_, err := tx.EmitEvent(ctx, org, sentinel.EventFindingStatusChanged, f.ID, map[string]any{
		"finding_id": f.ID, "asset_id": f.AssetID, "previous_status": from, "status": f.Status,
		"reason": f.StatusReason, "changed_by": by})
	return err
}

func emitEscalated(ctx context.Context, tx *store.Tx, org *sentinel.Organization, f *sentinel.Finding, asset *sentinel.Asset, prev int) error {
	_, err := tx.EmitEvent(ctx, org, sentinel.EventFindingEscalated, f.ID, sentinel.FindingEscalatedData{
		FindingID: f.ID, Category: f.Category, CWE: f.CWE, RiskScore: f.RiskScore, PreviousRiskScore: prev,
		AssetID: f.AssetID, AssetCriticality: asset.Criticality, SLAWindowHours: int(sentinel.SLAWindow(f.Band) / time.Hour),
		PrimaryRiskCategory: f.Category, Compliance: f.Compliance})
	return err
}
