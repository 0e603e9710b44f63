-- External scans (layer N1) and the assets they reach. A site asset has a
-- target URL, a scan schedule, a state (active or disappeared) and, once
-- proved, who controls it. A scan is one bounded crawl of one asset; its
-- detections are kept as JSON with it (the inventory indexes them too).
-- Findings keep the evidence of where their component was seen.

ALTER TABLE assets ADD COLUMN target TEXT NOT NULL DEFAULT '';
ALTER TABLE assets ADD COLUMN schedule TEXT NOT NULL DEFAULT '';
ALTER TABLE assets ADD COLUMN next_scan_at INTEGER;
ALTER TABLE assets ADD COLUMN state TEXT NOT NULL DEFAULT 'active';
ALTER TABLE assets ADD COLUMN disappeared_at INTEGER;
ALTER TABLE assets ADD COLUMN verify_token TEXT NOT NULL DEFAULT '';
ALTER TABLE assets ADD COLUMN verified_at INTEGER;
ALTER TABLE assets ADD COLUMN verified_by TEXT NOT NULL DEFAULT '';
CREATE INDEX assets_due ON assets(next_scan_at) WHERE next_scan_at IS NOT NULL;

CREATE TABLE scans (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organizations(id),
    asset_id    TEXT NOT NULL REFERENCES assets(id),
    target      TEXT NOT NULL,
    status      TEXT NOT NULL,
    error       TEXT NOT NULL DEFAULT '',
    scheduled   INTEGER NOT NULL DEFAULT 0,
    detections  TEXT NOT NULL DEFAULT '[]',
    findings    INTEGER NOT NULL DEFAULT 0,
    stats       TEXT NOT NULL DEFAULT '',
    slot        TEXT NOT NULL DEFAULT '',
    created_by  TEXT NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER
);
CREATE INDEX scans_org ON scans(org_id, created_at, id);
CREATE INDEX scans_asset ON scans(asset_id, created_at);

ALTER TABLE organizations ADD COLUMN require_verified_targets INTEGER NOT NULL DEFAULT 0;
ALTER TABLE findings ADD COLUMN evidence TEXT NOT NULL DEFAULT '[]';
