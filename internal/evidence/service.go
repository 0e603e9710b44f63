package evidence

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/evidence/verify"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/signing"
)

// Bounds of the issue operation (docs/design.md, Evidence Bundles).
const (
	MinWindowDays     = 1
	MaxWindowDays     = 365
	DefaultWindowDays = 90
	MaxDescription    = 256 // characters
)

// JobBuild is the durable job kind that builds a bundle.
const JobBuild = "bundle.build"

// buildAttempts bounds a bundle's build retries.
const buildAttempts = 5

// chunkSize is the size of the stored zip's chunks.
const chunkSize = 1 << 20

// Service is the Evidence Bundle API and build job.
type Service struct {
	DB Store
	// Source is the data bundles are built from; nil means DB.
	Source Source
	CA     *signing.CA
	Logger *slog.Logger
	// PublicURL is the deployment's public API URL: the signing issuer and
	// the base of the signing identity.
	PublicURL string
	// ShareURL returns the share site's public base URL at request time
	// (the listener may pick its port only at start).
	ShareURL func() string
	// Notify wakes the job workers after a bundle is issued; may be nil.
	Notify func()
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// TempDir is for the build's spool files; "" means os.TempDir().
	TempDir string
	// Environments, when set, are listed in verification.txt; by default
	// only this deployment is.
	Environments []Environment
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// CreateRequest is POST /v1/sca/bundles's body.
type CreateRequest struct {
	WindowDays  *int     `json:"window_days,omitempty" minimum:"1" maximum:"365" doc:"Days covered, ending now (default 90)"`
	Include     []string `json:"include,omitempty" doc:"Subset of sbom, drift, findings, audit, compliance (default all)"`
	Description string   `json:"description,omitempty" maxLength:"256"`
}

// CreateResponse is shown once: the share URL and password are never
// shown again.
type CreateResponse struct {
	ID        string   `json:"id"`
	ShareURL  string   `json:"share_url"`
	Password  string   `json:"password"`
	ExpiresAt string   `json:"expires_at"`
	Scope     []string `json:"scope"`
}

// Info is a bundle as the list and revoke operations show it.
type Info struct {
	ID             string   `json:"id"`
	Description    string   `json:"description"`
	Status         string   `json:"status" enum:"active,expired,revoked,locked"`
	Build          string   `json:"build" enum:"building,ready,failed"`
	Scope          []string `json:"scope"`
	WindowDays     int      `json:"window_days"`
	WindowStart    string   `json:"window_start"`
	WindowEnd      string   `json:"window_end"`
	CreatedAt      string   `json:"created_at"`
	ExpiresAt      string   `json:"expires_at"`
	RevokedAt      string   `json:"revoked_at,omitempty"`
	LockedAt       string   `json:"locked_at,omitempty"`
	SHA256         string   `json:"sha256,omitempty"`
	Size           int64    `json:"size,omitempty"`
	AccessCount    int      `json:"access_count"`
	LastAccessAt   string   `json:"last_access_at,omitempty"`
	FailedAttempts int      `json:"failed_attempts"`
	CreatedBy      string   `json:"created_by"`
}

// AccessEntry is one line of a share's access log.
type AccessEntry struct {
	At        string `json:"at"`
	Address   string `json:"address"`
	UserAgent string `json:"user_agent"`
	Outcome   string `json:"outcome"`
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func tsPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return ts(*t)
}

// InfoOf returns the API view of a bundle at now.
func InfoOf(b *sentinel.Bundle, now time.Time) Info {
	return Info{
		ID: b.ID, Description: b.Description, Status: b.Status(now), Build: b.BuildState, Scope: b.Scope,
		WindowDays: b.WindowDays, WindowStart: ts(b.WindowStart), WindowEnd: ts(b.WindowEnd), CreatedAt: ts(b.CreatedAt),
		ExpiresAt: ts(b.ExpiresAt), RevokedAt: tsPtr(b.RevokedAt), LockedAt: tsPtr(b.LockedAt), SHA256: b.SHA256, Size: b.Size,
		AccessCount: b.AccessCount, LastAccessAt: tsPtr(b.LastAccessAt), FailedAttempts: b.FailedAttempts, CreatedBy: b.CreatedBy,
	}
}

// AccessEntryOf returns the API and share-page view of an access log line.
func AccessEntryOf(a *sentinel.BundleAccess) AccessEntry {
	return AccessEntry{At: ts(a.At), Address: a.Addr, UserAgent: a.UserAgent, Outcome: a.Outcome}
}

// SigningRoot is GET /v1/sca/signing-root's answer.
type SigningRoot struct {
	// Certificate is the root, PEM; Fingerprint its SHA-256 in hex, as
	// verification.txt, the share page and sentinel verify print it.
	Certificate string    `json:"certificate"`
	Fingerprint string    `json:"fingerprint"`
	NotAfter    time.Time `json:"not_after"`
}

// Root returns the deployment's signing root.
func (s *Service) Root() SigningRoot {
	r := s.CA.Root()
	return SigningRoot{Certificate: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.Raw})),
		Fingerprint: verify.CertFingerprint(r), NotAfter: r.NotAfter}
}

