package intake

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/seal"
	"github.com/sentinel-sca/sentinel/internal/secrets"
	"github.com/sentinel-sca/sentinel/internal/secrets/verify"
)

// Store is what the package reads, and Update its write transaction. The
// store implements it (store.Bind[intake.Tx]).
type Store interface {
	sentinel.OrgFinder
	FindSecret(ctx context.Context, orgID, id string) (*sentinel.Secret, error)
	FindSecrets(ctx context.Context, f sentinel.SecretFilter) ([]*sentinel.Secret, string, error)
	// SealedSecret returns a secret with its sealed value (nil when no
	// longer held). Errors: ENOTFOUND.
	SealedSecret(ctx context.Context, orgID, id string) (*sentinel.Secret, []byte, error)
	FindAgentBySerial(ctx context.Context, orgID, serial string) (*sentinel.Agent, error)
	// Update runs fn in one write transaction.
	Update(ctx context.Context, fn func(Tx) error) error
}

// Tx is what the package writes in one transaction.
type Tx interface {
	sentinel.Clock
	sentinel.EventWriter
	sentinel.AuditWriter
	sentinel.JobEnqueuer
	UpsertAsset(ctx context.Context, orgID, name, kind string) (asset *sentinel.Asset, created bool, err error)
	FindAssetByID(ctx context.Context, orgID, id string) (*sentinel.Asset, error)
	SaveFinding(ctx context.Context, f *sentinel.Finding) error
	FindingForUpdate(ctx context.Context, orgID, id string) (*sentinel.Finding, error)
	// SecretByFingerprint errors: ENOTFOUND.
	SecretByFingerprint(ctx context.Context, orgID, fingerprint string) (*sentinel.Secret, error)
	// CreateSecret stores a secret with its sealed value (nil for none).
	// Errors: ECONFLICT for a fingerprint the organization has.
	CreateSecret(ctx context.Context, s *sentinel.Secret, sealed []byte) error
	TouchSecret(ctx context.Context, orgID, id string) error
	SecretForUpdate(ctx context.Context, orgID, id string) (*sentinel.Secret, []byte, error)
	SaveSecretVerification(ctx context.Context, s *sentinel.Secret, dropValue bool) error
}

// KeyStore keeps the sealed fingerprint key; the store implements it.
type KeyStore interface {
	SecretFingerprintKey(ctx context.Context, name string) ([]byte, error)
	CreateSecretFingerprintKey(ctx context.Context, name string, sealed []byte) ([]byte, error)
}

// Identity names the organization of a request's verified client
// certificate ("" when the connection has none). Package agents
// implements it.
type Identity interface {
	CertificateOrg(ctx context.Context, state *tls.ConnectionState) (string, error)
}

// Verifier checks a credential with its provider; *verify.Set implements
// it.
type Verifier interface {
	Verify(ctx context.Context, provider string, c secrets.Credential) (verify.Result, error)
}

// JobVerify is the kind of the job that checks one secret live.
const JobVerify = "secrets.verify"

// Defaults.
const (
	// DefaultMaxSubmission bounds a submission's body: 10,000 items of
	// a few hundred bytes each, with room for private keys.
	DefaultMaxSubmission = 16 << 20
	// DefaultVerifyAttempts is how many times a secret is checked before
	// the service gives up on an answer and deletes the value. With the
	// providers' own Retry-After (or five minutes) between attempts, that
	// is about an hour of trying at the least.
	DefaultVerifyAttempts = 12
)

// Service takes secrets submissions, verifies secrets and serves the
// secrets API.
type Service struct {
	DB Store
	// Box seals values at rest with the master key.
	Box *seal.Box
	// Fingerprints computes the service's fingerprints
	// (LoadFingerprinter).
	Fingerprints *secrets.Fingerprinter
	Identity     Identity
	// Verifier checks secrets live; nil leaves every secret pending (a
	// deployment that must never use a customer's credential).
	Verifier Verifier
	Logger   *slog.Logger
	// Notify wakes the job workers after a submission queued checks.
	Notify func()
	// MaxSubmission bounds a submission (default DefaultMaxSubmission).
	MaxSubmission int64
	// VerifyAttempts bounds the checks of one secret (default
	// DefaultVerifyAttempts).
	VerifyAttempts int

	once sync.Once
}

func (s *Service) init() {
	s.once.Do(func() {
		if s.Logger == nil {
			s.Logger = slog.New(slog.DiscardHandler)
		}
		if s.MaxSubmission <= 0 {
			s.MaxSubmission = DefaultMaxSubmission
		}
		if s.VerifyAttempts <= 0 {
			s.VerifyAttempts = DefaultVerifyAttempts
		}
		if s.Notify == nil {
			s.Notify = func() {}
		}
	})
}

// SubmitResponse is the submission endpoint's answer.
type SubmitResponse = wire.SecretsSubmitResponse

// ListenerRoutes are the package's routes on the agent listener.
func (s *Service) ListenerRoutes() []httpapi.Route {
	s.init()
	return []httpapi.Route{
		{Method: "POST", Path: wire.PathSecretsSubmit, Scope: sentinel.ScopeSecretsSubmit, Class: httpapi.ClassSecrets, Status: http.StatusCreated,
			Summary: "Submit the secrets an agent found (sentinel secrets --submit; at most 16 MiB, 10,000 items). " +
				"Requires an agent client certificate and an API key of the same organization. Values are kept encrypted until verified and never returned.",
			Request: secrets.Submission{}, Response: SubmitResponse{}, Handler: s.submit},
	}
}

// Routes are the package's routes on the public API. Secrets are findings
// of their own category, so reading them takes findings:read.
func (s *Service) Routes() []httpapi.Route {
	s.init()
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/secrets", Scope: sentinel.ScopeFindingsRead, Query: []string{"status", "provider", "host", "limit", "cursor"},
			Summary:  "List the organization's secrets (never their values), filtered by status, provider or host.",
			Response: httpapi.ListResponse[sentinel.Secret]{}, Handler: s.list},
		{Method: "GET", Path: "/v1/secrets/{id}", Scope: sentinel.ScopeFindingsRead,
			Summary: "One secret (never its value).", Response: sentinel.Secret{}, Handler: s.get},
	}
}

// fingerprintKeyName names the deployment's fingerprint key in the store.
const fingerprintKeyName = "default"

// LoadFingerprinter returns the deployment's fingerprinter: a random
// 256-bit key, created on the first start and kept in the store sealed
// with the master key, so that every replica fingerprints alike. A key of
// its own, rather than one derived from the master key, keeps fingerprints
// stable should the master key ever be re-keyed (the sealed copy is what
// changes).
func LoadFingerprinter(ctx context.Context, db KeyStore, box *seal.Box) (*secrets.Fingerprinter, error) {
	ad := []byte("secret_fingerprint_key:" + fingerprintKeyName)
	sealed, err := db.SecretFingerprintKey(ctx, fingerprintKeyName)
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		k := make([]byte, secrets.KeySize)
		_, _ = rand.Read(k)
		sealed, err = db.CreateSecretFingerprintKey(ctx, fingerprintKeyName, box.Seal(k, ad))
	}
	if err != nil {
		return nil, fmt.Errorf("secrets fingerprint key: %w", err)
	}
	k, err := box.Open(sealed, ad)
	if err != nil {
		return nil, fmt.Errorf("secrets fingerprint key: %w", err)
	}
	return secrets.NewFingerprinter(k)
}
