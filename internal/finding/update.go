package finding

import (
	"context"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// Update is an operator's change to a finding; nil fields stay.
type Update struct {
	Status        *string    `json:"status,omitempty" enum:"open,accepted,false_positive"`
	Reason        *string    `json:"reason,omitempty" maxLength:"1000"`
	AcceptedUntil *time.Time `json:"accepted_until,omitempty"`
	Owner         *string    `json:"owner,omitempty" maxLength:"200"`
}

// MaxAcceptance is the longest a risk acceptance may run.
const MaxAcceptance = 366 * 24 * time.Hour

// Apply changes a finding's status or owner, with its audit entry and
// events (finding.status_changed, finding.assigned) in one transaction.
// Errors: ENOTFOUND, EINVALID.
func (e *Engine) Apply(ctx context.Context, org *sentinel.Organization, id string, u Update, actor sentinel.Actor) (*sentinel.Finding, error) {
	var out *sentinel.Finding
	err := e.DB.Update(ctx, func(tx Tx) error {
		f, err := tx.FindingForUpdate(ctx, org.ID, id)
		if err != nil {
			return err
		}
		changed := false
		if u.Status != nil && *u.Status != f.Status {
			prev := f.Status
			reason := ""
			if u.Reason != nil {
				reason = *u.Reason
			}
			switch *u.Status {
			case sentinel.StatusAccepted:
				if reason == "" {
					return sentinel.InvalidField("reason", "accepting a risk needs a reason")
				}
				if u.AcceptedUntil == nil || !u.AcceptedUntil.After(tx.Now()) || u.AcceptedUntil.Sub(tx.Now()) > MaxAcceptance {
					return sentinel.InvalidField("accepted_until", "accepting a risk needs accepted_until, a time in the next 366 days")
				}
				t := u.AcceptedUntil.UTC().Truncate(time.Millisecond)
				f.AcceptedUntil = &t
			case sentinel.StatusFalsePositive:
				if reason == "" {
					return sentinel.InvalidField("reason", "marking a false positive needs a reason")
				}
				f.AcceptedUntil = nil
			case sentinel.StatusOpen:
				if f.Status == sentinel.StatusResolved {
					return sentinel.InvalidField("status", "a resolved finding reopens by itself when its component comes back")
				}
				f.AcceptedUntil = nil
			case sentinel.StatusResolved:
				return sentinel.InvalidField("status", "findings are resolved by the next scan or SBOM that no longer has the component")
			default:
				return sentinel.InvalidField("status", "status must be open, accepted or false_positive")
			}
			f.Status, f.StatusReason = *u.Status, reason
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
			if err := emitStatus(ctx, tx, org, f, prev, actor.KeyID); err != nil {
				return err
			}
			if err := tx.Audit(ctx, org.ID, actor, "finding.status", f.ID, map[string]any{"from": prev, "to": f.Status, "reason": reason}); err != nil {
				return err
			}
			changed = true
		}
		if u.Owner != nil && *u.Owner != f.Owner {
			if len(*u.Owner) > 200 {
				return sentinel.InvalidField("owner", "owner must be at most 200 characters")
			}
			prev := f.Owner
			f.Owner = *u.Owner
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
			if _, err := tx.EmitEvent(ctx, org, sentinel.EventFindingAssigned, f.ID, map[string]any{
				"finding_id": f.ID, "asset_id": f.AssetID, "owner": f.Owner, "previous_owner": prev}); err != nil {
				return err
			}
			if err := tx.Audit(ctx, org.ID, actor, "finding.assign", f.ID, map[string]any{"from": prev, "to": f.Owner}); err != nil {
				return err
			}
			changed = true
		}
		if !changed && u.Status == nil && u.Owner == nil {
			return sentinel.Errorf(sentinel.EINVALID, "nothing to change: send status (with reason) or owner")
		}
		out = f
		return nil
	})
	if err == nil {
		e.forgetSummaries(org.ID)
	}
	return out, err
}

// Sweep emits finding.sla_breached once per breach and reopens accepted
// findings whose acceptance ran out. It runs as a periodic job.
func (e *Engine) Sweep(ctx context.Context) (breached int, err error) {
	for {
		fs, err := e.DB.BreachedFindings(ctx, e.DB.Now(), 200)
		if err != nil {
			return breached, err
		}
		if len(fs) == 0 {
			break
		}
		for _, f := range fs {
			err := e.DB.Update(ctx, func(tx Tx) error {
				ok, err := tx.MarkSLABreached(ctx, f.ID)
				if err != nil || !ok {
					return err
				}
				org, err := e.DB.FindOrgByID(ctx, f.OrgID)
				if err != nil {
					return err
				}
				d := eventData(f)
				_, err = tx.EmitEvent(ctx, org, sentinel.EventFindingSLABreached, f.ID, struct {
					EventData
					SLAWindowHours int `json:"sla_window_hours"`
				}{d, int(sentinel.SLAWindow(f.Band) / time.Hour)})
				return err
			})
			if err != nil {
				return breached, err
			}
			breached++
		}
	}
	expired, err := e.DB.ExpiredAcceptances(ctx, e.DB.Now(), 1000)
	if err != nil {
		return breached, err
	}
	for _, x := range expired {
		err := e.DB.Update(ctx, func(tx Tx) error {
			f, err := tx.FindingForUpdate(ctx, x.OrgID, x.ID)
			if err != nil || f.Status != sentinel.StatusAccepted {
				return err
			}
			org, err := e.DB.FindOrgByID(ctx, f.OrgID)
			if err != nil {
				return err
			}
			f.Status, f.StatusReason, f.AcceptedUntil = sentinel.StatusOpen, "risk acceptance expired", nil
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
			return emitStatus(ctx, tx, org, f, sentinel.StatusAccepted, "system")
		})
		if err != nil {
			return breached, err
		}
		e.forgetSummaries(x.OrgID)
	}
	return breached, nil
}

// Resolve resolves the open and accepted findings among fs, with reason,
// each with its finding.status_changed event, and returns how many it
// resolved (archiving an indicator resolves its findings).
func (e *Engine) Resolve(ctx context.Context, org *sentinel.Organization, fs []*sentinel.Finding, reason string, actor sentinel.Actor) (int, error) {
	n := 0
	for _, x := range fs {
		var resolved bool
		err := e.DB.Update(ctx, func(tx Tx) error {
			resolved = false
			f, err := tx.FindingForUpdate(ctx, org.ID, x.ID)
			if err != nil || (f.Status != sentinel.StatusOpen && f.Status != sentinel.StatusAccepted) {
				return err
			}
			prev, now := f.Status, tx.Now()
			f.Status, f.StatusReason, f.ResolvedAt = sentinel.StatusResolved, reason, &now
			if err := tx.SaveFinding(ctx, f); err != nil {
				return err
			}
			resolved = true
			return emitStatus(ctx, tx, org, f, prev, actor.KeyID)
		})
		if err != nil {
			return n, err
		}
		if resolved {
			n++
		}
	}
	return n, nil
}
