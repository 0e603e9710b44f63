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
-- Times are BIGINT unix milliseconds, UTC.

CREATE TABLE webhooks (
    id                TEXT PRIMARY KEY,
    org_id            TEXT NOT NULL REFERENCES organizations(id),
    url               TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    events            TEXT NOT NULL,
    active            BOOLEAN NOT NULL DEFAULT TRUE,
    secret            BYTEA NOT NULL,
    prev_secret       BYTEA,
    prev_secret_until BIGINT,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE INDEX webhooks_org ON webhooks(org_id, id);

CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL,
    webhook_id      TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    event_seq       BIGINT NOT NULL REFERENCES events(seq),
    event_id        TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    subject         TEXT NOT NULL DEFAULT '',
    state           TEXT NOT NULL,
    attempts        BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    lease_until     BIGINT NOT NULL DEFAULT 0,
    deadline        BIGINT NOT NULL,
    last_status     BIGINT NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    last_attempt_id TEXT NOT NULL DEFAULT '',
    last_attempt_at BIGINT,
    delivered_at    BIGINT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    UNIQUE (webhook_id, event_seq)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_subject ON webhook_deliveries(webhook_id, subject, state, event_seq);

-- Wake every replica's fan-out when events commit (NOTIFY is delivered at
-- commit, and only for committed transactions).
CREATE FUNCTION sentinel_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('sentinel_events', '');
    RETURN NULL;
END;
$$;
CREATE TRIGGER events_notify AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION sentinel_events_notify();
