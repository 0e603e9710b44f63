// Package agent is the sentinel command line (the agent) as a library:
// cmd/sentinel is a few lines around Command, and tests run every command
// in-process with their own arguments, environment and output.
//
//	sentinel enroll --agent-server https://sentinel.example.com:8443 --token sntl_enr_... [--server https://sentinel.example.com]
//	sentinel submit [--host NAME] [--json] FILE|-
//	sentinel sbom [--output FILE] [--submit] [--host NAME] [DIR]
//	sentinel ci --sca [--offline-db FILE] [--format table|json|sarif|cyclonedx] [-o FILE] [DIR]   (see sentinel ci -h)
//	sentinel verify [--root ROOT.pem] BUNDLE.zip
//	sentinel secrets [--submit] [--history] [-o FILE] [--format table|json] [--exclude GLOB]... [DIR]   (see sentinel secrets -h)
//	sentinel version
//
// Configuration is read from flags, then the environment, then the files
// that enrollment wrote: --server / SENTINEL_SERVER (the API URL),
// --agent-server / SENTINEL_AGENT_SERVER (the agent listener: enroll needs
// it; later commands read it from the enrollment), --api-key /
// SENTINEL_API_KEY, and
// SENTINEL_HOME (default $XDG_CONFIG_HOME/sentinel, else
// ~/.config/sentinel), which holds the agent's identity:
//
//	agent.key      the agent's ECDSA P-256 private key (PKCS#8 PEM, mode 0600)
//	agent.crt      its client certificate, from the organization's agent CA
//	ca.crt         the organization's agent CA certificate
//	server-ca.crt  the agent server CA: the only root trusted for the listener
//	config.json    agent server URL, organization, host name, agent id
//
// Errors carry their exit code (ExitCode): 0 success, 1 failure, 2 usage.
package agent

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel/internal/agent/client"
)

// Version is the agent's version, set by the linker.
var Version = "dev"

// Command is one invocation of the sentinel command line.
type Command struct {
	// Args are the arguments after the program name.
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Env is the environment as "KEY=value" strings (as os.Environ).
	Env []string
	// Hostname returns the host's name; nil means os.Hostname.
	Hostname func() (string, error)
	// Sleep waits before a retry; nil means a timer that honours ctx.
	Sleep func(ctx context.Context, d time.Duration) error
}

// exitError is an error with an exit code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// ExitCode returns the process exit code for the error.
func (e *exitError) ExitCode() int { return e.code }

// Exit codes.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

func usageErr(format string, args ...any) error {
	return &exitError{ExitUsage, fmt.Errorf(format, args...)}
}

// ExitCode maps an error returned by Run to the process exit code: 0 for
// nil, the code of the first error in the chain that has an ExitCode
// method, else 1.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ec interface{ ExitCode() int }
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	return ExitError
}

// Main runs the command line and returns the exit code; errors are printed
// to stderr. cmd/sentinel calls it with the process's arguments.
func Main(ctx context.Context, c *Command) int {
	err := c.Run(ctx)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(c.stderr(), "sentinel:", err)
	}
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	return ExitCode(err)
}

const usage = `usage: sentinel <command> [flags]

commands:
  enroll    enroll this host with a one-time token (sentinel enroll --agent-server https://HOST:8443 --token T)
  submit    submit a CycloneDX JSON SBOM over mutual TLS (sentinel submit FILE)
  sbom      build a CycloneDX 1.5 SBOM from the manifests under a directory (--submit to submit it)
  ci        the CI gate: sentinel ci --sca [DIR]; exits 70 known-exploited, 71 vulnerable, 72 OK, 77/78/1/2/3 (see ci -h)
  verify    check an Evidence Bundle offline, no cosign needed (sentinel verify BUNDLE.zip)
  secrets   find committed credentials under a directory (--history for git history, --submit to send them
            for live verification); exits 0 clean, 4 secrets found, 1 error, 2 usage (see secrets -h)
  webhooks  sentinel webhooks listen --secret whsec_...: receive, verify and print webhook events
  version   print the version

Configuration: --server/SENTINEL_SERVER (API URL), --agent-server/SENTINEL_AGENT_SERVER
(agent listener), --api-key/SENTINEL_API_KEY, SENTINEL_HOME (default ~/.config/sentinel).
Run "sentinel <command> -h" for a command's flags.
`

