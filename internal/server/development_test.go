package server_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
)

// TestDevelopmentFindings submits an SBOM whose vulnerable jquery only
// development needs (CycloneDX scope "excluded") and whose log4j-core is
// listed twice, once for development and once for production: jquery's
// findings say development, log4j-core's do not, the findings list
// filters on it, the daily re-match keeps it, and a later SBOM that ships
// jquery clears it.
func TestDevelopmentFindings(t *testing.T) {
	ctx := context.Background()
	s, org, key := startAcme(t)
	const (
		jquery = "pkg:npm/jquery@1.12.4"
		log4j  = "pkg:maven/org.apache.logging.log4j/log4j-core@2.12.4"
	)
	sbom := func(jqueryScope string) []byte {
		return []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[
			{"type":"library","bom-ref":"a","name":"jquery","version":"1.12.4","purl":"` + jquery + `","scope":"` + jqueryScope + `"},
			{"type":"library","bom-ref":"b","group":"org.apache.logging.log4j","name":"log4j-core","version":"2.12.4","purl":"` + log4j + `","scope":"excluded"},
			{"type":"library","bom-ref":"c","group":"org.apache.logging.log4j","name":"log4j-core","version":"2.12.4","purl":"` + log4j + `"}]}`)
	}
	list := func(query string) (code int, fs []sentinel.Finding) {
		t.Helper()
		w := do(s, "GET", "/v1/findings?"+query, key, "")
		var got struct{ Data []sentinel.Finding }
		if w.Code == 200 {
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatalf("findings: %s", w.Body)
			}
		}
		return w.Code, got.Data
	}
	// waitFor lists the open findings until every one of purl says
	// development as want.
	waitFor := func(purl string, want bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			_, fs := list("status=open&purl=" + purl)
			ok := len(fs) > 0
			for _, f := range fs {
				ok = ok && f.Development == want
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("findings of %s: want development %v, have %+v", purl, want, fs)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// only checks that a development filter lists findings of purl alone.
	only := func(query, purl string) {
		t.Helper()
		code, fs := list(query)
		if code != 200 || len(fs) == 0 {
			t.Fatalf("GET /v1/findings?%s: %d, %d findings", query, code, len(fs))
		}
		for _, f := range fs {
			if f.Purl != purl {
				t.Errorf("GET /v1/findings?%s lists %s %s", query, f.Purl, f.AdvisoryID)
			}
		}
	}

	if _, err := s.Inventory.Ingest(ctx, org, "key_test", "build-1", "", sbom("excluded")); err != nil {
		t.Fatal(err)
	}
	waitFor(jquery, true)
	waitFor(log4j, false)
	// The component search says it per host.
	for name, want := range map[string]bool{"jquery": true, "org.apache.logging.log4j:log4j-core": false} {
		w := do(s, "GET", "/api/v1/inventory/components/search?name="+name, key, "")
		var res struct {
			Details []struct {
				Host        string
				Development bool
			}
		}
		if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || len(res.Details) != 1 || res.Details[0].Development != want {
			t.Errorf("search %s: %s, want build-1 with development %v", name, w.Body, want)
		}
	}
	only("development=true", jquery)
	only("development=false", log4j)
	if code, _ := list("development=maybe"); code != 400 {
		t.Errorf("development=maybe: %d, want 400", code)
	}
	// finding.created says it to webhook consumers, for jquery's findings
	// only.
	evs, err := s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: org.ID, Type: sentinel.EventFindingCreated, Limit: 1000})
	if err != nil || len(evs) == 0 {
		t.Fatalf("finding.created events: %d, %v", len(evs), err)
	}
	for _, ev := range evs {
		var d struct {
			Purl        string
			Development *bool
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatal(err)
		}
		if (d.Purl == jquery) != (d.Development != nil && *d.Development) {
			t.Errorf("finding.created of %s: %s", d.Purl, ev.Data)
		}
	}

	// The daily re-match reads the inventory, which kept the marks.
	if err := s.Watch.Once(ctx); err != nil {
		t.Fatal(err)
	}
	only("development=true", jquery)
	only("development=false", log4j)

	// The next SBOM ships jquery: its findings are no longer development's.
	if _, err := s.Inventory.Ingest(ctx, org, "key_test", "build-1", "", sbom("required")); err != nil {
		t.Fatal(err)
	}
	waitFor(jquery, false)
	if code, fs := list("development=true"); code != 200 || len(fs) != 0 {
		t.Errorf("development=true after jquery shipped: %d %+v", code, fs)
	}
}