func (s *Service) signingRoot(w http.ResponseWriter, r *http.Request) error {
	httpapi.WriteJSON(w, http.StatusOK, s.Root())
	return nil
}

// Routes returns the bundle operations and the signing root.
func (s *Service) Routes() []httpapi.Route {
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/sca/signing-root", Scope: sentinel.ScopeSCARead,
			Summary:  "The root certificate every bundle's signatures chain to, and its SHA-256: give it to recipients through another channel than the share, so they can pin it.",
			Response: SigningRoot{}, Handler: s.signingRoot},
		{Method: "POST", Path: "/v1/sca/bundles", Scope: sentinel.ScopeEvidenceShare, Status: http.StatusCreated,
			Summary: "Issue an Evidence Bundle. The share URL and password are returned once and never again.",
			Request: CreateRequest{}, Response: CreateResponse{}, Handler: s.create},
		{Method: "GET", Path: "/v1/sca/bundles", Scope: sentinel.ScopeSCARead, Query: []string{"limit", "cursor"},
			Summary:  "List the organization's bundles, newest first, with status, access count and last access.",
			Response: httpapi.ListResponse[Info]{}, Handler: s.list},
		{Method: "POST", Path: "/v1/sca/bundles/{id}/revoke", Scope: sentinel.ScopeEvidenceShare,
			Summary:  "Revoke a bundle's share: access ends at once.",
			Response: Info{}, Handler: s.revoke},
		{Method: "GET", Path: "/v1/sca/bundles/{id}/audit", Scope: sentinel.ScopeAuditLogsRead, Query: []string{"limit", "cursor"},
			Summary:  "The share's access log, oldest first: the same log the recipient sees.",
			Response: httpapi.ListResponse[AccessEntry]{}, Handler: s.audit},
	}
}

// ShareLink returns the share URL of a token.
func ShareLink(base, token string) string {
	return strings.TrimRight(base, "/") + "/s/" + token
}

