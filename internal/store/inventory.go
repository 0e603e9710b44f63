package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/purl"
)

// ingestBatch bounds the rows of one statement, so that a huge SBOM is
// indexed in bounded steps.
const ingestBatch = 5000

// CreateSubmission stores a submission, its original bytes and its
// inventory rows in the caller's transaction, and updates the sightings
// index (first/last seen per host and component). Items are deduplicated
// by (ecosystem, name, version); s.IndexedCount and s.CreatedAt are set.
// Errors: ENOTFOUND (organization), ECONFLICT (id).
func (tx *Tx) CreateSubmission(ctx context.Context, s *sentinel.Submission, body []byte, items []sentinel.InventoryItem) error {
	s.CreatedAt = tx.Now()
	now := MS(tx.Now())
	uniq := dedupItems(items)
	s.IndexedCount = len(uniq)
	_, err := tx.Exec(ctx, `INSERT INTO sbom_submissions (id, org_id, host, asset, spec_version, serial_number,
		component_count, indexed_count, size, sha256, agent_id, key_id, created_at, claimed_host)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		s.ID, s.OrgID, s.Host, s.Asset, s.SpecVersion, s.SerialNumber, s.ComponentCount, s.IndexedCount,
		s.Size, s.SHA256, s.AgentID, s.KeyID, now, s.ClaimedHost)
	if err != nil {
		return fmt.Errorf("create submission: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO sbom_documents (submission_id, body) VALUES ($1, $2)`, s.ID, compressDocument(body)); err != nil {
		return fmt.Errorf("store submission body: %w", err)
	}

	if err := tx.setLive(ctx, s.OrgID, s.Host, s.ID, sentinel.SourceSBOM, now); err != nil {
		return err
	}
	return tx.indexComponents(ctx, s.OrgID, s.Host, s.ID, now, uniq)
}

// setLive makes sourceID the host's live source unless a newer one is.
func (tx *Tx) setLive(ctx context.Context, orgID, host, sourceID, kind string, at int64) error {
	_, err := tx.Exec(ctx, `INSERT INTO inventory_live (org_id, host, source_id, kind, created_at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (org_id, host) DO UPDATE SET source_id = excluded.source_id, kind = excluded.kind, created_at = excluded.created_at
		WHERE excluded.created_at >= inventory_live.created_at`, orgID, host, sourceID, kind, at)
	if err != nil {
		return fmt.Errorf("record live source: %w", err)
	}
	return nil
}

// dedupItems drops items without a name and repeats of an (ecosystem,
// name, version), keeping the first; the one kept is development-only
// when every repeat is.
func dedupItems(items []sentinel.InventoryItem) []sentinel.InventoryItem {
	type key struct{ eco, name, version string }
	seen := make(map[key]int, len(items))
	uniq := make([]sentinel.InventoryItem, 0, len(items))
	for _, it := range items {
		if it.Name == "" {
			continue
		}
		k := key{it.Ecosystem, it.Name, it.Version}
		if i, ok := seen[k]; ok {
			uniq[i].Development = uniq[i].Development && it.Development
			continue
		}
		seen[k] = len(uniq)
		uniq = append(uniq, it)
	}
	return uniq
}

// IndexComponents records the components an external scan (or any source
// other than a submission, of kind) saw on host: occurrence rows under
// sourceID and the sightings index, as a submission's are, and sourceID as
// the host's live source. Items are deduplicated by (ecosystem, name,
// version).
func (tx *Tx) IndexComponents(ctx context.Context, orgID, host, sourceID, kind string, items []sentinel.InventoryItem) error {
	now := MS(tx.Now())
	if err := tx.setLive(ctx, orgID, host, sourceID, kind, now); err != nil {
		return err
	}
	return tx.indexComponents(ctx, orgID, host, sourceID, now, dedupItems(items))
}

