package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/sentinel-sca/sentinel"
)

// The reads a reconciliation makes before it writes, for many assets of
// one organization at once: the watch reconciles thousands of hosts after
// a sync, and one statement per host for each of these reads cost more
// than its writes on PostgreSQL (a round trip each). Lists travel as one
// JSON array parameter, so each statement keeps one text whatever its
// length (and stays prepared on SQLite; see reused).

// jsonList returns the engine's subquery over the JSON array of strings in
// parameter n, for "x IN (...)".
func (tx *Tx) jsonList(n int) string {
	if tx.Engine() == Postgres {
		return fmt.Sprintf(`SELECT jsonb_array_elements_text($%d::jsonb)`, n)
	}
	return fmt.Sprintf(`SELECT value FROM json_each($%d)`, n)
}

func jsonArray(xs []string) string {
	b, _ := json.Marshal(xs)
	return string(b)
}

// UpsertAssets returns the organization's assets with these names, by
// name, creating the missing ones (of their ref's kind, first seen now;
// created names them) and moving the others' last sighting to now. Every
// row stays locked until the transaction ends; on PostgreSQL they are
// locked in id order, so two transactions locking overlapping sets wait
// for each other instead of deadlocking.
func (tx *Tx) UpsertAssets(ctx context.Context, orgID string, refs []sentinel.AssetRef) (map[string]*sentinel.Asset, map[string]bool, error) {
	names := make([]string, 0, len(refs))
	for _, r := range refs {
		names = append(names, r.Name)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	list := jsonArray(names)
	if tx.Engine() == Postgres {
		rows, err := tx.Query(ctx, `SELECT id FROM assets WHERE org_id = $1 AND name IN (`+tx.jsonList(2)+`) ORDER BY id FOR UPDATE`, orgID, list)
		if err != nil {
			return nil, nil, fmt.Errorf("lock assets: %w", err)
		}
		for rows.Next() {
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("lock assets: %w", err)
		}
	}
	rows, err := tx.Query(ctx, `UPDATE assets SET last_seen = $2 WHERE org_id = $1 AND name IN (`+tx.jsonList(3)+`) RETURNING `+assetColumns,
		orgID, MS(tx.Now()), list)
	if err != nil {
		return nil, nil, fmt.Errorf("find assets: %w", err)
	}
	found, err := scanRows(rows, scanAsset)
	if err != nil {
		return nil, nil, fmt.Errorf("find assets: %w", err)
	}
	out := make(map[string]*sentinel.Asset, len(refs))
	for _, a := range found {
		out[a.Name] = a
	}
	created := map[string]bool{}
	for _, r := range refs {
		if out[r.Name] != nil {
			continue
		}
		a := &sentinel.Asset{ID: sentinel.NewID(sentinel.PrefixAsset), OrgID: orgID, Name: r.Name, Kind: r.Kind,
			Criticality: sentinel.CriticalityMedium, FirstSeen: tx.Now(), LastSeen: tx.Now(), State: sentinel.AssetActive}
		if err := tx.insertAsset(ctx, a); err != nil {
			return nil, nil, err
		}
		out[r.Name], created[r.Name] = a, true
	}
	return out, created, nil
}

// LiveSourcesOf returns the live source (see LiveSource) of each of these
// hosts that has one.
func (tx *Tx) LiveSourcesOf(ctx context.Context, orgID string, hosts []string) (map[string]string, error) {
	out := map[string]string{}
	if len(hosts) == 0 {
		return out, nil
	}
	rows, err := tx.Query(ctx, `SELECT host, source_id FROM inventory_live WHERE org_id = $1 AND host IN (`+tx.jsonList(2)+`)`,
		orgID, jsonArray(hosts))
	if err != nil {
		return nil, fmt.Errorf("live sources: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var host, id string
		if err := rows.Scan(&host, &id); err != nil {
			return nil, err
		}
		out[host] = id
	}
	return out, rows.Err()
}

// FindingsOf returns the findings from one source of each scope's asset,
// by asset id, then by purl + "\x00" + advisory id: all of the asset's
// when the scope names no purls, else those of its purls.
func (tx *Tx) FindingsOf(ctx context.Context, orgID, source string, scopes []sentinel.FindingScope) (map[string]map[string]*sentinel.Finding, error) {
	out := make(map[string]map[string]*sentinel.Finding, len(scopes))
	var whole, some, purls []string
	want := map[string]map[string]bool{} // purls by asset, for the scopes that name some
	for _, s := range scopes {
		out[s.AssetID] = map[string]*sentinel.Finding{}
		if s.Purls == nil {
			whole = append(whole, s.AssetID)
			continue
		}
		some = append(some, s.AssetID)
		w := make(map[string]bool, len(s.Purls))
		for _, p := range s.Purls {
			w[p] = true
			purls = append(purls, p)
		}
		want[s.AssetID] = w
	}
	read := func(q string, args ...any) error {
		rows, err := tx.Query(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id
			WHERE f.org_id = $1 AND f.source = $2 AND `+q, append([]any{orgID, source}, args...)...)
		if err != nil {
			return fmt.Errorf("findings of assets: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			f, err := scanFinding(rows)
			if err != nil {
				return err
			}
			// The purls are read for all the assets together: keep each
			// asset's own.
			if w, ok := want[f.AssetID]; ok && !w[f.Purl] {
				continue
			}
			if m := out[f.AssetID]; m != nil {
				m[f.Purl+"\x00"+f.AdvisoryID] = f
			}
		}
		return rows.Err()
	}
	if len(whole) > 0 {
		if err := read(`f.asset_id IN (`+tx.jsonList(3)+`)`, jsonArray(whole)); err != nil {
			return nil, err
		}
	}
	if len(some) > 0 && len(purls) > 0 {
		slices.Sort(purls)
		purls = slices.Compact(purls)
		if err := read(`f.asset_id IN (`+tx.jsonList(3)+`) AND f.purl IN (`+tx.jsonList(4)+`)`, jsonArray(some), jsonArray(purls)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// EdgeBoostsOf returns the risk edge traffic added to the findings of
// these assets, by finding id (findings without any are absent).
func (tx *Tx) EdgeBoostsOf(ctx context.Context, orgID string, assetIDs []string) (map[string]int, error) {
	out := map[string]int{}
	if len(assetIDs) == 0 {
		return out, nil
	}
	rows, err := tx.Query(ctx, `SELECT w.finding_id, w.boost FROM edge_windows w JOIN findings f ON f.id = w.finding_id
		WHERE w.org_id = $1 AND f.org_id = $1 AND w.boost > 0 AND f.asset_id IN (`+tx.jsonList(2)+`)`, orgID, jsonArray(assetIDs))
	if err != nil {
		return nil, fmt.Errorf("edge boosts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var b int
		if err := rows.Scan(&id, &b); err != nil {
			return nil, err
		}
		out[id] = b
	}
	return out, rows.Err()
}
