package verify

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/sentinel-sca/sentinel/internal/secrets"
)

// Each check makes one read that changes nothing and is documented by the
// provider as the way to learn who a credential belongs to.

// rateLimited is the Result of an answer asking to slow down.
func rateLimited(name string, status int, retry time.Duration) Result {
	return Result{Status: Indeterminate, HTTPStatus: status, RetryAfter: retry, limited: true,
		Reason: name + " rate limited the check"}
}

// checkGitHub: GET /user. 200 gives the login (and, for classic tokens, the
// scopes in X-OAuth-Scopes); 401 means the token is not valid. A 403 or
// 429 with X-RateLimit-Remaining: 0 or Retry-After is a rate limit;
// another 403 means GitHub knows the token but will not show the user
// (an app installation token): it is live.
func checkGitHub(ctx context.Context, v *Verifier, c secrets.Credential) Result {
	req, err := v.newRequest(ctx, http.MethodGet, "/user", nil)
	if err != nil {
		return requestFailed(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Value())
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	resp, body, fail := v.do(req)
	if fail != nil {
		return *fail
	}
	now := v.now()
	switch {
	case resp.StatusCode == http.StatusOK:
		var u struct {
			Login string `json:"login"`
		}
		_ = json.Unmarshal(body, &u)
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Identity: u.Login,
			Scopes: splitList(resp.Header.Get("X-OAuth-Scopes")), Reason: "GitHub accepted the token"}
	case resp.StatusCode == http.StatusUnauthorized:
		return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Reason: "GitHub refused the token (revoked, expired or never issued)"}
	case resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests:
		if ra := retryAfter(resp.Header, now); ra > 0 {
			return rateLimited("GitHub", resp.StatusCode, ra)
		}
		if resp.Header.Get("X-RateLimit-Remaining") == "0" {
			return rateLimited("GitHub", resp.StatusCode, resetAt(resp.Header, "X-RateLimit-Reset", now))
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			return rateLimited("GitHub", resp.StatusCode, 0)
		}
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Reason: "GitHub knows the token but does not show its user (an app or restricted token)"}
	case resp.StatusCode >= 500:
		return serverError("GitHub", resp, now)
	}
	return unexpected("GitHub", resp)
}

// checkGitLab: GET /api/v4/personal_access_tokens/self, which any token
// may call about itself. 200 gives its name, user, scopes and whether it
// is active and not revoked; 401 means it is not valid on this instance (a
// token of a self-managed GitLab is checked against that instance's URL,
// not gitlab.com's).
func checkGitLab(ctx context.Context, v *Verifier, c secrets.Credential) Result {
	req, err := v.newRequest(ctx, http.MethodGet, "/api/v4/personal_access_tokens/self", nil)
	if err != nil {
		return requestFailed(err)
	}
	req.Header.Set("PRIVATE-TOKEN", c.Value())
	resp, body, fail := v.do(req)
	if fail != nil {
		return *fail
	}
	now := v.now()
	host := v.base.Host
	switch {
	case resp.StatusCode == http.StatusOK:
		var t struct {
			Name    string   `json:"name"`
			Revoked bool     `json:"revoked"`
			Active  bool     `json:"active"`
			Scopes  []string `json:"scopes"`
			UserID  int64    `json:"user_id"`
		}
		if err := json.Unmarshal(body, &t); err != nil {
			return Result{Status: Indeterminate, HTTPStatus: resp.StatusCode, Reason: "GitLab's answer is not the token's details"}
		}
		id := fmt.Sprintf("token %q of user %d on %s", t.Name, t.UserID, host)
		if t.Revoked || !t.Active {
			return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Identity: id, Scopes: t.Scopes,
				Reason: "GitLab says the token is revoked or expired"}
		}
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Identity: id, Scopes: t.Scopes, Reason: "GitLab accepted the token"}
	case resp.StatusCode == http.StatusUnauthorized:
		return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Reason: "GitLab at " + host + " refused the token (revoked, expired, or not issued there)"}
	case resp.StatusCode == http.StatusForbidden:
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Reason: "GitLab knows the token but its scopes do not allow reading its details"}
	case resp.StatusCode == http.StatusTooManyRequests:
		ra := retryAfter(resp.Header, now)
		if ra == 0 {
			ra = resetAt(resp.Header, "RateLimit-Reset", now)
		}
		return rateLimited("GitLab", resp.StatusCode, ra)
	case resp.StatusCode >= 500:
		return serverError("GitLab", resp, now)
	}
	return unexpected("GitLab", resp)
}

