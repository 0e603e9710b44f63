package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// The read side an Evidence Bundle is built from (evidence.Source). Each
// method streams rows to fn one at a time, so that a bundle of a million
// components never sits in memory; fn's error stops the stream and is
// returned. They read the agent's tables (migration 0004: sbom_submissions,
// sbom_documents, inventory; 0007: inventory_edges), the findings (0005)
// and the audit log.

// byteOrder is the collation that sorts text by bytes on each engine.
func (db *DB) byteOrder() string {
	if db.Engine == Postgres {
		return ` COLLATE "C"`
	}
	return "" // SQLite's default BINARY collation
}

// EvidenceSubmissions streams an organization's submissions received in
// [since, until) with their original bytes, oldest first.
func (db *DB) EvidenceSubmissions(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.EvidenceSubmission) error) error {
	// Ids first, then one body at a time: no cursor stays open while fn
	// signs and stores, and only one document is in memory.
	rows, err := db.Query(ctx, `SELECT id, host, created_at FROM sbom_submissions
		WHERE org_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at, id`, orgID, MS(since), MS(until))
	if err != nil {
		return fmt.Errorf("evidence submissions: %w", err)
	}
	var subs []sentinel.EvidenceSubmission
	for rows.Next() {
		var s sentinel.EvidenceSubmission
		var at int64
		if err := rows.Scan(&s.ID, &s.Host, &at); err != nil {
			rows.Close()
			return err
		}
		s.ReceivedAt = FromMS(at)
		subs = append(subs, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range subs {
		s := subs[i]
		if s.Original, err = db.SubmissionBody(ctx, orgID, s.ID); err != nil {
			return err
		}
		if err := fn(&s); err != nil {
			return err
		}
	}
	return nil
}

// EvidenceComponents streams an organization's current components: those
// of each host's latest submission, ordered by purl in byte order, then by
// host; the same purl comes once per host. DependsOn holds the purls the
// component depends on in that submission's dependency graph (migration
// 0007), deduplicated and sorted in byte order; nil when it has none. Each
// row's edges are one range of the edges' primary key, read with the row:
// nothing accumulates across rows.
func (db *DB) EvidenceComponents(ctx context.Context, orgID string, fn func(*sentinel.EvidenceComponent) error) error {
	// The edges travel as a JSON array of purls per row (any byte a purl
	// may hold survives the encoding); the aggregate is the one per-engine
	// difference. SQLite's json_group_array gives '[]' over no rows.
	deps := `json_group_array(e.to_purl)`
	if db.Engine == Postgres {
		deps = `COALESCE(json_agg(e.to_purl)::text, '[]')`
	}
	rows, err := db.Query(ctx, `SELECT i.purl, i.ecosystem, i.name, i.version, i.host, i.development,
			(SELECT `+deps+` FROM inventory_edges e
				WHERE e.submission_id = i.submission_id AND e.from_purl = i.purl AND e.org_id = i.org_id)
		FROM inventory i
		WHERE i.org_id = $1 AND i.purl <> '' AND i.submission_id IN (
			SELECT s.id FROM sbom_submissions s WHERE s.org_id = $1 AND NOT EXISTS (
				SELECT 1 FROM sbom_submissions t WHERE t.org_id = s.org_id AND t.host = s.host
				AND (t.created_at > s.created_at OR (t.created_at = s.created_at AND t.id > s.id))))
		ORDER BY i.purl`+db.byteOrder()+`, i.host`+db.byteOrder(), orgID)
	if err != nil {
		return fmt.Errorf("evidence components: %w", err)
	}
	defer rows.Close()
	var c sentinel.EvidenceComponent
	var dependsOn []byte
	for rows.Next() {
		c = sentinel.EvidenceComponent{}
		if err := rows.Scan(&c.Purl, &c.Ecosystem, &c.Name, &c.Version, &c.Asset, &c.Development, &dependsOn); err != nil {
			return err
		}
		if c.DependsOn, err = jsonStrings(dependsOn); err != nil {
			return fmt.Errorf("evidence components: dependencies of %s: %w", c.Purl, err)
		}
		slices.Sort(c.DependsOn)
		c.DependsOn = slices.Compact(c.DependsOn)
		if _, name, version, err := purl.ToEcosystem(c.Purl); err == nil {
			c.Name = name // the ecosystem's spelling, not the lower-cased search key
			if c.Version == "" {
				c.Version = version
			}
		}
		if err := fn(&c); err != nil {
			return err
		}
	}
	return rows.Err()
}

// jsonStrings decodes a JSON array of strings as the engines' aggregates
// write it ('["a","b"]', '["a", "b"]', '[]'): nil when empty. Without a
// backslash no string holds an escape, so none holds a quote, and the
// strings are the text between successive quotes; this saves
// encoding/json's cost on the million rows of a large inventory.
// Otherwise encoding/json decodes it.
func jsonStrings(b []byte) ([]string, error) {
	if bytes.IndexByte(b, '\\') >= 0 {
		var out []string
		err := json.Unmarshal(b, &out)
		return out, err
	}
	var out []string
	for {
		i := bytes.IndexByte(b, '"')
		if i < 0 {
			return out, nil
		}
		j := bytes.IndexByte(b[i+1:], '"')
		if j < 0 {
			return nil, errors.New("unterminated string in a JSON array")
		}
		out = append(out, string(b[i+1:i+1+j]))
		b = b[i+2+j:]
	}
}

// EvidenceChanges streams an organization's component drift in [since,
// until), host by host and oldest first within a host: each submission in
// the window is compared with the host's previous one (before the window
// too). A package whose version differs is "changed"; one only in the
// newer submission "added"; only in the older "removed". A host's first
// submission ever reports all its components as added.
func (db *DB) EvidenceChanges(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.EvidenceChange) error) error {
	rows, err := db.Query(ctx, `SELECT id, host, created_at FROM sbom_submissions
		WHERE org_id = $1 AND created_at < $2 ORDER BY host, created_at, id`, orgID, MS(until))
	if err != nil {
		return fmt.Errorf("evidence changes: %w", err)
	}
	type sub struct {
		id, host string
		at       time.Time
	}
	var subs []sub
	for rows.Next() {
		var s sub
		var at int64
		if err := rows.Scan(&s.id, &s.host, &at); err != nil {
			rows.Close()
			return err
		}
		s.at = FromMS(at)
		subs = append(subs, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	type pkg struct{ eco, name string }
	load := func(id string) (map[pkg]sentinel.InventoryItem, error) {
		items, err := db.SubmissionItems(ctx, orgID, id)
		if err != nil {
			return nil, err
		}
		m := make(map[pkg]sentinel.InventoryItem, len(items))
		for _, it := range items {
			m[pkg{it.Ecosystem, it.Name}] = it
		}
		return m, nil
	}
	var prev map[pkg]sentinel.InventoryItem
	var prevID, prevHost string
	for _, s := range subs {
		if s.host != prevHost {
			prev, prevID, prevHost = nil, "", s.host
		}
		if s.at.Before(since) {
			prevID = s.id // a baseline; loaded only if the window needs it
			prev = nil
			continue
		}
		if prev == nil && prevID != "" {
			if prev, err = load(prevID); err != nil {
				return err
			}
		}
		cur, err := load(s.id)
		if err != nil {
			return err
		}
		var out []sentinel.EvidenceChange
		for k, it := range cur {
			old, ok := prev[k]
			switch {
			case !ok:
				out = append(out, sentinel.EvidenceChange{Change: "added", Purl: it.Purl, Name: it.Name, ToVersion: it.Version})
			case old.Version != it.Version:
				out = append(out, sentinel.EvidenceChange{Change: "changed", Purl: it.Purl, Name: it.Name, FromVersion: old.Version, ToVersion: it.Version})
			}
		}
		for k, it := range prev {
			if _, ok := cur[k]; !ok {
				out = append(out, sentinel.EvidenceChange{Change: "removed", Purl: it.Purl, Name: it.Name, FromVersion: it.Version})
			}
		}
		sort.Slice(out, func(a, b int) bool {
			if out[a].Name != out[b].Name {
				return out[a].Name < out[b].Name
			}
			return out[a].Change < out[b].Change
		})
		for j := range out {
			out[j].At, out[j].Asset, out[j].SubmissionID = s.at, s.host, s.id
			if err := fn(&out[j]); err != nil {
				return err
			}
		}
		prev, prevID = cur, s.id
	}
	return nil
}

// EvidenceFindings streams an organization's findings whose status is one
// of statuses, ordered by id, a page at a time.
func (db *DB) EvidenceFindings(ctx context.Context, orgID string, statuses []string, fn func(*sentinel.EvidenceFinding) error) error {
	page := sentinel.Page{Limit: 1000}
	for {
		fs, next, err := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: orgID, Status: statuses, Page: page})
		if err != nil {
			return err
		}
		for _, f := range fs {
			ef := sentinel.EvidenceFinding{
				ID: f.ID, Status: f.Status, Category: f.Category, AdvisoryID: f.AdvisoryID, Aliases: f.Aliases,
				Purl: f.Purl, Asset: f.AssetName, Severity: f.Band, RiskScore: f.RiskScore, KEV: f.KEV, CWE: f.CWE,
				FixedVersion: f.NearestFix, Compliance: f.Compliance, CreatedAt: f.FirstSeen,
			}
			if ef.Asset == "" {
				ef.Asset = f.AssetID
			}
			if !f.SLADueAt.IsZero() {
				due := f.SLADueAt
				ef.SLADueAt = &due
			}
			if f.Status == sentinel.StatusAccepted {
				ef.AcceptedReason, ef.AcceptedUntil = f.StatusReason, f.AcceptedUntil
			}
			if _, name, version, err := purl.ToEcosystem(f.Purl); err == nil {
				ef.Component, ef.Version = name, version
			}
			if err := fn(&ef); err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		page.Cursor = next
	}
}

// EvidenceAudit streams an organization's audit entries in [since, until),
// oldest first, a page at a time.
func (db *DB) EvidenceAudit(ctx context.Context, orgID string, since, until time.Time, fn func(*sentinel.AuditEntry) error) error {
	page := sentinel.Page{Limit: 1000}
	for {
		es, next, err := db.FindAuditEntries(ctx, sentinel.AuditFilter{OrgID: orgID, Since: since, Until: until, Page: page})
		if err != nil {
			return err
		}
		for _, e := range es {
			if err := fn(e); err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		page.Cursor = next
	}
}
