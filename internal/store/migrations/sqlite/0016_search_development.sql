-- PostgreSQL only (the search key INCLUDEs inventory_sightings.development):
-- SQLite reads the column from the table. Kept so that both engines share
-- versions.
SELECT 1;
