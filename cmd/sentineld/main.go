// Command sentineld is the Sentinel service: the public API, the agent
// listener (mutual TLS), the Evidence Bundle share site and the background
// workers, plus the admin commands that manage organizations and keys.
//
//	sentineld serve [--demo] [--data DIR] [--database URL] [--addr HOST:PORT] ...
//	sentineld migrate
//	sentineld admin create-org --slug acme [--name "Acme Corp"]
//	sentineld admin create-key --org acme --scopes sca:read,sca:submit [--name ci]
//	sentineld admin set-meter --org acme --meter scans --limit 100
//	sentineld admin create-enrollment-token --org acme
//	sentineld admin create-user --org acme --email ana@acme.example --role admin
//
// Every flag can also be set as an environment variable: SENTINEL_ and the
// flag's name in upper case with dashes as underscores (--agent-addr is
// SENTINEL_AGENT_ADDR); --database is SENTINEL_DATABASE_URL and --redis
// SENTINEL_REDIS_URL. Flags win over the environment.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/secrets/verify"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Main(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

const usage = `usage: sentineld <command> [flags]

commands:
  serve        run the service (API, agent listener, share site, workers)
  migrate      apply database migrations and exit
  admin        manage organizations, keys and meters (see: sentineld admin)
  intel        import advisories, KEV and end-of-life data; sync the feeds; export an offline snapshot
  backup       copy the embedded store while the service runs (-o FILE)
  restore      put a backup in place of the embedded store (--from FILE; service stopped)
  version      print the version

Run "sentineld <command> -h" for a command's flags.
`

// exitError carries an exit code: 1 for failures, 2 for usage errors.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func usageErr(format string, args ...any) error {
	return &exitError{2, fmt.Errorf(format, args...)}
}

// Main runs sentineld with args and returns the process exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	err := run(ctx, args, stdout, stderr, getenv)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "sentineld:", errorText(err))
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

func errorText(err error) string {
	if e := sentinel.AsError(err); e != nil {
		return e.Message
	}
	return err.Error()
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usageErr("no command given")
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stdout, stderr, getenv)
	case "migrate":
		return migrate(ctx, args[1:], stdout, stderr, getenv)
	case "admin":
		return admin(ctx, args[1:], stdout, stderr, getenv)
	case "intel":
		return intelCmd(ctx, args[1:], stdout, stderr, getenv)
	case "backup":
		return backup(ctx, args[1:], stdout, stderr, getenv)
	case "restore":
		return restore(ctx, args[1:], stdout, stderr, getenv)
	case "version":
		fmt.Fprintln(stdout, server.Version)
		return nil
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return usageErr("unknown command %q", args[0])
}

