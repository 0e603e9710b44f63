package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// Submission is one SBOM submitted by an agent. Its original bytes are kept
// apart (SubmissionBody): Evidence Bundles sign exactly what the agent sent.
type Submission struct {
	ID    string `json:"id"`
	OrgID string `json:"-"`
	// Host is the host or asset the SBOM describes.
	Host string `json:"host"`
	// Asset is the SBOM's metadata.component ("name" or "name@version").
	Asset        string `json:"asset,omitempty"`
	SpecVersion  string `json:"spec_version"`
	SerialNumber string `json:"serial_number,omitempty"`
	// ComponentCount is the number of components in the document, nested
	// ones included; IndexedCount the number of distinct inventory rows.
	ComponentCount int   `json:"component_count"`
	IndexedCount   int   `json:"indexed_count"`
	Size           int64 `json:"size"`
	// SHA256 is the hex SHA-256 of the original bytes.
	SHA256    string    `json:"sha256"`
	AgentID   string    `json:"agent_id,omitempty"`
	KeyID     string    `json:"key_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// InventoryItem is one component of a submission as the inventory indexes
// it. Name is the search key (InventoryKey); Ecosystem is the OSV ecosystem
// without release suffix, or "" when the component has no usable purl.
type InventoryItem struct {
	Purl      string `json:"purl"`
	Ecosystem string `json:"ecosystem"`
	Name      string `json:"name"`
	Version   string `json:"version"`
}

// InventoryKey is the name under which a package is indexed and searched:
// the ecosystem's normalisation (purl.NormalizeName: PEP 503 for PyPI, '_'
// as '-' for crates.io, ...) in lower case, so that names match
// case-insensitively in every ecosystem.
func InventoryKey(ecosystem, name string) string {
	return strings.ToLower(purl.NormalizeName(ecosystem, strings.TrimSpace(name)))
}

// keyEcosystems are the ecosystems whose normalisation differs from plain
// lower case; every other ecosystem shares the key of "".
var keyEcosystems = []string{"", "PyPI", "crates.io"}

// SearchKeys returns the distinct keys a query name can have in any
// ecosystem: the candidates a search looks up before MatchesKey checks
// each row against its own ecosystem.
func SearchKeys(name string) []string {
	var keys []string
	for _, e := range keyEcosystems {
		if k := InventoryKey(e, name); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// ItemFromPurl builds the inventory item of a purl. When the purl has no
// OSV ecosystem (or does not parse) fallbackName, lower-cased, is the key.
func ItemFromPurl(p, fallbackName, fallbackVersion string) InventoryItem {
	if p != "" {
		eco, name, version, err := purl.ToEcosystem(p)
		if err == nil {
			eco = purl.BaseEcosystem(eco)
			return InventoryItem{Purl: p, Ecosystem: eco, Name: InventoryKey(eco, name), Version: version}
		}
	}
	return InventoryItem{Purl: p, Name: InventoryKey("", fallbackName), Version: fallbackVersion}
}

// ingestBatch bounds the rows of one statement, so that a huge SBOM is
// indexed in bounded steps.
const ingestBatch = 5000

// CreateSubmission stores a submission, its original bytes and its
// inventory rows in the caller's transaction, and updates the sightings
// index (first/last seen per host and component). Items are deduplicated
// by (ecosystem, name, version); s.IndexedCount and s.CreatedAt are set.
// Errors: ENOTFOUND (organization), ECONFLICT (id).
func (tx *Tx) CreateSubmission(ctx context.Context, s *Submission, body []byte, items []InventoryItem) error {
	s.CreatedAt = tx.Now
	now := MS(tx.Now)
	type key struct{ eco, name, version string }
	seen := make(map[key]bool, len(items))
	uniq := make([]InventoryItem, 0, len(items))
	for _, it := range items {
		k := key{it.Ecosystem, it.Name, it.Version}
		if it.Name == "" || seen[k] {
			continue
		}
		seen[k] = true
		uniq = append(uniq, it)
	}
	s.IndexedCount = len(uniq)
	_, err := tx.Exec(ctx, `INSERT INTO sbom_submissions (id, org_id, host, asset, spec_version, serial_number,
		component_count, indexed_count, size, sha256, agent_id, key_id, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		s.ID, s.OrgID, s.Host, s.Asset, s.SpecVersion, s.SerialNumber, s.ComponentCount, s.IndexedCount,
		s.Size, s.SHA256, s.AgentID, s.KeyID, now)
	if err != nil {
		return fmt.Errorf("create submission: %w", err)
	}
	if body == nil {
		body = []byte{}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO sbom_documents (submission_id, body) VALUES ($1, $2)`, s.ID, body); err != nil {
		return fmt.Errorf("store submission body: %w", err)
	}

	// Rows travel as one JSON array parameter per statement, read by the
	// engine's JSON table function: one short statement instead of
	// thousands of placeholders, which SQLite resolves in quadratic time
	// (measured: 800 ms for 5,000 rows with placeholders, see
	// BenchmarkIngest5000). The JSON table is the one per-engine difference.
	from := `json_each($5) AS j`
	if tx.Engine() == Postgres {
		from = `jsonb_array_elements($5::jsonb) AS j(value)`
	}
	// Sightings first: each row's first_seen on this host is then copied
	// into its occurrence row (CROSS JOIN keeps the JSON rows outer on
	// SQLite, so each finds its sighting by primary key). "WHERE true" lets SQLite parse ON CONFLICT
	// after INSERT ... SELECT.
	upsert := `INSERT INTO inventory_sightings (org_id, host, ecosystem, name, version, purl, first_seen, last_seen, occurrences, last_submission_id)
		SELECT $1, $2, j.value->>0, j.value->>1, j.value->>2, j.value->>3, $3, $3, 1, $4 FROM ` + from + ` WHERE true
		ON CONFLICT (org_id, name, version, host, ecosystem) DO UPDATE SET
			last_seen = excluded.last_seen, purl = excluded.purl,
			occurrences = inventory_sightings.occurrences + 1, last_submission_id = excluded.last_submission_id`
	occur := `INSERT INTO inventory (org_id, submission_id, host, purl, ecosystem, name, version, first_seen, last_seen)
		SELECT $1, $4, $2, j.value->>3, j.value->>0, j.value->>1, j.value->>2, s.first_seen, $3 FROM ` + from + `
		CROSS JOIN inventory_sightings s WHERE s.org_id = $1 AND s.host = $2
			AND s.ecosystem = j.value->>0 AND s.name = j.value->>1 AND s.version = j.value->>2`
	if tx.Engine() == Postgres {
		// One statement: the upsert's RETURNING feeds the occurrence rows,
		// so PostgreSQL plans no join against a table whose statistics may
		// lag behind a bulk load.
		upsert += ` RETURNING ecosystem, name, version, purl, first_seen`
		occur = `WITH up AS (` + upsert + `)
		INSERT INTO inventory (org_id, submission_id, host, purl, ecosystem, name, version, first_seen, last_seen)
		SELECT $1, $4, $2, up.purl, up.ecosystem, up.name, up.version, up.first_seen, $3 FROM up`
		upsert = ""
	}
	for start := 0; start < len(uniq); start += ingestBatch {
		batch := uniq[start:min(start+ingestBatch, len(uniq))]
		rows := make([][4]string, len(batch))
		for i, it := range batch {
			rows[i] = [4]string{it.Ecosystem, it.Name, it.Version, it.Purl}
		}
		js, err := json.Marshal(rows)
		if err != nil {
			return fmt.Errorf("index submission: %w", err)
		}
		if upsert != "" {
			if _, err := tx.Exec(ctx, upsert, s.OrgID, s.Host, now, s.ID, string(js)); err != nil {
				return fmt.Errorf("index submission: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, occur, s.OrgID, s.Host, now, s.ID, string(js)); err != nil {
			return fmt.Errorf("index submission: %w", err)
		}
	}
	return nil
}

const submissionColumns = `id, org_id, host, asset, spec_version, serial_number, component_count, indexed_count, size, sha256, agent_id, key_id, created_at`

func scanSubmission(row interface{ Scan(...any) error }) (*Submission, error) {
	var s Submission
	var created int64
	err := row.Scan(&s.ID, &s.OrgID, &s.Host, &s.Asset, &s.SpecVersion, &s.SerialNumber, &s.ComponentCount,
		&s.IndexedCount, &s.Size, &s.SHA256, &s.AgentID, &s.KeyID, &created)
	if err != nil {
		return nil, err
	}
	s.CreatedAt = FromMS(created)
	return &s, nil
}

// FindSubmission returns an organization's submission. Errors: ENOTFOUND
// (also for another organization's).
func (db *DB) FindSubmission(ctx context.Context, orgID, id string) (*Submission, error) {
	s, err := scanSubmission(db.QueryRow(ctx, `SELECT `+submissionColumns+` FROM sbom_submissions WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("submission")
	}
	return s, err
}

