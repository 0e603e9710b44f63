package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
)

const findingColumns = `f.id, f.org_id, f.asset_id, a.name, f.purl, f.advisory_id, f.category, f.cwe, f.summary, f.aliases,
	f.severity, f.cvss_score, f.kev, f.kev_date_added, f.fixed_versions, f.nearest_fix, f.risk_score, f.band,
	f.sla_due_at, f.sla_breached_at, f.status, f.status_reason, f.accepted_until, f.owner, f.compliance, f.source,
	f.first_seen, f.last_seen, f.resolved_at, f.updated_at, f.evidence, f.malicious, f.development`

func scanFinding(row interface{ Scan(...any) error }) (*sentinel.Finding, error) {
	var f sentinel.Finding
	var aliases, fixed, compliance, evidence string
	var due, first, last, updated int64
	var breached, accepted, resolved sql.NullInt64
	err := row.Scan(&f.ID, &f.OrgID, &f.AssetID, &f.AssetName, &f.Purl, &f.AdvisoryID, &f.Category, &f.CWE, &f.Summary, &aliases,
		&f.Severity, &f.CVSSScore, &f.KEV, &f.KEVDateAdded, &fixed, &f.NearestFix, &f.RiskScore, &f.Band,
		&due, &breached, &f.Status, &f.StatusReason, &accepted, &f.Owner, &compliance, &f.Source,
		&first, &last, &resolved, &updated, &evidence, &f.Malicious, &f.Development)
	if err != nil {
		return nil, err
	}
	_ = json.Unmarshal([]byte(aliases), &f.Aliases)
	_ = json.Unmarshal([]byte(fixed), &f.FixedVersions)
	_ = json.Unmarshal([]byte(compliance), &f.Compliance)
	f.Weaknesses = sentinel.Weaknesses(f.Category, f.CWE)
	f.Evidence = []sentinel.FindingEvidence{}
	_ = json.Unmarshal([]byte(evidence), &f.Evidence)
	f.SLADueAt, f.FirstSeen, f.LastSeen, f.UpdatedAt = FromMS(due), FromMS(first), FromMS(last), FromMS(updated)
	f.SLABreachedAt, f.AcceptedUntil, f.ResolvedAt = nullMS(breached), nullMS(accepted), nullMS(resolved)
	return &f, nil
}

func jsonText(v any) string {
	if v == nil {
		return "[]"
	}
	b, _ := json.Marshal(v)
	if string(b) == "null" {
		return "[]"
	}
	return string(b)
}

func msPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return MS(*t)
}

// SaveFinding inserts a new finding (empty ID: one is assigned) or writes
// every field of an existing one.
func (tx *Tx) SaveFinding(ctx context.Context, f *sentinel.Finding) error {
	f.UpdatedAt = tx.Now()
	args := []any{f.OrgID, f.AssetID, f.Purl, f.AdvisoryID, f.Category, f.CWE, f.Summary, jsonText(f.Aliases),
		f.Severity, f.CVSSScore, f.KEV, f.KEVDateAdded, jsonText(f.FixedVersions), f.NearestFix, f.RiskScore, f.Band,
		MS(f.SLADueAt), msPtr(f.SLABreachedAt), f.Status, f.StatusReason, msPtr(f.AcceptedUntil), f.Owner, jsonText(f.Compliance), f.Source,
		MS(f.FirstSeen), MS(f.LastSeen), msPtr(f.ResolvedAt), MS(f.UpdatedAt), jsonText(f.Evidence), f.Malicious, f.Development}
	if f.ID == "" {
		f.ID = sentinel.NewID(sentinel.PrefixFinding)
		if tx.buf != nil {
			tx.buf.findings = append(tx.buf.findings, append(args, f.ID))
			return nil
		}
		_, err := tx.Exec(ctx, `INSERT INTO findings (org_id, asset_id, purl, advisory_id, category, cwe, summary, aliases,
			severity, cvss_score, kev, kev_date_added, fixed_versions, nearest_fix, risk_score, band,
			sla_due_at, sla_breached_at, status, status_reason, accepted_until, owner, compliance, source,
			first_seen, last_seen, resolved_at, updated_at, evidence, malicious, development, id)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31,$32)`,
			append(args, f.ID)...)
		if err != nil {
			return fmt.Errorf("insert finding: %w", err)
		}
		return nil
	}
	_, err := tx.Exec(ctx, `UPDATE findings SET org_id=$1, asset_id=$2, purl=$3, advisory_id=$4, category=$5, cwe=$6, summary=$7, aliases=$8,
		severity=$9, cvss_score=$10, kev=$11, kev_date_added=$12, fixed_versions=$13, nearest_fix=$14, risk_score=$15, band=$16,
		sla_due_at=$17, sla_breached_at=$18, status=$19, status_reason=$20, accepted_until=$21, owner=$22, compliance=$23, source=$24,
		first_seen=$25, last_seen=$26, resolved_at=$27, updated_at=$28, evidence=$29, malicious=$30, development=$31 WHERE id = $32`, append(args, f.ID)...)
	if err != nil {
		return fmt.Errorf("update finding %s: %w", f.ID, err)
	}
	return nil
}