// LiveComponents returns the components of an organization's live sources
// (each host's newest submission, each site's newest reachable scan) that
// are of one of the packages: what the watch and an indicator re-match.
// It reads the inverted index, so its cost follows the matches, not the
// inventory.
func (db *DB) LiveComponents(ctx context.Context, orgID string, pkgs []sentinel.PackageRef) ([]sentinel.LiveComponent, error) {
	var out []sentinel.LiveComponent
	byName := map[string][]string{}
	for _, p := range pkgs {
		byName[p.Name] = append(byName[p.Name], p.Ecosystem)
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names)
	for start := 0; start < len(names); start += 500 {
		batch := names[start:min(start+500, len(names))]
		args := []any{orgID}
		ph := make([]string, len(batch))
		for i, n := range batch {
			args = append(args, n)
			ph[i] = "$" + strconv.Itoa(len(args))
		}
		rows, err := db.Query(ctx, `SELECT l.host, l.source_id, l.kind, i.purl, i.ecosystem, i.name, i.version, i.development
			FROM inventory i JOIN inventory_live l ON l.source_id = i.submission_id AND l.org_id = i.org_id
			WHERE i.org_id = $1 AND i.name IN (`+strings.Join(ph, ",")+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("live components: %w", err)
		}
		got, err := scanRows(rows, func(r interface{ Scan(...any) error }) (sentinel.LiveComponent, error) {
			var c sentinel.LiveComponent
			err := r.Scan(&c.Host, &c.SourceID, &c.Kind, &c.Purl, &c.Ecosystem, &c.Name, &c.Version, &c.Development)
			return c, err
		})
		if err != nil {
			return nil, err
		}
		for _, c := range got {
			if slices.Contains(byName[c.Name], c.Ecosystem) {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// LiveSources returns an organization's live sources: host -> (source id,
// kind).
func (db *DB) LiveSources(ctx context.Context, orgID string) ([]sentinel.LiveComponent, error) {
	rows, err := db.Query(ctx, `SELECT host, source_id, kind FROM inventory_live WHERE org_id = $1 ORDER BY host`, orgID)
	if err != nil {
		return nil, fmt.Errorf("live sources: %w", err)
	}
	return scanRows(rows, func(r interface{ Scan(...any) error }) (sentinel.LiveComponent, error) {
		var c sentinel.LiveComponent
		err := r.Scan(&c.Host, &c.SourceID, &c.Kind)
		return c, err
	})
}

func (tx *Tx) indexComponents(ctx context.Context, orgID, host, sourceID string, now int64, uniq []sentinel.InventoryItem) error {
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
	// The development mark travels as "1" or "0": SQLite reads it into an
	// INTEGER column as is, PostgreSQL casts it to BOOLEAN.
	dev := `j.value->>4`
	if tx.Engine() == Postgres {
		dev = `(j.value->>4)::boolean`
	}
	upsert := `INSERT INTO inventory_sightings (org_id, host, ecosystem, name, version, purl, first_seen, last_seen, occurrences, last_submission_id, development)
		SELECT $1, $2, j.value->>0, j.value->>1, j.value->>2, j.value->>3, $3, $3, 1, $4, ` + dev + ` FROM ` + from + ` WHERE true
		ON CONFLICT (org_id, name, version, host, ecosystem) DO UPDATE SET
			last_seen = excluded.last_seen, purl = excluded.purl, development = excluded.development,
			occurrences = inventory_sightings.occurrences + 1, last_submission_id = excluded.last_submission_id`
	occur := `INSERT INTO inventory (org_id, submission_id, host, purl, ecosystem, name, version, first_seen, last_seen, development)
		SELECT $1, $4, $2, j.value->>3, j.value->>0, j.value->>1, j.value->>2, s.first_seen, $3, ` + dev + ` FROM ` + from + `
		CROSS JOIN inventory_sightings s WHERE s.org_id = $1 AND s.host = $2
			AND s.ecosystem = j.value->>0 AND s.name = j.value->>1 AND s.version = j.value->>2`
	if tx.Engine() == Postgres {
		// One statement: the upsert's RETURNING feeds the occurrence rows,
		// so PostgreSQL plans no join against a table whose statistics may
		// lag behind a bulk load.
		upsert += ` RETURNING ecosystem, name, version, purl, first_seen, development`
		occur = `WITH up AS (` + upsert + `)
		INSERT INTO inventory (org_id, submission_id, host, purl, ecosystem, name, version, first_seen, last_seen, development)
		SELECT $1, $4, $2, up.purl, up.ecosystem, up.name, up.version, up.first_seen, $3, up.development FROM up`
		upsert = ""
	}
	for start := 0; start < len(uniq); start += ingestBatch {
		batch := uniq[start:min(start+ingestBatch, len(uniq))]
		rows := make([][5]string, len(batch))
		for i, it := range batch {
			d := "0"
			if it.Development {
				d = "1"
			}
			rows[i] = [5]string{it.Ecosystem, it.Name, it.Version, it.Purl, d}
		}
		js, err := json.Marshal(rows)
		if err != nil {
			return fmt.Errorf("index submission: %w", err)
		}
		if upsert != "" {
			if _, err := tx.Exec(ctx, upsert, orgID, host, now, sourceID, string(js)); err != nil {
				return fmt.Errorf("index submission: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, occur, orgID, host, now, sourceID, string(js)); err != nil {
			return fmt.Errorf("index submission: %w", err)
		}
	}
	return nil
}

const submissionColumns = `id, org_id, host, asset, spec_version, serial_number, component_count, indexed_count, size, sha256, agent_id, key_id, created_at, claimed_host`

func scanSubmission(row interface{ Scan(...any) error }) (*sentinel.Submission, error) {
	var s sentinel.Submission
	var created int64
	err := row.Scan(&s.ID, &s.OrgID, &s.Host, &s.Asset, &s.SpecVersion, &s.SerialNumber, &s.ComponentCount,
		&s.IndexedCount, &s.Size, &s.SHA256, &s.AgentID, &s.KeyID, &created, &s.ClaimedHost)
	if err != nil {
		return nil, err
	}
	s.CreatedAt = FromMS(created)
	return &s, nil
}

// FindSubmission returns an organization's submission. Errors: ENOTFOUND
// (also for another organization's).
func (db *DB) FindSubmission(ctx context.Context, orgID, id string) (*sentinel.Submission, error) {
	s, err := scanSubmission(db.QueryRow(ctx, `SELECT `+submissionColumns+` FROM sbom_submissions WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("submission")
	}
	return s, err
}

// ListSubmissions returns an organization's submissions, oldest first,
// created in [since, until) when those are not zero.
func (db *DB) ListSubmissions(ctx context.Context, orgID string, since, until time.Time, page sentinel.Page) ([]*sentinel.Submission, string, error) {
	c, ok, err := parseCursor(page.Cursor)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		c.n = -1
	}
	hi := int64(1<<62 - 1)
	if !until.IsZero() {
		hi = MS(until)
	}
	lo := int64(0)
	if !since.IsZero() {
		lo = MS(since)
	}
	limit := pageLimit(page, 50)
	rows, err := db.Query(ctx, `SELECT `+submissionColumns+` FROM sbom_submissions
		WHERE org_id = $1 AND created_at >= $2 AND created_at < $3 AND (created_at > $4 OR (created_at = $4 AND id > $5))
		ORDER BY created_at, id LIMIT $6`, orgID, lo, hi, c.n, c.id, limit+1)
	if err != nil {
		return nil, "", err
	}
	out, err := scanRows(rows, scanSubmission)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(s *sentinel.Submission) cursor { return cursor{n: MS(s.CreatedAt), id: s.ID} })
	return out, next, nil
}

// FindSubmissions returns an organization's submissions, optionally of
// one host, oldest first or (Newest) newest first.
func (db *DB) FindSubmissions(ctx context.Context, f sentinel.SubmissionFilter) ([]*sentinel.Submission, string, error) {
	c, ok, err := parseCursor(f.Page.Cursor)
	if err != nil {
		return nil, "", err
	}
	cmp, order := ">", "created_at, id"
	if f.Newest {
		cmp, order = "<", "created_at DESC, id DESC"
	}
	if !ok {
		c.n, c.id = -1, ""
		if f.Newest {
			c.n = 1<<62 - 1
		}
	}
	q := `SELECT ` + submissionColumns + ` FROM sbom_submissions WHERE org_id = $1
		AND (created_at ` + cmp + ` $2 OR (created_at = $2 AND id ` + cmp + ` $3))`
	limit := pageLimit(f.Page, 50)
	args := []any{f.OrgID, c.n, c.id, limit + 1}
	if f.Host != "" {
		q += ` AND host = $5`
		args = append(args, f.Host)
	}
	rows, err := db.Query(ctx, q+` ORDER BY `+order+` LIMIT $4`, args...)
	if err != nil {
		return nil, "", err
	}
	out, err := scanRows(rows, scanSubmission)
	if err != nil {
		return nil, "", err
	}
	out, next := trimPage(out, limit, func(s *sentinel.Submission) cursor { return cursor{n: MS(s.CreatedAt), id: s.ID} })
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
	if body, err = decompressDocument(body); err != nil {
		return nil, fmt.Errorf("read submission body %s: %w", id, err)
	}
	return body, nil
}

// A submission's original bytes are kept compressed with zstd at its
// fastest level: an SBOM's JSON shrinks to a tenth or less, in a few
// milliseconds per megabyte, which costs less than writing the other nine
// tenths into the database and its log (BenchmarkIngest5000). A body
// stored before is read as it is: it is JSON, which never starts with
// zstd's magic number.
var (
	zstdMagic  = []byte{0x28, 0xb5, 0x2f, 0xfd}
	docEncoder = sync.OnceValue(func() *zstd.Encoder { return must(zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))) })
	docDecoder = sync.OnceValue(func() *zstd.Decoder { return must(zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxDocument))) })
)

// maxDocument bounds what a stored document may decompress to.
const maxDocument = 4 << 30

// must is for options known to be valid.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func compressDocument(body []byte) []byte {
	return docEncoder().EncodeAll(body, make([]byte, 0, len(body)/8))
}

func decompressDocument(stored []byte) ([]byte, error) {
	if !bytes.HasPrefix(stored, zstdMagic) {
		return stored, nil
	}
	return docDecoder().DecodeAll(stored, nil)
}

// SubmissionItems returns the inventory rows of an organization's
// submission, sorted by purl.
func (db *DB) SubmissionItems(ctx context.Context, orgID, id string) ([]sentinel.InventoryItem, error) {
	rows, err := db.Query(ctx, `SELECT purl, ecosystem, name, version, development FROM inventory
		WHERE submission_id = $1 AND org_id = $2 ORDER BY purl, name, version`, id, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []sentinel.InventoryItem
	for rows.Next() {
		var it sentinel.InventoryItem
		if err := rows.Scan(&it.Purl, &it.Ecosystem, &it.Name, &it.Version, &it.Development); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// MaxSightings bounds one search's rows.
const MaxSightings = 100_000

// FindSightings returns an organization's sightings of the component
// named name (any ecosystem, matched under each ecosystem's normalisation,
// case-insensitively; a Maven artifact also by its artifactId alone) at version, or at any version when version is "". A
// version also matches with or without a leading "v" (Go writes v1.2.3).
// Rows come sorted by host, then ecosystem and version.
func (db *DB) FindSightings(ctx context.Context, orgID, name, version string) ([]sentinel.Sighting, error) {
	artifacts, err := db.mavenArtifacts(ctx, orgID, name)
	if err != nil {
		return nil, err
	}
	keys := append(purl.SearchKeys(name), artifacts...)
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
	var out []sentinel.Sighting
	keyOf := map[string]string{} // ecosystem -> the query's key in it
	for rows.Next() {
		var s sentinel.Sighting
		var first, last int64
		if err := rows.Scan(&s.Host, &s.Ecosystem, &s.Name, &s.Version, &s.Purl, &first, &last, &s.Occurrences, &s.LastSubmissionID); err != nil {
			return nil, err
		}
		// The SQL looked up every candidate key; keep the rows whose own
		// ecosystem normalises the query to their key.
		k, ok := keyOf[s.Ecosystem]
		if !ok {
			k = purl.InventoryKey(s.Ecosystem, name)
			keyOf[s.Ecosystem] = k
		}
		if k != s.Name && (s.Ecosystem != "Maven" || !slices.Contains(artifacts, s.Name)) {
			continue
		}
		s.FirstSeen, s.LastSeen = FromMS(first), FromMS(last)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b sentinel.Sighting) int {
		return cmp.Or(strings.Compare(a.Host, b.Host), strings.Compare(a.Ecosystem, b.Ecosystem), strings.Compare(a.Version, b.Version))
	})
	return out, nil
}

// SearchInventory aggregates an organization's sightings of the component
// named name (matched as FindSightings matches) per host and per component,
// in the database: a popular package on a thousand hosts returns a
// thousand short rows, not every sighting. At most maxHosts hosts are
// returned; HostCount counts them all.
func (db *DB) SearchInventory(ctx context.Context, orgID, name, version string, maxHosts int) (*sentinel.InventorySummary, error) {
	// The exact filter, in SQL: a row matches when its own ecosystem's
	// normalisation of the query equals its key, or when it is a Maven
	// artifact the query names without its group.
	artifacts, err := db.mavenArtifacts(ctx, orgID, name)
	if err != nil {
		return nil, err
	}
	args := []any{orgID, purl.InventoryKey("", name), purl.InventoryKey("PyPI", name), purl.InventoryKey("crates.io", name)}
	exact := `name = CASE ecosystem WHEN 'PyPI' THEN $3 WHEN 'crates.io' THEN $4 ELSE $2 END`
	in := "$2, $3, $4"
	if len(artifacts) > 0 {
		list := ""
		for i, a := range artifacts {
			args = append(args, a)
			if i > 0 {
				list += ", "
			}
			list += "$" + strconv.Itoa(len(args))
		}
		in += ", " + list
		exact = "(" + exact + " OR ecosystem = 'Maven' AND name IN (" + list + "))"
	}
	where := `org_id = $1 AND name IN (` + in + `) AND ` + exact
	if version != "" {
		alt := "v" + version
		if rest, ok := strings.CutPrefix(version, "v"); ok && rest != "" {
			alt = rest
		}
		args = append(args, version, alt)
		where += fmt.Sprintf(` AND version IN ($%d, $%d)`, len(args)-1, len(args))
	}
	out := &sentinel.InventorySummary{}
	if db.Engine == Postgres {
		return db.searchInventoryPG(ctx, where, args, maxHosts)
	}
	rows, err := db.Query(ctx, `SELECT host, MIN(first_seen), MAX(last_seen), SUM(occurrences), MIN(development)
		FROM inventory_sightings WHERE `+where+` GROUP BY host ORDER BY host`, args...)
	if err != nil {
		return nil, fmt.Errorf("search inventory: %w", err)
	}
	for rows.Next() {
		out.HostCount++
		if len(out.Hosts) >= maxHosts {
			continue
		}
		var h sentinel.HostSummary
		var first, last int64
		if err := rows.Scan(&h.Host, &first, &last, &h.Occurrences, &h.Development); err != nil {
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
		var c sentinel.ComponentSummary
		var first, last int64
		if err := rows.Scan(&c.Ecosystem, &c.Version, &c.Purl, &first, &last, &c.Occurrences, &c.Hosts); err != nil {
			return nil, err
		}
		c.FirstSeen, c.LastSeen = FromMS(first), FromMS(last)
		out.Components = append(out.Components, c)
	}
	return out, rows.Err()
}

// mavenArtifacts returns the names (group:artifact) of an organization's
// Maven components whose artifactId is name, for a query that names no
// group; none for a query with a colon or a slash. The partial index
// inventory_sightings_artifact answers it.
func (db *DB) mavenArtifacts(ctx context.Context, orgID, name string) ([]string, error) {
	if strings.ContainsAny(name, ":/") || strings.TrimSpace(name) == "" {
		return nil, nil
	}
	// SQLite, without statistics, would rather walk the organization's
	// whole range of the primary key, which covers the query: it is told
	// which index to use.
	from, artifact := `inventory_sightings INDEXED BY inventory_sightings_artifact`, `substr(name, instr(name, ':') + 1)`
	if db.Engine == Postgres {
		from, artifact = `inventory_sightings`, `split_part(name, ':', 2)`
	}
	rows, err := db.Query(ctx, `SELECT DISTINCT name FROM `+from+`
		WHERE org_id = $1 AND ecosystem = 'Maven' AND `+artifact+` = $2 ORDER BY name LIMIT 100`, orgID, purl.InventoryKey("Maven", name))
	if err != nil {
		return nil, fmt.Errorf("search inventory: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// searchInventoryPG is SearchInventory in one scan: PostgreSQL computes
// both groupings from one pass over the index (GROUPING SETS), which halves
// the tail latency of popular packages.
func (db *DB) searchInventoryPG(ctx context.Context, where string, args []any, maxHosts int) (*sentinel.InventorySummary, error) {
	rows, err := db.Query(ctx, `SELECT GROUPING(host), host, ecosystem, version, purl,
			MIN(first_seen), MAX(last_seen), SUM(occurrences), COUNT(*), bool_and(development)
		FROM inventory_sightings WHERE `+where+`
		GROUP BY GROUPING SETS ((host), (ecosystem, version, purl))
		ORDER BY 1, host, ecosystem, version, purl`, args...)
	if err != nil {
		return nil, fmt.Errorf("search inventory: %w", err)
	}
	defer rows.Close()
	out := &sentinel.InventorySummary{}
	for rows.Next() {
		var grouped, occ, n int
		var host, eco, version, purl sql.NullString
		var first, last int64
		var dev bool
		if err := rows.Scan(&grouped, &host, &eco, &version, &purl, &first, &last, &occ, &n, &dev); err != nil {
			return nil, err
		}
		if grouped == 0 { // a host row
			out.HostCount++
			if len(out.Hosts) < maxHosts {
				out.Hosts = append(out.Hosts, sentinel.HostSummary{Host: host.String, FirstSeen: FromMS(first), LastSeen: FromMS(last),
					Occurrences: occ, Development: dev})
			}
			continue
		}
		out.Components = append(out.Components, sentinel.ComponentSummary{Ecosystem: eco.String, Version: version.String, Purl: purl.String,
			FirstSeen: FromMS(first), LastSeen: FromMS(last), Occurrences: occ, Hosts: n})
	}
	return out, rows.Err()
}

// InventoryEcosystems counts an organization's inventory per ecosystem,
// sorted by ecosystem.
func (db *DB) InventoryEcosystems(ctx context.Context, orgID string) ([]sentinel.EcosystemCount, error) {
	rows, err := db.Query(ctx, `SELECT ecosystem, COUNT(DISTINCT name || '@' || version), COUNT(DISTINCT host)
		FROM inventory_sightings WHERE org_id = $1 GROUP BY ecosystem ORDER BY ecosystem`, orgID)
	if err != nil {
		return nil, fmt.Errorf("count inventory ecosystems: %w", err)
	}
	defer rows.Close()
	out := []sentinel.EcosystemCount{}
	for rows.Next() {
		var c sentinel.EcosystemCount
		if err := rows.Scan(&c.Ecosystem, &c.Components, &c.Hosts); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
