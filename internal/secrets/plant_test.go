package secrets_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The planted secrets are built when the tests run, never written in the
// repository: a literal in a well-known token format would be flagged by
// every secret scanner that looks at this repository, ours included. Each
// value is in its provider's real format with a random part from a seeded
// generator (so runs are repeatable) and carries the marker "SNTL" or
// "sntl" where the format allows letters, so a person who sees one knows it
// is synthetic.

type planted struct {
	file     string
	rule     string // the gitleaks rule expected to find it
	provider string
	value    string
	// companion is the AWS secret access key paired with a key id.
	companion string
}

const (
	alnum   = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	lowernm = "abcdefghijklmnopqrstuvwxyz0123456789"
	digits  = "0123456789"
	base32  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64ish  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/+"
)

type gen struct{ r *rand.Rand }

func newGen(seed uint64) *gen { return &gen{rand.New(rand.NewPCG(seed, 0x5e47))} }

func (g *gen) str(alphabet string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(alphabet[g.r.IntN(len(alphabet))])
	}
	return b.String()
}

// secretsFor returns one planted secret of each kind, in files of their own
// (the file name says which).
func secretsFor(t testing.TB, seed uint64) []planted {
	g := newGen(seed)
	awsID := "AKIA" + "SNTL" + g.str(base32, 12)
	awsSecret := "sntl" + g.str(b64ish, 36)
	key := ecPrivateKeyPEM(t, g)
	return []planted{
		{file: "config/github.env", rule: "github-pat", provider: "github", value: "ghp_" + "SNTL" + g.str(alnum, 32)},
		{file: "config/github-fine.env", rule: "github-fine-grained-pat", provider: "github", value: "github_pat_" + "11SNTL" + g.str(alnum, 16) + "_" + g.str(alnum, 59)},
		{file: "ci/gitlab.yml", rule: "gitlab-pat", provider: "gitlab", value: "glpat-" + "SNTL" + g.str(alnum, 16)},
		{file: "bot/slack.json", rule: "slack-bot-token", provider: "slack", value: "xoxb-" + g.str(digits, 12) + "-" + g.str(digits, 13) + "-" + "SNTL" + g.str(alnum, 20)},
		{file: "billing/stripe.py", rule: "stripe-access-token", provider: "stripe", value: "sk_live_" + "SNTL" + g.str(alnum, 95)},
		{file: "billing/stripe_restricted.rb", rule: "stripe-access-token", provider: "stripe", value: "rk_live_" + "SNTL" + g.str(alnum, 44)},
		{file: "pkg/.npmrc", rule: "npm-access-token", provider: "npm", value: "npm_" + "sntl" + g.str(lowernm, 32)},
		{file: "deploy/aws.tf", rule: "aws-access-token", provider: "aws", value: awsID, companion: awsSecret},
		{file: "keys/server.key", rule: "private-key", provider: "", value: key},
		{file: "app/settings.py", rule: "generic-api-key", provider: "", value: "Sntl" + g.str(alnum, 28)},
	}
}

// writePlanted writes each planted secret into its file, in the way such a
// file holds it.
func writePlanted(t testing.TB, root string, ps []planted) {
	for _, p := range ps {
		var body string
		switch p.rule {
		case "github-pat":
			body = "# CI token for the release job\nGITHUB_TOKEN=" + p.value + "\nOTHER=1\n"
		case "github-fine-grained-pat":
			body = "export GH_PAT=" + p.value + "\n"
		case "gitlab-pat":
			body = "variables:\n  GITLAB_TOKEN: \"" + p.value + "\"\n"
		case "slack-bot-token":
			body = "{\n  \"channel\": \"#deploys\",\n  \"slack_token\": \"" + p.value + "\"\n}\n"
		case "stripe-access-token":
			if strings.HasPrefix(p.value, "rk_") {
				body = "Stripe.api_key = '" + p.value + "'\n"
			} else {
				body = "import stripe\n\nstripe.api_key = \"" + p.value + "\"\n"
			}
		case "npm-access-token":
			body = "//registry.npmjs.org/:_authToken=" + p.value + "\n"
		case "aws-access-token":
			body = "provider \"aws\" {\n  region     = \"eu-west-1\"\n  access_key = \"" + p.value + "\"\n  secret_key = \"" + p.companion + "\"\n}\n"
		case "private-key":
			body = p.value
		case "generic-api-key":
			body = "DEBUG = False\nPAYMENT_API_SECRET = \"" + p.value + "\"\n"
		default:
			t.Fatalf("no template for %s", p.rule)
		}
		writeFile(t, root, p.file, body)
	}
}

