package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/sentinel-sca/sentinel"
)

const day = 24 * time.Hour

// FindingSummary counts an organization's findings by status and band,
// lists the riskiest known-exploited and the most overdue open ones, and
// computes the daily trend of the days before now (ending with today,
// UTC). Every query reads a range of an index of migration 0011, and none
// reads the findings' rows except the two top-ten lists.
//
// The reads are independent, so they run at once on the reader pool: the
// counts read every open finding's index entry at least once (about 150,000
// entries for 100,000 findings), which the pure-Go SQLite does at some
// 200 ns each; spread over the cores the summary takes a fraction of that.
func (db *DB) FindingSummary(ctx context.Context, orgID string, now time.Time, days int) (*sentinel.FindingSummary, error) {
	s := &sentinel.FindingSummary{OpenByBand: map[string]int{}, TopKEV: []*sentinel.Finding{}, TopOverdue: []*sentinel.Finding{},
		Trend: []sentinel.TrendPoint{}}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	// One scalar subquery per count, each a range of one index. A GROUP BY
	// over the organization's findings would read the same entries and cost
	// several times as much in SQLite.
	count := `(SELECT COUNT(*) FROM findings WHERE org_id = $1 AND status = $2`
	var bands [4]int
	g.Go(func() error {
		err := db.QueryRow(ctx, `SELECT `+count+` AND band = $3), `+count+` AND band = $4), `+count+` AND band = $5), `+count+` AND band = $6)`,
			orgID, sentinel.StatusOpen, sentinel.BandCritical, sentinel.BandHigh, sentinel.BandMedium, sentinel.BandLow).
			Scan(&bands[0], &bands[1], &bands[2], &bands[3])
		return err
	})
	g.Go(func() error {
		return db.QueryRow(ctx, `SELECT `+count+` AND kev = $3), `+count+` AND sla_due_at < $4)`, orgID, sentinel.StatusOpen, true, MS(now)).
			Scan(&s.KEVOpen, &s.Overdue)
	})
	g.Go(func() error {
		return db.QueryRow(ctx, `SELECT `+count+`), (SELECT COUNT(*) FROM findings WHERE org_id = $1 AND status = $3),
			(SELECT COUNT(*) FROM findings WHERE org_id = $1 AND status = $4)`,
			orgID, sentinel.StatusAccepted, sentinel.StatusFalsePositive, sentinel.StatusResolved).Scan(&s.Accepted, &s.FalsePositive, &s.Resolved)
	})
	g.Go(func() error {
		rows, err := db.Query(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id
			WHERE f.org_id = $1 AND f.status = $2 AND f.kev = $3 ORDER BY f.risk_score DESC, f.id LIMIT 10`, orgID, sentinel.StatusOpen, true)
		if err != nil {
			return err
		}
		fs, err := scanFindings(rows)
		if fs != nil {
			s.TopKEV = fs
		}
		return err
	})
	g.Go(func() error {
		rows, err := db.Query(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id
			WHERE f.org_id = $1 AND f.status = $2 AND f.sla_due_at < $3 ORDER BY f.sla_due_at, f.id LIMIT 10`, orgID, sentinel.StatusOpen, MS(now))
		if err != nil {
			return err
		}
		fs, err := scanFindings(rows)
		if fs != nil {
			s.TopOverdue = fs
		}
		return err
	})

	// The trend walks back from today: unresolved at the end of a day is
	// unresolved now, minus what arrived after that day, plus what was
	// resolved after it. Only the window's arrivals and resolutions are
	// read, bucketed by day in the database.
	end := now.UTC().Truncate(day).Add(day) // the end of today
	start := end.Add(-time.Duration(days) * day)
	perDay := func(q string, out map[int]int) func() error {
		return func() error {
			rows, err := db.Query(ctx, q, orgID, MS(start), day.Milliseconds(), sentinel.StatusFalsePositive)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var d, n int
				if err := rows.Scan(&d, &n); err != nil {
					return err
				}
				out[d] += n
			}
			return rows.Err()
		}
	}
	arrived, resolved := map[int]int{}, map[int]int{}
	if days > 0 {
		g.Go(perDay(`SELECT (first_seen - $2) / $3 AS d, COUNT(*) FROM findings
			WHERE org_id = $1 AND first_seen >= $2 AND status <> $4 GROUP BY 1`, arrived))
		g.Go(perDay(`SELECT (resolved_at - $2) / $3 AS d, COUNT(*) FROM findings
			WHERE org_id = $1 AND resolved_at >= $2 AND status <> $4 GROUP BY 1`, resolved))
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("finding summary: %w", err)
	}
	for i, b := range []string{sentinel.BandCritical, sentinel.BandHigh, sentinel.BandMedium, sentinel.BandLow} {
		s.OpenByBand[b] = bands[i]
		s.Open += bands[i]
	}
	if days <= 0 {
		return s, nil
	}
	unresolved := s.Open + s.Accepted
	s.Trend = make([]sentinel.TrendPoint, days)
	for d := days - 1; d >= 0; d-- {
		s.Trend[d] = sentinel.TrendPoint{Day: start.Add(time.Duration(d) * day).Format(time.DateOnly), Unresolved: unresolved,
			New: arrived[d], Resolved: resolved[d]}
		// Going back one day: the day's arrivals were not there yet, its
		// resolutions not done yet.
		unresolved += resolved[d] - arrived[d]
	}
	return s, nil
}

// FindingHistory returns a finding's events and the audit entries about
// it, oldest first, at most limit of each. The caller has checked that
// the finding is the organization's.
func (db *DB) FindingHistory(ctx context.Context, orgID, id string, limit int) ([]sentinel.FindingHistoryEntry, error) {
	var out []sentinel.FindingHistoryEntry
	rows, err := db.Query(ctx, `SELECT `+eventColumns+` FROM events WHERE org_id = $1 AND subject = $2 ORDER BY seq LIMIT $3`, orgID, id, limit)
	if err != nil {
		return nil, err
	}
	evs, err := scanEvents(rows)
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		out = append(out, sentinel.FindingHistoryEntry{At: e.CreatedAt, Kind: "event", Type: e.Type, Details: e.Data})
	}
	es, _, err := db.FindAuditEntries(ctx, sentinel.AuditFilter{OrgID: orgID, Target: id, Page: sentinel.Page{Limit: limit}})
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		h := sentinel.FindingHistoryEntry{At: e.CreatedAt, Kind: "audit", Type: e.Action, Actor: e.Actor}
		if len(e.Details) > 0 {
			h.Details, _ = json.Marshal(e.Details)
		}
		out = append(out, h)
	}
	// Events and audit entries of one change share the transaction's
	// time; the audit entry (who, why) sorts after its event.
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	if out == nil {
		out = []sentinel.FindingHistoryEntry{}
	}
	return out, nil
}
