package secrets

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Providers a detection can belong to. The list names those the service
// can verify and a few common others; a rule of gitleaks' default set that
// is not mapped here gets the part of its id before the first "-" (e.g.
// "twilio" for "twilio-api-key"), and generic rules get none.
const (
	ProviderGitHub = "github"
	ProviderGitLab = "gitlab"
	ProviderSlack  = "slack"
	ProviderStripe = "stripe"
	ProviderNPM    = "npm"
	ProviderAWS    = "aws"
)

// verifiableRules are the gitleaks rule ids whose value the service can
// check with a harmless authenticated call (see package verify). Tokens of
// the same provider that cannot be used on such an endpoint are left out:
// GitHub refresh tokens (ghr_), GitLab job, runner and feed tokens, Slack
// webhooks (the only call is posting a message), Slack app-level tokens.
var verifiableRules = map[string]string{
	"github-pat":                   ProviderGitHub,
	"github-fine-grained-pat":      ProviderGitHub,
	"github-oauth":                 ProviderGitHub,
	"github-app-token":             ProviderGitHub,
	"gitlab-pat":                   ProviderGitLab,
	"gitlab-pat-routable":          ProviderGitLab,
	"slack-bot-token":              ProviderSlack,
	"slack-user-token":             ProviderSlack,
	"slack-legacy-bot-token":       ProviderSlack,
	"slack-legacy-token":           ProviderSlack,
	"slack-legacy-workspace-token": ProviderSlack,
	"stripe-access-token":          ProviderStripe,
	"npm-access-token":             ProviderNPM,
	"aws-access-token":             ProviderAWS,
}

// providerPrefixes maps rule id prefixes to providers where the first word
// of the id is not the provider's name as Sentinel writes it.
var providerPrefixes = []struct{ prefix, provider string }{
	{"github-", ProviderGitHub},
	{"gitlab-", ProviderGitLab},
	{"slack-", ProviderSlack},
	{"stripe-", ProviderStripe},
	{"npm-", ProviderNPM},
	{"aws-", ProviderAWS},
	{"gcp-", "gcp"},
	{"azure-", "azure"},
	{"private-key", ""},
	{"pkcs12-file", ""},
	{"generic-", ""},
	{"jwt", ""},
	{"curl-auth", ""},
	{"hashicorp-tf-password", ""},
}

// ProviderForRule returns the provider a gitleaks rule id belongs to, or ""
// for rules that name a kind of secret rather than a service (private keys,
// JWTs, generic API keys).
func ProviderForRule(ruleID string) string {
	if p, ok := verifiableRules[ruleID]; ok {
		return p
	}
	for _, pp := range providerPrefixes {
		if strings.HasPrefix(ruleID, pp.prefix) {
			return pp.provider
		}
	}
	if i := strings.IndexByte(ruleID, '-'); i > 0 {
		return ruleID[:i]
	}
	return ""
}

// Verifiable reports whether the service can check detections of ruleID
// against their provider (see package verify).
func Verifiable(ruleID string) bool {
	_, ok := verifiableRules[ruleID]
	return ok
}

// publicPrefixes are the fixed, non-secret beginnings of token formats:
// showing them tells a reader what kind of token it is, and nothing of its
// random part.
var publicPrefixes = []string{
	"github_pat_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
	"glpat-", "gldt-", "glptt-", "glrt-",
	"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxe-", "xapp-",
	"sk_live_", "rk_live_", "sk_test_", "rk_test_", "sk_prod_", "rk_prod_",
	"npm_",
	"AKIA", "ASIA", "ABIA", "ACCA",
	"-----BEGIN",
}

// Redact returns a form of value that tells a reader which secret a
// detection is about without giving enough of it to use or guess: a known
// token prefix (ghp_, xoxb-, sk_live_, AKIA, ...) or else at most 4
// characters and never more than a quarter of the value, then "…" and the
// length. A value of fewer than 8 characters shows nothing but its length.
//
//	ghp_…(40)   sk_live_…(107)   AKIA…(20)   pass…(24)   …(6)
func Redact(value string) string {
	n := utf8.RuneCountInString(value)
	shown := ""
	for _, p := range publicPrefixes {
		if strings.HasPrefix(value, p) && len(value) >= 2*len(p) {
			shown = p
			break
		}
	}
	if shown == "" && n >= 8 {
		k := min(4, n/4)
		i := 0
		for j := range value {
			if k == 0 {
				i = j
				break
			}
			k--
		}
		shown = value[:i]
	}
	return shown + "…(" + strconv.Itoa(n) + ")"
}