func writeFile(t testing.TB, root, name, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func ecPrivateKeyPEM(t testing.TB, g *gen) string {
	// A real P-256 key from the seeded generator's bytes: a valid key in
	// the format, never used for anything.
	seed := make([]byte, 48)
	for i := range seed {
		seed[i] = byte(g.r.Uint32())
	}
	k, err := ecdsa.GenerateKey(elliptic.P256(), bytes.NewReader(seed))
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}))
}

// lookalikes are files full of strings that look like secrets to a naive
// scanner and are not: none may be reported.
func writeLookalikes(t testing.TB, root string, g *gen) {
	writeFile(t, root, "data/ids.yaml", strings.Join([]string{
		"# identifiers, not secrets",
		"request_id: 550e8400-e29b-41d4-a716-446655440000",
		"tenant: 3f2504e0-4f89-11d3-9a0c-0305e82c3301",
		"correlation-id: \"123e4567-e89b-12d3-a456-426614174000\"",
		"commit: 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
		"sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"",
	}, "\n"))
	// Lockfiles with integrity hashes: those gitleaks allowlists by name,
	// and ones it does not.
	integrity := "sha512-" + base64.StdEncoding.EncodeToString([]byte(g.str(alnum, 64)))
	writeFile(t, root, "web/package-lock.json", "{\n  \"packages\": {\n    \"node_modules/left-pad\": {\n      \"version\": \"1.3.0\",\n      \"integrity\": \""+integrity+"\"\n    }\n  }\n}\n")
	writeFile(t, root, "web/bun.lock", "{\n  \"packages\": {\n    \"left-pad\": [\"left-pad@1.3.0\", \"\", {}, \""+integrity+"\"],\n  }\n}\n")
	writeFile(t, root, "rust/Cargo.lock", "[[package]]\nname = \"serde\"\nversion = \"1.0.210\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"c8e3592472072e6e22e0a54d5904d9febf8508f65fb8552499a1abc7d1078c3a\"\n")
	writeFile(t, root, "py/requirements.txt", "requests==2.32.3 \\\n    --hash=sha256:70761cfe03c773ceb22aa2f671b4757976145175cdfca038c02654d061d6dcc6\n")
	writeFile(t, root, "php/composer.lock", "{\n  \"packages\": [{\"name\": \"monolog/monolog\", \"dist\": {\"reference\": \"fa78cd1ba0f9d3fe20c1d0fec6f8de03ba6fa9e1\", \"shasum\": \"\"}}]\n}\n")
	// Documentation placeholders, including AWS's own example pair.
	writeFile(t, root, "docs/README.md", strings.Join([]string{
		"# Configuration",
		"",
		"Set your credentials, for example:",
		"",
		"    aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
		"    aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"",
		"    GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"    STRIPE_KEY=sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
		"    password: changeme",
		"    api_key: <your-api-key>",
		"    token: ${GITHUB_TOKEN}",
		"    secret: \"{{ .Values.secret }}\"",
		"",
	}, "\n"))
	// Images inlined as base64, in CSS and HTML.
	img := base64.StdEncoding.EncodeToString(noisePNG(t, g))
	writeFile(t, root, "web/styles.css", ".logo {\n  background-image: url(\"data:image/png;base64,"+img+"\");\n}\n")
	writeFile(t, root, "web/index.html", "<!doctype html>\n<img alt=\"logo\" src=\"data:image/png;base64,"+img+"\">\n")
	writeFile(t, root, "web/logo.png", string(noisePNG(t, g)))
	// A binary file with a token-looking string inside is not read.
	writeFile(t, root, "bin/blob.dat", "\x00\x01\x02ghp_"+g.str(alnum, 36)+"\x00")
}

func noisePNG(t testing.TB, g *gen) []byte {
	m := image.NewNRGBA(image.Rect(0, 0, 24, 24))
	for y := range 24 {
		for x := range 24 {
			m.Set(x, y, color.NRGBA{uint8(g.r.Uint32()), uint8(g.r.Uint32()), uint8(g.r.Uint32()), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
