-- The portal: operator accounts of an organization, their sessions, and
-- the sign-in throttle (kept here, not in a process, so that it holds
-- across replicas). Plus the indexes the portal's pages read through.
-- Times are INTEGER unix milliseconds, UTC.

-- A user signs in with the organization, an email address and a password
-- (argon2id, PHC string; empty until the set-up link is used). The set-up
-- link's token is kept only as its SHA-256.
CREATE TABLE users (
    id               TEXT PRIMARY KEY,
    org_id           TEXT NOT NULL REFERENCES organizations(id),
    email            TEXT NOT NULL,
    name             TEXT NOT NULL DEFAULT '',
    role             TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'active',
    password_hash    TEXT NOT NULL DEFAULT '',
    setup_hash       BLOB UNIQUE,
    setup_expires_at INTEGER,
    password_set_at  INTEGER,
    last_sign_in_at  INTEGER,
    created_by       TEXT NOT NULL,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    UNIQUE (org_id, email)
);

-- A session is found by the SHA-256 of its cookie. expires_at is its
-- absolute end; last_seen_at ends it after the idle timeout.
CREATE TABLE portal_sessions (
    hash         BLOB PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id),
    org_id       TEXT NOT NULL REFERENCES organizations(id),
    csrf         TEXT NOT NULL,
    addr         TEXT NOT NULL DEFAULT '',
    user_agent   TEXT NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL
);
CREATE INDEX portal_sessions_user ON portal_sessions(user_id);
CREATE INDEX portal_sessions_expiry ON portal_sessions(expires_at);

-- One row per throttled key: "account:<org>:<email>" or "addr:<ip>".
CREATE TABLE signin_throttle (
    key          TEXT PRIMARY KEY,
    failures     INTEGER NOT NULL,
    window_start INTEGER NOT NULL,
    locked_until INTEGER
);

-- The findings pages list by risk (highest first) under a status and an
-- optional filter, and the overview counts by band and known-exploited
-- flag and finds what is overdue; each of these reads one range of one
-- index. Two indexes of 0005 are prefixes of new ones and go.
DROP INDEX findings_org_status;
DROP INDEX findings_org_asset;
CREATE INDEX findings_org_status_risk ON findings(org_id, status, risk_score DESC, id);
CREATE INDEX findings_org_status_band ON findings(org_id, status, band, risk_score DESC, id);
CREATE INDEX findings_org_status_kev ON findings(org_id, status, kev, risk_score DESC, id);
CREATE INDEX findings_org_band_risk ON findings(org_id, band, risk_score DESC, id);
CREATE INDEX findings_org_status_due ON findings(org_id, status, sla_due_at, id);
CREATE INDEX findings_org_asset_risk ON findings(org_id, asset_id, status, risk_score DESC, id);
CREATE INDEX findings_org_owner_risk ON findings(org_id, owner, status, risk_score DESC, id);
CREATE INDEX findings_org_purl_risk ON findings(org_id, purl, status, risk_score DESC, id);
-- The overview's trend: arrivals and resolutions of the last days.
CREATE INDEX findings_org_first_seen ON findings(org_id, first_seen, status);
CREATE INDEX findings_org_resolved ON findings(org_id, resolved_at) WHERE resolved_at IS NOT NULL;
-- A finding's history: its events and the audit entries about it.
CREATE INDEX events_org_subject ON events(org_id, subject, seq);
CREATE INDEX audit_log_org_target ON audit_log(org_id, target, id);
-- A host's SBOM submissions, newest first.
CREATE INDEX sbom_submissions_org_host ON sbom_submissions(org_id, host, created_at, id);
