-- Advisory intelligence: raw OSV records, the KEV catalog, end-of-life
-- product data, and a record of every sync with its delta. A sync replaces
-- the set in one transaction, so a failed sync leaves the previous intel in
-- force; each replica rebuilds its in-memory index from these rows.

CREATE TABLE intel_advisories (
    id        TEXT PRIMARY KEY,
    modified  INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    ecosystems TEXT NOT NULL DEFAULT '',
    raw       BLOB NOT NULL
);

CREATE TABLE intel_kev (
    cve        TEXT PRIMARY KEY,
    date_added TEXT NOT NULL,
    ransomware INTEGER NOT NULL DEFAULT 0,
    raw        BLOB NOT NULL
);

CREATE TABLE intel_eol (
    product TEXT PRIMARY KEY,
    raw     BLOB NOT NULL
);

CREATE TABLE intel_syncs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    status      TEXT NOT NULL,
    sources     TEXT NOT NULL DEFAULT '',
    stats       TEXT NOT NULL DEFAULT '{}',
    delta       TEXT NOT NULL DEFAULT '{}',
    error       TEXT NOT NULL DEFAULT ''
);
