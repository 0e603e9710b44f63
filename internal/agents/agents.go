// Package agents is the service side of the agent: the agent PKI, the
// agent listener (mutual TLS), enrollment, and the list and revocation of
// enrolled agents.
//
// PKI. The deployment has one agent server CA; it issues the agent
// listener's certificate at every start (never stored). Every organization
// has its own agent CA; it issues the agents' client certificates (CN = the
// host name, one year, client authentication only). Both are ECDSA P-256,
// made with crypto/x509, and stored with the private key sealed by the
// master key (seal.Box, associated data "agent_ca:<name>").
//
// Enrollment. An operator creates a one-time token (sentineld admin
// create-enrollment-token, or POST /v1/agent/enrollment-tokens); it expires
// after 24 hours and carries the SHA-256 fingerprint of the agent server CA
// (see token.go for the format). The agent connects to the agent listener
// offering ALPN EnrollProto, accepts the server only if its chain contains
// the CA with that fingerprint and the leaf verifies against it, fetches
// the CA from GET /v1/agent/ca and checks the fingerprint again, then posts
// a CSR with the token to POST /v1/agent/enroll and receives its client
// certificate.
//
// Agents are listed (GET /v1/agents) and revoked (POST
// /v1/agents/{id}/revoke, scope admin); a revoked agent's certificate is
// refused in the handshake like a foreign one.
//
// SBOM submissions arrive on the agent listener too, but what they become
// is package inventory's: the server mounts inventory's listener routes
// here (ListenerRoutes), and inventory asks CertificateOrg which
// organization a connection's certificate belongs to.
package agents

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/seal"
)

// Store is what package agents reads, and Update its write transaction.
// The store implements it (store.Bind[agents.Tx]).
type Store interface {
	sentinel.OrgFinder
	FindAgentCA(ctx context.Context, name string) (*sentinel.AgentCA, error)
	// CreateAgentCA stores a CA unless one of that name exists, and returns
	// the stored one either way.
	CreateAgentCA(ctx context.Context, ca *sentinel.AgentCA) (*sentinel.AgentCA, error)
	FindOrgAgentCABySKI(ctx context.Context, ski string) (*sentinel.AgentCA, error)
	AgentRevoked(ctx context.Context, orgID, serial string) (bool, error)
	ListAgents(ctx context.Context, orgID string, page sentinel.Page) ([]*sentinel.Agent, string, error)
	// PeekEnrollmentToken returns the organization of a usable token.
	PeekEnrollmentToken(ctx context.Context, hash []byte) (orgID string, err error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what package agents writes in one transaction.
type Tx interface {
	sentinel.AuditWriter
	CreateEnrollmentToken(ctx context.Context, t *sentinel.EnrollmentToken, ttl time.Duration) error
	// UseEnrollmentToken consumes a token once; of two concurrent uses
	// exactly one succeeds. Errors: EUNAUTHORIZED.
	UseEnrollmentToken(ctx context.Context, hash []byte, agentID string) (*sentinel.EnrollmentToken, error)
	CreateAgent(ctx context.Context, a *sentinel.Agent) error
	RevokeAgent(ctx context.Context, orgID, id string) (*sentinel.Agent, error)
}

// TokenTTL is an enrollment token's lifetime.
const TokenTTL = 24 * time.Hour

// Service serves the agent listener and the agent's routes on the API.
type Service struct {
	DB Store
	// Keys authenticates the API keys that listener requests carry.
	Keys   httpapi.Authenticator
	Box    *seal.Box
	Logger *slog.Logger
	// Limiter counts the agent listener's requests; share the API's so a
	// key has one count everywhere.
	Limiter ratelimit.Limiter
	// ServerNames are extra DNS names or IP addresses for the agent
	// listener's certificate (the address agents dial).
	ServerNames []string
	// PublicURL is the agent listener's URL as agents dial it (shown with
	// every enrollment token); a func because the bound address is known
	// only once the listener listens.
	PublicURL func() string
	// Version is reported by the listener's /healthz.
	Version string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// ListenerRoutes are other packages' routes served on the agent
	// listener (the SBOM submission).
	ListenerRoutes []httpapi.Route

	mu         sync.Mutex
	srvCA      *ca
	trust      trustCache
	listenHost string
	once       sync.Once
	handler    http.Handler
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) init() {
	s.once.Do(func() {
		if s.Logger == nil {
			s.Logger = slog.New(slog.DiscardHandler)
		}
		api := &httpapi.Server{Auth: s.Keys, Logger: s.Logger, Limiter: s.Limiter, MaxBody: 64 << 10, Version: s.Version}
		routes := append(s.AgentRoutes(), s.ListenerRoutes...)
		api.Handle(routes...)
		// The inner server also carries the API's built-in routes (keys,
		// meters, ...); the listener exposes only the agent's.
		mux := http.NewServeMux()
		for _, rt := range routes {
			mux.Handle(rt.Method+" "+rt.Path, api)
		}
		mux.Handle("GET /healthz", api)
		mux.Handle("GET /openapi.json", api)
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			api.WriteError(w, r, sentinel.Errorf(sentinel.ENOTFOUND, "no route for %s %s on the agent listener", r.Method, r.URL.Path))
		})
		s.handler = mux
	})
}

// Handler returns the agent listener's HTTP handler. Serve it behind
// TLSConfig's tls.Listener: the handlers read the verified client
// certificate from the request.
func (s *Service) Handler() http.Handler {
	s.init()
	return s.handler
}

// AgentRoutes are the agent listener's routes.
func (s *Service) AgentRoutes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/agent/ca", Summary: "The agent server CA certificate (PEM), for an enrolling agent to pin against its token's fingerprint.",
			Response: CAResponse{}, Handler: s.getCA},
		{Method: "POST", Path: "/v1/agent/enroll", Status: http.StatusCreated,
			Summary: "Redeem a one-time enrollment token for a client certificate signed by the organization's agent CA.",
			Request: EnrollRequest{}, Response: EnrollResponse{}, Handler: s.enroll},
	}
}

// Routes are the agent's routes on the public API.
func (s *Service) Routes() []httpapi.Route {
	s.init()
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/agent/enrollment-tokens", Scope: sentinel.ScopeAdmin, Status: http.StatusCreated,
			Summary:  "Create a one-time agent enrollment token (valid 24 hours). The token is shown once.",
			Response: TokenResponse{}, Handler: s.createToken},
		{Method: "GET", Path: "/v1/agents", Scope: sentinel.ScopeAdmin, Query: []string{"limit", "cursor"},
			Summary:  "List the organization's enrolled agents (one per issued client certificate).",
			Response: httpapi.ListResponse[sentinel.Agent]{}, Handler: s.listAgents},
		{Method: "POST", Path: "/v1/agents/{id}/revoke", Scope: sentinel.ScopeAdmin,
			Summary:  "Revoke an agent: its certificate is refused in the TLS handshake from now on.",
			Response: sentinel.Agent{}, Handler: s.revokeAgent},
	}
}
