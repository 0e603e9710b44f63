-- Webhooks: registrations and their deliveries.
--
-- A webhook's secret is sealed with the master key (AES-GCM, associated data
-- = the webhook id); during a rotation the previous secret stays, sealed
-- too, until prev_secret_until.
--
-- One delivery row per (webhook, event), written by the fan-out in the same
-- transaction that marks the event fanned out. state is
--   waiting   an earlier delivery about the same subject to the same webhook
--             is not finished yet (ordering);
--   pending   due at next_attempt_at; while an attempt is in flight
--             lease_until (= next_attempt_at) lies in the future, and a
--             crashed sender's lease simply runs out;
--   succeeded a 2xx answer arrived;
--   failed    the retry window (deadline) ran out, or the webhook was
--             deactivated; redeliverable by hand.
-- Times are INTEGER unix milliseconds, UTC.

CREATE TABLE webhooks (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations(id),
    url               TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    events            TEXT NOT NULL,
    active            INTEGER NOT NULL DEFAULT 1,
    secret            BLOB NOT NULL,
    prev_secret       BLOB,
    prev_secret_until INTEGER,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);
CREATE INDEX webhooks_org ON webhooks(org_id, id);

CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL,
    webhook_id      TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_seq       INTEGER NOT NULL REFERENCES events(seq),
    event_id        TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    subject         TEXT NOT NULL DEFAULT '',
    state           TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_until     INTEGER NOT NULL DEFAULT 0,
    deadline        INTEGER NOT NULL,
    last_status     INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    last_attempt_id TEXT NOT NULL DEFAULT '',
    last_attempt_at INTEGER,
    delivered_at    INTEGER,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    UNIQUE (webhook_id, event_seq)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_subject ON webhook_deliveries(webhook_id, subject, state, event_seq);