func (s *Service) create(w http.ResponseWriter, r *http.Request) error {
	var req CreateRequest
	if err := httpapi.DecodeJSON(r.Body, 64<<10, &req); err != nil {
		return err
	}
	days := DefaultWindowDays
	if req.WindowDays != nil {
		days = *req.WindowDays
		if days < MinWindowDays || days > MaxWindowDays {
			return sentinel.InvalidField("window_days", "window_days must be an integer from %d to %d", MinWindowDays, MaxWindowDays)
		}
	}
	scope, err := NormalizeScope(req.Include)
	if err != nil {
		return err
	}
	if utf8.RuneCountInString(req.Description) > MaxDescription || !utf8.ValidString(req.Description) {
		return sentinel.InvalidField("description", "description must be valid UTF-8 of at most %d characters", MaxDescription)
	}
	p := httpapi.PrincipalFromContext(r.Context())
	org, err := s.DB.FindOrgByID(r.Context(), p.OrgID)
	if err != nil {
		return err
	}
	token, tokenHash := NewShareToken()
	password := NewPassword()
	b := &sentinel.Bundle{
		ID: sentinel.NewID(sentinel.PrefixBundle), OrgID: org.ID, Description: req.Description, Scope: scope,
		WindowDays: days, TokenHash: tokenHash, PasswordHash: HashPassword(password), CreatedBy: p.KeyID,
	}
	period := org.SharePeriod
	if period <= 0 {
		period = 7 * 24 * time.Hour
	}
	err = s.DB.Update(r.Context(), func(tx Tx) error {
		// Times come from the transaction so the row, the event and the
		// audit entry agree; the window ends at issuance.
		b.CreatedAt = tx.Now()
		b.WindowEnd = b.CreatedAt
		b.WindowStart = b.CreatedAt.AddDate(0, 0, -days)
		b.ExpiresAt = b.CreatedAt.Add(period)
		if err := tx.CreateBundle(r.Context(), b); err != nil {
			return err
		}
		args, _ := json.Marshal(map[string]string{"bundle_id": b.ID})
		if _, _, err := tx.Enqueue(r.Context(), JobBuild, args, sentinel.EnqueueOptions{UniqueKey: JobBuild + ":" + b.ID, MaxAttempts: buildAttempts}); err != nil {
			return err
		}
		if _, err := tx.EmitEvent(r.Context(), org, sentinel.EventBundleCreated, b.ID, map[string]any{
			"bundle_id": b.ID, "scope": scope, "window_days": days, "description": b.Description,
			"expires_at": ts(b.ExpiresAt), "created_by": p.KeyID,
		}); err != nil {
			return err
		}
		return tx.Audit(r.Context(), org.ID, httpapi.Actor(r), "bundle.create", b.ID, map[string]any{
			"scope": scope, "window_days": days, "expires_at": ts(b.ExpiresAt),
		})
	})
	if err != nil {
		return err
	}
	if s.Notify != nil {
		s.Notify()
	}
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusCreated, CreateResponse{
		ID: b.ID, ShareURL: ShareLink(s.ShareURL(), token), Password: password, ExpiresAt: ts(b.ExpiresAt), Scope: scope,
	})
	return nil
}

func (s *Service) list(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	bs, next, err := s.DB.ListBundles(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, page)
	if err != nil {
		return err
	}
	now := s.now()
	httpapi.WriteListOf(w, bs, next, func(b *sentinel.Bundle) Info { return InfoOf(b, now) })
	return nil
}

