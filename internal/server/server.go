// Package server assembles sentineld: it opens the store, loads the master
// key, builds the API, the agent listener and the share site, starts the
// background workers, and shuts all of it down gracefully. cmd/sentineld
// turns flags and environment into a Config; tests start a Server on
// 127.0.0.1:0 the same way.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinel-sca/sentinel/internal/agents"
	"github.com/sentinel-sca/sentinel/internal/assets"
	"github.com/sentinel-sca/sentinel/internal/edgesvc"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/inventory"
	"github.com/sentinel-sca/sentinel/internal/iocs"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/keys"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/org"
	"github.com/sentinel-sca/sentinel/internal/portal"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/scancap"
	"github.com/sentinel-sca/sentinel/internal/scans"
	"github.com/sentinel-sca/sentinel/internal/seal"
	"github.com/sentinel-sca/sentinel/internal/secrets/intake"
	"github.com/sentinel-sca/sentinel/internal/share"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/watch"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
)

// Version is the build's version, set by the linker.
var Version = "dev"

// Config is sentineld's whole configuration.
type Config struct {
	// DataDir holds the embedded store and generated keys (default ./sentinel-data).
	DataDir string
	// Database is a PostgreSQL URL; empty means SQLite in DataDir.
	Database string
	// Addr is the public API's listen address.
	Addr string
	// AgentAddr is the agent listener's (mutual TLS) listen address.
	AgentAddr string
	// AgentNames are extra DNS names or IP addresses for the agent
	// listener's certificate: the names agents dial it by.
	AgentNames []string
	// AgentURL is the agent listener's public URL, shown with enrollment
	// tokens (default https://AgentAddr as bound).
	AgentURL string
	// ShareAddr is the Evidence Bundle share site's listen address.
	ShareAddr string
	// ShareURL is the share site's public base URL (default http://ShareAddr).
	ShareURL string
	// PublicURL is the API's public base URL (default http://Addr).
	PublicURL string
	// Redis, when set, shares rate-limit counters between replicas.
	Redis string
	// MasterKey encrypts secrets at rest: 32 bytes as hex or base64. When
	// empty, DataDir/master.key is used, created with 0600 on first run.
	MasterKey string
	// AllowPrivateTargets lets webhooks (and scans) reach plain HTTP and
	// private addresses: for local use and tests only.
	AllowPrivateTargets bool
	// Intel names the sources the periodic intel sync reads (none: no
	// periodic sync; `sentineld intel sync` still works).
	Intel intelsvc.Sources
	// Feeds are the published intel feeds the service keeps current from
	// (sentineld serve defaults to the official ones; empty: none).
	Feeds intelsvc.Feeds
	// IntelInterval is how often the intel syncs run (default 6h).
	IntelInterval time.Duration
	// SweepInterval is how often the SLA sweep runs (default 5m);
	// WatchInterval how often the watch re-matches every live component
	// (default 24h, the first run an hour after the schedule is created,
	// or one interval when that is shorter).
	SweepInterval time.Duration
	WatchInterval time.Duration
	// Workers is the number of background jobs run at once.
	Workers int
	// ScanWorkers is the number of external scans this replica runs at
	// once (default 12, an organization's cap).
	ScanWorkers int
	// ScanTimeout is one scan's crawl budget: what was found by then is
	// kept (default 2 minutes). ScanHardTimeout fails a scan still running
	// after it (default 10 minutes).
	ScanTimeout     time.Duration
	ScanHardTimeout time.Duration
	// SecretsVerifyURLs replaces the base URLs of providers' APIs for
	// live secret verification, by provider (github, gitlab, slack,
	// stripe, npm, aws): GitHub Enterprise, a self-managed GitLab, tests.
	SecretsVerifyURLs map[string]string
	// SecretsVerifyTimeout bounds one provider check (default 10s);
	// SecretsVerifyDisabled never uses a customer's credential.
	SecretsVerifyTimeout  time.Duration
	SecretsVerifyDisabled bool
	// Logger receives JSON logs (default: discard).
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// DefaultConfig returns the defaults: everything on 127.0.0.1.
func DefaultConfig() Config {
	return Config{
		DataDir:     "./sentinel-data",
		Addr:        "127.0.0.1:8080",
		AgentAddr:   "127.0.0.1:8443",
		ShareAddr:   "127.0.0.1:8081",
		Workers:     4,
		ScanWorkers: 12,
	}
}

// DSN returns the store's DSN for the config.
func (c Config) DSN() string {
	if c.Database != "" {
		return c.Database
	}
	return filepath.Join(c.DataDir, "sentinel.db")
}

// Server is a running sentineld.
type Server struct {
	Config Config
	DB     *store.DB
	API    *httpapi.Server
	Jobs   *jobs.Runner
	Box    *seal.Box
	Logger *slog.Logger
	// Intel holds this replica's match index; Findings turns matches into
	// findings.
	Intel    *intelsvc.Service
	Findings *finding.Engine
	// IOCs are the operator's supply-chain indicators.
	IOCs *iocs.Service
	// Evidence issues and builds Evidence Bundles; Share is the
	// recipients' site on ShareAddr.
	Evidence *evidence.Service
	Share    *share.Site

	shareURL atomic.Pointer[string]
	// Webhooks registers webhooks and delivers events to them.
	Webhooks *webhooks.Service
	// Agent serves the agent listener (enrollment, mutual TLS) and the
	// agents' API routes; Inventory takes SBOM submissions and answers
	// component searches; Watch turns submissions into findings and
	// re-matches live SBOMs.
	Agent     *agents.Service
	Inventory *inventory.Service
	Watch     *watch.Service
	// Keys authenticates API keys and serves their routes.
	Keys *keys.Service
	// Cap is the per-organization scan concurrency cap, shared by the CI
	// gate and external scans.
	Cap *scancap.Cap
	// Scans runs external scans on ScanJobs, its own job runner, so that
	// long crawls never hold the workers deliveries and syncs need;
	// Assets serves the assets API.
	Scans    *scans.Service
	ScanJobs *jobs.Runner
	Assets   *assets.Service
	// Secrets takes the agents' secrets and verifies them; Edge ingests
	// edge observations (secrets_edge.go).
	Secrets *intake.Service
	Edge    *edgesvc.Service
	// Portal is the operators' web portal, served on the API's address in
	// front of the API (it owns / and its pages' paths).
	Portal *portal.Site

	publicURL atomic.Pointer[string]

	apiLn   net.Listener
	agentLn net.Listener
	srvs    []*http.Server
	lns     []net.Listener

	cancel context.CancelFunc
	wg     sync.WaitGroup
	closer []io.Closer
}

// Open opens the store (applying migrations), loads the master key and
// assembles every component; it listens on nothing yet.
func Open(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	db, err := store.Open(ctx, cfg.DSN())
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	db.Clock = cfg.Now
	s := &Server{Config: cfg, DB: db, Logger: cfg.Logger}
	s.closer = append(s.closer, db)

	key, err := loadMasterKey(cfg)
	if err != nil {
		s.Close()
		return nil, err
	}
	if s.Box, err = seal.NewBox(key); err != nil {
		s.Close()
		return nil, err
	}

	var limiter ratelimit.Limiter = ratelimit.NewMemory()
	if cfg.Redis != "" {
		r, err := ratelimit.NewRedis(cfg.Redis)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("redis: %w", err)
		}
		if err := r.Client.Ping(ctx).Err(); err != nil {
			s.Close()
			return nil, fmt.Errorf("redis at %s does not answer: %w", cfg.Redis, err)
		}
		s.closer = append(s.closer, r)
		limiter = r
	}
	s.Keys = &keys.Service{DB: store.Bind[keys.Tx](db)}
	s.API = &httpapi.Server{Auth: s.Keys, Logger: cfg.Logger, Limiter: limiter, Version: Version}
	s.API.Handle(s.Keys.Routes()...)
	s.API.Handle((&org.Service{DB: store.Bind[org.Tx](db)}).Routes()...)
	s.Cap = scancap.New(db)
	s.Jobs = &jobs.Runner{DB: db, Logger: cfg.Logger, Workers: cfg.Workers}
	s.Webhooks = &webhooks.Service{DB: store.Bind[webhooks.Tx](db), Box: s.Box, Logger: cfg.Logger, Policy: netguard.Policy{AllowPrivate: cfg.AllowPrivateTargets},
		UserAgent: "Sentinel-Webhooks/" + Version, Metrics: s.API.Registry()}
	s.API.Handle(s.Webhooks.Routes()...)
	s.Agent = &agents.Service{DB: store.Bind[agents.Tx](db), Keys: s.Keys, Box: s.Box, Logger: cfg.Logger, Limiter: limiter, ServerNames: cfg.AgentNames,
		PublicURL: s.agentPublicURL,
		Version:   Version, Now: cfg.Now}
	s.Inventory = &inventory.Service{DB: store.Bind[inventory.Tx](db), Logger: cfg.Logger, Identity: s.Agent}
	s.Agent.ListenerRoutes = s.Inventory.ListenerRoutes()
	if err := s.setupSecretsEdge(ctx); err != nil {
		s.Close()
		return nil, err
	}
	s.API.Handle(s.Agent.Routes()...)
	s.API.Handle(s.Inventory.Routes()...)
	s.Jobs.Register(webhooks.PurgeJobKind, s.Webhooks.Purge)
	s.Jobs.Every(jobs.Periodic{Name: webhooks.PurgeJobKind, Kind: webhooks.PurgeJobKind, Interval: 24 * time.Hour, Delay: time.Hour})

	// Evidence Bundles: the signing CA is created on the first start and
	// kept in the store, its keys sealed with the master key.
	ca, err := evidence.LoadOrCreateCA(ctx, store.Bind[evidence.Tx](db), s.Box, cfg.Now())
	if err != nil {
		s.Close()
		return nil, err
	}
	shareURL := cfg.ShareURL
	if shareURL == "" {
		shareURL = "http://" + cfg.ShareAddr // replaced by the bound address in Start
	}
	s.shareURL.Store(&shareURL)
	publicURL := cfg.PublicURL
	if publicURL == "" {
		publicURL = "http://" + cfg.Addr
	}
	s.Evidence = &evidence.Service{DB: store.Bind[evidence.Tx](db), CA: ca, Logger: cfg.Logger, PublicURL: publicURL, ShareURL: s.ShareURL,
		Notify: s.Jobs.Notify, Now: cfg.Now}
	s.API.Handle(s.Evidence.Routes()...)
	s.Jobs.Register(evidence.JobBuild, s.Evidence.BuildJob)
	s.Share = &share.Site{DB: store.Bind[share.Tx](db), Logger: cfg.Logger, BaseURL: s.ShareURL, Limiter: limiter, Now: cfg.Now}
	s.setupIntel()
	if err := s.setupScans(); err != nil {
		s.Close()
		return nil, err
	}
	s.publicURL.Store(&publicURL) // replaced by the bound address in Start when not configured
	s.Portal = &portal.Site{DB: store.Bind[portal.Tx](db), API: s.API, Logger: cfg.Logger,
		BaseURL: s.PublicURL, Now: cfg.Now}
	s.API.Handle(s.Portal.Routes()...)
	s.Jobs.Register(portal.PurgeJobKind, s.Portal.Purge)
	s.Jobs.Every(jobs.Periodic{Name: portal.PurgeJobKind, Kind: portal.PurgeJobKind, Interval: time.Hour, Delay: 10 * time.Minute})
	return s, nil
}

