-- Supply-chain indicators (IOCs) an operator defines: a package and a
-- version expression. A draft is only dry-run; an applied indicator keeps
-- standing for every later submission and scan until it is archived.
-- inventory_live names each host's live source of components (its newest
-- SBOM submission, or a site's newest reachable scan): what the watch and
-- the indicators match against. Findings learn whether they are about a
-- malicious package.

CREATE TABLE iocs (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations(id),
    ecosystem   TEXT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    versions    TEXT NOT NULL,
    reason      TEXT NOT NULL,
    severity    TEXT NOT NULL,
    reference   TEXT NOT NULL DEFAULT '',
    malicious   BOOLEAN NOT NULL DEFAULT FALSE,
    status      TEXT NOT NULL,
    created_by  TEXT NOT NULL DEFAULT '',
    created_at  BIGINT NOT NULL,
    applied_at  BIGINT,
    archived_at BIGINT
);
CREATE INDEX iocs_org ON iocs(org_id, status, created_at);

CREATE TABLE inventory_live (
    org_id     TEXT NOT NULL,
    host       TEXT NOT NULL,
    source_id  TEXT NOT NULL,
    kind       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (org_id, host)
);
CREATE INDEX inventory_live_source ON inventory_live(source_id);

INSERT INTO inventory_live (org_id, host, source_id, kind, created_at)
SELECT s.org_id, s.host, s.id, 'sbom', s.created_at FROM sbom_submissions s
WHERE NOT EXISTS (SELECT 1 FROM sbom_submissions t WHERE t.org_id = s.org_id AND t.host = s.host
    AND (t.created_at > s.created_at OR (t.created_at = s.created_at AND t.id > s.id)));

INSERT INTO inventory_live (org_id, host, source_id, kind, created_at)
SELECT s.org_id, a.name, s.id, 'scan', s.created_at FROM scans s JOIN assets a ON a.id = s.asset_id
WHERE s.status = 'completed' AND s.stats LIKE '%"reachable":true%' AND NOT EXISTS (
    SELECT 1 FROM scans t WHERE t.asset_id = s.asset_id AND t.status = 'completed' AND t.stats LIKE '%"reachable":true%'
    AND (t.created_at > s.created_at OR (t.created_at = s.created_at AND t.id > s.id)))
AND NOT EXISTS (SELECT 1 FROM inventory_live l WHERE l.org_id = s.org_id AND l.host = a.name);

ALTER TABLE findings ADD COLUMN malicious BOOLEAN NOT NULL DEFAULT FALSE;
