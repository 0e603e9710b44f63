package secrets_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel/internal/secrets"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ghp_" + strings.Repeat("a", 36), "ghp_…(40)"},
		{"sk_live_" + strings.Repeat("Z", 24), "sk_live_…(32)"},
		{"AKIA" + strings.Repeat("B", 16), "AKIA…(20)"},
		{"xoxb-1234", "xo…(9)"}, // too short for its prefix to be shown
		{"hunter22", "hu…(8)"},
		{"secret", "…(6)"},
		{"correct horse battery staple", "corr…(28)"},
		{"pässwörter-und-mehr", "päss…(19)"},
		{"", "…(0)"},
	}
	for _, tt := range tests {
		if got := secrets.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFingerprinter(t *testing.T) {
	a, err := secrets.NewFingerprinter([]byte("0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := secrets.NewFingerprinter([]byte("fedcba9876543210"))
	v := "ghp_" + strings.Repeat("x", 36)
	again, _ := secrets.NewFingerprinter([]byte("0123456789abcdef"))
	if a.Fingerprint(v) != again.Fingerprint(v) {
		t.Error("fingerprint is not stable")
	}
	if a.Fingerprint(v) == b.Fingerprint(v) {
		t.Error("two keys give the same fingerprint")
	}
	if len(a.Fingerprint(v)) != 32 || len(a.KeyID()) != 8 || a.KeyID() == b.KeyID() {
		t.Errorf("fingerprint %q, key ids %q %q", a.Fingerprint(v), a.KeyID(), b.KeyID())
	}
	if strings.Contains(a.Fingerprint(v), "ghp_") {
		t.Error("fingerprint shows the value")
	}
	if _, err := secrets.NewFingerprinter([]byte("short")); err == nil {
		t.Error("NewFingerprinter accepted a 5-byte key")
	}
}

func TestLoadOrCreateKey(t *testing.T) {
	name := filepath.Join(t.TempDir(), "home", "secrets.key")
	k1, err := secrets.LoadOrCreateKey(name)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := secrets.LoadOrCreateKey(name)
	if err != nil {
		t.Fatal(err)
	}
	if string(k1) != string(k2) || len(k1) != secrets.KeySize {
		t.Error("the key changed between loads")
	}
	info, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", info.Mode().Perm())
	}
	if err := os.WriteFile(name, []byte("not hex"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := secrets.LoadOrCreateKey(name); err == nil {
		t.Error("a damaged key file was accepted (or replaced)")
	}
	if _, err := secrets.ParseKey(strings.Repeat("ab", 16)); err != nil {
		t.Errorf("ParseKey(32 hex digits) = %v", err)
	}
}

func TestProviderForRule(t *testing.T) {
	tests := []struct {
		rule, provider string
		verifiable     bool
	}{
		{"github-pat", "github", true},
		{"github-refresh-token", "github", false},
		{"gitlab-pat-routable", "gitlab", true},
		{"gitlab-runner-authentication-token", "gitlab", false},
		{"slack-bot-token", "slack", true},
		{"slack-webhook-url", "slack", false},
		{"stripe-access-token", "stripe", true},
		{"npm-access-token", "npm", true},
		{"aws-access-token", "aws", true},
		{"twilio-api-key", "twilio", false},
		{"generic-api-key", "", false},
		{"private-key", "", false},
		{"jwt", "", false},
	}
	for _, tt := range tests {
		if p, v := secrets.ProviderForRule(tt.rule), secrets.Verifiable(tt.rule); p != tt.provider || v != tt.verifiable {
			t.Errorf("rule %s: provider %q verifiable %v, want %q %v", tt.rule, p, v, tt.provider, tt.verifiable)
		}
	}
}