// PublicURL returns the API's (and the portal's) public base URL.
func (s *Server) PublicURL() string { return *s.publicURL.Load() }

// ShareURL returns the share site's public base URL.
func (s *Server) ShareURL() string { return *s.shareURL.Load() }

func loadMasterKey(cfg Config) ([]byte, error) {
	if cfg.MasterKey != "" {
		k, err := seal.ParseKey(cfg.MasterKey)
		if err != nil {
			return nil, fmt.Errorf("SENTINEL_MASTER_KEY: %w", err)
		}
		return k, nil
	}
	if cfg.Database != "" {
		// A shared database needs the same key on every replica: a key
		// file generated by one of them would not be.
		return nil, errors.New("with --database, set SENTINEL_MASTER_KEY (64 hex characters; generate one with: openssl rand -hex 32) so every replica shares it")
	}
	k, created, err := seal.LoadOrCreateKeyFile(filepath.Join(cfg.DataDir, "master.key"))
	if err != nil {
		return nil, err
	}
	if created {
		cfg.Logger.Warn("generated a new master key; back it up with the data directory", "path", filepath.Join(cfg.DataDir, "master.key"))
	}
	return k, nil
}

// Start listens and serves the API and starts the workers. It returns once
// listening; Close stops everything.
func (s *Server) Start(ctx context.Context) error {
	shareLn, err := net.Listen("tcp", s.Config.ShareAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.Config.ShareAddr, err)
	}
	if s.Config.ShareURL == "" {
		u := "http://" + shareLn.Addr().String()
		s.shareURL.Store(&u)
	}
	s.serve(shareLn, &http.Server{Handler: s.Share.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10})

	ln, err := net.Listen("tcp", s.Config.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.Config.Addr, err)
	}
	s.apiLn = ln
	if s.Config.PublicURL == "" {
		u := "http://" + ln.Addr().String()
		s.publicURL.Store(&u)
	}
	s.serve(ln, &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 5 * time.Minute,
		WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10})

	if err := s.startAgent(ctx); err != nil {
		return err
	}

	ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	s.startIntel(ctx)
	for _, r := range []*jobs.Runner{s.Jobs, s.ScanJobs} {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			_ = r.Run(ctx)
		}()
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.Webhooks.Run(ctx)
	}()
	s.Logger.Info("sentineld listening", "api", ln.Addr().String(), "agent", s.agentLn.Addr().String(), "share", shareLn.Addr().String(), "engine", s.DB.Engine, "version", Version)
	return nil
}

