package store

import (
	"context"

	sentinel "github.com/sentinel-sca/sentinel"
)

// LatestSubmissions returns, for one organization, the newest submission of
// each host: the live SBOMs the daily watch re-matches.
func (db *DB) LatestSubmissions(ctx context.Context, orgID string) ([]*sentinel.Submission, error) {
	rows, err := db.Query(ctx, `SELECT `+submissionColumns+` FROM sbom_submissions s
		WHERE s.org_id = $1 AND s.id = (
			SELECT s2.id FROM sbom_submissions s2 WHERE s2.org_id = s.org_id AND s2.host = s.host
			ORDER BY s2.created_at DESC, s2.id DESC LIMIT 1)
		ORDER BY s.host`, orgID)
	if err != nil {
		return nil, err
	}
	return scanRows(rows, scanSubmission)
}
