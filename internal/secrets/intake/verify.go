package intake

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/finding"
	"github.com/sentinel-sca/sentinel/internal/jobs"
	"github.com/sentinel-sca/sentinel/internal/secrets"
	"github.com/sentinel-sca/sentinel/internal/secrets/verify"
)

// VerifiedLiveData is the data of secret.verified_live: who the credential
// opens, never the credential.
type VerifiedLiveData struct {
	ID       string `json:"id"`
	Provider string `json:"provider"`
	// Identity is the account, user or ARN the provider named, when it
	// named one.
	Identity   string   `json:"identity,omitempty"`
	Scopes     []string `json:"scopes,omitempty"`
	Rule       string   `json:"rule"`
	Host       string   `json:"host"`
	AssetID    string   `json:"asset_id"`
	FindingID  string   `json:"finding_id"`
	RiskScore  int      `json:"risk_score"`
	VerifiedAt string   `json:"verified_at"`
}

// systemActor is the audit actor of the verification jobs.
var systemActor = sentinel.Actor{KeyID: "system"}

// VerifyJob checks one secret with its provider (job JobVerify). An active
// or inactive answer is final: it is recorded and the sealed value is
// deleted. An indeterminate one is retried when the provider said (or
// after five minutes), keeping the value, until the job's last attempt,
// which gives up and deletes it.
func (s *Service) VerifyJob(ctx context.Context, j *sentinel.Job) error {
	s.init()
	var a verifyArgs
	if err := json.Unmarshal(j.Args, &a); err != nil {
		return jobs.Permanent(err)
	}
	sec, sealed, err := s.DB.SealedSecret(ctx, a.OrgID, a.SecretID)
	if sentinel.ErrorCode(err) == sentinel.ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	if sealed == nil || sec.Status != sentinel.SecretPending {
		return nil // settled by an earlier attempt
	}
	plain, err := s.Box.Open(sealed, []byte(sec.ID))
	if err != nil {
		return s.settle(ctx, a, func(sec *sentinel.Secret) {
			sec.Status, sec.VerifyReason = sentinel.SecretUnknown, "the stored value could not be decrypted"
		})
	}
	var v sealedValue
	err = json.Unmarshal(plain, &v)
	clear(plain)
	if err != nil {
		return s.settle(ctx, a, func(sec *sentinel.Secret) {
			sec.Status, sec.VerifyReason = sentinel.SecretUnknown, "the stored value could not be read"
		})
	}
	if s.Verifier == nil {
		return jobs.RetryAt(time.Now().Add(time.Hour), errors.New("live verification is off"))
	}
	res, err := s.Verifier.Verify(ctx, sec.Provider, secrets.NewCredential(v.V, v.C))
	v = sealedValue{}
	switch {
	case errors.Is(err, verify.ErrUnsupported), errors.Is(err, verify.ErrIncomplete):
		msg := err.Error() // the verifier's messages show at most the redacted form
		return s.finish(ctx, a, j, verify.Result{Provider: sec.Provider, Reason: msg}, sentinel.SecretUnverifiable)
	case err != nil:
		return err // ctx ended: retried
	}
	switch res.Status {
	case verify.Active:
		return s.finish(ctx, a, j, res, sentinel.SecretActive)
	case verify.Inactive:
		return s.finish(ctx, a, j, res, sentinel.SecretInactive)
	}
	if j.Attempts >= j.MaxAttempts {
		res.Reason = "gave up after " + itoa(j.Attempts) + " checks without an answer; the last: " + res.Reason
		return s.finish(ctx, a, j, res, sentinel.SecretUnknown)
	}
	if err := s.finish(ctx, a, j, res, sentinel.SecretPending); err != nil {
		return err
	}
	retry := res.RetryAfter
	if retry <= 0 {
		retry = 5 * time.Minute
	}
	return jobs.RetryAt(res.CheckedAt.Add(retry), errors.New(res.Reason))
}