// checkSlack: POST /api/auth.test. Slack answers 200 with {"ok": true,
// "user", "team", "url"} or {"ok": false, "error": code}; a rate limit is
// HTTP 429 with Retry-After.
func checkSlack(ctx context.Context, v *Verifier, c secrets.Credential) Result {
	req, err := v.newRequest(ctx, http.MethodPost, "/api/auth.test", strings.NewReader(""))
	if err != nil {
		return requestFailed(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Value())
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, body, fail := v.do(req)
	if fail != nil {
		return *fail
	}
	now := v.now()
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return rateLimited("Slack", resp.StatusCode, retryAfter(resp.Header, now))
	case resp.StatusCode >= 500:
		return serverError("Slack", resp, now)
	case resp.StatusCode != http.StatusOK:
		return unexpected("Slack", resp)
	}
	var a struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
		User  string `json:"user"`
		Team  string `json:"team"`
		URL   string `json:"url"`
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return Result{Status: Indeterminate, HTTPStatus: resp.StatusCode, Reason: "Slack's answer is not JSON"}
	}
	if a.OK {
		id := a.User
		if a.Team != "" {
			id += " in " + a.Team
		}
		if a.URL != "" {
			id += " (" + a.URL + ")"
		}
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Identity: id, Reason: "Slack accepted the token"}
	}
	switch a.Error {
	case "invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive", "no_permission", "team_access_not_granted", "org_login_required", "ekm_access_denied":
		return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Reason: "Slack refused the token: " + a.Error}
	case "ratelimited":
		return rateLimited("Slack", resp.StatusCode, retryAfter(resp.Header, now))
	}
	return Result{Status: Indeterminate, HTTPStatus: resp.StatusCode, Reason: "Slack answered with error " + safeCode(a.Error)}
}

// checkStripe: GET /v1/account, the account the key belongs to (read-only,
// available to every secret key). 200 gives the account; 401 means the
// key is not valid (revoked, rolled or expired); 403 means a restricted
// key without the permission to read the account: live all the same.
func checkStripe(ctx context.Context, v *Verifier, c secrets.Credential) Result {
	req, err := v.newRequest(ctx, http.MethodGet, "/v1/account", nil)
	if err != nil {
		return requestFailed(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Value())
	resp, body, fail := v.do(req)
	if fail != nil {
		return *fail
	}
	now := v.now()
	mode := "live"
	if strings.Contains(c.Value(), "_test_") {
		mode = "test"
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		var a struct {
			ID              string `json:"id"`
			BusinessProfile struct {
				Name string `json:"name"`
			} `json:"business_profile"`
			Settings struct {
				Dashboard struct {
					DisplayName string `json:"display_name"`
				} `json:"dashboard"`
			} `json:"settings"`
		}
		_ = json.Unmarshal(body, &a)
		id := a.ID
		if name := cmp.Or(a.Settings.Dashboard.DisplayName, a.BusinessProfile.Name); name != "" {
			id += " (" + name + ")"
		}
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Identity: id, Reason: "Stripe accepted the " + mode + "-mode key"}
	case resp.StatusCode == http.StatusUnauthorized:
		return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Reason: "Stripe refused the key (revoked, rolled or expired)"}
	case resp.StatusCode == http.StatusForbidden:
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Reason: "Stripe knows the " + mode + "-mode key, a restricted key without permission to read the account"}
	case resp.StatusCode == http.StatusTooManyRequests:
		return rateLimited("Stripe", resp.StatusCode, retryAfter(resp.Header, now))
	case resp.StatusCode >= 500:
		return serverError("Stripe", resp, now)
	}
	return unexpected("Stripe", resp)
}