// startAgent listens on AgentAddr with mutual TLS (the agent server CA is
// created on first start).
func (s *Server) startAgent(ctx context.Context) error {
	host, _, _ := net.SplitHostPort(s.Config.AgentAddr)
	tlsCfg, err := s.Agent.TLSConfig(ctx, host)
	if err != nil {
		return fmt.Errorf("agent listener: %w", err)
	}
	ln, err := net.Listen("tcp", s.Config.AgentAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", s.Config.AgentAddr, err)
	}
	s.agentLn = ln
	s.serve(tls.NewListener(ln, tlsCfg), &http.Server{Handler: s.Agent.Handler(), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 10 * time.Minute, WriteTimeout: 10 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10})
	return nil
}

// agentPublicURL is the agent listener's URL as agents dial it.
func (s *Server) agentPublicURL() string {
	if s.Config.AgentURL != "" {
		return s.Config.AgentURL
	}
	if s.agentLn != nil {
		return s.AgentURL()
	}
	return "https://" + s.Config.AgentAddr
}

// AgentURL is the agent listener's base URL as listened on.
func (s *Server) AgentURL() string { return "https://" + s.agentLn.Addr().String() }

func (s *Server) serve(ln net.Listener, srv *http.Server) {
	srv.ErrorLog = slog.NewLogLogger(s.Logger.Handler(), slog.LevelWarn)
	s.srvs = append(s.srvs, srv)
	s.lns = append(s.lns, ln)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.Logger.Error("serve", "addr", ln.Addr().String(), "err", err)
		}
	}()
}

// Handler is what the API's address serves: the portal's pages, and the
// API for every other path.
func (s *Server) Handler() http.Handler { return s.Portal.Handler(s.API) }

// APIURL is the API's base URL as listened on.
func (s *Server) APIURL() string { return "http://" + s.apiLn.Addr().String() }

// Close shuts down gracefully: listeners stop accepting, in-flight
// requests get up to 10 seconds, workers finish their current jobs.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	for _, srv := range s.srvs {
		err = errors.Join(err, srv.Shutdown(ctx))
	}
	if s.cancel != nil {
		s.cancel()
	}
	s.wg.Wait()
	for i := len(s.closer) - 1; i >= 0; i-- {
		err = errors.Join(err, s.closer[i].Close())
	}
	return err
}
