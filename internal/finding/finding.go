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
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Matcher answers which advisories affect a purl, and whether its release
// cycle is past end of life. The intel index implements it.
type Matcher interface {
	Match(purl string) ([]sentinel.AdvisoryMatch, error)
	// EOL returns the purl's end-of-life status, nil when the data does
	// not know its product or cycle.
	EOL(purl string) (*sentinel.EOLStatus, error)
}

// Store is what the findings engine reads, and Update its write
// transaction. The store implements it (store.Bind[finding.Tx]).
type Store interface {
	sentinel.Clock
	sentinel.OrgFinder
	FindFindingByID(ctx context.Context, orgID, id string) (*sentinel.Finding, error)
	FindFindings(ctx context.Context, f sentinel.FindingFilter) ([]*sentinel.Finding, string, error)
	// FindAssets finds assets (the findings list takes an asset's name).
	FindAssets(ctx context.Context, f sentinel.AssetFilter) ([]*sentinel.Asset, string, error)
	BreachedFindings(ctx context.Context, now time.Time, limit int) ([]*sentinel.Finding, error)
	ExpiredAcceptances(ctx context.Context, now time.Time, limit int) ([]*sentinel.Finding, error)
	// FindingSummary counts an organization's findings and computes their
	// daily trend over days (GET /v1/findings/summary).
	FindingSummary(ctx context.Context, orgID string, now time.Time, days int) (*sentinel.FindingSummary, error)
	// FindingHistory returns a finding's events and audit entries.
	FindingHistory(ctx context.Context, orgID, id string, limit int) ([]sentinel.FindingHistoryEntry, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what the findings engine writes in one transaction.
type Tx interface {
	sentinel.Clock
	sentinel.EventWriter
	sentinel.AuditWriter
	// UpsertAssets returns the organization's assets of these names, by
	// name, creating the missing ones (created names them); every one
	// stays locked until the transaction ends.
	UpsertAssets(ctx context.Context, orgID string, refs []sentinel.AssetRef) (assets map[string]*sentinel.Asset, created map[string]bool, err error)
	// FindingsOf returns the findings from one source of each scope's
	// asset, by asset id, then by purl + "\x00" + advisory id.
	FindingsOf(ctx context.Context, orgID, source string, scopes []sentinel.FindingScope) (map[string]map[string]*sentinel.Finding, error)
	FindingForUpdate(ctx context.Context, orgID, id string) (*sentinel.Finding, error)
	SaveFinding(ctx context.Context, f *sentinel.Finding) error
	// MarkSLABreached reports whether it marked the finding (false when
	// another replica did first).
	MarkSLABreached(ctx context.Context, id string) (bool, error)
	// EdgeBoostsOf returns the risk edge traffic added to these assets'
	// findings, by finding id: reconciliation keeps it.
	EdgeBoostsOf(ctx context.Context, orgID string, assetIDs []string) (map[string]int, error)
	// LiveSourcesOf returns each host's live source: the submission (or
	// scan) whose components are its current ones; hosts without one are
	// absent.
	LiveSourcesOf(ctx context.Context, orgID string, hosts []string) (map[string]string, error)
	// BufferInserts lets the rest of the transaction write its new
	// findings and events as multi-row inserts (before its next other
	// statement, and before it commits).
	BufferInserts()
}

// Indicators gives, for an organization, a matcher of its applied
// indicators (package iocs implements it): purl -> the indicators it
// matches, as advisory matches whose ID is the indicator's.
type Indicators interface {
	IndicatorMatcher(ctx context.Context, orgID string) (func(purl string) []sentinel.AdvisoryMatch, error)
}

// Engine reconciles findings.
type Engine struct {
	DB Store
	// Intel returns the current matcher; it changes after an intel sync.
	Intel func() Matcher
	// Indicators, when set, adds the organization's applied indicators to
	// every reconciliation.
	Indicators Indicators

	sumMu sync.Mutex
	sums  map[string]cachedSummary // by organization and days (Summary)
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
	// Superseded reports that no finding was written: the input's
	// submission was no longer the host's live one when the transaction
	// ran, and the newer one decides the findings.
	Superseded bool `json:"superseded,omitempty"`
}

// Input is one asset's current components from one source.
type Input struct {
	Org        *sentinel.Organization
	Asset      string // the host or project name
	AssetKind  string // host, project, site
	Source     string // sbom, scan, ioc
	Components []sentinel.Component
	// SubmissionID names the SBOM submission the components came from.
	// Only the host's live (newest) submission decides its findings: the
	// transaction checks that it still is, after it has locked the asset,
	// and writes nothing otherwise (Result.Superseded). Replicas that
	// reconcile two submissions of one host at once therefore cannot let
	// the older one win.
	SubmissionID string
	// Evidence says where each component (by purl) was seen; a component
	// of a submission without its own evidence gets the submission's.
	Evidence map[string][]sentinel.FindingEvidence
	// Watch marks the daily re-match: meaningful changes then emit
	// sbom.intel_match.
	Watch bool
	// Partial limits the reconciliation to the components given: findings
	// of other components of the asset are left as they are. The watch
	// re-matches only the packages an intel sync touched; an indicator
	// only its package.
	Partial bool
	// Withdrawn names advisories withdrawn since the last run: their
	// findings are resolved saying so.
	Withdrawn map[string]bool
	// Actor is who caused the reconciliation, for the audit log.
	Actor sentinel.Actor
}

type matchKey struct{ purl, advisory string }

// Reconcile writes the asset's findings for its current components.
func (e *Engine) Reconcile(ctx context.Context, in Input) (*Result, error) {
	rs, err := e.ReconcileBatch(ctx, []Input{in})
	if err != nil {
		return nil, err
	}
	res := rs[0]
	open, _, err := e.DB.FindFindings(ctx, sentinel.FindingFilter{OrgID: in.Org.ID, AssetID: res.AssetID, Status: []string{sentinel.StatusOpen}})
	if err == nil {
		res.Open = len(open)
	}
	return res, nil
}

// ReconcileBatch reconciles several inputs (of distinct assets) as
// Reconcile does each, in one write transaction: the watch reconciles
// thousands of hosts after a sync, and a transaction each cost it more
// than the findings it wrote (BenchmarkWatchDelta). It does not count
// the assets' open findings (Result.Open is 0).
func (e *Engine) ReconcileBatch(ctx context.Context, ins []Input) ([]*Result, error) {
	m := e.Intel()
	indicators := map[string]func(string) []sentinel.AdvisoryMatch{} // by organization
	ps := make([]prepared, 0, len(ins))
	for _, in := range ins {
		if in.Source == "" {
			in.Source = "sbom"
		}
		if in.AssetKind == "" {
			in.AssetKind = "host"
		}
		ind, ok := indicators[in.Org.ID]
		if !ok && e.Indicators != nil {
			var err error
			if ind, err = e.Indicators.IndicatorMatcher(ctx, in.Org.ID); err != nil {
				return nil, err
			}
			indicators[in.Org.ID] = ind
		}
		current, seen, err := match(ctx, m, ind, in.Components)
		if err != nil {
			return nil, err
		}
		ps = append(ps, prepared{in, current, seen})
	}
	if err := distinctAssets(ps); err != nil {
		return nil, err
	}
	out := make([]*Result, len(ps))
	err := e.DB.Update(ctx, func(tx Tx) error {
		tx.BufferInserts()
		pre, err := prefetch(ctx, tx, ps)
		if err != nil {
			return err
		}
		for i, p := range ps {
			res, err := e.reconcileTx(ctx, tx, p.in, p.current, p.seen, pre[i])
			if err != nil {
				return fmt.Errorf("reconcile findings of %s: %w", p.in.Asset, err)
			}
			out[i] = res
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, in := range ins {
		e.forgetSummaries(in.Org.ID)
	}
	return out, nil
}

// match returns the advisories (and indicators) matching each component,
// by purl and advisory, and the purls seen.
func match(ctx context.Context, m Matcher, indicators func(string) []sentinel.AdvisoryMatch, comps []sentinel.Component) (map[matchKey]sentinel.AdvisoryMatch, map[string]bool, error) {
	current := map[matchKey]sentinel.AdvisoryMatch{}
	seen := map[string]bool{}
	for _, c := range comps {
		if c.Purl == "" || seen[c.Purl] {
			continue
		}
		seen[c.Purl] = true
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		ms, err := m.Match(c.Purl)
		if err != nil {
			continue // an unparseable purl cannot match; the inventory keeps it
		}
		if indicators != nil {
			ms = append(ms, indicators(c.Purl)...)
		}
		for _, a := range groupAliases(ms) {
			current[matchKey{c.Purl, a.ID}] = a
		}
		// End of life is a finding of its own (CWE-1104), whether or not
		// the component is also vulnerable.
		if st, err := m.EOL(c.Purl); err == nil && st != nil && st.EOL {
			a := eolMatch(st)
			current[matchKey{c.Purl, a.ID}] = a
		}
	}
	return current, seen, nil
}

// reconcileTx writes one asset's findings in tx, from what prefetch read.
func (e *Engine) reconcileTx(ctx context.Context, tx Tx, in Input, current map[matchKey]sentinel.AdvisoryMatch, seen map[string]bool, pre fetched) (*Result, error) {
	res := &Result{}
	asset := pre.asset
	res.AssetID = asset.ID
	if pre.created {
		if _, err := tx.EmitEvent(ctx, in.Org, sentinel.EventAssetFirstSeen, "", map[string]any{
			"asset_id": asset.ID, "name": asset.Name, "kind": asset.Kind}); err != nil {
			return nil, err
		}
	}
	// The asset's row was locked (or inserted) before its live source was
	// read: another reconciliation of this host waits for this
	// transaction, so the live source read is still the live one when it
	// commits, or the newer submission's own reconciliation runs after it.
	if in.SubmissionID != "" && pre.live != in.SubmissionID {
		return &Result{AssetID: asset.ID, Superseded: true}, nil
	}
	existing, boosts := pre.existing, pre.boosts
	// A finding kept under one id of an alias group stays the group's
	// finding when the group's preferred id changes.
	for k, a := range current {
		if _, ok := existing[k.purl+"\x00"+k.advisory]; ok {
			continue
		}
		for _, alias := range a.Aliases {
			if f, ok := existing[k.purl+"\x00"+alias]; ok {
				delete(current, k)
				a.Aliases = append(slices.DeleteFunc(slices.Clone(a.Aliases), func(x string) bool { return x == alias }), a.ID)
				slices.Sort(a.Aliases)
				a.ID = f.AdvisoryID
				current[matchKey{k.purl, a.ID}] = a
				break
			}
		}
	}
	dev := developmentOnly(in.Components)
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
		boost := 0
		if f != nil {
			boost = boosts[f.ID]
		}
		ch, err := e.apply(ctx, tx, in, asset, f, k.purl, a, boost, dev[k.purl])
		if err != nil {
			return nil, err
		}
		res.Changes = append(res.Changes, ch...)
	}
	// What is no longer present is resolved. A component the source
	// still lists by name and version, but without a purl (an SBOM another
	// tool wrote), is still present: it cannot be matched again, and its
	// findings stay as they are.
	unnamed := listedWithoutPurl(in.Components)
	for _, f := range existing {
		if f.Status != sentinel.StatusOpen && f.Status != sentinel.StatusAccepted {
			continue
		}
		if unnamed.has(f.Purl) && !in.Withdrawn[f.AdvisoryID] {
			continue
		}
		prev := f.Status
		now := tx.Now()
		reason := "no longer present in the latest " + in.Source
		if in.Withdrawn[f.AdvisoryID] {
			reason = "the advisory was withdrawn"
		}
		f.Status, f.StatusReason, f.ResolvedAt = sentinel.StatusResolved, reason, &now
		if err := tx.SaveFinding(ctx, f); err != nil {
			return nil, err
		}
		if err := emitStatus(ctx, tx, in.Org, f, prev, "system"); err != nil {
			return nil, err
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
			"asset_id": asset.ID, "asset": asset.Name, "source": in.Source, "submission_id": in.SubmissionID, "changes": res.Changes}); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// apply creates or refreshes one finding and returns what changed that
// matters. boost is the risk edge traffic added to the finding (package
// edgesvc), kept on top of the advisory's; development says whether the
// source marks the component as needed only for development.
func (e *Engine) apply(ctx context.Context, tx Tx, in Input, asset *sentinel.Asset, f *sentinel.Finding, purl string, a sentinel.AdvisoryMatch, boost int, development bool) ([]Change, error) {
	now := tx.Now()
	evidence := in.Evidence[purl]
	if evidence == nil && in.SubmissionID != "" {
		evidence = []sentinel.FindingEvidence{{Kind: "sbom", Source: in.SubmissionID}}
	}
	score := min(RiskScore(a, asset.Criticality)+boost, 100)
	band := sentinel.Band(score)
	cwe := sentinel.CWEVulnerableDependency
	if strings.HasPrefix(a.ID, "EOL-") {
		cwe = sentinel.CWEUnmaintained
	}
	if f == nil {
		f = &sentinel.Finding{OrgID: in.Org.ID, AssetID: asset.ID, AssetName: asset.Name, Purl: purl, AdvisoryID: a.ID,
			Category: sentinel.CategoryVulnerableComponent, CWE: cwe, Status: sentinel.StatusOpen, Source: in.Source,
			FirstSeen: now, Compliance: Compliance(in.Org.Catalog, cwe), Evidence: evidence}
		fill(f, a, score, band, now)
		f.Development = development
		f.SLADueAt = now.Add(sentinel.SLAWindow(band))
		if err := tx.SaveFinding(ctx, f); err != nil {
			return nil, err
		}
		_, err := tx.EmitEvent(ctx, in.Org, sentinel.EventFindingCreated, f.ID, eventData(f))
		return []Change{{f.ID, purl, a.ID, "new_advisory"}}, err
	}
	var changes []Change
	prevScore, prevBand, prevKEV, prevFix, prevSeverity, prevCVSS := f.RiskScore, f.Band, f.KEV, f.NearestFix, f.Severity, f.CVSSScore
	fill(f, a, score, band, now)
	f.Development = development
	if evidence != nil {
		f.Evidence = evidence
	}
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
	slices.SortStableFunc(changes, func(x, y Change) int { return changeOrder[x.Reason] - changeOrder[y.Reason] })
	// Severity escalates when the finding's band rises (a KEV listing
	// does that too) or the advisory's own severity or score rises; a
	// higher band is also finding.escalated.
	bandRaised := sentinel.BandRank(band) > sentinel.BandRank(prevBand)
	if bandRaised || severityRank[f.Severity] > severityRank[prevSeverity] || f.CVSSScore > prevCVSS {
		changes = append(changes, Change{f.ID, purl, a.ID, "severity_raised"})
	}
	if bandRaised {
		if err := emitEscalated(ctx, tx, in.Org, f, asset, prevScore); err != nil {
			return nil, err
		}
	}
	if f.NearestFix != "" && prevFix == "" {
		changes = append(changes, Change{f.ID, purl, a.ID, "fix_available"})
	}
	return changes, nil
}

// changeOrder lists a finding's changes in the order they are reported.
var changeOrder = map[string]int{"kev_listed": 0, "severity_raised": 1, "fix_available": 2}

func fill(f *sentinel.Finding, a sentinel.AdvisoryMatch, score int, band string, now time.Time) {
	f.Summary, f.Aliases, f.Severity, f.CVSSScore = a.Summary, a.Aliases, a.Severity, a.CVSSScore
	f.KEV, f.KEVDateAdded, f.FixedVersions, f.NearestFix = a.KEV, a.KEVDateAdded, a.FixedVersions, a.NearestFix
	f.Malicious = a.Malicious
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
	// Development is there, true, when only development needs the
	// component (Finding.Development).
	Development bool `json:"development,omitempty"`
}

func eventData(f *sentinel.Finding) EventData {
	return EventData{FindingID: f.ID, AssetID: f.AssetID, Asset: f.AssetName, Purl: f.Purl, AdvisoryID: f.AdvisoryID,
		Aliases: f.Aliases, Category: f.Category, CWE: f.CWE, Severity: f.Severity, RiskScore: f.RiskScore, Band: f.Band,
		KEV: f.KEV, NearestFix: f.NearestFix, Status: f.Status, SLADueAt: f.SLADueAt.UTC().Format(time.RFC3339),
		Development: f.Development}
}

func emitStatus(ctx context.Context, tx Tx, org *sentinel.Organization, f *sentinel.Finding, from, by string) error {
	_, err := tx.EmitEvent(ctx, org, sentinel.EventFindingStatusChanged, f.ID, map[string]any{
		"finding_id": f.ID, "asset_id": f.AssetID, "previous_status": from, "status": f.Status,
		"reason": f.StatusReason, "changed_by": by})
	return err
}

func emitEscalated(ctx context.Context, tx Tx, org *sentinel.Organization, f *sentinel.Finding, asset *sentinel.Asset, prev int) error {
	_, err := tx.EmitEvent(ctx, org, sentinel.EventFindingEscalated, f.ID, EscalatedData(f, asset, prev))
	return err
}

// EscalatedData is the data of finding.escalated for f, whose risk score
// rose from prev into a higher band, on asset: exactly the specification's
// fields. Every entry point that raises a finding's risk (reconciliation,
// a secret verified live, edge traffic) emits it through this function.
func EscalatedData(f *sentinel.Finding, asset *sentinel.Asset, prev int) sentinel.FindingEscalatedData {
	return sentinel.FindingEscalatedData{
		FindingID: f.ID, Category: f.Category, CWE: f.CWE, RiskScore: f.RiskScore, PreviousRiskScore: prev,
		AssetID: f.AssetID, AssetCriticality: asset.Criticality, SLAWindowHours: int(sentinel.SLAWindow(f.Band) / time.Hour),
		PrimaryRiskCategory: f.Category, Compliance: f.Compliance}
}

// unnamedComponents are the name@version keys (lowercased name) of the
// components a source lists without a purl.
type unnamedComponents map[string]bool

// developmentOnly returns the purls of comps that every listing marks as
// needed only for development.
func developmentOnly(comps []sentinel.Component) map[string]bool {
	dev := map[string]bool{}
	for _, c := range comps {
		if c.Purl == "" {
			continue
		}
		if d, ok := dev[c.Purl]; ok {
			dev[c.Purl] = d && c.Development
		} else {
			dev[c.Purl] = c.Development
		}
	}
	return dev
}

// listedWithoutPurl collects the components of comps that have a name and
// a version but no purl.
func listedWithoutPurl(comps []sentinel.Component) unnamedComponents {
	var u unnamedComponents
	for _, c := range comps {
		if c.Purl != "" || c.Name == "" || c.Version == "" {
			continue
		}
		if u == nil {
			u = unnamedComponents{}
		}
		u[strings.ToLower(c.Name)+"@"+c.Version] = true
	}
	return u
}

// has reports whether the component of purl p is among them: the same
// version, and the same name alone or with its namespace as the ecosystem
// joins them (npm "@scope/name", Maven "group:artifact").
func (u unnamedComponents) has(p string) bool {
	if len(u) == 0 {
		return false
	}
	pu, err := purl.Parse(p)
	if err != nil || pu.Version == "" {
		return false
	}
	name := strings.ToLower(pu.Name)
	for _, n := range []string{name, strings.ToLower(pu.Namespace) + "/" + name, strings.ToLower(pu.Namespace) + ":" + name} {
		if u[n+"@"+pu.Version] {
			return true
		}
	}
	return false
}
