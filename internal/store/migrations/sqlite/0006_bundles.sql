-- Evidence Bundles: the bundle and its share, the built zip in 1 MiB
-- chunks, the share's access log (the bilateral log both sides read), the
-- recipients' short sessions, and the deployment's signing CA (keys sealed
-- with the master key). Times are INTEGER unix milliseconds, UTC.

CREATE TABLE bundles (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations(id),
    description     TEXT NOT NULL DEFAULT '',
    scope           TEXT NOT NULL,
    window_days     INTEGER NOT NULL,
    window_start    INTEGER NOT NULL,
    window_end      INTEGER NOT NULL,
    token_hash      BLOB NOT NULL UNIQUE,
    password_hash   TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    revoked_at      INTEGER,
    locked_at       INTEGER,
    failed_attempts INTEGER NOT NULL DEFAULT 0,
    build_state     TEXT NOT NULL DEFAULT 'building',
    build_error     TEXT NOT NULL DEFAULT '',
    sha256          TEXT NOT NULL DEFAULT '',
    size            INTEGER NOT NULL DEFAULT 0,
    artifacts       TEXT NOT NULL DEFAULT '[]',
    identity        TEXT NOT NULL DEFAULT '',
    issuer          TEXT NOT NULL DEFAULT '',
    access_count    INTEGER NOT NULL DEFAULT 0,
    last_access_at  INTEGER
);
CREATE INDEX bundles_org ON bundles(org_id, created_at, id);

CREATE TABLE bundle_chunks (
    bundle_id TEXT NOT NULL REFERENCES bundles(id),
    seq       INTEGER NOT NULL,
    data      BLOB NOT NULL,
    PRIMARY KEY (bundle_id, seq)
);

CREATE TABLE bundle_access (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    bundle_id  TEXT NOT NULL REFERENCES bundles(id),
    at         INTEGER NOT NULL,
    addr       TEXT NOT NULL DEFAULT '',
    user_agent TEXT NOT NULL DEFAULT '',
    outcome    TEXT NOT NULL
);
CREATE INDEX bundle_access_bundle ON bundle_access(bundle_id, id);

CREATE TABLE bundle_sessions (
    hash       BLOB PRIMARY KEY,
    bundle_id  TEXT NOT NULL REFERENCES bundles(id),
    expires_at INTEGER NOT NULL
);
CREATE INDEX bundle_sessions_bundle ON bundle_sessions(bundle_id);

CREATE TABLE signing_ca (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    certificates TEXT NOT NULL,
    keys_sealed  BLOB NOT NULL,
    created_at   INTEGER NOT NULL
);