// ListSubmissions returns an organization's submissions, oldest first,
// created in [since, until) when those are not zero. The cursor is the
// last row's "<created_at ms>.<id>" (keyset paging).
func (db *DB) ListSubmissions(ctx context.Context, orgID string, since, until time.Time, page Page) ([]*Submission, string, error) {
	afterMS, afterID := int64(-1), ""
	if page.Cursor != "" {
		ms, id, ok := strings.Cut(page.Cursor, ".")
		n, err := strconv.ParseInt(ms, 10, 64)
		if !ok || err != nil {
			return nil, "", sentinel.InvalidField("cursor", "cursor is not valid")
		}
		afterMS, afterID = n, id
	}
	hi := int64(1<<62 - 1)
	if !until.IsZero() {
		hi = MS(until)
	}
	lo := int64(0)
	if !since.IsZero() {
		lo = MS(since)
	}
	if page.Limit <= 0 {
		page.Limit = 50
	}
	rows, err := db.Query(ctx, `SELECT `+submissionColumns+` FROM sbom_submissions
		WHERE org_id = $1 AND created_at >= $2 AND created_at < $3 AND (created_at > $4 OR (created_at = $4 AND id > $5))
		ORDER BY created_at, id LIMIT $6`, orgID, lo, hi, afterMS, afterID, page.Limit+1)
	if err != nil {
		return nil, "", err
	}
	out, err := scanRows(rows, scanSubmission)
	if err != nil {
		return nil, "", err
	}
	out, next := TrimPage(out, page.Limit, func(s *Submission) string {
		return strconv.FormatInt(MS(s.CreatedAt), 10) + "." + s.ID
	})
	return out, next, nil
}

