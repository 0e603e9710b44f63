-- Evidence Bundles: the bundle and its share, the built zip in 1 MiB
-- chunks, the share's access log (the bilateral log both sides read), the
-- recipients' short sessions, and the deployment's signing CA (keys sealed
-- with the master key). Times are BIGINT unix milliseconds, UTC.

CREATE TABLE bundles (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations(id),
    description     TEXT NOT NULL DEFAULT '',
    scope           TEXT NOT NULL,
    window_days     BIGINT NOT NULL,
    window_start    BIGINT NOT NULL,
    window_end      BIGINT NOT NULL,
    token_hash      BYTEA NOT NULL UNIQUE,
    password_hash   TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    revoked_at      BIGINT,
    locked_at       BIGINT,
    failed_attempts BIGINT NOT NULL DEFAULT 0,
    build_state     TEXT NOT NULL DEFAULT 'building',
    build_error     TEXT NOT NULL DEFAULT '',
    sha256          TEXT NOT NULL DEFAULT '',
    size            BIGINT NOT NULL DEFAULT 0,
    artifacts       TEXT NOT NULL DEFAULT '[]',
    identity        TEXT NOT NULL DEFAULT '',
    issuer          TEXT NOT NULL DEFAULT '',
    access_count    BIGINT NOT NULL DEFAULT 0,
    last_access_at  BIGINT
);
CREATE INDEX bundles_org ON bundles(org_id, created_at, id);

CREATE TABLE bundle_chunks (
    bundle_id TEXT NOT NULL REFERENCES bundles(id),
    seq       BIGINT NOT NULL,
    data      BYTEA NOT NULL,
    PRIMARY KEY (bundle_id, seq)
);

CREATE TABLE bundle_access (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    bundle_id  TEXT NOT NULL REFERENCES bundles(id),
    at         BIGINT NOT NULL,
    addr       TEXT NOT NULL DEFAULT '',
    user_agent TEXT NOT NULL DEFAULT '',
    outcome    TEXT NOT NULL
);
CREATE INDEX bundle_access_bundle ON bundle_access(bundle_id, id);

CREATE TABLE bundle_sessions (
    hash       BYTEA PRIMARY KEY,
    bundle_id  TEXT NOT NULL REFERENCES bundles(id),
    expires_at BIGINT NOT NULL
);
CREATE INDEX bundle_sessions_bundle ON bundle_sessions(bundle_id);

CREATE TABLE signing_ca (
    id           BIGINT PRIMARY KEY CHECK (id = 1),
    certificates TEXT NOT NULL,
    keys_sealed  BYTEA NOT NULL,
    created_at   BIGINT NOT NULL
);
