package finding

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// SummaryTTL is how long a replica reuses an organization's findings
// summary. Counting an organization's findings reads every one of them
// (100,000 index entries take tens of milliseconds in SQLite), and the
// overview that shows them is opened far more often than findings change.
// A change made through this replica's Engine (a status, an owner, a
// reconciliation) drops the organization's summary at once; another
// replica's change shows within SummaryTTL.
const SummaryTTL = 15 * time.Second

type cachedSummary struct {
	s  *sentinel.FindingSummary
	at time.Time
}

// Summary returns an organization's findings summary over days (see
// Store.FindingSummary), computed at most every SummaryTTL.
func (e *Engine) Summary(ctx context.Context, orgID string, days int) (*sentinel.FindingSummary, error) {
	key := orgID + "/" + strconv.Itoa(days)
	now := e.DB.Now()
	e.sumMu.Lock()
	c, ok := e.sums[key]
	e.sumMu.Unlock()
	if ok && now.Sub(c.at) < SummaryTTL && !now.Before(c.at) {
		return c.s, nil
	}
	s, err := e.DB.FindingSummary(ctx, orgID, now, days)
	if err != nil {
		return nil, err
	}
	s.ComputedAt = now.UTC().Truncate(time.Second)
	e.sumMu.Lock()
	defer e.sumMu.Unlock()
	if e.sums == nil || len(e.sums) > 10_000 {
		e.sums = map[string]cachedSummary{}
	}
	e.sums[key] = cachedSummary{s: s, at: now}
	return s, nil
}

// forgetSummaries drops an organization's cached summaries after a change.
func (e *Engine) forgetSummaries(orgID string) {
	e.sumMu.Lock()
	defer e.sumMu.Unlock()
	for k := range e.sums {
		if len(k) > len(orgID) && k[:len(orgID)] == orgID && k[len(orgID)] == '/' {
			delete(e.sums, k)
		}
	}
}

func (e *Engine) summary(w http.ResponseWriter, r *http.Request) error {
	days := 30
	if v := r.URL.Query().Get("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 365 {
			return sentinel.InvalidField("days", "days must be an integer from 1 to 365")
		}
		days = n
	}
	s, err := e.Summary(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, days)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, s)
	return nil
}
