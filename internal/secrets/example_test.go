package secrets_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinel-sca/sentinel/internal/secrets"
)

// The agent's side: a local key, the ignore file, a scan, the two outputs,
// and the submission for the service.
func ExampleScan() {
	root := "."
	home, _ := os.UserConfigDir()
	key, err := secrets.LoadOrCreateKey(filepath.Join(home, "sentinel", "secrets.key"))
	if err != nil {
		fmt.Println(err)
		return
	}
	var ignore []secrets.IgnoreEntry
	if entries, warnings, err := secrets.LoadIgnoreFile(filepath.Join(root, secrets.IgnoreFileName), time.Now()); err == nil {
		ignore = entries
		for _, w := range warnings {
			fmt.Fprintln(os.Stderr, "warning:", w)
		}
	}
	r, err := secrets.Scan(context.Background(), root, secrets.Options{
		FingerprintKey: key,
		Ignore:         ignore,
		History:        false,
		ToolVersion:    "dev",
		Now:            time.Now,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = secrets.WriteTable(os.Stderr, r)   // for a person
	_ = secrets.WriteJSON(os.Stdout, r)    // for a machine; no raw values
	submission := secrets.NewSubmission(r) // raw values: for the mutual-TLS submission only
	_ = submission
}

// The service's side: decode what the agent sent, fingerprint with the
// service's own key, keep the value only to verify it.
func ExampleParseSubmission() {
	body := []byte(`{"schema":"sentinel-secrets-submission","schema_version":1,"tool":{"name":"sentinel","version":"dev"},"engine":{"name":"gitleaks","version":"8.30.1","rules":222},"root":".","history":false,"items":[]}`)
	sub, err := secrets.ParseSubmission(body)
	if err != nil {
		fmt.Println(err)
		return
	}
	serviceKey := make([]byte, 32) // the deployment's own key, from its key store
	fp, _ := secrets.NewFingerprinter(serviceKey)
	for _, it := range sub.Items {
		fmt.Println(fp.Fingerprint(it.Value), secrets.Redact(it.Value), it.RuleID, it.File, it.Line)
		// store it.Credential() sealed with the master key until verified
	}
	fmt.Println(len(sub.Items), "items")
	// Output: 0 items
}
