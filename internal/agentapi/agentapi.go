// Package agentapi is the service side of the agent: the agent PKI, the
// agent listener (mutual TLS), enrollment, SBOM submission, and the
// component inventory search on the public API.
//
// PKI. The deployment has one agent server CA; it issues the agent
// listener's certificate at every start (never stored). Every organization
// has its own agent CA; it issues the agents' client certificates (CN = the
// host name, one year, client authentication only). Both are ECDSA P-256,
// made with crypto/x509, and stored with the private key sealed by the
// master key (secret.Box, associated data "agent_ca:<name>").
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
// Submission. POST /sentinel/sbom/submit needs both a client certificate
// from an organization's agent CA (checked in the TLS handshake) and an API
// key with sca:submit (Authorization: ApiKey) of the same organization. A
// key of another organization is refused with 401 unauthenticated: each
// credential is valid, but together they do not name one principal, and the
// answer does not reveal which organization the certificate belongs to. The
// body (CycloneDX JSON, at most 64 MiB) is streamed to a temporary file
// while it is hashed, so a slow or large upload holds no memory; decoding
// then takes a share of a memory budget (a weighted semaphore) so that
// several large SBOMs at once queue instead of exhausting memory. The
// original bytes, the submission, the inventory rows, the monthly meter and
// the sbom.submitted event are written in one transaction.
//
// Search. GET /api/v1/inventory/components/search reads the inverted index
// (inventory_sightings: one row per host and component, keyed by
// organization, normalised name and version first) and aggregates in the
// database, per host and per purl. The name is matched case-insensitively
// under each ecosystem's normalisation (PEP 503 for PyPI, '-' = '_' for
// crates.io, lower case elsewhere); a version matches with or without a
// leading "v". matches counts component occurrences (one per submission
// that listed a matching component), hosts lists at most 1000 hosts
// (host_count and truncated tell the rest), kev asks the KEVChecker about
// every matching purl, and first_seen has minute precision in UTC.
package agentapi

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
	"github.com/sentinel-sca/sentinel/internal/secret"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// KEVChecker tells whether a component (by purl with version) is affected
// by a known-exploited vulnerability. The intel index implements it.
type KEVChecker interface {
	IsKEV(purl string) bool
}

// noKEV is the default KEVChecker: nothing is known-exploited.
type noKEV struct{}

func (noKEV) IsKEV(string) bool { return false }

// Defaults.
const (
	// DefaultMaxSubmission is the largest SBOM accepted, 64 MiB.
	DefaultMaxSubmission = 64 << 20
	// DefaultMemoryBudget bounds the memory that SBOMs being decoded and
	// stored may hold at once (see Service.MemoryBudget): two 64 MiB SBOMs
	// at a time, many small ones.
	DefaultMemoryBudget = 512 << 20
	// TokenTTL is an enrollment token's lifetime.
	TokenTTL = 24 * time.Hour
)

// Service serves the agent listener and the agent's routes on the API.
type Service struct {
	DB     *store.DB
	Box    *secret.Box
	Logger *slog.Logger
	// Limiter counts the agent listener's requests; share the API's so a
	// key has one count everywhere.
	Limiter ratelimit.Limiter
	// KEV flags known-exploited components in search results; nil means
	// none are.
	KEV KEVChecker
	// ServerNames are extra DNS names or IP addresses for the agent
	// listener's certificate (the address agents dial).
	ServerNames []string
	// MaxSubmission bounds an SBOM's size (default DefaultMaxSubmission).
	MaxSubmission int64
	// MemoryBudget bounds what submissions being decoded hold at once; each
	// takes memoryFactor times its size (default DefaultMemoryBudget).
	MemoryBudget int64
	// TempDir receives uploads while they arrive (default os.TempDir()).
	TempDir string
	// Version is reported by the listener's /healthz.
	Version string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// OnSubmitted runs inside a submission's transaction, after the
	// submission is written; the server uses it to enqueue the job that
	// turns the SBOM into findings, so a committed SBOM always gets them.
	OnSubmitted func(ctx context.Context, tx *store.Tx, orgID, submissionID string) error

	mu         sync.Mutex
	srvCA      *ca
	trust      trustCache
	listenHost string
	once       sync.Once
	handler    http.Handler
	mem        *semaphore.Weighted
}

// New returns a Service with its defaults.
func New(db *store.DB, box *secret.Box, logger *slog.Logger) *Service {
	return &Service{DB: db, Box: box, Logger: logger}
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
		if s.KEV == nil {
			s.KEV = noKEV{}
		}
		if s.MaxSubmission == 0 {
			s.MaxSubmission = DefaultMaxSubmission
		}
		if s.MemoryBudget == 0 {
			s.MemoryBudget = DefaultMemoryBudget
		}
		if s.TempDir == "" {
			s.TempDir = os.TempDir()
		}
		s.mem = semaphore.NewWeighted(s.MemoryBudget)
		api := &httpapi.Server{DB: s.DB, Logger: s.Logger, Limiter: s.Limiter, MaxBody: 64 << 10, Version: s.Version}
		api.Handle(s.AgentRoutes()...)
		// The inner server also carries the API's built-in routes (keys,
		// meters, ...); the listener exposes only the agent's.
		mux := http.NewServeMux()
		for _, rt := range s.AgentRoutes() {
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
		{Method: "POST", Path: "/sentinel/sbom/submit", Scope: sentinel.ScopeSCASubmit, Class: httpapi.ClassSBOMSubmit, Status: http.StatusCreated,
			Query:    []string{"host"},
			Summary:  "Submit a CycloneDX 1.5 JSON SBOM (body, at most 64 MiB). Requires an agent client certificate and an API key of the same organization.",
			Response: SubmitResponse{}, Handler: s.submit},
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
			Response: httpapi.ListResponse[store.Agent]{}, Handler: s.listAgents},
		{Method: "POST", Path: "/v1/agents/{id}/revoke", Scope: sentinel.ScopeAdmin,
			Summary:  "Revoke an agent: its certificate is refused in the TLS handshake from now on.",
			Response: store.Agent{}, Handler: s.revokeAgent},
		{Method: "GET", Path: "/api/v1/inventory/components/search", Scope: sentinel.ScopeSCARead, Query: []string{"name", "version"},
			Summary:  "Search the component inventory by name (and version) across every submission.",
			Response: SearchResult{}, Handler: s.search},
		{Method: "GET", Path: "/v1/sbom/submissions", Scope: sentinel.ScopeSCARead, Query: []string{"limit", "cursor"},
			Summary:  "List the organization's SBOM submissions, oldest first.",
			Response: httpapi.ListResponse[store.Submission]{}, Handler: s.listSubmissions},
		{Method: "GET", Path: "/v1/sbom/submissions/{id}", Scope: sentinel.ScopeSCARead,
			Summary:  "One SBOM submission.",
			Response: store.Submission{}, Handler: s.getSubmission},
		{Method: "GET", Path: "/v1/sbom/submissions/{id}/document", Scope: sentinel.ScopeSCARead,
			Summary: "A submission's original bytes, exactly as the agent sent them.",
			Handler: s.getSubmissionDocument},
	}
}