// SubmissionBody returns a submission's original bytes. Errors: ENOTFOUND
// (also for another organization's).
func (db *DB) SubmissionBody(ctx context.Context, orgID, id string) ([]byte, error) {
	var body []byte
	err := db.QueryRow(ctx, `SELECT d.body FROM sbom_documents d JOIN sbom_submissions s ON s.id = d.submission_id
		WHERE s.org_id = $1 AND s.id = $2`, orgID, id).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("submission")
	}
	if err != nil {
		return nil, fmt.Errorf("read submission body: %w", err)
	}
	return body, nil
}

// SubmissionItems returns the inventory rows of an organization's
// submission, sorted by purl.
func (db *DB) SubmissionItems(ctx context.Context, orgID, id string) ([]InventoryItem, error) {
	rows, err := db.Query(ctx, `SELECT purl, ecosystem, name, version FROM inventory
		WHERE submission_id = $1 AND org_id = $2 ORDER BY purl, name, version`, id, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []InventoryItem
	for rows.Next() {
		var it InventoryItem
		if err := rows.Scan(&it.Purl, &it.Ecosystem, &it.Name, &it.Version); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// Sighting is one component on one host in the inverted index.
type Sighting struct {
	Host      string
	Ecosystem string
	Name      string
	Version   string
	Purl      string
	FirstSeen time.Time
	LastSeen  time.Time
	// Occurrences is the number of submissions from the host that listed it.
	Occurrences      int
	LastSubmissionID string
}

// MaxSightings bounds one search's rows.
const MaxSightings = 100_000

// FindSightings returns an organization's sightings of the component
// named name (any ecosystem, matched under each ecosystem's normalisation,
// case-insensitively) at version, or at any version when version is "". A
// version also matches with or without a leading "v" (Go writes v1.2.3).
// Rows come sorted by host, then ecosystem and version.
func (db *DB) FindSightings(ctx context.Context, orgID, name, version string) ([]Sighting, error) {
	keys := SearchKeys(name)
	args := []any{orgID}
	var q strings.Builder
	q.WriteString(`SELECT host, ecosystem, name, version, purl, first_seen, last_seen, occurrences, last_submission_id
		FROM inventory_sightings WHERE org_id = $1 AND name IN (`)
	for i, k := range keys {
		if i > 0 {
			q.WriteByte(',')
		}
		args = append(args, k)
		q.WriteString("$" + strconv.Itoa(len(args)))
	}
	q.WriteByte(')')
	if version != "" {
		alt := "v" + version
		if rest, ok := strings.CutPrefix(version, "v"); ok && rest != "" {
			alt = rest
		}
		args = append(args, version, alt)
		fmt.Fprintf(&q, " AND version IN ($%d,$%d)", len(args)-1, len(args))
	}
	// No ORDER BY: sorting by host would tempt the planner to walk the
	// primary key (org_id, host, ...) over the whole organization instead
	// of the search index; the few matching rows are sorted here.
	args = append(args, MaxSightings)
	fmt.Fprintf(&q, " LIMIT $%d", len(args))
	rows, err := db.Query(ctx, q.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("search inventory: %w", err)
	}
	defer rows.Close()
	var out []Sighting
	keyOf := map[string]string{} // ecosystem -> the query's key in it
	for rows.Next() {
		var s Sighting
		var first, last int64
		if err := rows.Scan(&s.Host, &s.Ecosystem, &s.Name, &s.Version, &s.Purl, &first, &last, &s.Occurrences, &s.LastSubmissionID); err != nil {
			return nil, err
		}
		// The SQL looked up every candidate key; keep the rows whose own
		// ecosystem normalises the query to their key.
		k, ok := keyOf[s.Ecosystem]
		if !ok {
			k = InventoryKey(s.Ecosystem, name)
			keyOf[s.Ecosystem] = k
		}
		if k != s.Name {
			continue
		}
		s.FirstSeen, s.LastSeen = FromMS(first), FromMS(last)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Sighting) int {
		return cmp.Or(strings.Compare(a.Host, b.Host), strings.Compare(a.Ecosystem, b.Ecosystem), strings.Compare(a.Version, b.Version))
	})
	return out, nil
}

// HostSummary is a component search's aggregate on one host.
type HostSummary struct {
	Host      string
	FirstSeen time.Time
	LastSeen  time.Time
	// Occurrences is the number of submissions from the host that listed a
	// matching component (summed over matching components).
	Occurrences int
}

// ComponentSummary is a component search's aggregate for one matching
// component (ecosystem, version and purl) over every host.
type ComponentSummary struct {
	Ecosystem   string
	Version     string
	Purl        string
	FirstSeen   time.Time
	LastSeen    time.Time
	Occurrences int
	Hosts       int
}

// InventorySummary is the answer of SearchInventory.
type InventorySummary struct {
	// Hosts are sorted by host; at most maxHosts (Truncated tells).
	Hosts      []HostSummary
	HostCount  int
	Components []ComponentSummary
}

// SearchInventory aggregates an organization's sightings of the component
// named name (matched as FindSightings matches) per host and per component,
// in the database: a popular package on a thousand hosts returns a
// thousand short rows, not every sighting. At most maxHosts hosts are
// returned; HostCount counts them all.
func (db *DB) SearchInventory(ctx context.Context, orgID, name, version string, maxHosts int) (*InventorySummary, error) {
	// The exact filter, in SQL: a row matches when its own ecosystem's
	// normalisation of the query equals its key.
	args := []any{orgID, InventoryKey("", name), InventoryKey("PyPI", name), InventoryKey("crates.io", name)}
	where := `org_id = $1 AND name IN ($2, $3, $4)
		AND name = CASE ecosystem WHEN 'PyPI' THEN $3 WHEN 'crates.io' THEN $4 ELSE $2 END`
	if version != "" {
		alt := "v" + version
		if rest, ok := strings.CutPrefix(version, "v"); ok && rest != "" {
			alt = rest
		}
		args = append(args, version, alt)
		where += ` AND version IN ($5, $6)`
	}
	out := &InventorySummary{}
	if db.Engine == Postgres {
		return db.searchInventoryPG(ctx, where, args, maxHosts)
	}
	rows, err := db.Query(ctx, `SELECT host, MIN(first_seen), MAX(last_seen), SUM(occurrences)
		FROM inventory_sightings WHERE `+where+` GROUP BY host ORDER BY host`, args...)
	if err != nil {
		return nil, fmt.Errorf("search inventory: %w", err)
	}
	for rows.Next() {
		out.HostCount++
		if len(out.Hosts) >= maxHosts {
			continue
		}
		var h HostSummary
		var first, last int64
		if err := rows.Scan(&h.Host, &first, &last, &h.Occurrences); err != nil {
			rows.Close()
			return nil, err
		}
		h.FirstSeen, h.LastSeen = FromMS(first), FromMS(last)
		out.Hosts = append(out.Hosts, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = db.Query(ctx, `SELECT ecosystem, version, purl, MIN(first_seen), MAX(last_seen), SUM(occurrences), COUNT(*)
		FROM inventory_sightings WHERE `+where+` GROUP BY ecosystem, version, purl ORDER BY ecosystem, version, purl`, args...)
	if err != nil {
		return nil, fmt.Errorf("search inventory: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c ComponentSummary
		var first, last int64
		if err := rows.Scan(&c.Ecosystem, &c.Version, &c.Purl, &first, &last, &c.Occurrences, &c.Hosts); err != nil {
			return nil, err
		}
		c.FirstSeen, c.LastSeen = FromMS(first), FromMS(last)
		out.Components = append(out.Components, c)
	}
	return out, rows.Err()
}

// searchInventoryPG is SearchInventory in one scan: PostgreSQL computes
// both groupings from one pass over the index (GROUPING SETS), which halves
// the tail latency of popular packages.
func (db *DB) searchInventoryPG(ctx context.Context, where string, args []any, maxHosts int) (*InventorySummary, error) {
	rows, err := db.Query(ctx, `SELECT GROUPING(host), host, ecosystem, version, purl,
			MIN(first_seen), MAX(last_seen), SUM(occurrences), COUNT(*)
		FROM inventory_sightings WHERE `+where+`
		GROUP BY GROUPING SETS ((host), (ecosystem, version, purl))
		ORDER BY 1, host, ecosystem, version, purl`, args...)
	if err != nil {
		return nil, fmt.Errorf("search inventory: %w", err)
	}
	defer rows.Close()
	out := &InventorySummary{}
	for rows.Next() {
		var grouped, occ, n int
		var host, eco, version, purl sql.NullString
		var first, last int64
		if err := rows.Scan(&grouped, &host, &eco, &version, &purl, &first, &last, &occ, &n); err != nil {
			return nil, err
		}
		if grouped == 0 { // a host row
			out.HostCount++
			if len(out.Hosts) < maxHosts {
				out.Hosts = append(out.Hosts, HostSummary{Host: host.String, FirstSeen: FromMS(first), LastSeen: FromMS(last), Occurrences: occ})
			}
			continue
		}
		out.Components = append(out.Components, ComponentSummary{Ecosystem: eco.String, Version: version.String, Purl: purl.String,
			FirstSeen: FromMS(first), LastSeen: FromMS(last), Occurrences: occ, Hosts: n})
	}
	return out, rows.Err()
}
