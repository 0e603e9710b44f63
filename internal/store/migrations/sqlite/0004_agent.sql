-- The agent: its PKI, enrollment, SBOM submissions and the component
-- inventory built from them. Times are INTEGER unix milliseconds, UTC.

-- Certificate authorities of the agent listener. name is 'server' for the
-- deployment's agent server CA (it issues the listener's certificate) or an
-- organization id for that organization's agent CA (it issues the agents'
-- client certificates). The private key is PKCS#8 DER sealed with the master
-- key, associated data 'agent_ca:' || name. ski is the hex subject key id, by
-- which a client certificate's authority key id finds its CA.
CREATE TABLE agent_cas (
    name        TEXT PRIMARY KEY,
    org_id      TEXT REFERENCES organizations(id),
    cert        BLOB NOT NULL,
    key_sealed  BLOB NOT NULL,
    ski         TEXT NOT NULL UNIQUE,
    fingerprint TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);

-- One-time enrollment tokens: only the SHA-256 of the secret part is kept.
CREATE TABLE enrollment_tokens (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organizations(id),
    hash       BLOB NOT NULL UNIQUE,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER,
    agent_id   TEXT
);
CREATE INDEX enrollment_tokens_org ON enrollment_tokens(org_id, created_at);

-- Enrolled agents: one row per client certificate issued.
CREATE TABLE agents (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations(id),
    host        TEXT NOT NULL,
    serial      TEXT NOT NULL UNIQUE,
    fingerprint TEXT NOT NULL,
    token_id    TEXT NOT NULL,
    addr        TEXT NOT NULL DEFAULT '',
    not_after   INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    revoked_at  INTEGER
);
CREATE INDEX agents_org ON agents(org_id, created_at);

-- SBOM submissions; the original bytes live in sbom_documents so that lists
-- never read them.
CREATE TABLE sbom_submissions (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations(id),
    host            TEXT NOT NULL,
    asset           TEXT NOT NULL DEFAULT '',
    spec_version    TEXT NOT NULL,
    serial_number   TEXT NOT NULL DEFAULT '',
    component_count INTEGER NOT NULL,
    indexed_count   INTEGER NOT NULL,
    size            INTEGER NOT NULL,
    sha256          TEXT NOT NULL,
    agent_id        TEXT NOT NULL DEFAULT '',
    key_id          TEXT NOT NULL DEFAULT '',
    created_at      INTEGER NOT NULL
);
CREATE INDEX sbom_submissions_org_time ON sbom_submissions(org_id, created_at);

CREATE TABLE sbom_documents (
    submission_id TEXT PRIMARY KEY REFERENCES sbom_submissions(id),
    body          BLOB NOT NULL
);

-- The inventory: one row per component occurrence in a submission. name is
-- the search key: the ecosystem's normalised package name, lower case.
-- first_seen is when this host first reported the component (carried over
-- from inventory_sightings), last_seen is this submission's time. No foreign
-- keys: rows are written only with their submission, in its transaction, and
-- per-row checks would cost the ingest more than they protect.
CREATE TABLE inventory (
    id            INTEGER PRIMARY KEY,
    org_id        TEXT NOT NULL,
    submission_id TEXT NOT NULL,
    host          TEXT NOT NULL,
    purl          TEXT NOT NULL,
    ecosystem     TEXT NOT NULL,
    name          TEXT NOT NULL,
    version       TEXT NOT NULL,
    first_seen    INTEGER NOT NULL,
    last_seen     INTEGER NOT NULL
);
CREATE INDEX inventory_search ON inventory(org_id, name, version);
CREATE INDEX inventory_submission ON inventory(submission_id);

-- The inverted index the search reads: one row per (host, component), with
-- first and last sighting and the number of submissions that listed it. The
-- primary key leads with the search key (org_id, name, version), so that a
-- search is one range of the key (WITHOUT ROWID: the rows are stored in key
-- order); ingest's ON CONFLICT names the same columns.
CREATE TABLE inventory_sightings (
    org_id             TEXT NOT NULL,
    host               TEXT NOT NULL,
    ecosystem          TEXT NOT NULL,
    name               TEXT NOT NULL,
    version            TEXT NOT NULL,
    purl               TEXT NOT NULL,
    first_seen         INTEGER NOT NULL,
    last_seen          INTEGER NOT NULL,
    occurrences        INTEGER NOT NULL,
    last_submission_id TEXT NOT NULL,
    PRIMARY KEY (org_id, name, version, host, ecosystem)
) WITHOUT ROWID;
