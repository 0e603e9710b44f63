-- Assets and findings. An asset is what a finding is about: a host or
-- project an agent names in its SBOM, or a site an external scan reaches.
-- A finding is one (asset, component purl, advisory) of an organization.

CREATE TABLE assets (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations(id),
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL,
    criticality TEXT NOT NULL DEFAULT 'medium',
    first_seen  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL,
    UNIQUE (org_id, name)
);

CREATE TABLE findings (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations(id),
    asset_id          TEXT NOT NULL REFERENCES assets(id),
    purl              TEXT NOT NULL,
    advisory_id       TEXT NOT NULL,
    category          TEXT NOT NULL,
    cwe               TEXT NOT NULL,
    summary           TEXT NOT NULL DEFAULT '',
    aliases           TEXT NOT NULL DEFAULT '[]',
    severity          TEXT NOT NULL,
    cvss_score        REAL NOT NULL DEFAULT 0,
    kev               INTEGER NOT NULL DEFAULT 0,
    kev_date_added    TEXT NOT NULL DEFAULT '',
    fixed_versions    TEXT NOT NULL DEFAULT '[]',
    nearest_fix       TEXT NOT NULL DEFAULT '',
    risk_score        INTEGER NOT NULL,
    band              TEXT NOT NULL,
    sla_due_at        INTEGER NOT NULL,
    sla_breached_at   INTEGER,
    status            TEXT NOT NULL,
    status_reason     TEXT NOT NULL DEFAULT '',
    accepted_until    INTEGER,
    owner             TEXT NOT NULL DEFAULT '',
    compliance        TEXT NOT NULL DEFAULT '[]',
    source            TEXT NOT NULL DEFAULT '',
    first_seen        INTEGER NOT NULL,
    last_seen         INTEGER NOT NULL,
    resolved_at       INTEGER,
    updated_at        INTEGER NOT NULL,
    UNIQUE (org_id, asset_id, purl, advisory_id)
);
CREATE INDEX findings_org_status ON findings(org_id, status, risk_score);
CREATE INDEX findings_org_asset ON findings(org_id, asset_id);
CREATE INDEX findings_sla ON findings(status, sla_due_at);
