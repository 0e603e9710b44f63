package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agent"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/inventory"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// TestInventoryCoverage submits a host's SBOM with npm packages, RHEL
// packages (whose advisories the test intel, like the default sync, does
// not have) and a component without an ecosystem: GET
// /v1/inventory/ecosystems counts each and says which are never checked.
// Another organization's inventory is not counted.
func TestInventoryCoverage(t *testing.T) {
	ctx := context.Background()
	s := servertest.Start(t)
	servertest.SyncIntel(t, s)
	org, err := server.CreateOrg(ctx, s.DB, "acme", "")
	if err != nil {
		t.Fatal(err)
	}
	other, err := server.CreateOrg(ctx, s.DB, "globex", "")
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[
		{"type":"library","bom-ref":"a","name":"lodash","version":"4.17.15","purl":"pkg:npm/lodash@4.17.15"},
		{"type":"library","bom-ref":"b","name":"jquery","version":"1.12.4","purl":"pkg:npm/jquery@1.12.4"},
		{"type":"library","bom-ref":"c","name":"openssl-libs","version":"3.0.7-27.el9","purl":"pkg:rpm/redhat/openssl-libs@3.0.7-27.el9?arch=x86_64&distro=rhel-9.4"},
		{"type":"library","bom-ref":"d","name":"bash","version":"5.1.8-9.el9","purl":"pkg:rpm/redhat/bash@5.1.8-9.el9?arch=x86_64&distro=rhel-9.4"},
		{"type":"library","bom-ref":"e","name":"bash","version":"5.1.8-9.el9","purl":"pkg:rpm/redhat/bash@5.1.8-9.el9?arch=aarch64&distro=rhel-9.4"},
		{"type":"library","bom-ref":"f","name":"vendored-thing","version":"1.0","purl":"pkg:generic/vendored-thing@1.0"}]}`
	for _, host := range []string{"web-1", "web-2"} {
		resp, err := s.Inventory.Ingest(ctx, org, "key_test", host, "", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		// The submission's answer says what is not checked (the agent
		// warns with it): bash once, though on two architectures.
		if want := []wire.UncheckedEcosystem{{Ecosystem: "", Components: 1}, {Ecosystem: "Red Hat", Components: 2}}; !slices.Equal(resp.Unchecked, want) {
			t.Errorf("submission unchecked %+v, want %+v", resp.Unchecked, want)
		}
	}
	if _, err := s.Inventory.Ingest(ctx, other, "key_test", "db-1", "", []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[
		{"type":"library","bom-ref":"a","name":"six","version":"1.16.0","purl":"pkg:pypi/six@1.16.0"}]}`)); err != nil {
		t.Fatal(err)
	}

	get := func(key string, into any) int {
		req, _ := http.NewRequest("GET", s.APIURL()+"/v1/inventory/ecosystems", nil)
		req.Header.Set("Authorization", "ApiKey "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if into != nil && resp.StatusCode == http.StatusOK {
			if err := json.Unmarshal(b, into); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
		}
		return resp.StatusCode
	}
	var c inventory.Coverage
	if code := get(mustKey(t, s, "acme", []string{sentinel.ScopeSCARead}), &c); code != http.StatusOK {
		t.Fatalf("GET /v1/inventory/ecosystems: %d", code)
	}
	want := []inventory.EcosystemCoverage{
		{EcosystemCount: sentinel.EcosystemCount{Ecosystem: "", Components: 1, Hosts: 2}},
		{EcosystemCount: sentinel.EcosystemCount{Ecosystem: "Red Hat", Components: 2, Hosts: 2}},
		{EcosystemCount: sentinel.EcosystemCount{Ecosystem: "npm", Components: 2, Hosts: 2}, Advisories: true},
	}
	if len(c.Ecosystems) != len(want) {
		t.Fatalf("ecosystems %+v, want %+v", c.Ecosystems, want)
	}
	for i := range want {
		if c.Ecosystems[i] != want[i] {
			t.Errorf("ecosystem %d: %+v, want %+v", i, c.Ecosystems[i], want[i])
		}
	}
	if c.Components != 5 || c.Unchecked != 3 {
		t.Errorf("components %d unchecked %d, want 5 and 3", c.Components, c.Unchecked)
	}
	if code := get(mustKey(t, s, "acme", []string{sentinel.ScopeFindingsRead}), nil); code != http.StatusForbidden {
		t.Errorf("without sca:read: %d, want 403", code)
	}
	var o inventory.Coverage
	get(mustKey(t, s, "globex", []string{sentinel.ScopeSCARead}), &o)
	if len(o.Ecosystems) != 1 || o.Ecosystems[0].Ecosystem != "PyPI" || !o.Ecosystems[0].Advisories || o.Components != 1 || o.Unchecked != 0 {
		t.Errorf("the other organization's coverage %+v", o)
	}
}

// TestAgentWarnsUnchecked: an enrolled agent that submits a RHEL host's
// SBOM is told, on stderr, that the service cannot check its packages.
func TestAgentWarnsUnchecked(t *testing.T) {
	ctx := context.Background()
	s, _, admin := startAcme(t)
	req, _ := http.NewRequest("POST", s.APIURL()+"/v1/agent/enrollment-tokens", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "ApiKey "+admin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct{ Token string }
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	doc := filepath.Join(t.TempDir(), "host.cdx.json")
	os.WriteFile(doc, []byte(`{"bomFormat":"CycloneDX","specVersion":"1.5","version":1,"components":[
		{"type":"library","bom-ref":"a","name":"lodash","version":"4.17.15","purl":"pkg:npm/lodash@4.17.15"},
		{"type":"library","bom-ref":"b","name":"bash","version":"5.1.8-9.el9","purl":"pkg:rpm/redhat/bash@5.1.8-9.el9?arch=x86_64&distro=rhel-9.4"}]}`), 0o600)
	env := []string{"SENTINEL_HOME=" + t.TempDir(), "SENTINEL_API_KEY=" + mustKey(t, s, "acme", []string{sentinel.ScopeSCASubmit}), "SENTINEL_SERVER=" + s.APIURL()}
	run := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		c := &agent.Command{Args: args, Stdout: &out, Stderr: &errOut, Env: env, Hostname: func() (string, error) { return "rhel-1", nil }}
		if code := agent.Main(ctx, c); code != 0 {
			t.Fatalf("sentinel %v: exit %d\n%s\n%s", args, code, out.String(), errOut.String())
		}
		return errOut.String()
	}
	run("enroll", "--agent-server", s.AgentURL(), "--token", tok.Token)
	if stderr := run("submit", doc); !strings.Contains(stderr, "not checked: 1 Red Hat.") || strings.Contains(stderr, "npm") {
		t.Errorf("submit's warning: %q", stderr)
	}
}
