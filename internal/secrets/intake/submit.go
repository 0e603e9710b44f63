package intake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/httpapi"
	"github.com/sentinel-sca/sentinel/internal/secrets"
)

// DetectedData is the data of secret.detected: where and what kind of
// secret, never its value.
type DetectedData struct {
	ID          string                  `json:"id"`
	Rule        string                  `json:"rule"`
	Provider    string                  `json:"provider,omitempty"`
	Location    sentinel.SecretLocation `json:"location"`
	Host        string                  `json:"host"`
	AssetID     string                  `json:"asset_id"`
	Asset       string                  `json:"asset"`
	FindingID   string                  `json:"finding_id"`
	Fingerprint string                  `json:"fingerprint"`
	Redacted    string                  `json:"redacted"`
	Verifiable  bool                    `json:"verifiable"`
	FirstSeen   string                  `json:"first_seen"`
}

// verifyArgs are a verification job's arguments.
type verifyArgs struct {
	OrgID    string `json:"org_id"`
	SecretID string `json:"secret_id"`
}

// sealedValue is what is sealed: the value and, for AWS, its companion.
type sealedValue struct {
	V string `json:"v"`
	C string `json:"c,omitempty"`
}

// item is one distinct secret of a submission, ready to store.
type item struct {
	index       []int // the submission's items that are this secret
	fingerprint string
	local       string
	rule        string
	provider    string
	redacted    string
	verifiable  bool
	test        bool
	loc         sentinel.SecretLocation
	value       sealedValue
}

func (s *Service) submit(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	certOrg, err := s.Identity.CertificateOrg(ctx, r.TLS)
	if err != nil {
		return err
	}
	if certOrg == "" {
		return sentinel.Errorf(sentinel.EUNAUTHORIZED, "a client certificate is required to submit: enroll the agent (sentinel enroll) and submit with it")
	}
	p := httpapi.PrincipalFromContext(ctx)
	if p.OrgID != certOrg {
		return sentinel.Errorf(sentinel.EUNAUTHORIZED, "the API key and the agent certificate belong to different organizations; use a key of the organization the agent enrolled in")
	}
	if r.ContentLength > s.MaxSubmission {
		return sentinel.Errorf(sentinel.ETOOLARGE, "the submission is larger than %d bytes", s.MaxSubmission)
	}
	// The body carries raw values: it stays in memory, never on disk.
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, http.MaxBytesReader(w, r.Body, s.MaxSubmission)); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return sentinel.Errorf(sentinel.ETOOLARGE, "the submission is larger than %d bytes", s.MaxSubmission)
		}
		return sentinel.Errorf(sentinel.EINVALID, "the request body could not be read")
	}
	data := buf.Bytes()
	defer clear(data)
	sub, err := secrets.ParseSubmission(data)
	if err != nil {
		// ParseSubmission's messages never quote a value.
		return sentinel.InvalidField("body", "%s", strings.TrimPrefix(err.Error(), secrets.ErrInvalidSubmission.Error()+": "))
	}
	leaf := r.TLS.PeerCertificates[0]
	agentID := ""
	if a, err := s.DB.FindAgentBySerial(ctx, certOrg, leaf.SerialNumber.Text(16)); err == nil {
		agentID = a.ID
	}
	resp, err := s.Ingest(ctx, certOrg, leaf.Subject.CommonName, agentID, sub, httpapi.Actor(r))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, resp)
	return nil
}

// Ingest stores a parsed submission of the organization's agent on host:
// the submission endpoint without HTTP, for tests and tools.
func (s *Service) Ingest(ctx context.Context, orgID, host, agentID string, sub *secrets.Submission, actor sentinel.Actor) (*SubmitResponse, error) {
	s.init()
	if !sentinel.ValidHost(host) {
		return nil, sentinel.InvalidField("host", "the agent certificate names no valid host")
	}
	org, err := s.DB.FindOrgByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	items := s.prepare(sub)
	resp := &SubmitResponse{Host: host, Received: len(sub.Items), FingerprintKeyID: s.Fingerprints.KeyID(),
		Items: make([]wire.SecretsSubmitItem, len(sub.Items))}
	store := func() error {
		return s.DB.Update(ctx, func(tx Tx) error {
			resp.New, resp.Known, resp.Verifying = 0, 0, 0
			resp.ReceivedAt = tx.Now()
			return s.store(ctx, tx, org, host, agentID, sub.Root, items, resp, actor)
		})
	}
	err = store()
	if sentinel.ErrorCode(err) == sentinel.ECONFLICT {
		// Another submission created one of these secrets at the same
		// time: it is known now.
		err = store()
	}
	if err != nil {
		return nil, err
	}
	if resp.Verifying > 0 {
		s.Notify()
	}
	s.Logger.Info("secrets submitted", "org", org.Slug, "host", host, "agent", agentID, "received", resp.Received,
		"new", resp.New, "known", resp.Known, "verifying", resp.Verifying)
	return resp, nil
}

