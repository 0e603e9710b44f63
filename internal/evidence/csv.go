package evidence

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// Column headers of the CSV artifacts. They are part of the bundle's
// contract with its readers: add columns at the end, never rename.
var (
	driftHeader      = []string{"at", "change", "purl", "name", "from_version", "to_version", "asset", "submission_id"}
	findingsHeader   = []string{"finding_id", "status", "category", "severity", "risk_score", "known_exploited", "advisory_id", "aliases", "cwe", "component", "version", "purl", "asset", "fixed_version", "compliance", "created_at", "sla_due_at", "accepted_reason", "accepted_until"}
	auditHeader      = []string{"id", "created_at", "actor", "action", "target", "address", "details"}
	complianceHeader = []string{"catalog", "control", "title", "findings", "open", "accepted", "critical", "high", "medium", "low", "known_exploited", "basis"}
)

// FindingStatuses are the statuses a bundle's findings.csv covers: open and
// accepted findings (specification, Evidence Bundle).
var FindingStatuses = []string{"open", "accepted"}

// csvWriter writes rows with spreadsheet-formula protection: a cell that
// starts with '=', '+', '@', a tab or a carriage return is prefixed with a
// single quote, so that opening the file in a spreadsheet never runs it.
type csvWriter struct{ w *csv.Writer }

func newCSV(w io.Writer, header []string) *csvWriter {
	c := &csvWriter{w: csv.NewWriter(w)}
	c.w.UseCRLF = false
	_ = c.w.Write(header)
	return c
}

func (c *csvWriter) row(cells ...string) error {
	for i, s := range cells {
		if s != "" && strings.ContainsRune("=+@\t\r", rune(s[0])) {
			cells[i] = "'" + s
		}
	}
	return c.w.Write(cells)
}

func (c *csvWriter) flush() error {
	c.w.Flush()
	return c.w.Error()
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func stampPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return stamp(*t)
}

func writeDrift(ctx context.Context, w io.Writer, src Source, orgID string, since, until time.Time) error {
	c := newCSV(w, driftHeader)
	err := src.EvidenceChanges(ctx, orgID, since, until, func(ch *sentinel.EvidenceChange) error {
		return c.row(stamp(ch.At), ch.Change, ch.Purl, ch.Name, ch.FromVersion, ch.ToVersion, ch.Asset, ch.SubmissionID)
	})
	if err != nil {
		return err
	}
	return c.flush()
}

func writeAudit(ctx context.Context, w io.Writer, src Source, orgID string, since, until time.Time) error {
	c := newCSV(w, auditHeader)
	err := src.EvidenceAudit(ctx, orgID, since, until, func(e *sentinel.AuditEntry) error {
		details := ""
		if len(e.Details) > 0 {
			b, err := json.Marshal(e.Details) // map keys sorted: stable
			if err != nil {
				return err
			}
			details = string(b)
		}
		return c.row(strconv.FormatInt(e.ID, 10), stamp(e.CreatedAt), e.Actor, e.Action, e.Target, e.Addr, details)
	})
	if err != nil {
		return err
	}
	return c.flush()
}

// findingStats accumulates, while findings stream past, what the cover and
// compliance.csv need.
type findingStats struct {
	severity SeverityCounts
	kev      int
	controls map[string]*controlHits
	catalog  Catalog
}

type controlHits struct {
	findings, open, accepted, critical, high, medium, low, kev int
}

func newFindingStats(catalog string) *findingStats {
	cat := CatalogByName(catalog)
	st := &findingStats{controls: map[string]*controlHits{}, catalog: cat}
	for _, c := range cat.Controls {
		st.controls[c.ID] = &controlHits{}
	}
	return st
}

func (st *findingStats) add(f *sentinel.EvidenceFinding) {
	switch f.Severity {
	case sentinel.SeverityCritical:
		st.severity.Critical++
	case sentinel.SeverityHigh:
		st.severity.High++
	case sentinel.SeverityMedium:
		st.severity.Medium++
	default:
		st.severity.Low++
	}
	if f.KEV {
		st.kev++
	}
	for _, id := range st.catalog.ControlsFor(f) {
		h := st.controls[id]
		h.findings++
		switch f.Status {
		case "open":
			h.open++
		case "accepted":
			h.accepted++
		}
		switch f.Severity {
		case sentinel.SeverityCritical:
			h.critical++
		case sentinel.SeverityHigh:
			h.high++
		case sentinel.SeverityMedium:
			h.medium++
		default:
			h.low++
		}
		if f.KEV {
			h.kev++
		}
	}
}

// streamFindings passes every open or accepted finding to st and, when w is
// not nil, writes findings.csv.
func streamFindings(ctx context.Context, w io.Writer, src Source, orgID string, st *findingStats) error {
	var c *csvWriter
	if w != nil {
		c = newCSV(w, findingsHeader)
	}
	err := src.EvidenceFindings(ctx, orgID, FindingStatuses, func(f *sentinel.EvidenceFinding) error {
		st.add(f)
		if c == nil {
			return nil
		}
		aliases := slices.Clone(f.Aliases)
		slices.Sort(aliases)
		return c.row(f.ID, f.Status, f.Category, f.Severity, strconv.Itoa(f.RiskScore), strconv.FormatBool(f.KEV),
			f.AdvisoryID, strings.Join(aliases, " "), f.CWE, f.Component, f.Version, f.Purl, f.Asset, f.FixedVersion,
			strings.Join(st.catalog.ControlsFor(f), " "), stamp(f.CreatedAt), stampPtr(f.SLADueAt), f.AcceptedReason, stampPtr(f.AcceptedUntil))
	})
	if err != nil {
		return err
	}
	if c != nil {
		return c.flush()
	}
	return nil
}

func writeCompliance(w io.Writer, st *findingStats) error {
	c := newCSV(w, complianceHeader)
	for _, ctl := range st.catalog.Controls {
		h := st.controls[ctl.ID]
		n := strconv.Itoa
		if err := c.row(st.catalog.Name, ctl.ID, ctl.Title, n(h.findings), n(h.open), n(h.accepted), n(h.critical), n(h.high),
			n(h.medium), n(h.low), n(h.kev), ctl.Basis); err != nil {
			return err
		}
	}
	return c.flush()
}