func (s *Service) revoke(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.PrincipalFromContext(r.Context())
	org, err := s.DB.FindOrgByID(r.Context(), p.OrgID)
	if err != nil {
		return err
	}
	var b *sentinel.Bundle
	err = s.DB.Update(r.Context(), func(tx Tx) error {
		var changed bool
		var err error
		if b, changed, err = tx.RevokeBundle(r.Context(), p.OrgID, r.PathValue("id")); err != nil || !changed {
			return err // revoking twice is a no-op: no second event
		}
		if _, err := tx.EmitEvent(r.Context(), org, sentinel.EventBundleRevoked, b.ID, map[string]any{
			"bundle_id": b.ID, "revoked_at": ts(*b.RevokedAt), "revoked_by": p.KeyID,
		}); err != nil {
			return err
		}
		return tx.Audit(r.Context(), org.ID, httpapi.Actor(r), "bundle.revoke", b.ID, nil)
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, InfoOf(b, s.now()))
	return nil
}

func (s *Service) audit(w http.ResponseWriter, r *http.Request) error {
	page, err := httpapi.PageFromQuery(r)
	if err != nil {
		return err
	}
	b, err := s.DB.FindBundle(r.Context(), httpapi.PrincipalFromContext(r.Context()).OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	log, next, err := s.DB.BundleAccessLog(r.Context(), b.ID, page)
	if err != nil {
		return err
	}
	httpapi.WriteListOf(w, log, next, AccessEntryOf)
	return nil
}

// BuildJob is the JobBuild handler: it builds the bundle, streams the zip
// into the store in chunks and marks the bundle ready. A retried attempt
// starts over; the last failed attempt marks the bundle failed.
func (s *Service) BuildJob(ctx context.Context, j *sentinel.Job) error {
	var args struct {
		BundleID string `json:"bundle_id"`
	}
	if err := json.Unmarshal(j.Args, &args); err != nil {
		return fmt.Errorf("bundle build args: %w", err)
	}
	err := s.build(ctx, args.BundleID)
	if err != nil && j.Attempts >= j.MaxAttempts {
		if ferr := s.DB.FailBundleBuild(context.WithoutCancel(ctx), args.BundleID, err.Error()); ferr != nil && s.Logger != nil {
			s.Logger.Error("mark bundle build failed", "bundle", args.BundleID, "err", ferr)
		}
	}
	return err
}

func (s *Service) build(ctx context.Context, id string) error {
	b, err := s.DB.FindBundleByID(ctx, id)
	if err != nil {
		return err
	}
	if b.BuildState != sentinel.BundleBuilding {
		return nil
	}
	org, err := s.DB.FindOrgByID(ctx, b.OrgID)
	if err != nil {
		return err
	}
	if err := s.DB.ResetBundleBuild(ctx, id); err != nil {
		return err
	}
	identity := Identity(s.PublicURL, org.Slug)
	cw := &chunkWriter{ctx: ctx, db: s.DB, id: id, buf: make([]byte, 0, chunkSize), h: sha256.New()}
	var src Source = s.DB
	if s.Source != nil {
		src = s.Source
	}
	res, err := Build(ctx, cw, src, Options{
		Org: org, BundleID: b.ID, Description: b.Description, Scope: b.Scope, CreatedAt: b.CreatedAt,
		WindowStart: b.WindowStart, WindowEnd: b.WindowEnd, CA: s.CA, Identity: identity, Issuer: s.PublicURL,
		Environments: s.Environments, Now: s.Now, TempDir: s.TempDir,
	})
	if err != nil {
		return err
	}
	if err := cw.flush(); err != nil {
		return err
	}
	b.SHA256, b.Size, b.Artifacts = hex.EncodeToString(cw.h.Sum(nil)), cw.size, res.Artifacts
	b.Identity, b.Issuer = identity, s.PublicURL
	return s.DB.Update(ctx, func(tx Tx) error { return tx.FinishBundleBuild(ctx, b) })
}

// chunkWriter stores a zip in the store as it is written, a chunk at a
// time, hashing it on the way.
type chunkWriter struct {
	ctx  context.Context
	db   Store
	id   string
	seq  int
	buf  []byte
	h    hash.Hash
	size int64
}

func (c *chunkWriter) Write(p []byte) (int, error) {
	n := len(p)
	c.h.Write(p)
	c.size += int64(n)
	for len(p) > 0 {
		k := min(chunkSize-len(c.buf), len(p))
		c.buf = append(c.buf, p[:k]...)
		p = p[k:]
		if len(c.buf) == chunkSize {
			if err := c.flush(); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

func (c *chunkWriter) flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	if err := c.db.PutBundleChunk(c.ctx, c.id, c.seq, c.buf); err != nil {
		return err
	}
	c.seq++
	c.buf = c.buf[:0]
	return nil
}

// OpenZip streams a built bundle's zip from the store to w.
func OpenZip(ctx context.Context, db ChunkReader, bundleID string, w io.Writer) error {
	for seq := 0; ; seq++ {
		data, err := db.BundleChunk(ctx, bundleID, seq)
		if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
}
