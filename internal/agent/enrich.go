package agent

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agent/client"
)

// enrichMatches finds the advisories of purls for `sentinel sbom --enrich`:
// from an offline intel snapshot when offlineDB is set, else from the
// tenant's match API (POST /v1/sca/match, scope sca:read), in batches.
func (c *Command) enrichMatches(ctx context.Context, o *common, offlineDB string, purls []string) (map[string][]sentinel.AdvisoryMatch, error) {
	out := map[string][]sentinel.AdvisoryMatch{}
	if offlineDB != "" {
		ci, err := ciOpenOffline(ctx, offlineDB, time.Now())
		if err != nil {
			return nil, err
		}
		defer ci.snap.Close()
		for _, w := range ci.warnings {
			fmt.Fprintln(c.stderr(), "sentinel: warning:", w)
		}
		results, err := ci.match(ctx, purls)
		if err != nil {
			return nil, err
		}
		for _, r := range results {
			if len(r.Matches) > 0 {
				out[r.Purl] = r.Matches
			}
		}
		return out, nil
	}
	if o.server == "" || o.apiKey == "" {
		return nil, usageErr("--enrich needs --offline-db FILE, or --server and an API key with sca:read (SENTINEL_SERVER, SENTINEL_API_KEY)")
	}
	base, err := url.Parse(o.server)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") {
		return nil, usageErr("--server %q is not an http(s) URL", o.server)
	}
	cl := c.apiClient(base, o.apiKey, client.Options{Timeout: 2 * time.Minute})
	defer cl.Close()
	for start := 0; start == 0 || start < len(purls); start += ciBatch {
		batch := append([]string{}, purls[start:min(start+ciBatch, len(purls))]...)
		var mr sentinel.MatchResponse
		err := cl.Do(ctx, client.Request{Method: "POST", Path: "/v1/sca/match", JSON: sentinel.MatchRequest{Purls: batch},
			Want: http.StatusOK, MaxAnswer: 1 << 30}, &mr)
		if err != nil {
			return nil, fmt.Errorf("match API at %s: %w", o.server, err)
		}
		for _, r := range mr.Results {
			if len(r.Matches) > 0 {
				out[r.Purl] = r.Matches
			}
		}
	}
	return out, nil
}
