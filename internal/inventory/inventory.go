// Package inventory is what an SBOM becomes: the submission endpoint
// (POST /sentinel/sbom/submit, served on the agent listener), the
// submissions themselves (their original bytes kept for Evidence Bundles),
// and the component inventory with its search
// (GET /api/v1/inventory/components/search).
//
// Submission. The endpoint needs both a client certificate from an
// organization's agent CA (checked in the TLS handshake by package agents,
// which tells this package the certificate's organization) and an API key
// with sca:submit of the same organization. A key of another organization
// is refused with 401 unauthenticated: each credential is valid, but
// together they do not name one principal, and the answer does not reveal
// which organization the certificate belongs to. The body (CycloneDX JSON,
// at most 64 MiB) is streamed to a temporary file while it is hashed, so a
// slow or large upload holds no memory; decoding then takes a share of a
// memory budget (a weighted semaphore) so that several large SBOMs at once
// queue instead of exhausting memory. The original bytes, the submission,
// the inventory rows, the dependency graph, the monthly meter and the
// sbom.submitted event are written in one transaction.
//
// Search. The inverted index (inventory_sightings: one row per host and
// component, keyed by organization, normalised name and version first) is
// aggregated in the database, per host and per purl. The name is matched
// case-insensitively under each ecosystem's normalisation (PEP 503 for
// PyPI, '-' = '_' for crates.io, lower case elsewhere); a version matches
// with or without a leading "v". matches counts component occurrences (one
// per submission that listed a matching component), hosts lists at most
// 1000 hosts (host_count and truncated tell the rest), kev asks the
// KEVChecker about every matching purl, and first_seen has minute
// precision in UTC.
package inventory

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net/http"
	"os"
	"sync"

	"golang.org/x/sync/semaphore"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
)

// Store is what the inventory reads, and Update its write transaction.
// The store implements it (store.Bind[inventory.Tx]).
type Store interface {
	sentinel.OrgFinder
	SearchInventory(ctx context.Context, orgID, name, version string, maxHosts int) (*sentinel.InventorySummary, error)
	// InventoryEcosystems counts the inventory per ecosystem.
	InventoryEcosystems(ctx context.Context, orgID string) ([]sentinel.EcosystemCount, error)
	// FindSubmissions lists submissions, of one host or all, oldest or
	// newest first.
	FindSubmissions(ctx context.Context, f sentinel.SubmissionFilter) ([]*sentinel.Submission, string, error)
	FindSubmission(ctx context.Context, orgID, id string) (*sentinel.Submission, error)
	SubmissionBody(ctx context.Context, orgID, id string) ([]byte, error)
	FindAgentBySerial(ctx context.Context, orgID, serial string) (*sentinel.Agent, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what a submission writes in one transaction.
type Tx interface {
	sentinel.EventWriter
	sentinel.AuditWriter
	sentinel.JobEnqueuer
	// ConsumeMeter takes n from the organization's monthly meter.
	// Errors: EMETERED when it is exhausted.
	ConsumeMeter(ctx context.Context, orgID, meter string, n int) error
	CreateSubmission(ctx context.Context, s *sentinel.Submission, body []byte, items []sentinel.InventoryItem) error
	CreateSubmissionEdges(ctx context.Context, s *sentinel.Submission, edges []sentinel.DependencyEdge) error
}

// Identity names the organization of a request's verified client
// certificate ("" when the connection has none). Package agents
// implements it.
type Identity interface {
	CertificateOrg(ctx context.Context, state *tls.ConnectionState) (string, error)
}

// KEVChecker tells whether a component (by purl with version) is affected
// by a known-exploited vulnerability. The intel index implements it.
type KEVChecker interface {
	IsKEV(purl string) bool
}

// Advisories tells which ecosystems the service's advisories name (base
// OSV ecosystems: "npm", "Debian", "Red Hat"). The intel index implements
// it.
type Advisories interface {
	Ecosystems() []string
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
)

// SubmitResponse is POST /sentinel/sbom/submit's answer.
type SubmitResponse = wire.SubmitResponse

// SubmittedData is the data of the sbom.submitted event.
type SubmittedData = wire.SubmittedData

// Service takes SBOM submissions and answers inventory searches.
type Service struct {
	DB     Store
	Logger *slog.Logger
	// Identity tells a submission's certificate organization.
	Identity Identity
	// KEV flags known-exploited components in search results; nil means
	// none are.
	KEV KEVChecker
	// Advisories says which ecosystems components are matched in, for the
	// coverage of GET /v1/inventory/ecosystems; nil means none.
	Advisories Advisories
	// MaxSubmission bounds an SBOM's size (default DefaultMaxSubmission).
	MaxSubmission int64
	// MemoryBudget bounds what submissions being decoded hold at once; each
	// takes memoryFactor times its size (default DefaultMemoryBudget).
	MemoryBudget int64
	// TempDir receives uploads while they arrive (default os.TempDir()).
	TempDir string
	// OnSubmitted runs inside a submission's transaction, after the
	// submission is written; the server uses it to enqueue the job that
	// turns the SBOM into findings, so a committed SBOM always gets them.
	OnSubmitted func(ctx context.Context, tx Tx, orgID, submissionID string) error

	once sync.Once
	mem  *semaphore.Weighted
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
	})
}

// ListenerRoutes are the inventory's routes on the agent listener.
func (s *Service) ListenerRoutes() []httpapi.Route {
	s.init()
	return []httpapi.Route{
		{Method: "POST", Path: wire.PathSubmit, Scope: sentinel.ScopeSCASubmit, Class: httpapi.ClassSBOMSubmit, Status: http.StatusCreated,
			Query:    []string{"host"},
			Summary:  "Submit a CycloneDX 1.5 JSON SBOM (body, at most 64 MiB). Requires an agent client certificate and an API key of the same organization.",
			Response: SubmitResponse{}, Handler: s.submit},
	}
}

// Routes are the inventory's routes on the public API.
func (s *Service) Routes() []httpapi.Route {
	s.init()
	return []httpapi.Route{
		{Method: "GET", Path: "/api/v1/inventory/components/search", Scope: sentinel.ScopeSCARead, Query: []string{"name", "version"},
			Summary:  "Search the component inventory by name (and version) across every submission.",
			Response: SearchResult{}, Handler: s.search},
		{Method: "GET", Path: "/v1/inventory/ecosystems", Scope: sentinel.ScopeSCARead,
			Summary:  "The inventory per ecosystem, and whether the service has advisories to match each against: components of an ecosystem without advisories are never checked.",
			Response: Coverage{}, Handler: s.coverage},
		{Method: "GET", Path: "/v1/sbom/submissions", Scope: sentinel.ScopeSCARead, Query: []string{"host", "order", "limit", "cursor"},
			Summary:  "List the organization's SBOM submissions, of one host or all, oldest first (order=newest: newest first).",
			Response: httpapi.ListResponse[sentinel.Submission]{}, Handler: s.listSubmissions},
		{Method: "GET", Path: "/v1/sbom/submissions/{id}", Scope: sentinel.ScopeSCARead,
			Summary:  "One SBOM submission.",
			Response: sentinel.Submission{}, Handler: s.getSubmission},
		{Method: "GET", Path: "/v1/sbom/submissions/{id}/document", Scope: sentinel.ScopeSCARead,
			Summary: "A submission's original bytes, exactly as the agent sent them.",
			Handler: s.getSubmissionDocument},
	}
}
