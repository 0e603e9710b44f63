package portal_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/store"
)

// xss is what an attacker puts in every field they control: it breaks out
// of text, of a quoted attribute and of a URL, and carries an event
// handler.
const xss = `<script>alert(1)</script>"'><img src=x onerror=alert(2)>`

// unsafe finds markup the payload would have made had anything printed it
// raw.
var unsafe = regexp.MustCompile(`(?i)<script>alert|<img src=x|onerror=alert\(2\)>|href="javascript:|src="javascript:`)

// TestXSS puts the payload into every field an attacker (or a careless
// operator) controls, through the paths they would use, and reads every
// page that shows those fields: the payload is always escaped text.
//   - SBOM: component names, versions and purls, the metadata component
//     (what the agent of a compromised host sends);
//   - scans: detections, evidence URLs and details (what a hostile site
//     serves);
//   - findings: summary (advisory text), owner, status reason, history;
//   - webhooks: URL path and description; bundles: description; API keys,
//     users, the organization: names;
//   - reflected: search terms, filters, the sign-in page's fields.
func TestXSS(t *testing.T) {
	if !unsafe.MatchString(xss) {
		t.Fatal("the check would not see the payload printed raw")
	}
	e := mustEnv(t)
	ctx := context.Background()
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	sbom := `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,
"metadata":{"component":{"type":"application","name":` + q(xss) + `,"version":` + q(xss) + `}},
"components":[
{"type":"library","name":` + q(xss) + `,"version":` + q(xss) + `},
{"type":"library","name":"evil","version":"1.0.0","purl":` + q("pkg:npm/"+url.PathEscape(xss)+"@1.0.0") + `},
{"type":"library","name":"lodash","version":"4.17.15","purl":"pkg:npm/lodash@4.17.15"}]}`
	e.submit(t, e.org, "xss-host", sbom)

	var fid, sid, aid string
	err := e.s.DB.InTx(ctx, func(tx *store.Tx) error {
		a, _, err := tx.EnsureSite(ctx, e.org.ID, "https://evil.example", "https://evil.example/"+xss, "medium", "off")
		if err != nil {
			return err
		}
		aid = a.ID
		sc := &sentinel.Scan{ID: sentinel.NewID(sentinel.PrefixScan), OrgID: e.org.ID, AssetID: a.ID, Target: a.Target}
		sid = sc.ID
		if err := tx.CreateScan(ctx, sc); err != nil {
			return err
		}
		if _, err := tx.StartScan(ctx, sc.ID); err != nil {
			return err
		}
		sc.Status = sentinel.ScanCompleted
		sc.Error = xss
		sc.Detections = []sentinel.Detection{{Name: xss, Version: xss, Purl: "pkg:npm/" + url.PathEscape(xss) + "@1", Confidence: 80,
			Evidence: []sentinel.DetectionEvidence{{Kind: "path", URL: "https://evil.example/" + xss, Detail: xss}}}}
		sc.Stats = &sentinel.ScanStats{Reachable: false, Unreachable: xss, Truncated: []string{xss}}
		if _, err := tx.FinishScan(ctx, sc); err != nil {
			return err
		}
		f := &sentinel.Finding{OrgID: e.org.ID, AssetID: a.ID, Purl: "pkg:npm/" + url.PathEscape(xss) + "@1", AdvisoryID: "GHSA-" + xss,
			Category: sentinel.CategoryVulnerableComponent, CWE: xss, Summary: xss, Aliases: []string{xss}, Severity: "high", RiskScore: 95,
			Band: "critical", KEV: true, KEVDateAdded: xss, FixedVersions: []string{xss}, NearestFix: xss, Status: sentinel.StatusOpen,
			Compliance: []string{xss}, Source: xss, Evidence: []sentinel.FindingEvidence{{Kind: xss, Source: xss, URL: xss, Detail: xss}},
			FirstSeen: tx.Now(), LastSeen: tx.Now(), SLADueAt: tx.Now()}
		if err := tx.SaveFinding(ctx, f); err != nil {
			return err
		}
		fid = f.ID
		_, err = tx.EmitEvent(ctx, e.org, sentinel.EventFindingCreated, f.ID, map[string]string{"summary": xss})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	b := signedIn(t, e, e.org, "ana@acme.example", sentinel.RoleAdmin)
	// Through the portal's own forms: owner, reasons, webhook, bundle,
	// key, user, organization name.
	mustPost := func(from, to string, form url.Values, want int) {
		t.Helper()
		if r := b.post(from, to, form); r.status != want {
			t.Fatalf("POST %s: %d %s", to, r.status, r.text())
		}
	}
	mustPost("/findings/"+fid, "/findings/"+fid, url.Values{"action": {"assign"}, "owner": {xss}}, http.StatusSeeOther)
	mustPost("/findings/"+fid, "/findings/"+fid, url.Values{"action": {"false_positive"}, "reason": {xss}}, http.StatusSeeOther)
	mustPost("/webhooks", "/webhooks", url.Values{"url": {"http://127.0.0.1:9/" + url.PathEscape(xss)}, "events": {"*"}, "description": {xss}}, http.StatusCreated)
	mustPost("/bundles", "/bundles", url.Values{"window_days": {"7"}, "include": {"audit"}, "description": {xss}}, http.StatusCreated)
	mustPost("/settings/keys", "/settings/keys", url.Values{"name": {xss}, "scopes": {"sca:read"}}, http.StatusCreated)
	mustPost("/settings/users", "/settings/users", url.Values{"email": {"eve@acme.example"}, "name": {xss}, "role": {"viewer"}}, http.StatusCreated)
	mustPost("/settings/organization", "/settings/organization", url.Values{"name": {xss}, "catalog": {"nist-800-53"}, "share_days": {"7"}}, http.StatusSeeOther)
	// Refused forms echo what was typed: escaped too.
	rejected := []struct {
		from, to string
		form     url.Values
	}{
		{"/webhooks", "/webhooks", url.Values{"url": {xss}, "events": {xss}, "description": {xss}, "extra_events": {xss}}},
		{"/settings/keys", "/settings/keys", url.Values{"name": {xss}, "scopes": {xss}}},
		{"/settings/users", "/settings/users", url.Values{"email": {xss}, "name": {xss}, "role": {xss}}},
		{"/bundles", "/bundles", url.Values{"window_days": {xss}, "include": {xss}, "description": {xss}}},
		{"/scans", "/scans/start", url.Values{"target": {xss}}},
		{"/assets", "/assets", url.Values{"target": {xss}, "criticality": {xss}, "schedule": {xss}}},
		{"/findings/" + fid, "/findings/" + fid, url.Values{"action": {"accept"}, "reason": {xss}, "accepted_until": {xss}}},
	}
	for _, rj := range rejected {
		r := b.post(rj.from, rj.to, rj.form)
		if r.status < 400 {
			t.Errorf("POST %s with the payload: %d, want a refusal", rj.to, r.status)
		}
		if m := unsafe.FindString(r.body); m != "" {
			t.Errorf("POST %s echoes %q unescaped", rj.to, m)
		}
	}

	var whs struct{ Data []struct{ ID string } }
	key := e.mustKey(t, e.org, sentinel.AllScopes...)
	e.api(t, key, "GET", "/v1/webhooks", "", &whs)
	var subs struct{ Data []sentinel.Submission }
	e.api(t, key, "GET", "/v1/sbom/submissions", "", &subs)
	var bundles struct{ Data []struct{ ID string } }
	e.api(t, key, "GET", "/v1/sca/bundles", "", &bundles)
	pages := []string{
		"/", "/inventory?name=" + url.QueryEscape(xss), "/inventory?name=" + url.QueryEscape(xss) + "&version=" + url.QueryEscape(xss),
		"/inventory/component?name=" + url.QueryEscape(xss) + "&version=" + url.QueryEscape(xss),
		"/inventory/component?name=evil&version=1.0.0",
		"/findings", "/findings?status=any&owner=" + url.QueryEscape(xss) + "&band=" + url.QueryEscape(xss),
		"/findings?status=" + url.QueryEscape(xss), "/findings?category=" + url.QueryEscape(xss) + "&purl=" + url.QueryEscape(xss),
		"/findings/" + fid, "/assets", "/assets?name=" + url.QueryEscape(xss), "/assets/" + aid, "/scans", "/scans/" + sid,
		"/submissions", "/submissions?host=" + url.QueryEscape(xss), "/webhooks", "/webhooks/" + whs.Data[0].ID,
		"/bundles", "/bundles/" + bundles.Data[0].ID, "/settings/keys", "/settings/users", "/settings/organization", "/agents",
		"/login?org=" + url.QueryEscape(xss) + "&email=" + url.QueryEscape(xss) + "&next=" + url.QueryEscape(xss),
		"/findings/" + url.PathEscape(xss),
	}
	for _, p := range pages {
		r := b.get(p)
		if r.status >= 500 {
			t.Errorf("GET %s: %d %s", p, r.status, r.text())
		}
		if m := unsafe.FindString(r.body); m != "" {
			i := strings.Index(r.body, m)
			t.Errorf("GET %s shows %q unescaped: …%s…", p, m, r.body[max(0, i-200):min(len(r.body), i+100)])
		}
	}
	// The payload is there, as text: escaping, not dropping, keeps it.
	for _, p := range []string{"/findings/" + fid, "/scans/" + sid, "/inventory?name=" + url.QueryEscape(xss)} {
		if r := b.get(p); !strings.Contains(r.body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("GET %s does not show the payload as text", p)
		}
	}
}