// Run runs the command.
func (c *Command) Run(ctx context.Context) error {
	if len(c.Args) == 0 {
		fmt.Fprint(c.stderr(), usage)
		return usageErr("no command given")
	}
	name, args := c.Args[0], c.Args[1:]
	switch name {
	case "enroll":
		return c.enroll(ctx, args)
	case "submit":
		return c.submitCmd(ctx, args)
	case "sbom":
		return c.sbomCmd(ctx, args)
	case "ci":
		return c.ciCmd(ctx, args)
	case "verify":
		return c.verifyCmd(ctx, args)
	case "secrets":
		return c.secretsCmd(ctx, args)
	case "webhooks":
		return c.webhooksCmd(ctx, args)
	case "version", "--version":
		fmt.Fprintln(c.stdout(), "sentinel", Version)
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(c.stdout(), usage)
		return nil
	}
	fmt.Fprint(c.stderr(), usage)
	return usageErr("unknown command %q", name)
}

func (c *Command) stdout() io.Writer {
	if c.Stdout == nil {
		return io.Discard
	}
	return c.Stdout
}

func (c *Command) stderr() io.Writer {
	if c.Stderr == nil {
		return io.Discard
	}
	return c.Stderr
}

// getenv reads the command's environment (the last assignment wins, as
// in exec.Cmd).
func (c *Command) getenv(key string) string {
	v := ""
	for _, kv := range c.Env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

func (c *Command) hostname() (string, error) {
	if c.Hostname != nil {
		return c.Hostname()
	}
	return os.Hostname()
}

func (c *Command) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// apiClient returns the agent's client of the service at base: the
// API key and User-Agent on every request, the command's Sleep between
// retries, and each retry announced on stderr.
func (c *Command) apiClient(base *url.URL, apiKey string, o client.Options) *client.Client {
	o.APIKey, o.UserAgent, o.Sleep = apiKey, "sentinel/"+Version, c.sleep
	o.OnRetry = func(wait time.Duration, attempt, attempts int) {
		fmt.Fprintf(c.stderr(), "sentinel: rate limited; retrying in %s (attempt %d of %d)\n", wait.Round(time.Second), attempt, attempts)
	}
	return client.New(base, o)
}

// common are the flags every networked command takes.
type common struct {
	server      string
	agentServer string
	apiKey      string
}

func (c *Command) commonFlags(fs *flag.FlagSet) *common {
	o := &common{}
	fs.StringVar(&o.server, "server", "", "API URL (env SENTINEL_SERVER)")
	fs.StringVar(&o.agentServer, "agent-server", "", "agent listener URL, when separate (env SENTINEL_AGENT_SERVER; default: the one saved at enrollment)")
	fs.StringVar(&o.apiKey, "api-key", "", "API key (env SENTINEL_API_KEY)")
	return o
}

// env fills unset flags from the environment.
func (o *common) env(c *Command) {
	if o.server == "" {
		o.server = c.getenv("SENTINEL_SERVER")
	}
	if o.agentServer == "" {
		o.agentServer = c.getenv("SENTINEL_AGENT_SERVER")
	}
	if o.apiKey == "" {
		o.apiKey = c.getenv("SENTINEL_API_KEY")
	}
}

func (c *Command) flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("sentinel "+name, flag.ContinueOnError)
	fs.SetOutput(c.stderr())
	return fs
}

// parse parses flags and positional arguments in any order (sentinel
// submit FILE --api-key K works as well as flags first). "--" ends flags.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &exitError{ExitUsage, err}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
