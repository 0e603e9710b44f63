package intake

import (
	"strings"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/secrets"
)

// Risk of an exposed secret, before verification: what the credential
// could open if it works.
//
//   - 75 (high): credentials of a cloud, a code host, a payment or package
//     registry, a chat workspace, and private keys: aws, gcp, azure,
//     github, gitlab, stripe (live mode), npm, slack, private-key.
//   - 50 (medium): a key of another named service, a JWT, a generic API
//     key or password: a guess at what it opens.
//   - 30 (low): a Stripe test-mode key, which moves no money.
//
// The asset's criticality moves it as for every finding (+10 critical,
// +5 high, -10 low). A secret verified live is raised to at least 90
// (critical) and by 25: it works, today, for whoever read the file.
const (
	riskHigh   = 75
	riskMedium = 50
	riskLow    = 30
	liveBoost  = 25
	liveFloor  = 90
)

var highProviders = map[string]bool{
	secrets.ProviderAWS: true, "gcp": true, "azure": true, secrets.ProviderGitHub: true, secrets.ProviderGitLab: true,
	secrets.ProviderStripe: true, secrets.ProviderNPM: true, secrets.ProviderSlack: true,
}

// baseRisk is a new secret's risk score on an asset of criticality. test
// is true for a provider's test-mode credential.
func baseRisk(ruleID, provider string, test bool, criticality string) int {
	score := riskMedium
	switch {
	case test:
		score = riskLow
	case highProviders[provider], strings.HasPrefix(ruleID, "private-key"):
		score = riskHigh
	}
	score += map[string]int{sentinel.CriticalityCritical: 10, sentinel.CriticalityHigh: 5, sentinel.CriticalityLow: -10}[criticality]
	return min(max(score, 0), 100)
}

// liveRisk is the risk of a secret its provider accepted.
func liveRisk(score int) int { return min(max(score+liveBoost, liveFloor), 100) }

// severityOf names a score's severity as findings do (the band's name).
func severityOf(score int) string { return sentinel.Band(score) }

// Compliance returns the control references an exposed secret hits in an
// organization's primary catalog: authenticators embedded in code.
func Compliance(catalog string) []string {
	switch catalog {
	case "pci-dss-4":
		// 8.6.2: passwords of application and system accounts are not
		// hard coded in scripts, configuration files or source code.
		return []string{"PCI-DSS-4.0:8.3.2", "PCI-DSS-4.0:8.6.2"}
	case "iso-27001-2022":
		return []string{"ISO-27001-2022:A.5.17", "ISO-27001-2022:A.8.4"}
	}
	// IA-5(7): no embedded unencrypted static authenticators.
	return []string{"NIST-800-53:IA-5", "NIST-800-53:IA-5(7)", "NIST-800-53:SC-28"}
}
