-- Foundation: organizations, API keys, the audit log, the event outbox,
-- durable jobs, leases (leader election, scan slots), monthly meters.
-- Times are INTEGER unix milliseconds, UTC.

CREATE TABLE organizations (
    id           TEXT PRIMARY KEY,
    slug         TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    catalog      TEXT NOT NULL DEFAULT 'nist-800-53',
    share_period_ms INTEGER NOT NULL DEFAULT 604800000,
    created_at   INTEGER NOT NULL
);

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    org_id       TEXT NOT NULL REFERENCES organizations(id),
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    hash         BLOB NOT NULL UNIQUE,
    scopes       TEXT NOT NULL,
    created_by   TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at   INTEGER
);
CREATE INDEX api_keys_org ON api_keys(org_id, created_at);

CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    org_id     TEXT NOT NULL REFERENCES organizations(id),
    actor      TEXT NOT NULL,
    action     TEXT NOT NULL,
    target     TEXT NOT NULL,
    addr       TEXT NOT NULL DEFAULT '',
    details    TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL
);
CREATE INDEX audit_log_org_time ON audit_log(org_id, created_at);

CREATE TABLE events (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    id         TEXT NOT NULL UNIQUE,
    org_id     TEXT NOT NULL REFERENCES organizations(id),
    type       TEXT NOT NULL,
    subject    TEXT NOT NULL DEFAULT '',
    envelope   BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    fanned_out INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX events_pending ON events(fanned_out, seq);
CREATE INDEX events_org_time ON events(org_id, created_at);

CREATE TABLE jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT NOT NULL,
    args         BLOB NOT NULL,
    unique_key   TEXT UNIQUE,
    state        TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    run_after    INTEGER NOT NULL,
    lease_until  INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX jobs_ready ON jobs(state, run_after);

CREATE TABLE leases (
    name        TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    lease_until INTEGER NOT NULL
);

CREATE TABLE meter_limits (
    org_id        TEXT NOT NULL REFERENCES organizations(id),
    meter         TEXT NOT NULL,
    monthly_limit INTEGER NOT NULL,
    PRIMARY KEY (org_id, meter)
);

CREATE TABLE meter_usage (
    org_id TEXT NOT NULL REFERENCES organizations(id),
    meter  TEXT NOT NULL,
    period TEXT NOT NULL,
    used   INTEGER NOT NULL,
    PRIMARY KEY (org_id, meter, period)
);

CREATE TABLE periodic_jobs (
    name     TEXT PRIMARY KEY,
    next_run INTEGER NOT NULL
);
