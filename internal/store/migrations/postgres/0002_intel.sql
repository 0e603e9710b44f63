-- Advisory intelligence: raw OSV records, the KEV catalog, end-of-life
-- product data, and a record of every sync with its delta. A sync replaces
-- the set in one transaction, so a failed sync leaves the previous intel in
-- force; each replica rebuilds its in-memory index from these rows.

CREATE TABLE intel_advisories (
    id        TEXT PRIMARY KEY,
    modified  BIGINT NOT NULL,
    withdrawn BOOLEAN NOT NULL DEFAULT FALSE,
    ecosystems TEXT NOT NULL DEFAULT '',
    raw       BYTEA NOT NULL
);

CREATE TABLE intel_kev (
    cve        TEXT PRIMARY KEY,
    date_added TEXT NOT NULL,
    ransomware BOOLEAN NOT NULL DEFAULT FALSE,
    raw        BYTEA NOT NULL
);

CREATE TABLE intel_eol (
    product TEXT PRIMARY KEY,
    raw     BYTEA NOT NULL
);

CREATE TABLE intel_syncs (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    started_at  BIGINT NOT NULL,
    finished_at BIGINT NOT NULL,
    status      TEXT NOT NULL,
    sources     TEXT NOT NULL DEFAULT '',
    stats       TEXT NOT NULL DEFAULT '{}',
    delta       TEXT NOT NULL DEFAULT '{}',
    error       TEXT NOT NULL DEFAULT ''
);