// FindingForUpdate reads one finding inside a transaction. Errors: ENOTFOUND.
func (tx *Tx) FindingForUpdate(ctx context.Context, orgID, id string) (*sentinel.Finding, error) {
	f, err := scanFinding(tx.QueryRow(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id WHERE f.org_id = $1 AND f.id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("finding")
	}
	return f, err
}

// FindFindingByID returns an organization's finding. Errors: ENOTFOUND.
func (db *DB) FindFindingByID(ctx context.Context, orgID, id string) (*sentinel.Finding, error) {
	f, err := scanFinding(db.QueryRow(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id WHERE f.org_id = $1 AND f.id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("finding")
	}
	return f, err
}

// FindFindings returns findings ordered by id (stable keyset pages), or
// with Sort "risk" by risk score, highest first, then id.
func (db *DB) FindFindings(ctx context.Context, f sentinel.FindingFilter) ([]*sentinel.Finding, string, error) {
	c, ok, err := parseCursor(f.Page.Cursor)
	if err != nil {
		return nil, "", err
	}
	byRisk := f.Sort == sentinel.FindingSortRisk
	where := []string{"f.org_id = $1", "f.id > $2"}
	args := []any{f.OrgID, c.id}
	if byRisk {
		// The cursor is the last item's (risk, id): the next page starts
		// below that risk, or at it with a greater id.
		if !ok {
			c.n = 1 << 30
		}
		where[1] = "(f.risk_score < $2 OR (f.risk_score = $3 AND f.id > $4))"
		args = []any{f.OrgID, c.n, c.n, c.id}
	}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "?", fmt.Sprintf("$%d", len(args))))
	}
	if len(f.Status) > 0 {
		ph := make([]string, len(f.Status))
		for i, s := range f.Status {
			args = append(args, s)
			ph[i] = fmt.Sprintf("$%d", len(args))
		}
		where = append(where, "f.status IN ("+strings.Join(ph, ",")+")")
	}
	if f.Category != "" {
		add("f.category = ?", f.Category)
	}
	if f.CWE != "" {
		add("f.cwe = ?", f.CWE)
	}
	if f.KEV != nil {
		add("f.kev = ?", *f.KEV)
	}
	if f.Development != nil {
		add("f.development = ?", *f.Development)
	}
	if f.Severity != "" {
		add("f.severity = ?", f.Severity)
	}
	if f.Band != "" {
		add("f.band = ?", f.Band)
	}
	if f.AssetID != "" {
		add("f.asset_id = ?", f.AssetID)
	}
	if f.Purl != "" {
		add("f.purl = ?", f.Purl)
	}
	if f.Advisory != "" {
		add("f.advisory_id = ?", f.Advisory)
	}
	if f.Owner != "" {
		add("f.owner = ?", f.Owner)
	}
	limit := pageLimit(f.Page, 1<<30)
	args = append(args, limit+1)
	order := "f.id"
	if byRisk {
		order = "f.risk_score DESC, f.id"
	}
	rows, err := db.Query(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id WHERE `+
		strings.Join(where, " AND ")+fmt.Sprintf(` ORDER BY %s LIMIT $%d`, order, len(args)), args...)
	if err != nil {
		return nil, "", fmt.Errorf("find findings: %w", err)
	}
	out, err := scanFindings(rows)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(x *sentinel.Finding) cursor {
		if byRisk {
			return cursor{n: int64(x.RiskScore), id: x.ID}
		}
		return cursor{id: x.ID}
	})
	return out, next, nil
}

// BreachedFindings returns open findings past their SLA that have not been
// reported as breached yet, across organizations, up to limit.
func (db *DB) BreachedFindings(ctx context.Context, now time.Time, limit int) ([]*sentinel.Finding, error) {
	rows, err := db.Query(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id
		WHERE f.status = $1 AND f.sla_due_at < $2 AND f.sla_breached_at IS NULL ORDER BY f.sla_due_at LIMIT $3`,
		sentinel.StatusOpen, MS(now), limit)
	if err != nil {
		return nil, err
	}
	return scanFindings(rows)
}

// MarkSLABreached records a breach once; it reports false when another
// worker already did.
func (tx *Tx) MarkSLABreached(ctx context.Context, id string) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE findings SET sla_breached_at = $2, updated_at = $2 WHERE id = $1 AND sla_breached_at IS NULL`, id, MS(tx.Now()))
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// ExpiredAcceptances returns accepted findings whose acceptance ran out,
// across organizations, up to limit.
func (db *DB) ExpiredAcceptances(ctx context.Context, now time.Time, limit int) ([]*sentinel.Finding, error) {
	rows, err := db.Query(ctx, `SELECT `+findingColumns+` FROM findings f JOIN assets a ON a.id = f.asset_id
		WHERE f.status = $1 AND f.accepted_until < $2 ORDER BY f.accepted_until LIMIT $3`, sentinel.StatusAccepted, MS(now), limit)
	if err != nil {
		return nil, err
	}
	return scanFindings(rows)
}

// scanFindings reads rows of findingColumns and closes them.
func scanFindings(rows *sql.Rows) ([]*sentinel.Finding, error) {
	return scanRows(rows, scanFinding)
}