// finish records one check's outcome: status pending keeps the value for
// the next attempt; any other status deletes it. An active secret raises
// its finding's risk and emits secret.verified_live (and finding.escalated
// when the band rises).
func (s *Service) finish(ctx context.Context, a verifyArgs, j *sentinel.Job, res verify.Result, status string) error {
	err := s.DB.Update(ctx, func(tx Tx) error {
		sec, sealed, err := tx.SecretForUpdate(ctx, a.OrgID, a.SecretID)
		if err != nil {
			return err
		}
		if sealed == nil || sec.Status != sentinel.SecretPending {
			return nil // another attempt settled it
		}
		now := tx.Now()
		sec.VerifyAttempts++
		sec.Status, sec.VerifyReason = status, res.Reason
		if status != sentinel.SecretPending {
			sec.VerifiedAt = &now
			sec.Identity = res.Identity
		}
		if err := tx.SaveSecretVerification(ctx, sec, status != sentinel.SecretPending); err != nil {
			return err
		}
		if err := tx.Audit(ctx, a.OrgID, systemActor, "secret.verify", sec.ID, map[string]any{
			"provider": sec.Provider, "outcome": string(res.Status), "status": status, "http_status": res.HTTPStatus,
			"attempt": j.Attempts, "reason": res.Reason}); err != nil {
			return err
		}
		if status != sentinel.SecretActive {
			return nil
		}
		return s.live(ctx, tx, sec, res, now)
	})
	if err == nil {
		s.Logger.Info("secret verified", "secret", a.SecretID, "status", status, "attempt", j.Attempts)
	}
	return err
}

// live raises an active secret's finding and emits its events.
func (s *Service) live(ctx context.Context, tx Tx, sec *sentinel.Secret, res verify.Result, now time.Time) error {
	org, err := s.DB.FindOrgByID(ctx, sec.OrgID)
	if err != nil {
		return err
	}
	f, err := tx.FindingForUpdate(ctx, sec.OrgID, sec.FindingID)
	if err != nil {
		return err
	}
	prev, prevBand := f.RiskScore, f.Band
	if score := liveRisk(prev); score > prev {
		f.RiskScore, f.Band, f.Severity = score, sentinel.Band(score), severityOf(score)
		if due := now.Add(sentinel.SLAWindow(f.Band)); due.Before(f.SLADueAt) {
			f.SLADueAt = due // a higher band tightens the SLA, never loosens it
		}
	}
	f.Summary = "A live " + sec.Provider + " credential (" + sec.RuleID + ", " + sec.Redacted + ") is exposed in " + sec.Location.File
	if err := tx.SaveFinding(ctx, f); err != nil {
		return err
	}
	if _, err := tx.EmitEvent(ctx, org, sentinel.EventSecretVerifiedLive, f.ID, VerifiedLiveData{
		ID: sec.ID, Provider: sec.Provider, Identity: res.Identity, Scopes: res.Scopes, Rule: sec.RuleID, Host: sec.Host,
		AssetID: sec.AssetID, FindingID: f.ID, RiskScore: f.RiskScore, VerifiedAt: now.UTC().Format(time.RFC3339)}); err != nil {
		return err
	}
	if sentinel.BandRank(f.Band) > sentinel.BandRank(prevBand) {
		asset, err := tx.FindAssetByID(ctx, sec.OrgID, sec.AssetID)
		if err != nil {
			return err
		}
		if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingEscalated, f.ID, finding.EscalatedData(f, asset, prev)); err != nil {
			return err
		}
	}
	return nil
}

// settle ends the checks of a secret whose value cannot be used.
func (s *Service) settle(ctx context.Context, a verifyArgs, set func(*sentinel.Secret)) error {
	return s.DB.Update(ctx, func(tx Tx) error {
		sec, sealed, err := tx.SecretForUpdate(ctx, a.OrgID, a.SecretID)
		if err != nil || sealed == nil {
			return err
		}
		set(sec)
		return tx.SaveSecretVerification(ctx, sec, true)
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