// checkNPM: GET /-/whoami on the registry. 200 gives the user name; 401
// means the token is not valid; 403 means the registry knows the token but
// refuses this use of it (a token limited to some addresses): live.
func checkNPM(ctx context.Context, v *Verifier, c secrets.Credential) Result {
	req, err := v.newRequest(ctx, http.MethodGet, "/-/whoami", nil)
	if err != nil {
		return requestFailed(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Value())
	req.Header.Set("Accept", "application/json")
	resp, body, fail := v.do(req)
	if fail != nil {
		return *fail
	}
	now := v.now()
	switch {
	case resp.StatusCode == http.StatusOK:
		var w struct {
			Username string `json:"username"`
		}
		_ = json.Unmarshal(body, &w)
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Identity: w.Username, Reason: "the npm registry accepted the token"}
	case resp.StatusCode == http.StatusUnauthorized:
		return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Reason: "the npm registry refused the token (revoked or expired)"}
	case resp.StatusCode == http.StatusForbidden:
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Reason: "the npm registry knows the token but refuses it from Sentinel's address"}
	case resp.StatusCode == http.StatusTooManyRequests:
		return rateLimited("npm", resp.StatusCode, retryAfter(resp.Header, now))
	case resp.StatusCode >= 500:
		return serverError("npm", resp, now)
	}
	return unexpected("npm", resp)
}

// stsBody is the GetCallerIdentity call, the one STS call no IAM policy can
// deny.
const stsBody = "Action=GetCallerIdentity&Version=2011-06-15"

// checkAWS: STS GetCallerIdentity, signed with Signature Version 4 by the
// AWS SDK's signer. 200 gives the caller's ARN; STS's error codes tell a
// key id that does not exist (InvalidClientTokenId) or a secret key that
// is not its own (SignatureDoesNotMatch), both inactive as found, from
// throttling and clock trouble, which are indeterminate.
func checkAWS(ctx context.Context, v *Verifier, c secrets.Credential) Result {
	req, err := v.newRequest(ctx, http.MethodPost, "/", strings.NewReader(stsBody))
	if err != nil {
		return requestFailed(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	req.Header.Set("Accept", "application/xml")
	sum := sha256.Sum256([]byte(stsBody))
	creds := aws.Credentials{AccessKeyID: c.Value(), SecretAccessKey: c.Companion()}
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "sts", v.region, v.now()); err != nil {
		return Result{Status: Indeterminate, Reason: "the request could not be signed"}
	}
	resp, body, fail := v.do(req)
	if fail != nil {
		return *fail
	}
	now := v.now()
	if resp.StatusCode == http.StatusOK {
		var r struct {
			Result struct {
				Arn     string `xml:"Arn"`
				Account string `xml:"Account"`
			} `xml:"GetCallerIdentityResult"`
		}
		if err := xml.Unmarshal(body, &r); err != nil || r.Result.Arn == "" {
			return Result{Status: Indeterminate, HTTPStatus: resp.StatusCode, Reason: "STS's answer is not a caller identity"}
		}
		return Result{Status: Active, HTTPStatus: resp.StatusCode, Identity: r.Result.Arn, Reason: "AWS STS accepted the key pair"}
	}
	var e struct {
		Error struct {
			Code string `xml:"Code"`
		} `xml:"Error"`
	}
	_ = xml.Unmarshal(body, &e)
	code := e.Error.Code
	switch code {
	case "InvalidClientTokenId":
		return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Reason: "AWS does not know the access key id (deleted, or never issued)"}
	case "SignatureDoesNotMatch":
		return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Reason: "AWS knows the access key id, but the secret key found with it is not its secret key"}
	case "ExpiredToken", "AccessDenied":
		return Result{Status: Inactive, HTTPStatus: resp.StatusCode, Reason: "AWS refused the key pair: " + code}
	case "Throttling", "ThrottlingException", "RequestLimitExceeded":
		return rateLimited("AWS STS", resp.StatusCode, retryAfter(resp.Header, now))
	case "RequestExpired", "RequestTimeTooSkewed":
		return Result{Status: Indeterminate, HTTPStatus: resp.StatusCode, Reason: "AWS refused the request's time: check the service's clock"}
	}
	if resp.StatusCode >= 500 {
		return serverError("AWS STS", resp, now)
	}
	return Result{Status: Indeterminate, HTTPStatus: resp.StatusCode, Reason: "AWS STS answered with error " + safeCode(code)}
}

// splitList splits a comma-separated header value.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// safeCode keeps a provider's error code printable and short.
func safeCode(s string) string {
	if s == "" {
		return "(none)"
	}
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || c == '-' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '?'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	return string(b)
}
