// Package secrets finds credentials committed to a source tree (and,
// optionally, to its git history), for the agent, and holds the types the
// service needs to receive, fingerprint and verify them.
//
// It is linked into the agent binary, so it imports no server package, no
// database driver, Redis, Prometheus or huma: only the standard library,
// YAML, and gitleaks.
//
// # Detection
//
// Scan runs gitleaks v8.30.1 as a library (its detect package, with its
// default rule set of about 220 rules, decoding base64, hex and percent
// encodings up to five levels deep as the gitleaks command does). The walk
// and the reading are Sentinel's own: one goroutine walks, GOMAXPROCS
// workers read files and hand the engine chunks of about 100 kB (see
// chunk.go), which keeps the engine's regular expressions on short input
// and makes every worker busy on a tree of small files. gitleaks' own
// allowlist of paths (lockfiles, images, fonts, node_modules, virtualenvs,
// go.sum, ...) applies before a file is read and prunes directories.
// Beyond it, Scan never enters .git, .hg, .svn, node_modules and
// bower_components (Options.SkipDirs), skips vendor/ and third_party/ only
// when asked (Options.SkipVendored: vendored code is often the project's
// own), skips files over 10 MiB (Options.MaxFileSize; listed in
// Report.Skipped) and binary files (a NUL byte in the first 8000 bytes, as
// git decides; only rules that look at the file name alone run on them),
// and never follows symbolic links.
//
// History (Options.History) uses gitleaks' git source, which reads `git
// log -p -U0 --all` from the git command: every added line of every commit
// reachable from any ref is scanned, once. It needs git on PATH; the
// agent's runners have it wherever they have a checkout.
//
// gitleaks finds an AWS access key id but not the secret access key that
// goes with it, and a key id alone cannot be verified; the scanner looks
// for the secret key next to the id (aws.go) and pairs them.
//
// # A detection and its value
//
// A Detection names the rule, the provider (github, gitlab, slack, stripe,
// npm, aws, ... from the rule id), the file, line and column, and carries
// two derived forms of the value, never the value itself:
//
//   - Fingerprint: HMAC-SHA256 under a key the caller passes
//     (Options.FingerprintKey), truncated to 128 bits. A plain hash would
//     let anyone with a report test guesses at a weak secret; a keyed one
//     does not, yet it still identifies the same secret across files,
//     commits and runs. The agent fingerprints with a local key
//     (LoadOrCreateKey under its home directory, or a key the operator
//     gives CI so that fingerprints in the ignore file stay stable across
//     ephemeral runners). The service recomputes the authoritative
//     fingerprint with its own key from the raw value it receives and
//     never trusts the agent's.
//   - Redacted: a known token prefix or at most four characters, and the
//     length ("ghp_…(40)"): enough for a person to recognise the secret,
//     never enough to use it or narrow a guess.
//
// The raw value sits in an unexported field behind a pointer, reachable
// only through Detection.Credential. Credential prints, marshals and logs
// as "[REDACTED]" under every fmt verb, in JSON and text and in slog;
// Detection's String, GoString and LogValue leave the value out; and a
// test prints a report every way it can be printed and greps for the
// planted values. The JSON report (WriteJSON, schema
// "sentinel-secrets-report" version 1) and the table (WriteTable) are made
// from the exported fields only.
//
// # Submission, and why verification runs in the service
//
// The agent sends its unsuppressed detections with their raw values
// (NewSubmission; the service reads them with ParseSubmission) to the
// service over the agent listener's mutual TLS, and nowhere else. The
// service, not the agent, checks whether a secret is live (package
// verify), for four reasons:
//
//   - Rate limiting in one place. Providers limit checks per source
//     address and per account; hundreds of build hosts checking the same
//     leaked token on every build would trip those limits and look like an
//     attack. The service checks each fingerprint once, per provider
//     through one limiter, and backs off when a provider says so.
//   - Audit. Using a credential, even for a harmless read, is an act the
//     security team must be able to account for: the service records
//     every check (who, when, which provider, the outcome), in one log.
//   - Egress. Build hosts and CI runners often reach nothing but their
//     package mirrors and the Sentinel service; they could not call
//     api.github.com or sts.amazonaws.com if they wanted to, and must not
//     be given the route just for this.
//   - Re-verification. A secret found once must be checked again later
//     (is it revoked yet? is it live again?) long after the build that
//     found it is gone; only the service is still there.
//
// The value is protected at every step: it travels only inside mutual
// TLS; the service stores it encrypted with the deployment's master key
// (package secret's Box, bound to the finding's id) and only until it
// has been verified, after which it keeps the fingerprint, the redacted
// form and the outcome; it never appears in an API response, a log line,
// a webhook event or an Evidence Bundle, which carry the fingerprint and
// the redacted form instead.
//
// # Ignore file
//
// Accepted detections are listed in .sentinel-secrets-ignore.yaml in the
// scanned directory (or a file the user names), in the syntax of the CI
// gate's .sentinel-ignore.yaml (package report): a list under "ignore:"
// whose entries need a reason and an expiry, with a fingerprint or a path
// glob (optionally narrowed to one rule) instead of an advisory id. A rule
// alone is refused: it would silence a kind of secret everywhere.
//
//	ignore:
//	  - fingerprint: 5f0c6a0e3b7e9d1c2a4b6c8d0e1f2a3b   # from the report
//	    reason: revoked 2026-11-20; history rewrite tracked in SEC-142
//	    expires: 2026-12-31          # YYYY-MM-DD (through that day, UTC) or RFC 3339
//	  - path: test/fixtures/**       # * and ? within an element, ** across
//	    rule: private-key            # optional
//	    reason: throwaway keys generated for the TLS tests
//	    expires: 2027-06-30
//
// A malformed entry fails the whole file (ErrInvalidIgnore); an expired
// entry suppresses nothing and is reported as a warning. gitleaks' own
// ways to silence a finding, a "gitleaks:allow" comment on the line and a
// .gitleaksignore file, carry no reason or expiry: the second is never
// read, and the first is honored only with Options.HonorInlineAllow. Fingerprint
// entries hold only under the key that produced them (the report's
// fingerprint_key_id).
package secrets
