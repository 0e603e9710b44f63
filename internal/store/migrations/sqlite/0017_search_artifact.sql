-- The component search finds a Maven component by its artifactId alone
-- (name=log4j-core), as CycloneDX and most people name it, as well as by
-- group:artifact: a partial index over the Maven sightings, keyed by what
-- follows the group's colon. Other ecosystems' rows are not in it, so
-- their ingest does not maintain it.
CREATE INDEX inventory_sightings_artifact ON inventory_sightings (org_id, substr(name, instr(name, ':') + 1))
    WHERE ecosystem = 'Maven';
