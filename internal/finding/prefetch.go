package finding

import (
	"context"
	"fmt"

	"github.com/sentinel-sca/sentinel"
)

// prepared is one input with its matches, computed before the
// transaction.
type prepared struct {
	in      Input
	current map[matchKey]sentinel.AdvisoryMatch
	seen    map[string]bool
}

// fetched is what a reconciliation reads before it writes: its asset
// (locked, or new), the host's live source, the findings it may change and
// the edge boosts it keeps.
type fetched struct {
	asset    *sentinel.Asset
	created  bool
	live     string
	existing map[string]*sentinel.Finding
	boosts   map[string]int
}

// distinctAssets refuses a batch that names one asset twice: each
// reconciliation reads its asset's findings before any of the batch
// writes, so a second one would not see what the first wrote.
func distinctAssets(ps []prepared) error {
	seen := map[[2]string]bool{}
	for _, p := range ps {
		k := [2]string{p.in.Org.ID, p.in.Asset}
		if seen[k] {
			return fmt.Errorf("reconcile: asset %s appears twice in one batch", p.in.Asset)
		}
		seen[k] = true
	}
	return nil
}

// prefetch makes the batch's reads, a few statements per organization
// rather than several per asset: the assets first (which locks them),
// then their live sources, findings and edge boosts.
func prefetch(ctx context.Context, tx Tx, ps []prepared) ([]fetched, error) {
	out := make([]fetched, len(ps))
	var orgs []string
	byOrg := map[string][]int{}
	for i, p := range ps {
		if _, ok := byOrg[p.in.Org.ID]; !ok {
			orgs = append(orgs, p.in.Org.ID)
		}
		byOrg[p.in.Org.ID] = append(byOrg[p.in.Org.ID], i)
	}
	for _, orgID := range orgs {
		idx := byOrg[orgID]
		refs := make([]sentinel.AssetRef, 0, len(idx))
		var hosts []string
		for _, i := range idx {
			refs = append(refs, sentinel.AssetRef{Name: ps[i].in.Asset, Kind: ps[i].in.AssetKind})
			if ps[i].in.SubmissionID != "" {
				hosts = append(hosts, ps[i].in.Asset)
			}
		}
		assets, created, err := tx.UpsertAssets(ctx, orgID, refs)
		if err != nil {
			return nil, err
		}
		live, err := tx.LiveSourcesOf(ctx, orgID, hosts)
		if err != nil {
			return nil, err
		}
		// A partial reconciliation leaves the findings of other components
		// alone, so it reads only those of its own.
		scopes := map[string][]sentinel.FindingScope{} // by source
		var sources, ids []string
		for _, i := range idx {
			p := ps[i]
			a := assets[p.in.Asset]
			out[i] = fetched{asset: a, created: created[p.in.Asset], live: live[p.in.Asset]}
			ids = append(ids, a.ID)
			scope := sentinel.FindingScope{AssetID: a.ID}
			if p.in.Partial {
				scope.Purls = make([]string, 0, len(p.seen))
				for purl := range p.seen {
					scope.Purls = append(scope.Purls, purl)
				}
			}
			if _, ok := scopes[p.in.Source]; !ok {
				sources = append(sources, p.in.Source)
			}
			scopes[p.in.Source] = append(scopes[p.in.Source], scope)
		}
		found := map[string]map[string]map[string]*sentinel.Finding{} // by source, asset
		for _, src := range sources {
			if found[src], err = tx.FindingsOf(ctx, orgID, src, scopes[src]); err != nil {
				return nil, err
			}
		}
		boosts, err := tx.EdgeBoostsOf(ctx, orgID, ids)
		if err != nil {
			return nil, err
		}
		for _, i := range idx {
			out[i].existing = found[ps[i].in.Source][out[i].asset.ID]
			if out[i].existing == nil {
				out[i].existing = map[string]*sentinel.Finding{}
			}
			out[i].boosts = boosts
		}
	}
	return out, nil
}
