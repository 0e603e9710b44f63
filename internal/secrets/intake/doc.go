// Package intake is the service side of secret detection: it takes the
// secrets an agent found (POST /sentinel/secrets/submit on the agent
// listener), turns each new one into a secret record and a finding of its
// own category, checks it live with its provider in a durable job, and
// serves the secrets API (GET /v1/secrets, GET /v1/secrets/{id}).
//
// It is service-side only: the agent links package secrets (detection,
// the submission format) and never this package; cmd/sentinel's
// dependency test forbids it.
//
// # Submission
//
// The endpoint needs an agent client certificate (checked in the TLS
// handshake by package agents) and an API key with secrets:submit of the
// same organization, as an SBOM submission does; the certificate's host
// name is the secrets' host, whatever the agent claims. It is rate limited
// in the secrets class (60 per minute per key, the specification's
// "Secrets submit" limit). It is not metered: the specification's monthly
// meters cover recommendations, scans and SBOM submissions, and a quota
// that stopped the service from hearing about leaked credentials would be
// a security control failing closed the wrong way.
//
// The body (package secrets' Submission, at most MaxSubmission bytes) is
// read into memory, never spooled to disk, since it carries raw values.
// For each item the service computes the authoritative fingerprint with
// its own key (a random 256-bit key created on first start and kept in
// the store sealed by the master key, so every replica shares it) and
// never trusts the agent's. A fingerprint the organization has not seen
// creates, in one transaction: the secret (sec_...; rule, provider,
// location, host, asset, first and last seen, redacted form), a finding
// (category exposed_secret, CWE-798, risk from the rule and provider, the
// secret's location as evidence), finding.created, secret.detected and,
// for a verifiable secret, its verification job. A known fingerprint only
// moves the secret's last_seen.
//
// # Verification, and why it runs here
//
// The service, not the agent, checks whether a secret is live (package
// verify): one rate limit per provider for every agent, so that hundreds
// of build hosts do not hammer a provider with the same leaked token; one
// audit trail of every use of a customer's credential (an audit entry per
// check: provider, outcome, status code); build hosts and CI runners
// without egress to the providers; and checks that are retried long
// after the build that found the secret is gone. (Checking a settled
// secret again later would need its value, which the service deletes once
// verified; a later submission of the same secret only moves last_seen.)
//
// The raw value crosses the wire only inside the agent listener's mutual
// TLS. The service keeps it only encrypted (seal.Box, associated data =
// the secret's id) and only while a check is pending: an active or
// inactive answer, a credential no check exists for, or giving up after
// the job's attempts deletes it. An indeterminate answer (rate limited,
// timed out, the provider's 5xx) keeps it and retries at the time the
// provider named (jobs.RetryAt). An active secret raises its finding's
// risk to the critical band (finding.escalated when the band rises) and
// emits secret.verified_live; an inactive one is recorded, without an
// event. No API response, log line, event, audit entry or Evidence Bundle
// carries the value: they carry the fingerprint and the redacted form.
package intake