// envName is the environment variable that sets a flag.
func envName(flagName string) string {
	switch flagName {
	case "database":
		return "SENTINEL_DATABASE_URL"
	case "redis":
		return "SENTINEL_REDIS_URL"
	}
	return "SENTINEL_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parse applies environment variables, then the command line.
func parse(fs *flag.FlagSet, args []string, getenv func(string) string) error {
	var bad error
	fs.VisitAll(func(f *flag.Flag) {
		if v := getenv(envName(f.Name)); v != "" && bad == nil {
			if err := fs.Set(f.Name, v); err != nil {
				bad = usageErr("%s=%q: %v", envName(f.Name), v, err)
			}
		}
	})
	if bad != nil {
		return bad
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &exitError{2, err}
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// storeFlags are the flags every command that opens the store takes.
func storeFlags(fs *flag.FlagSet, cfg *server.Config) {
	fs.StringVar(&cfg.DataDir, "data", cfg.DataDir, "data directory for the embedded store and generated keys")
	fs.StringVar(&cfg.Database, "database", cfg.Database, "PostgreSQL URL (postgres://...); empty: SQLite in --data")
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("sentineld "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg := server.DefaultConfig()
	fs := newFlagSet("serve", stderr)
	storeFlags(fs, &cfg)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "API listen address")
	fs.StringVar(&cfg.AgentAddr, "agent-addr", cfg.AgentAddr, "agent listener (mutual TLS) address")
	fs.StringVar(&cfg.AgentURL, "agent-url", "", "public URL of the agent listener, shown with enrollment tokens (default https://<agent-addr>)")
	agentNames := fs.String("agent-name", "", "comma-separated extra DNS names or IPs for the agent listener's certificate (the names agents dial)")
	fs.StringVar(&cfg.ShareAddr, "share-addr", cfg.ShareAddr, "Evidence Bundle share site listen address")
	fs.StringVar(&cfg.ShareURL, "share-url", "", "public base URL of the share site (default http://<share-addr>)")
	fs.StringVar(&cfg.PublicURL, "public-url", "", "public base URL of the API (default http://<addr>)")
	fs.StringVar(&cfg.Redis, "redis", "", "Redis URL for rate limits shared between replicas (redis://127.0.0.1:6379/0)")
	fs.BoolVar(&cfg.AllowPrivateTargets, "allow-private-targets", false, "let webhooks reach plain HTTP and private addresses (local use and tests only)")
	fs.IntVar(&cfg.Workers, "workers", cfg.Workers, "background jobs run at once")
	var intelOSV multiFlag
	fs.Var(&intelOSV, "intel-osv", "OSV source for the periodic intel sync (repeatable; directory, all.zip or URL)")
	fs.StringVar(&cfg.Intel.KEV, "intel-kev", "", "KEV catalog source for the periodic intel sync (file or URL)")
	fs.StringVar(&cfg.Intel.EOL, "intel-eol", "", "endoflife.date directory for the periodic intel sync")
	fs.DurationVar(&cfg.IntelInterval, "intel-interval", 6*time.Hour, "how often the intel feeds (and the --intel-osv/kev/eol sync) are synced")
	fs.DurationVar(&cfg.SweepInterval, "sweep-interval", 5*time.Minute, "how often the SLA sweep marks breached findings and ends expired acceptances")
	fs.DurationVar(&cfg.WatchInterval, "watch-interval", 24*time.Hour, "how often every live component is matched again (the Continuous Supply Chain Watch)")
	applyFeeds := feedFlags(fs, &cfg.Feeds)
	var verifyBase multiFlag
	fs.Var(&verifyBase, "secrets-verify-base", "provider=URL: the API base URL a provider's secrets are verified against "+
		"(repeatable; providers github, gitlab, slack, stripe, npm, aws; for GitHub Enterprise, a self-managed GitLab)")
	secretsVerify := fs.Bool("secrets-verify", true, "check the secrets agents submit live with their providers (false: never use a found credential)")
	fs.DurationVar(&cfg.SecretsVerifyTimeout, "secrets-verify-timeout", 10*time.Second, "how long one provider check may take")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	demo := fs.Bool("demo", false, "create a demo organization and print an API key with every scope")
	if err := parse(fs, args, getenv); err != nil {
		return err
	}
	cfg.MasterKey = getenv("SENTINEL_MASTER_KEY")
	cfg.Intel.OSV = intelOSV
	if err := applyFeeds(); err != nil {
		return err
	}
	cfg.SecretsVerifyDisabled = !*secretsVerify
	urls, err := parseVerifyBase(verifyBase)
	if err != nil {
		return err
	}
	cfg.SecretsVerifyURLs = urls
	for _, n := range strings.Split(*agentNames, ",") {
		if n = strings.TrimSpace(n); n != "" {
			cfg.AgentNames = append(cfg.AgentNames, n)
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return usageErr("--log-level: %v", err)
	}
	cfg.Logger = slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	cfg.Logger.Info("configuration", "config", redacted(cfg))

	s, err := server.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.Start(ctx); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Sentinel is running.\n  API:            %s\n  agent listener: %s\n  share site:     %s\n", s.APIURL(), s.AgentURL(), s.ShareURL())
	fmt.Fprintf(stdout, "  intel:          %s\n", intelLine(ctx, s))
	if *demo {
		o, key, err := server.EnsureDemo(ctx, s.DB)
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		fmt.Fprintf(stdout, "  organization:   %s (earlier demo keys are revoked)\n  API key (every scope, shown once):\n%s\n", o.Slug, key)
	} else {
		orgs, _ := s.DB.ListOrgs(ctx)
		if len(orgs) == 0 {
			fmt.Fprintf(stdout, "No organization yet. Next, in another shell:\n"+
				"  sentineld admin create-org --slug acme --name \"Acme Corp\"\n"+
				"  sentineld admin create-key --org acme --scopes '*'      (prints the API key)\n"+
				"  sentineld admin create-user --org acme --email you@example.com --role admin   (a portal account)\n")
		}
	}
	<-ctx.Done()
	cfg.Logger.Info("shutting down")
	return nil
}

// parseVerifyBase reads --secrets-verify-base values: provider=URL.
func parseVerifyBase(vals []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vals {
		name, u, ok := strings.Cut(v, "=")
		if !ok || !slices.Contains(verify.Providers(), name) {
			return nil, usageErr("--secrets-verify-base %q: want provider=URL with provider one of %s", v, strings.Join(verify.Providers(), ", "))
		}
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "https" && pu.Scheme != "http") || pu.Host == "" {
			return nil, usageErr("--secrets-verify-base %q: %q is not an http(s) URL", v, u)
		}
		out[name] = u
	}
	return out, nil
}

// intelLine says what intel the service starts with, and what happens
// next when it has none.
func intelLine(ctx context.Context, s *server.Server) string {
	f := s.Intel.Freshness(ctx)
	feeds := !s.Config.Feeds.Empty()
	switch {
	case f.Advisories > 0 && f.SyncedAt != nil:
		next := ""
		if feeds {
			next = "; kept current from the published feeds"
		}
		return fmt.Sprintf("%d advisories, %d KEV entries, synced %s ago%s", f.Advisories, f.KEV, (time.Duration(f.AgeSeconds) * time.Second).String(), next)
	case feeds:
		return "no advisories yet: the first sync from the published feeds runs now (minutes; /readyz answers 503 until it ends; GET /v1/sca/intel/status shows it)"
	default:
		return "no advisories, and the feeds are off: import with sentineld intel sync (matches and the CI gate answer 503 until then)"
	}
}

// redacted is the config as logged at start-up, without secrets.
func redacted(c server.Config) map[string]any {
	db := c.DSN()
	if i := strings.Index(db, "@"); i > 0 && strings.Contains(db, "://") {
		db = db[:strings.Index(db, "://")+3] + "***" + db[i:]
	}
	return map[string]any{"data": c.DataDir, "database": db, "addr": c.Addr, "agent_addr": c.AgentAddr,
		"share_addr": c.ShareAddr, "share_url": c.ShareURL, "redis": c.Redis != "", "master_key_from_env": c.MasterKey != "",
		"allow_private_targets": c.AllowPrivateTargets, "workers": c.Workers, "intel_feeds": c.Feeds,
		"secrets_verify": !c.SecretsVerifyDisabled, "secrets_verify_base": c.SecretsVerifyURLs}
}

func migrate(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	cfg := server.DefaultConfig()
	fs := newFlagSet("migrate", stderr)
	storeFlags(fs, &cfg)
	if err := parse(fs, args, getenv); err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.DSN())
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(stdout, "%s store at schema version %d\n", db.Engine, store.SchemaVersion(db.Engine))
	return nil
}

const adminUsage = `usage: sentineld admin <command> [flags]

commands:
  create-org   --slug acme [--name "Acme Corp"]
  create-key   --org acme --scopes sca:read,sca:submit [--name ci]   (prints the key alone on the last line)
  set-meter    --org acme --meter scans|sbom_submissions|recommendations --limit N|unlimited
  list-orgs
  create-enrollment-token --org acme [--agent-url URL]   (prints the one-time agent enrollment token alone on the last line)
  signing-root [-o FILE]   the root certificate Evidence Bundles chain to, and its SHA-256: give it to recipients
                           through another channel than the share, so that they can pin it
  create-user  --org acme --email ana@acme.example --role viewer|member|admin [--name "Ana"] [--public-url URL]
               (a portal user; prints the one-time set-up link, valid 24 hours, alone on the last line)
  user-setup-link --org acme --email ana@acme.example [--public-url URL]
               (a new set-up link for an existing user, e.g. a forgotten password; alone on the last line)

Every admin command also takes --data and --database, and works while the service runs.
`

func admin(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, adminUsage)
		return usageErr("no admin command given")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, adminUsage)
		return nil
	}
	cfg := server.DefaultConfig()
	fs := newFlagSet("admin "+args[0], stderr)
	storeFlags(fs, &cfg)
	open := func() (*store.DB, error) { return store.Open(ctx, cfg.DSN()) }
	switch args[0] {
	case "create-org":
		slug := fs.String("slug", "", "organization slug (lowercase letters, digits, hyphens)")
		name := fs.String("name", "", "display name")
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		if *slug == "" {
			return usageErr("--slug is required")
		}
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		o, err := server.CreateOrg(ctx, db, *slug, *name)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created organization %s (%s)\n", o.Slug, o.ID)
		return nil
	case "create-key":
		org := fs.String("org", "", "organization slug")
		scopes := fs.String("scopes", "", "comma-separated scopes, or * for every scope; known: "+strings.Join(sentinel.AllScopes, ","))
		name := fs.String("name", "", "a name to tell the key apart")
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		if *org == "" || *scopes == "" {
			return usageErr("--org and --scopes are required")
		}
		sc, err := sentinel.ParseScopes(*scopes)
		if err != nil {
			return &exitError{2, errors.New(errorText(err))}
		}
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		k, full, err := server.CreateKey(ctx, db, *org, *name, sc)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created API key %s for %s with scopes %s; it is shown once:\n%s\n", k.ID, *org, strings.Join(sc, ","), full)
		return nil
	case "set-meter":
		org := fs.String("org", "", "organization slug")
		meter := fs.String("meter", "", "meter: "+strings.Join(sentinel.Meters, ", "))
		limit := fs.String("limit", "", "monthly limit, or unlimited")
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		if *org == "" || *meter == "" || *limit == "" {
			return usageErr("--org, --meter and --limit are required")
		}
		var lim *int
		if *limit != "unlimited" {
			n, err := strconv.Atoi(*limit)
			if err != nil || n < 0 {
				return usageErr("--limit must be a whole number or unlimited")
			}
			lim = &n
		}
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		if err := server.SetMeter(ctx, db, *org, *meter, lim); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "meter %s of %s set to %s per month\n", *meter, *org, *limit)
		return nil
	case "create-enrollment-token":
		// The token pins the agent server CA, which this creates on first
		// use with the master key: open the whole server, listen on nothing.
		org := fs.String("org", "", "organization slug")
		fs.StringVar(&cfg.AgentURL, "agent-url", "", "public URL of the agent listener, for the printed enroll command (default https://127.0.0.1:8443)")
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		if *org == "" {
			return usageErr("--org is required")
		}
		cfg.MasterKey = getenv("SENTINEL_MASTER_KEY")
		s, err := server.Open(ctx, cfg)
		if err != nil {
			return err
		}
		defer s.Close()
		o, err := s.DB.FindOrgBySlug(ctx, *org)
		if err != nil {
			return err
		}
		t, err := s.Agent.CreateEnrollmentToken(ctx, o, server.AdminActor)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created %s (expires %s); it is shown once. Enroll a host with:\n  %s\n%s\n", t.ID, t.ExpiresAt.Format(time.RFC3339), t.EnrollCommand, t.Token)
		return nil
	case "signing-root":
		out := fs.String("o", "", "write the certificate (PEM) to this file instead of stdout")
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		cfg.MasterKey = getenv("SENTINEL_MASTER_KEY")
		s, err := server.Open(ctx, cfg)
		if err != nil {
			return err
		}
		defer s.Close()
		root := s.Evidence.Root()
		if *out != "" {
			if err := os.WriteFile(*out, []byte(root.Certificate), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote %s\nsha256:%s\n", *out, root.Fingerprint)
			return nil
		}
		fmt.Fprintf(stdout, "%ssha256:%s\n", root.Certificate, root.Fingerprint)
		return nil
	case "create-user", "user-setup-link":
		org := fs.String("org", "", "organization slug")
		email := fs.String("email", "", "the user's email address (their sign-in name)")
		var role, name *string
		if args[0] == "create-user" {
			role = fs.String("role", "", "viewer, member or admin")
			name = fs.String("name", "", "display name")
		}
		publicURL := fs.String("public-url", "", "the portal's public base URL, which the link starts with (default http://<addr>, like serve)")
		addr := fs.String("addr", cfg.Addr, "API listen address, for the default --public-url")
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		if *org == "" || *email == "" || (role != nil && *role == "") {
			if role != nil {
				return usageErr("--org, --email and --role are required")
			}
			return usageErr("--org and --email are required")
		}
		if role != nil && !sentinel.ValidRole(*role) {
			return usageErr("--role must be viewer, member or admin")
		}
		if *publicURL == "" {
			*publicURL = "http://" + *addr
		}
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		if role != nil {
			u, link, err := server.CreateUser(ctx, db, *org, *email, *name, *role, *publicURL)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "created %s user %s (%s) in %s; give them this one-time set-up link (valid 24 hours) to choose a password:\n%s\n",
				u.Role, u.Email, u.ID, *org, link)
			return nil
		}
		u, link, err := server.UserSetupLink(ctx, db, *org, *email, *publicURL)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "new one-time set-up link for %s (%s) in %s, valid 24 hours; the previous one no longer works:\n%s\n", u.Email, u.ID, *org, link)
		return nil
	case "list-orgs":
		if err := parse(fs, args[1:], getenv); err != nil {
			return err
		}
		db, err := open()
		if err != nil {
			return err
		}
		defer db.Close()
		os, err := db.ListOrgs(ctx)
		if err != nil {
			return err
		}
		for _, o := range os {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", o.Slug, o.ID, o.Name)
		}
		return nil
	}
	fmt.Fprint(stderr, adminUsage)
	return usageErr("unknown admin command %q", args[0])
}
