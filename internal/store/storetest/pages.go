package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// testPages pages through every keyset list two items at a time, checks
// that each item comes once, and that a cursor no list made is EINVALID,
// never an empty page.
func testPages(t *testing.T, db *store.DB) {
	ctx := context.Background()
	org := MustOrg(t, db, "pages")
	const n = 5
	err := db.InTx(ctx, func(tx *store.Tx) error {
		for i := range n {
			if err := tx.CreateAPIKey(ctx, &sentinel.APIKey{ID: sentinel.NewID(sentinel.PrefixKey), OrgID: org.ID,
				Scopes: []string{sentinel.ScopeSCARead}, Hash: []byte{byte(i)}, CreatedBy: "t"}); err != nil {
				return err
			}
			if err := tx.CreateWebhook(ctx, &sentinel.Webhook{ID: sentinel.NewID(sentinel.PrefixWebhook), OrgID: org.ID,
				URL: "https://hooks.example/", Events: []string{"*"}, Active: true, Secret: []byte("s")}); err != nil {
				return err
			}
			if err := tx.CreateAgent(ctx, &sentinel.Agent{ID: sentinel.NewID("agt_"), OrgID: org.ID, Host: "h",
				Serial: sentinel.NewID(""), NotAfter: time.Now()}); err != nil {
				return err
			}
			if err := tx.Audit(ctx, org.ID, sentinel.Actor{KeyID: "t"}, "page.test", "x", nil); err != nil {
				return err
			}
			sub := &sentinel.Submission{ID: sentinel.NewID(sentinel.PrefixSubmission), OrgID: org.ID, Host: "h", SpecVersion: "1.5"}
			if err := tx.CreateSubmission(ctx, sub, []byte("{}"), nil); err != nil {
				return err
			}
			asset, _, err := tx.UpsertAsset(ctx, org.ID, "h", "host")
			if err != nil {
				return err
			}
			if err := tx.SaveFinding(ctx, &sentinel.Finding{OrgID: org.ID, AssetID: asset.ID,
				Purl: "pkg:npm/x@1", AdvisoryID: sentinel.NewID("GHSA-"), Category: sentinel.CategoryVulnerableComponent,
				Status: sentinel.StatusOpen, Band: sentinel.BandLow, Severity: sentinel.SeverityLow}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]func(p sentinel.Page) (int, string, error){
		"api_keys": func(p sentinel.Page) (int, string, error) {
			xs, next, err := db.ListAPIKeys(ctx, org.ID, p)
			return len(xs), next, err
		},
		"webhooks": func(p sentinel.Page) (int, string, error) {
			xs, next, err := db.ListWebhooks(ctx, org.ID, p)
			return len(xs), next, err
		},
		"agents": func(p sentinel.Page) (int, string, error) {
			xs, next, err := db.ListAgents(ctx, org.ID, p)
			return len(xs), next, err
		},
		"audit": func(p sentinel.Page) (int, string, error) {
			xs, next, err := db.FindAuditEntries(ctx, sentinel.AuditFilter{OrgID: org.ID, Action: "page.test", Page: p})
			return len(xs), next, err
		},
		"submissions": func(p sentinel.Page) (int, string, error) {
			xs, next, err := db.ListSubmissions(ctx, org.ID, time.Time{}, time.Time{}, p)
			return len(xs), next, err
		},
		"findings": func(p sentinel.Page) (int, string, error) {
			xs, next, err := db.FindFindings(ctx, sentinel.FindingFilter{OrgID: org.ID, Page: p})
			return len(xs), next, err
		},
	}
	for name, list := range lists {
		total, pages, cursor := 0, 0, ""
		for {
			k, next, err := list(sentinel.Page{Limit: 2, Cursor: cursor})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			total += k
			pages++
			if next == "" || pages > n {
				break
			}
			cursor = next
		}
		if total != n || pages != 3 {
			t.Errorf("%s: %d items in %d pages, want %d in 3", name, total, pages, n)
		}
		for _, bad := range []string{"garbage", "fnd_zzz", "%%%", "MTIz"} {
			if _, _, err := list(sentinel.Page{Limit: 2, Cursor: bad}); sentinel.ErrorCode(err) != sentinel.EINVALID {
				t.Errorf("%s with cursor %q: %v, want EINVALID", name, bad, err)
			}
		}
	}
}
