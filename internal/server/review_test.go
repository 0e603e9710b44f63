package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// TestSecurityReviewFixes covers what a security probe found: loose body
// and query validation, duplicate scopes, cacheable secrets.
func TestSecurityReviewFixes(t *testing.T) {
	ctx := context.Background()
	s := servertest.Start(t)
	org, err := server.CreateOrg(ctx, s.DB, "acme", "")
	if err != nil {
		t.Fatal(err)
	}
	admin := mustKey(t, s, "acme", sentinel.AllScopes)
	call := func(method, path string, body io.Reader) (int, http.Header, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, s.APIURL()+path, body)
		req.Header.Set("Authorization", "ApiKey "+admin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, b
	}

	// Enrollment tokens: an empty body or {} is fine; malformed JSON and
	// a huge body are refused.
	for _, tc := range []struct {
		body string
		want int
	}{{"", 201}, {"{}", 201}, {"{not json", 400}, {`{"x":1}`, 400}, {strings.Repeat(" ", 50<<20) + "{}", 413}} {
		if code, h, b := call("POST", "/v1/agent/enrollment-tokens", strings.NewReader(tc.body)); code != tc.want {
			t.Errorf("enrollment token with a %d-byte body: %d %s", len(tc.body), code, b)
		} else if code == 201 && h.Get("Cache-Control") != "no-store" {
			t.Errorf("an enrollment token answer may be cached: %q", h.Get("Cache-Control"))
		}
	}

	// A new key is not cacheable, and its scopes are stored once each.
	code, h, b := call("POST", "/v1/api-keys", strings.NewReader(`{"name":"ci","scopes":["sca:read","sca:read","findings:read"]}`))
	var k struct{ Scopes []string }
	_ = json.Unmarshal(b, &k)
	if code != 201 || h.Get("Cache-Control") != "no-store" || !slices.Equal(k.Scopes, []string{"findings:read", "sca:read"}) {
		t.Errorf("create key: %d %q %s", code, h.Get("Cache-Control"), b)
	}

	// Findings filters: unknown values and garbage cursors are 400.
	for _, q := range []string{"band=urgent", "severity=severe", "category=bugs", "cursor=garbage", "status=closed", "kev=maybe", "development=yes"} {
		if code, _, b := call("GET", "/v1/findings?"+q, nil); code != 400 {
			t.Errorf("GET /v1/findings?%s: %d %s", q, code, b)
		}
	}
	// The asset filter takes a name as well as an id.
	doc := `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[{"type":"library","name":"x","version":"1","purl":"pkg:npm/jquery@1.12.4"}]}`
	if _, err := s.Inventory.Ingest(ctx, org, "key_t", "web-7", "", []byte(doc)); err != nil {
		t.Fatal(err)
	}
	var byName, byID struct{ Data []sentinel.Finding }
	servertest.SyncIntel(t, s)
	if err := s.Watch.Once(ctx); err != nil {
		t.Fatal(err)
	}
	_, _, b = call("GET", "/v1/findings?asset=web-7", nil)
	_ = json.Unmarshal(b, &byName)
	if len(byName.Data) == 0 {
		t.Fatalf("findings by asset name: %s", b)
	}
	_, _, b = call("GET", "/v1/findings?asset="+byName.Data[0].AssetID, nil)
	_ = json.Unmarshal(b, &byID)
	if len(byID.Data) != len(byName.Data) {
		t.Errorf("by id %d findings, by name %d", len(byID.Data), len(byName.Data))
	}
	if _, _, b := call("GET", "/v1/findings?asset=no-such-host", nil); !bytes.Contains(b, []byte(`"data":[]`)) {
		t.Errorf("findings of an unknown asset name: %s", b)
	}
}

// TestIntelLookupsByCVE: the KEV look-up names the advisories that carry
// the CVE, and an advisory can be looked up by its CVE.
func TestIntelLookupsByCVE(t *testing.T) {
	s, _, key := startAcme(t)
	get := func(path string, out any) int {
		req, _ := http.NewRequest("GET", s.APIURL()+path, nil)
		req.Header.Set("Authorization", "ApiKey "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_ = json.NewDecoder(resp.Body).Decode(out)
		return resp.StatusCode
	}
	var kev struct {
		KEV        bool     `json:"kev"`
		Advisories []string `json:"advisories"`
	}
	if code := get("/v1/sca/intel/kev?cve=CVE-2020-1938", &kev); code != 200 || !kev.KEV || !slices.Contains(kev.Advisories, "GHSA-c9hw-wf7x-jp9j") {
		t.Errorf("KEV look-up of Ghostcat: %d %+v", code, kev)
	}
	var alias struct {
		ID         string   `json:"id"`
		Advisories []string `json:"advisories"`
	}
	if code := get("/v1/sca/intel/advisories/CVE-2020-1938", &alias); code != 200 || !slices.Contains(alias.Advisories, "GHSA-c9hw-wf7x-jp9j") {
		t.Errorf("advisory by CVE: %d %+v", code, alias)
	}
	var rec struct{ ID string }
	if code := get("/v1/sca/intel/advisories/GHSA-c9hw-wf7x-jp9j", &rec); code != 200 || rec.ID != "GHSA-c9hw-wf7x-jp9j" {
		t.Errorf("advisory by id: %d %+v", code, rec)
	}
	if code := get("/v1/sca/intel/advisories/CVE-1999-0000", &rec); code != 404 {
		t.Errorf("unknown CVE: %d", code)
	}
}
