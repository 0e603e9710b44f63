-- What a security review asked for: a submission keeps the host name the
-- request or the SBOM claimed apart from the host (the agent certificate's
-- name), and a share counts password attempts as they start, so that
-- concurrent guesses cannot overrun the lock.

ALTER TABLE sbom_submissions ADD COLUMN claimed_host TEXT NOT NULL DEFAULT '';
