-- Development-only components (a test runner, a linter, a bundler: what a
-- lockfile, manifest or SBOM marks as needed only for development). Each
-- submission's rows say it of their component; a host's sighting says it
-- as of the host's last submission that listed the component; a finding
-- says it of its component on its asset, for triage.
ALTER TABLE inventory ADD COLUMN development INTEGER NOT NULL DEFAULT 0;
ALTER TABLE inventory_sightings ADD COLUMN development INTEGER NOT NULL DEFAULT 0;
ALTER TABLE findings ADD COLUMN development INTEGER NOT NULL DEFAULT 0;
