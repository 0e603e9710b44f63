// Package verify checks, in the service, whether a secret an agent found is
// live: it makes one harmless authenticated read with it at its provider.
//
//	GitHub  GET  /user                                 login, scopes
//	GitLab  GET  /api/v4/personal_access_tokens/self   token name, user id, scopes, active/revoked
//	Slack   POST /api/auth.test                         user, workspace
//	Stripe  GET  /v1/account                            account id and name
//	npm     GET  /-/whoami                              user name
//	AWS     POST sts.amazonaws.com GetCallerIdentity    ARN (Signature Version 4)
//
// Each reads who the credential belongs to and changes nothing. Stripe's
// check reads the account rather than the balance because it names the
// account; a restricted key without that permission answers 403, which
// proves it live just as well. AWS's GetCallerIdentity is the one STS call
// no IAM policy can deny, so a refusal always means the key pair is not
// valid; it is signed by the AWS SDK's own signer
// (github.com/aws/aws-sdk-go-v2/aws/signer/v4, two small modules) rather
// than by hand. Credentials that cannot be checked this way are refused
// with ErrUnsupported (GitHub refresh tokens, AWS temporary keys, which
// need a session token that is never found with them) or ErrIncomplete
// (an AWS key id found without its secret key).
//
// # Outcomes
//
// Active (with the identity when the provider names one), Inactive
// (revoked, expired, never issued), or Indeterminate (rate limited, timed
// out, network error, the provider's 5xx), which the caller retries after
// Result.RetryAfter: the provider's Retry-After or rate-limit reset when it
// gives one, else five minutes.
//
// # Why here, and how the value is protected
//
// Verification runs in the service, never in the agent: see package
// secrets for the reasons (one rate limit and one audit trail for every
// check, build hosts without egress, re-verification long after the build).
// One Verifier per provider per process is shared by every caller: its
// token-bucket limiter (golang.org/x/time/rate, a conservative default per
// provider) spaces the checks, and when a provider says to slow down the
// Verifier asks it nothing more until the time it named. With several
// replicas, each has its own limiter: size Options.Rate for one replica's
// share.
//
// Requests go through a netguard client: production leaves the policy at
// its zero value, which refuses loopback, private and metadata addresses
// on every connection (a base URL pointed at an internal host by mistake,
// or a DNS answer that changed, cannot make Sentinel send a customer's
// credential inside its own network); redirects are not followed, so the
// credential goes to the provider's host and nowhere else. Tests pass a
// policy that allows loopback.
//
// The credential is read from a secrets.Credential, which never prints,
// and goes only into the Authorization header (PRIVATE-TOKEN for GitLab,
// the signature for AWS). No Result field, reason or error carries it:
// reasons are Sentinel's own sentences and the providers' error codes,
// never their messages (Stripe's echo part of the key), and a last pass
// removes the value from every string, should a provider or a proxy ever
// echo it. The package logs nothing. A test plants tokens in every
// provider's format and searches everything the package returned for them.
package verify
