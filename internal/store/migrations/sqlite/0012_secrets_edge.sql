-- Secrets an agent found (issue 14) and the edge correlation windows.
--
-- A secret is one credential per organization, deduplicated by the
-- service's keyed fingerprint (HMAC-SHA256 under a per-deployment key kept
-- sealed in secret_fingerprint_keys). Its value is never stored in the
-- clear: value_sealed holds it encrypted with the master key (AES-GCM,
-- associated data = the secret's id), and only until the secret has been
-- verified or the checks are given up; then it is set to NULL.
--
-- edge_windows keeps, per finding, the window of adversary traffic that
-- matched it (package edge's State): repeated traffic in a window is
-- counted here, not alerted again. boost is the risk edge traffic added to
-- the finding in all, which a reconciliation keeps on top of the risk it
-- computes from the advisory.

CREATE TABLE secret_fingerprint_keys (
    name       TEXT PRIMARY KEY,
    key_sealed BLOB NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE secrets (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations(id),
    fingerprint       TEXT NOT NULL,
    local_fingerprint TEXT NOT NULL DEFAULT '',
    rule_id           TEXT NOT NULL,
    provider          TEXT NOT NULL DEFAULT '',
    redacted          TEXT NOT NULL,
    file              TEXT NOT NULL,
    line              INTEGER NOT NULL DEFAULT 0,
    col               INTEGER NOT NULL DEFAULT 0,
    commit_id         TEXT NOT NULL DEFAULT '',
    commit_date       TEXT NOT NULL DEFAULT '',
    host              TEXT NOT NULL,
    root              TEXT NOT NULL DEFAULT '',
    asset_id          TEXT NOT NULL REFERENCES assets(id),
    finding_id        TEXT NOT NULL REFERENCES findings(id),
    verifiable        INTEGER NOT NULL DEFAULT 0,
    status            TEXT NOT NULL,
    identity          TEXT NOT NULL DEFAULT '',
    verify_reason     TEXT NOT NULL DEFAULT '',
    verified_at       INTEGER,
    verify_attempts   INTEGER NOT NULL DEFAULT 0,
    value_sealed      BLOB,
    first_seen        INTEGER NOT NULL,
    last_seen         INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    UNIQUE (org_id, fingerprint)
);
CREATE INDEX secrets_org_status ON secrets(org_id, status);
CREATE INDEX secrets_org_host ON secrets(org_id, host);

CREATE TABLE edge_windows (
    finding_id   TEXT PRIMARY KEY REFERENCES findings(id),
    org_id       TEXT NOT NULL REFERENCES organizations(id),
    window_start INTEGER NOT NULL,
    count        INTEGER NOT NULL,
    reached      INTEGER NOT NULL DEFAULT 0,
    last_seen    INTEGER NOT NULL,
    total        INTEGER NOT NULL,
    boost        INTEGER NOT NULL DEFAULT 0,
    updated_at   INTEGER NOT NULL
);