// prepare fingerprints every item with the service's key and merges the
// items that are one secret (the first sighting gives the location).
func (s *Service) prepare(sub *secrets.Submission) []*item {
	byFP := map[string]*item{}
	var out []*item
	for i := range sub.Items {
		it := &sub.Items[i]
		rule := it.RuleID
		provider := secrets.ProviderForRule(rule)
		var fp string
		if it.Value != "" {
			fp = s.Fingerprints.Fingerprint(it.Value)
		} else {
			// A detection without a value (a key store found by its
			// name) is identified by where it is.
			fp = s.Fingerprints.Fingerprint("sentinel:no-value\x00" + rule + "\x00" + it.File + "\x00" + it.Commit)
		}
		if x, ok := byFP[fp]; ok {
			x.index = append(x.index, i)
			continue
		}
		x := &item{index: []int{i}, fingerprint: fp, local: it.LocalFingerprint, rule: rule, provider: provider,
			redacted: secrets.Redact(it.Value),
			loc:      sentinel.SecretLocation{File: it.File, Line: it.Line, Column: it.Column, Commit: it.Commit, CommitDate: it.CommitDate},
			value:    sealedValue{V: it.Value, C: it.Companion}}
		if it.Value == "" {
			x.redacted = "(no value)"
		}
		x.test = provider == secrets.ProviderStripe && strings.Contains(it.Value, "_test_")
		// Only a credential a provider check exists for is kept (sealed)
		// at all; an AWS key id needs its secret key to be checked.
		x.verifiable = secrets.Verifiable(rule) && it.Value != "" && (provider != secrets.ProviderAWS || it.Companion != "")
		byFP[fp] = x
		out = append(out, x)
	}
	return out
}

func (s *Service) store(ctx context.Context, tx Tx, org *sentinel.Organization, host, agentID, root string, items []*item, resp *SubmitResponse, actor sentinel.Actor) error {
	asset, created, err := tx.UpsertAsset(ctx, org.ID, host, sentinel.AssetHost)
	if err != nil {
		return err
	}
	if created {
		if _, err := tx.EmitEvent(ctx, org, sentinel.EventAssetFirstSeen, "", map[string]any{
			"asset_id": asset.ID, "name": asset.Name, "kind": asset.Kind}); err != nil {
			return err
		}
	}
	var newIDs []string
	for _, it := range items {
		sec, err := tx.SecretByFingerprint(ctx, org.ID, it.fingerprint)
		isNew := false
		switch {
		case err == nil:
			if err := tx.TouchSecret(ctx, org.ID, sec.ID); err != nil {
				return err
			}
			resp.Known++
		case sentinel.ErrorCode(err) == sentinel.ENOTFOUND:
			if sec, err = s.create(ctx, tx, org, asset, host, root, it); err != nil {
				return err
			}
			resp.New++
			isNew = true
			newIDs = append(newIDs, sec.ID)
			if sec.Status == sentinel.SecretPending {
				resp.Verifying++
			}
		default:
			return err
		}
		for n, i := range it.index {
			resp.Items[i] = wire.SecretsSubmitItem{Index: i, ID: sec.ID, FindingID: sec.FindingID, Fingerprint: sec.Fingerprint,
				LocalFingerprint: it.local, New: n == 0 && isNew, Status: sec.Status}
		}
	}
	return tx.Audit(ctx, org.ID, actor, "secrets.submit", host, map[string]any{
		"host": host, "agent": agentID, "received": resp.Received, "new": resp.New, "known": resp.Known, "secrets": newIDs})
}

