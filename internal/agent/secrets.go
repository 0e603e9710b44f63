package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/agent/client"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/secrets"
)

// ExitSecretsFound is the exit code of sentinel secrets when it found
// secrets that no ignore entry accepts: distinct from 1 (an error) and 2
// (usage), so that a build step can tell "found something" from "could
// not look".
const ExitSecretsFound = 4

const secretsUsage = `usage: sentinel secrets [DIR] [--submit] [--history] [-o FILE] [--format table|json] [--exclude GLOB]... [--ignore FILE]

Finds credentials committed to DIR (default .), and with --history to every
commit of its git repository, with gitleaks' rules. Values are never
printed: each secret shows its kind, location, a redacted form and a keyed
fingerprint (the key: SENTINEL_SECRETS_KEY in hex, else
$SENTINEL_HOME/secrets.key, created on first use). Accepted secrets go in
.sentinel-secrets-ignore.yaml in DIR (or --ignore FILE), each with a reason
and an expiry. --submit sends the secrets, values included, to the
service over the agent listener's mutual TLS (enroll first; the API key
needs secrets:submit), which verifies them with their providers.

exit codes:
  0  no secrets found (or all accepted by the ignore file)
  4  secrets found
  1  error: unreadable directory, no git for --history, submission refused
  2  usage: bad flags, invalid ignore file or key, --submit without a key
`

// secretsCmd is sentinel secrets.
func (c *Command) secretsCmd(ctx context.Context, args []string) error {
	fs := c.flagSet("secrets")
	fs.Usage = func() { fmt.Fprint(c.stderr(), secretsUsage); fs.PrintDefaults() }
	o := c.commonFlags(fs)
	submit := fs.Bool("submit", false, "send the secrets to the service over mutual TLS for tracking and live verification")
	history := fs.Bool("history", false, "also scan every commit reachable from any ref of DIR's git repository (needs git)")
	output := fs.String("output", "", "write the report to this file (default: standard output)")
	fs.StringVar(output, "o", "", "short for --output")
	format := fs.String("format", "table", "report format: table or json (JSON never holds a value)")
	ignore := fs.String("ignore", "", "ignore file (default: DIR/"+secrets.IgnoreFileName+" when it exists)")
	var exclude multiFlag
	fs.Var(&exclude, "exclude", "glob of paths not to scan, relative to DIR (repeatable; * and ? within a name, ** across)")
	skipVendored := fs.Bool("skip-vendored", false, "skip vendor/, third_party/ and Pods/")
	asJSON := fs.Bool("json", false, "with --submit, print the service's answer as JSON on stderr")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageErr("usage: sentinel secrets [flags] [DIR]")
	}
	if *format != "table" && *format != "json" {
		return usageErr("--format must be table or json")
	}
	o.env(c)
	if *submit && o.apiKey == "" {
		return usageErr("--submit needs an API key with the secrets:submit scope: --api-key or SENTINEL_API_KEY")
	}
	for _, g := range exclude {
		if _, err := path.Match(g, ""); err != nil || g == "" {
			return usageErr("--exclude %q is not a valid glob", g)
		}
	}
	root := "."
	if len(pos) == 1 {
		root = pos[0]
	}
	key, err := c.secretsKey()
	if err != nil {
		return err
	}
	now := time.Now()
	var entries []secrets.IgnoreEntry
	ignoreFile := *ignore
	if ignoreFile == "" {
		if st, err := os.Stat(root); err == nil && st.IsDir() {
			if p := filepath.Join(root, secrets.IgnoreFileName); fileExists(p) {
				ignoreFile = p
			}
		}
	}
	if ignoreFile != "" {
		var warnings []string
		entries, warnings, err = secrets.LoadIgnoreFile(ignoreFile, now)
		if err != nil {
			return &exitError{ExitUsage, err}
		}
		for _, w := range warnings {
			fmt.Fprintln(c.stderr(), "sentinel: warning:", w)
		}
	}
	r, err := secrets.Scan(ctx, root, secrets.Options{FingerprintKey: key, Ignore: entries, History: *history,
		Exclude: exclude, SkipVendored: *skipVendored, ToolVersion: Version, Now: time.Now})
	if err != nil {
		return err
	}
	if err := c.writeSecretsReport(r, *format, *output); err != nil {
		return err
	}
	if *submit {
		if err := c.submitSecrets(ctx, o, r, *asJSON); err != nil {
			return err
		}
	}
	if r.HasDetections() {
		return &exitError{ExitSecretsFound, fmt.Errorf("%d secrets found (%d detections)", r.Summary.Secrets, r.Summary.Detections)}
	}
	return nil
}

// secretsKey returns the fingerprint key: SENTINEL_SECRETS_KEY (hex), else
// secrets.key under SENTINEL_HOME, created on first use.
func (c *Command) secretsKey() ([]byte, error) {
	if v := c.getenv("SENTINEL_SECRETS_KEY"); v != "" {
		k, err := secrets.ParseKey(v)
		if err != nil {
			return nil, &exitError{ExitUsage, fmt.Errorf("SENTINEL_SECRETS_KEY: %w", err)}
		}
		return k, nil
	}
	dir, err := c.home()
	if err != nil {
		return nil, err
	}
	return secrets.LoadOrCreateKey(filepath.Join(dir, "secrets.key"))
}

func (c *Command) writeSecretsReport(r *secrets.Report, format, output string) (err error) {
	var w io.Writer = c.stdout()
	if output != "" {
		f, err := os.OpenFile(output, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		w = f
	}
	if format == "json" {
		return secrets.WriteJSON(w, r)
	}
	return secrets.WriteTable(w, r)
}

// submitSecrets sends r's unsuppressed detections, values included, to
// the agent listener with the enrolled certificate and the API key. The
// submission is built in memory and never written anywhere else.
func (c *Command) submitSecrets(ctx context.Context, o *common, r *secrets.Report, asJSON bool) error {
	if !r.HasDetections() {
		fmt.Fprintln(c.stderr(), "sentinel: no secrets to submit")
		return nil
	}
	id, err := c.loadIdentity()
	if err != nil {
		return err
	}
	server := o.agentServer
	if server == "" {
		server = id.config.AgentServer
	}
	base, err := agentURL(server)
	if err != nil {
		return err
	}
	body, err := json.Marshal(secrets.NewSubmission(r))
	if err != nil {
		return err
	}
	defer clear(body)
	req := client.Request{Method: "POST", Path: wire.PathSecretsSubmit, ContentType: "application/json", Want: http.StatusCreated,
		Body: func() (io.ReadCloser, int64, error) {
			return io.NopCloser(bytes.NewReader(body)), int64(len(body)), nil
		}}
	cl := c.apiClient(base, o.apiKey, client.Options{Timeout: 5 * time.Minute, TLS: client.MutualTLS(id.serverCA, id.cert)})
	defer cl.Close()
	var resp wire.SecretsSubmitResponse
	if err := cl.Do(ctx, req, &resp); err != nil {
		var ae *client.Error
		if !errors.As(err, &ae) {
			err = explainTLS(err)
		}
		return fmt.Errorf("submit secrets: %w", err)
	}
	if asJSON {
		enc := json.NewEncoder(c.stderr())
		enc.SetIndent("", "  ")
		return enc.Encode(resp)
	}
	fmt.Fprintf(c.stderr(), "sentinel: submitted %d detections from %s: %d new secrets, %d already known; %d queued for live verification\n",
		resp.Received, resp.Host, resp.New, resp.Known, resp.Verifying)
	return nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }

func (m *multiFlag) Set(v string) error {
	*m = append(*m, v)
	return nil
}
