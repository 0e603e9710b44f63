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

	"github.com/sentinel-sca/sentinel/internal/agentapi"
	"github.com/sentinel-sca/sentinel/internal/evidence"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/intelsvc"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/netguard"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/scancap"
	"github.com/sentinel-sca/sentinel/internal/secret"
	"github.com/sentinel-sca/sentinel/internal/share"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/webhookd"
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
	// IntelInterval is how often the intel sync runs (default 24h).
	IntelInterval time.Duration
	// Workers is the number of background jobs run at once.
	Workers int
	// Logger receives JSON logs (default: discard).
	Logger *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// DefaultConfig returns the defaults: everything on 127.0.0.1.
func DefaultConfig() Config {
	return Config{
		DataDir:   "./sentinel-data",
		Addr:      "127.0.0.1:8080",
		AgentAddr: "127.0.0.1:8443",
		ShareAddr: "127.0.0.1:8081",
		Workers:   4,
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
	Box    *secret.Box
	Logger *slog.Logger
	// Intel holds this replica's match index; Findings turns matches into
	// findings.
	Intel    *intelsvc.Service
	Findings *finding.Engine
	// Evidence issues and builds Evidence Bundles; Share is the
	// recipients' site on ShareAddr.
	Evidence *evidence.Service
	Share    *share.Site

	shareURL atomic.Pointer[string]
	// Webhooks registers webhooks and delivers events to them.
	Webhooks *webhookd.Service
	// Agent serves the agent listener and the agent's API routes
	// (enrollment tokens, inventory search, submissions).
	Agent *agentapi.Service

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
	db.Now = cfg.Now
	s := &Server{Config: cfg, DB: db, Logger: cfg.Logger}
	s.closer = append(s.closer, db)

	key, err := loadMasterKey(cfg)
	if err != nil {
		s.Close()
		return nil, err
	}
	if s.Box, err = secret.NewBox(key); err != nil {
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
	s.API = &httpapi.Server{DB: db, Logger: cfg.Logger, Limiter: limiter, Cap: scancap.New(db), Version: Version}
	s.Jobs = &jobs.Runner{DB: db, Logger: cfg.Logger, Workers: cfg.Workers}
	s.Webhooks = &webhookd.Service{DB: db, Box: s.Box, Logger: cfg.Logger, Policy: netguard.Policy{AllowPrivate: cfg.AllowPrivateTargets},
		UserAgent: "Sentinel-Webhooks/" + Version, Metrics: s.API.Registry()}
	s.API.Handle(s.Webhooks.Routes()...)
	s.Agent = &agentapi.Service{DB: db, Box: s.Box, Logger: cfg.Logger, Limiter: limiter, ServerNames: cfg.AgentNames,
		Version: Version, Now: cfg.Now}
	s.API.Handle(s.Agent.Routes()...)
	s.Jobs.Register(webhookd.PurgeJobKind, s.Webhooks.Purge)
	s.Jobs.Every(jobs.Periodic{Name: webhookd.PurgeJobKind, Kind: webhookd.PurgeJobKind, Interval: 24 * time.Hour, Delay: time.Hour})

	// Evidence Bundles: the signing CA is created on the first start and
	// kept in the store, its keys sealed with the master key.
	ca, err := evidence.LoadOrCreateCA(ctx, db, s.Box, cfg.Now())
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
	s.Evidence = &evidence.Service{DB: db, CA: ca, Logger: cfg.Logger, PublicURL: publicURL, ShareURL: s.ShareURL,
		Notify: s.Jobs.Notify, Now: cfg.Now}
	s.API.Handle(s.Evidence.Routes()...)
	s.Jobs.Register(evidence.JobBuild, s.Evidence.BuildJob)
	s.Share = &share.Site{DB: db, Logger: cfg.Logger, BaseURL: s.ShareURL, Limiter: limiter, Now: cfg.Now}
	s.setupIntel()
	return s, nil
}

// ShareURL returns the share site's public base URL.
func (s *Server) ShareURL() string { return *s.shareURL.Load() }

func loadMasterKey(cfg Config) ([]byte, error) {
	if cfg.MasterKey != "" {
		k, err := secret.ParseKey(cfg.MasterKey)
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
	k, created, err := secret.LoadOrCreateKeyFile(filepath.Join(cfg.DataDir, "master.key"))
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
	s.serve(ln, &http.Server{Handler: s.API, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 5 * time.Minute,
		WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10})

	if err := s.startAgent(ctx); err != nil {
		return err
	}

	ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	s.startIntel(ctx)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.Jobs.Run(ctx)
	}()
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
