-- The dependency graph of each submission, as edges between the purls of
-- its inventory rows (0004): from_purl depends on to_purl. Both ends are
-- purls the submission's inventory indexes; the agent's bom-refs are
-- translated at ingest. Evidence Bundles read the edges of each host's
-- latest submission to keep the graph in the consolidated SBOM.
-- Written only with their submission, in its transaction; no foreign keys,
-- as for the inventory. The primary key leads with submission_id: it is the
-- index by submission, and a component's edges are one range of it.
CREATE TABLE inventory_edges (
    org_id        TEXT NOT NULL,
    submission_id TEXT NOT NULL,
    from_purl     TEXT NOT NULL,
    to_purl       TEXT NOT NULL,
    PRIMARY KEY (submission_id, from_purl, to_purl)
);
