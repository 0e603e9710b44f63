package secrets

import (
	"regexp"
	"strings"
)

// gitleaks finds AWS access key ids (AKIA..., ASIA...) but not the secret
// access key that goes with one, which only its generic rule may catch, as
// any other high-entropy string. A key id alone cannot be verified, so the
// scanner looks for the secret key near the key id, in the forms it is
// written in: an assignment whose name says secret key (aws_secret_access_key
// = ..., "SecretAccessKey": "...", secretAccessKey: ...) within
// awsPairLines lines, or the next field of the same line (the CSV the AWS
// console hands out: "AKIA...,wJalr...").
const awsPairLines = 5

var (
	awsSecretAssign = regexp.MustCompile(`(?i)secret[_\-. ]?(?:access[_\-. ]?)?key[\x60'"]?\s*(?:=>|:=|[:=])\s*[\x60'"]?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`)
	awsSecretField  = regexp.MustCompile(`^[\x60'"]?\s*[,;|\t:]\s*[\x60'"]?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`)
)

// findAWSSecret returns the secret access key written near the key id on
// line keyLine (0-based) of text, or "". Values that say they are examples
// (AWS documentation's wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY) are not
// secrets.
func findAWSSecret(text string, keyLine int, keyID string) string {
	line := lineAt(text, keyLine)
	if i := strings.Index(line, keyID); i >= 0 {
		if m := awsSecretField.FindStringSubmatch(line[i+len(keyID):]); m != nil && usable(m[1]) {
			return m[1]
		}
	}
	best, bestDist := "", awsPairLines+1
	for n := max(0, keyLine-awsPairLines); n <= keyLine+awsPairLines; n++ {
		l := lineAt(text, n)
		if l == "" {
			continue
		}
		m := awsSecretAssign.FindStringSubmatch(l)
		if m == nil || !usable(m[1]) {
			continue
		}
		if d := abs(n - keyLine); d < bestDist {
			best, bestDist = m[1], d
		}
	}
	return best
}

func usable(secret string) bool {
	return !strings.Contains(strings.ToUpper(secret), "EXAMPLE")
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
