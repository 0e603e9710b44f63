-- The component search says, per host, whether the component is there only
-- for development: the search key INCLUDEs the column it aggregates, so
-- that the search stays an index-only scan. The key is rebuilt once (the
-- table is locked while it is; see docs/operations.md, Upgrades).
ALTER TABLE inventory_sightings
    DROP CONSTRAINT inventory_sightings_pkey,
    ADD CONSTRAINT inventory_sightings_pkey PRIMARY KEY (org_id, name, version, host, ecosystem)
        INCLUDE (first_seen, last_seen, occurrences, purl, development);
