package verify_test

import (
	"context"
	"fmt"
	"time"

	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/secrets"
	"github.com/sentinel-sca/sentinel/internal/secrets/verify"
)

// One Set per process: production passes the zero netguard policy and no
// base URLs; a self-managed GitLab or GitHub Enterprise gets its own URL.
func ExampleNewSet() {
	set, err := verify.NewSet(verify.Options{
		Policy:    netguard.Policy{}, // refuses private, loopback and metadata addresses
		Timeout:   10 * time.Second,
		UserAgent: "Sentinel/1.0 (secret verification)",
	}, map[string]string{
		// "gitlab": "https://gitlab.example.com",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	cred := secrets.NewCredential("glpat-...", "") // from the sealed store, never from a log
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := set.Verify(ctx, secrets.ProviderGitLab, cred)
	switch {
	case err != nil: // ErrUnsupported, ErrIncomplete: do not retry
	case r.Status == verify.Indeterminate: // retry after r.RetryAfter
	default: // Active or Inactive: record, emit secret.verified_live when Active, drop the sealed value
	}
}