// create stores a new secret, its finding, their events and its
// verification job.
func (s *Service) create(ctx context.Context, tx Tx, org *sentinel.Organization, asset *sentinel.Asset, host, root string, it *item) (*sentinel.Secret, error) {
	now := tx.Now()
	sec := &sentinel.Secret{ID: sentinel.NewID(sentinel.PrefixSecret), OrgID: org.ID, Fingerprint: it.fingerprint, LocalFingerprint: it.local,
		RuleID: it.rule, Provider: it.provider, Redacted: it.redacted, Location: it.loc, Host: host, Root: truncate(root, 1024),
		AssetID: asset.ID, Verifiable: it.verifiable, Status: sentinel.SecretUnverifiable, FirstSeen: now, LastSeen: now}
	var sealed []byte
	if it.verifiable && s.Verifier != nil {
		plain, err := json.Marshal(it.value)
		if err != nil {
			return nil, err
		}
		sealed = s.Box.Seal(plain, []byte(sec.ID))
		clear(plain)
		sec.Status = sentinel.SecretPending
	} else if it.verifiable {
		sec.VerifyReason = "live verification is off in this deployment"
	}
	score := baseRisk(it.rule, it.provider, it.test, asset.Criticality)
	band := sentinel.Band(score)
	f := &sentinel.Finding{OrgID: org.ID, AssetID: asset.ID, AssetName: asset.Name, AdvisoryID: sec.ID,
		Category: sentinel.CategoryExposedSecret, CWE: sentinel.CWEHardcodedCredentials, Summary: summary(it),
		Aliases: []string{}, FixedVersions: []string{}, Severity: severityOf(score), RiskScore: score, Band: band,
		SLADueAt: now.Add(sentinel.SLAWindow(band)), Status: sentinel.StatusOpen, Compliance: Compliance(org.Catalog),
		Source: "secrets", Evidence: []sentinel.FindingEvidence{evidence(sec)}, FirstSeen: now, LastSeen: now}
	if err := tx.SaveFinding(ctx, f); err != nil {
		return nil, err
	}
	sec.FindingID = f.ID
	if err := tx.CreateSecret(ctx, sec, sealed); err != nil {
		return nil, err
	}
	if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingCreated, f.ID, findingData(f)); err != nil {
		return nil, err
	}
	if _, err := tx.EmitEvent(ctx, org, sentinel.EventSecretDetected, f.ID, DetectedData{
		ID: sec.ID, Rule: sec.RuleID, Provider: sec.Provider, Location: sec.Location, Host: host, AssetID: asset.ID, Asset: asset.Name,
		FindingID: f.ID, Fingerprint: sec.Fingerprint, Redacted: sec.Redacted, Verifiable: sec.Verifiable,
		FirstSeen: now.UTC().Format(time.RFC3339)}); err != nil {
		return nil, err
	}
	if sealed != nil {
		args, _ := json.Marshal(verifyArgs{OrgID: org.ID, SecretID: sec.ID})
		if _, _, err := tx.Enqueue(ctx, JobVerify, args, sentinel.EnqueueOptions{UniqueKey: JobVerify + ":" + sec.ID,
			MaxAttempts: s.VerifyAttempts}); err != nil {
			return nil, err
		}
	}
	return sec, nil
}

// summary describes the finding in one line, without the value.
func summary(it *item) string {
	what := "A secret"
	if it.provider != "" {
		what = "A " + it.provider + " credential"
	}
	where := fmt.Sprintf("%s:%d", it.loc.File, it.loc.Line)
	if it.loc.Commit != "" {
		where += " in commit " + shortCommit(it.loc.Commit)
	}
	return fmt.Sprintf("%s (%s, %s) is exposed in %s", what, it.rule, it.redacted, where)
}

// evidence is a secret's location as finding evidence.
func evidence(sec *sentinel.Secret) sentinel.FindingEvidence {
	loc := fmt.Sprintf("%s:%d", sec.Location.File, sec.Location.Line)
	if sec.Location.Commit != "" {
		loc += "@" + sec.Location.Commit
	}
	return sentinel.FindingEvidence{Kind: "secret", Source: sec.ID, URL: loc,
		Detail: "rule " + sec.RuleID + ", " + sec.Redacted + ", fingerprint " + sec.Fingerprint}
}

// findingData is the data of finding.created for a secret's finding.
func findingData(f *sentinel.Finding) finding.EventData {
	return finding.EventData{FindingID: f.ID, AssetID: f.AssetID, Asset: f.AssetName, AdvisoryID: f.AdvisoryID, Aliases: f.Aliases,
		Category: f.Category, CWE: f.CWE, Severity: f.Severity, RiskScore: f.RiskScore, Band: f.Band, Status: f.Status,
		SLADueAt: f.SLADueAt.UTC().Format(time.RFC3339)}
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
