package agents_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agent"
	"github.com/sentinel-sca/sentinel/internal/agents"
	"github.com/sentinel-sca/sentinel/internal/inventory"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/testing/sbomtest"
	"github.com/sentinel-sca/sentinel/internal/testing/servertest"
)

// testEnv is a running sentineld on 127.0.0.1 with two organizations.
type testEnv struct {
	s                *server.Server
	acme, beta       *sentinel.Organization
	acmeKey, betaKey string // sca:submit and sca:read
	adminKey         string // acme, admin
}

func newEnv(t testing.TB, tweak func(*server.Server)) *testEnv {
	t.Helper()
	ctx := context.Background()
	s := servertest.Open(t)
	if tweak != nil {
		tweak(s)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	e := &testEnv{s: s}
	var err error
	if e.acme, err = server.CreateOrg(ctx, s.DB, "acme", ""); err != nil {
		t.Fatal(err)
	}
	if e.beta, err = server.CreateOrg(ctx, s.DB, "beta", ""); err != nil {
		t.Fatal(err)
	}
	e.acmeKey = mustKey(t, s, "acme", sentinel.ScopeSCASubmit, sentinel.ScopeSCARead)
	e.betaKey = mustKey(t, s, "beta", sentinel.ScopeSCASubmit, sentinel.ScopeSCARead)
	e.adminKey = mustKey(t, s, "acme", sentinel.ScopeAdmin)
	return e
}

func mustKey(t testing.TB, s *server.Server, org string, scopes ...string) string {
	t.Helper()
	_, full, err := server.CreateKey(context.Background(), s.DB, org, "t", scopes)
	if err != nil {
		t.Fatal(err)
	}
	return full
}

// token makes an enrollment token for org.
func (e *testEnv) token(t *testing.T, org *sentinel.Organization) string {
	t.Helper()
	tr, err := e.s.Agent.CreateEnrollmentToken(context.Background(), org, server.AdminActor)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Token
}

// sentinel runs the agent command line in-process with home as
// SENTINEL_HOME.
func runAgent(t *testing.T, home string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &agent.Command{Args: args, Stdout: &out, Stderr: &errb, Env: append([]string{"SENTINEL_HOME=" + home}, env...),
		Hostname: func() (string, error) { return "test-host", nil },
		Sleep:    func(context.Context, time.Duration) error { return nil }}
	code = agent.Main(context.Background(), c)
	return out.String(), errb.String(), code
}

// api calls the public API with a key and decodes the JSON answer.
func (e *testEnv) api(t *testing.T, method, path, key string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, e.s.APIURL()+path, nil)
	req.Header.Set("Authorization", "ApiKey "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
	}
	return resp.StatusCode
}

const golden = "../sbom/testdata/golden/npm-v3-retirejs-chrome.cdx.json"

var minuteRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\dZ$`)

// TestEnrollSubmitSearch runs the agent's whole path in-process: an admin
// makes a token through the API, the agent enrolls, submits a real SBOM
// and builds and submits another from a lockfile, and the inventory
// search finds the components; another organization's key can neither
// submit with this certificate nor see the inventory.
func TestEnrollSubmitSearch(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()

	// The admin route makes the token.
	req, _ := http.NewRequest("POST", e.s.APIURL()+"/v1/agent/enrollment-tokens", nil)
	req.Header.Set("Authorization", "ApiKey "+e.adminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var tr agents.TokenResponse
	_ = json.NewDecoder(resp.Body).Decode(&tr)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(tr.Token, agents.TokenPrefix) || tr.Organization != "acme" {
		t.Fatalf("create token: %d %+v", resp.StatusCode, tr)
	}
	if d := time.Until(tr.ExpiresAt); d < 23*time.Hour || d > 25*time.Hour {
		t.Errorf("token expires in %v, want 24h", d)
	}

	home := filepath.Join(t.TempDir(), "sentinel")
	out, errOut, code := runAgent(t, home, nil, "enroll", "--agent-server", e.s.AgentURL(), "--token", tr.Token)
	if code != 0 {
		t.Fatalf("enroll: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "enrolled test-host in organization acme") {
		t.Errorf("enroll output: %q", out)
	}
	for name, want := range map[string]os.FileMode{".": 0o700, "agent.key": 0o600} {
		st, err := os.Stat(filepath.Join(home, name))
		if err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", name, st.Mode().Perm(), err, want)
		}
	}
	certPEM, _ := os.ReadFile(filepath.Join(home, "agent.crt"))
	if !bytes.Contains(certPEM, []byte("BEGIN CERTIFICATE")) {
		t.Fatalf("agent.crt: %q", certPEM)
	}

	// The token is single-use.
	_, errOut, code = runAgent(t, t.TempDir(), nil, "enroll", "--agent-server", e.s.AgentURL(), "--token", tr.Token)
	if code != 1 || !strings.Contains(errOut, "unknown, already used or expired") {
		t.Errorf("second enrollment with one token: exit %d %q", code, errOut)
	}

	// Submit a real SBOM.
	out, errOut, code = runAgent(t, home, []string{"SENTINEL_API_KEY=" + e.acmeKey}, "submit", golden, "--json")
	if code != 0 {
		t.Fatalf("submit: exit %d %s", code, errOut)
	}
	var sub agents.SubmitResponse
	if err := json.Unmarshal([]byte(out), &sub); err != nil {
		t.Fatal(err)
	}
	// The SBOM was built on build-host-01 and says so; the agent that
	// submits it enrolled as test-host, which is the host; the SBOM's
	// name is kept as a claim.
	if !sentinel.HasPrefix(sub.ID, sentinel.PrefixSubmission) || sub.Host != "test-host" || sub.ClaimedHost != "build-host-01" ||
		sub.SpecVersion != "1.5" || sub.Components != 30 {
		t.Errorf("submit answer: %+v", sub)
	}

	// The original bytes are kept exactly.
	orig, _ := os.ReadFile(golden)
	body, err := e.s.DB.SubmissionBody(ctx, e.acme.ID, sub.ID)
	if err != nil || !bytes.Equal(body, orig) {
		t.Errorf("stored body differs from the submitted bytes (%v)", err)
	}
	// sbom.submitted was emitted with the submission.
	evs, _ := e.s.DB.FindEvents(ctx, sentinel.EventFilter{OrgID: e.acme.ID, Type: sentinel.EventSBOMSubmitted})
	if len(evs) != 1 || !strings.Contains(string(evs[0].Data), sub.ID) || !strings.Contains(string(evs[0].Data), sub.SHA256) {
		t.Errorf("events: %+v", evs)
	}

	// Build an SBOM from a lockfile and submit it.
	out, errOut, code = runAgent(t, home, []string{"SENTINEL_API_KEY=" + e.acmeKey}, "sbom", "--submit", "../sbom/testdata/lockfiles/cargo-ripgrep")
	if code != 0 || !strings.Contains(out, "submitted sub_") || !strings.Contains(out, "from test-host") {
		t.Fatalf("sbom --submit: exit %d\n%s%s", code, out, errOut)
	}

	// Search finds the components.
	var got inventory.SearchResult
	if st := e.api(t, "GET", "/api/v1/inventory/components/search?name=Hash.JS", e.acmeKey, &got); st != 200 {
		t.Fatalf("search: %d", st)
	}
	if got.Matches != 1 || len(got.Hosts) != 1 || got.Hosts[0] != "test-host" || got.KEV || got.FirstSeen == nil || !minuteRE.MatchString(*got.FirstSeen) {
		t.Errorf("search hash.js: %+v", got)
	}
	if st := e.api(t, "GET", "/api/v1/inventory/components/search?name=regex&version="+url.QueryEscape("1.13.1"), e.acmeKey, &got); st != 200 || got.Matches != 1 || got.Hosts[0] != "test-host" {
		t.Errorf("search regex 1.13.1: %d %+v", st, got)
	}
	var raw map[string]json.RawMessage
	e.api(t, "GET", "/api/v1/inventory/components/search?name="+url.QueryEscape("@esbuild/linux-x64")+"", e.acmeKey, &raw)
	for _, f := range []string{"matches", "hosts", "kev", "first_seen"} {
		if raw[f] == nil {
			t.Errorf("search result lacks %q", f)
		}
	}
	if st := e.api(t, "GET", "/api/v1/inventory/components/search", e.acmeKey, nil); st != 400 {
		t.Errorf("search without name: %d, want 400", st)
	}

	// Another organization sees nothing of acme's inventory or submissions.
	if e.api(t, "GET", "/api/v1/inventory/components/search?name="+url.QueryEscape("@esbuild/linux-x64")+"", e.betaKey, &got); got.Matches != 0 || len(got.Hosts) != 0 || got.FirstSeen != nil {
		t.Errorf("beta sees acme's inventory: %+v", got)
	}
	if st := e.api(t, "GET", "/v1/sbom/submissions/"+sub.ID, e.betaKey, nil); st != 404 {
		t.Errorf("beta reads acme's submission: %d", st)
	}

	// Another organization's key cannot submit with acme's certificate.
	_, errOut, code = runAgent(t, home, []string{"SENTINEL_API_KEY=" + e.betaKey}, "submit", golden)
	if code != 1 || !strings.Contains(errOut, "different organizations") || !strings.Contains(errOut, "HTTP 401") {
		t.Errorf("beta key with acme cert: exit %d %q", code, errOut)
	}

	// A known-exploited component is flagged (the intel index plugs in here).
	e.s.Inventory.KEV = kevSet{"pkg:npm/hash.js@" + firstVersion(t, e, "hash.js"): true}
	res, err := e.s.Inventory.Search(ctx, e.acme.ID, "hash.js", "")
	if err != nil || !res.KEV || len(res.Components) != 1 || !res.Components[0].KEV {
		t.Errorf("KEV search: %+v %v", res, err)
	}

	// An exhausted meter refuses with 403 metered.
	zero := 0
	if err := server.SetMeter(ctx, e.s.DB, "acme", sentinel.MeterSBOMSubmissions, &zero); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = runAgent(t, home, []string{"SENTINEL_API_KEY=" + e.acmeKey}, "submit", golden)
	if code != 1 || !strings.Contains(errOut, "(metered, HTTP 403)") {
		t.Errorf("metered: exit %d %q", code, errOut)
	}

	// A revoked agent is refused, and told why.
	var agents struct{ Data []struct{ ID, Host string } }
	if st := e.api(t, "GET", "/v1/agents", e.adminKey, &agents); st != 200 || len(agents.Data) != 1 || agents.Data[0].Host != "test-host" {
		t.Fatalf("list agents: %d %+v", st, agents)
	}
	if st := e.api(t, "POST", "/v1/agents/"+agents.Data[0].ID+"/revoke", e.adminKey, nil); st != 200 {
		t.Fatalf("revoke: %d", st)
	}
	_, errOut, code = runAgent(t, home, []string{"SENTINEL_API_KEY=" + e.acmeKey}, "submit", golden)
	if code != 1 || !strings.Contains(errOut, "this agent's certificate was revoked") {
		t.Errorf("revoked agent: exit %d %q", code, errOut)
	}
}

func firstVersion(t *testing.T, e *testEnv, name string) string {
	res, err := e.s.Inventory.Search(context.Background(), e.acme.ID, name, "")
	if err != nil || len(res.Versions) == 0 {
		t.Fatalf("search %s: %+v %v", name, res, err)
	}
	return res.Versions[0]
}

type kevSet map[string]bool

func (k kevSet) IsKEV(p string) bool { return k[p] }

// TestEnrollRefusesWrongPin checks that the agent sends nothing to a
// server whose CA does not match the token's fingerprint, and that the
// token stays usable.
func TestEnrollRefusesWrongPin(t *testing.T) {
	e := newEnv(t, nil)
	tok := e.token(t, e.acme)
	parsed, err := agents.ParseEnrollmentToken(tok)
	if err != nil {
		t.Fatal(err)
	}
	parsed.CAFingerprint[0] ^= 0xff
	home := t.TempDir()
	_, errOut, code := runAgent(t, home, nil, "enroll", "--agent-server", e.s.AgentURL(), "--token", parsed.String())
	if code != 1 || !strings.Contains(errOut, "does not contain the CA pinned by the token") {
		t.Fatalf("wrong pin: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "agent.key")); err == nil {
		t.Error("a key was saved despite the failed enrollment")
	}
	if _, errOut, code := runAgent(t, home, nil, "enroll", "--agent-server", e.s.AgentURL(), "--token", tok); code != 0 {
		t.Errorf("the token was spent by the refused attempt: %q", errOut)
	}
}

// clientCert makes a key and a certificate for it with sign.
func clientCert(t testing.TB, sign func(pub any) []byte) tls.Certificate {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der := sign(&key.PublicKey)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// foreignCert is a client certificate from a CA the service never made.
func foreignCert(t *testing.T) tls.Certificate {
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Evil CA"}, NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, _ := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	ca, _ := x509.ParseCertificate(caDER)
	return clientCert(t, func(pub any) []byte {
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "test-host"}, NotBefore: time.Now().Add(-time.Hour),
			NotAfter: time.Now().Add(time.Hour), ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
		der, _ := x509.CreateCertificate(rand.Reader, tmpl, ca, pub, caKey)
		return der
	})
}

// isTLSRefusal reports whether err is a handshake failure or a TLS alert
// from the server: the connection was refused by TLS, not by a handler.
func isTLSRefusal(err error) bool {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "remote error" {
		return true
	}
	return err != nil && strings.Contains(err.Error(), "tls:")
}

// TestHandshakeRefusals checks that the agent listener refuses, in the TLS
// handshake, a client without a certificate, with one from a foreign CA,
// and with an expired one, on TLS 1.2 (the handshake itself fails) and
// TLS 1.3 (the server's alert arrives on the first read); and that no
// handler ran (no request was logged as served: nothing was stored).
func TestHandshakeRefusals(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	serverCA, err := e.s.Agent.ServerCA(ctx)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(serverCA)
	now := time.Now()
	issue := func(nb, na time.Time) func(any) []byte {
		return func(pub any) []byte {
			der, err := e.s.Agent.IssueAgentCertificate(ctx, e.acme, pub, "test-host", nb, na)
			if err != nil {
				t.Fatal(err)
			}
			return der
		}
	}
	valid := clientCert(t, issue(now.Add(-time.Hour), now.Add(time.Hour)))
	cases := []struct {
		name  string
		certs []tls.Certificate
	}{
		{"no_certificate", nil},
		{"foreign_ca", []tls.Certificate{foreignCert(t)}},
		{"expired", []tls.Certificate{clientCert(t, issue(now.Add(-48*time.Hour), now.Add(-24*time.Hour)))}},
		{"not_yet_valid", []tls.Certificate{clientCert(t, issue(now.Add(24*time.Hour), now.Add(48*time.Hour)))}},
	}
	addr := strings.TrimPrefix(e.s.AgentURL(), "https://")
	request := "POST /sentinel/sbom/submit HTTP/1.1\r\nHost: x\r\nAuthorization: ApiKey " + e.acmeKey + "\r\nContent-Length: 2\r\n\r\n{}"
	for _, tc := range cases {
		for _, v := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
			t.Run(fmt.Sprintf("%s/tls1%d", tc.name, v-tls.VersionTLS10), func(t *testing.T) {
				conn, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: roots, ServerName: "127.0.0.1", Certificates: tc.certs,
					MinVersion: v, MaxVersion: v})
				if v == tls.VersionTLS12 && err == nil {
					conn.Close()
					t.Fatal("TLS 1.2: the handshake succeeded")
				}
				if err == nil {
					// TLS 1.3: the client's handshake ends before the server
					// has checked its certificate; the refusal is the alert.
					defer conn.Close()
					_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
					if _, err = conn.Write([]byte(request)); err == nil {
						_, err = conn.Read(make([]byte, 1))
					}
				}
				if !isTLSRefusal(err) {
					t.Fatalf("connection not refused by TLS: %v", err)
				}
			})
		}
	}
	// The control: a valid certificate gets through the handshake, and the
	// handler answers (here 201: the request carries a key).
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{valid}}}}
	resp, err := c.Post(e.s.AgentURL()+"/sentinel/sbom/submit", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("valid certificate without a key: %d, want 401 from the handler", resp.StatusCode)
	}
	subs, _, _ := e.s.DB.ListSubmissions(ctx, e.acme.ID, time.Time{}, time.Time{}, sentinel.Page{Limit: 10})
	if len(subs) != 0 {
		t.Errorf("%d submissions stored", len(subs))
	}
}

// agentClient returns an HTTP client holding a fresh, valid acme agent
// certificate.
func (e *testEnv) agentClient(t testing.TB) *http.Client {
	ctx := context.Background()
	serverCA, _ := e.s.Agent.ServerCA(ctx)
	roots := x509.NewCertPool()
	roots.AddCert(serverCA)
	cert := clientCert(t, func(pub any) []byte {
		der, err := e.s.Agent.IssueAgentCertificate(ctx, e.acme, pub, "cert-host", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return der
	})
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}}}}
}

func (e *testEnv) submitRaw(t *testing.T, c *http.Client, query string, body io.Reader) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", e.s.AgentURL()+"/sentinel/sbom/submit"+query, body)
	req.Header.Set("Authorization", "ApiKey "+e.acmeKey)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

// TestSubmitValidation covers what the submission endpoint refuses and
// how it names the host: the agent certificate does, always; a host the
// query or the SBOM gives is recorded as a claim.
func TestSubmitValidation(t *testing.T) {
	e := newEnv(t, func(s *server.Server) { s.Inventory.MaxSubmission = 4096 })
	c := e.agentClient(t)
	doc := func(spec, extra string) string {
		return `{"bomFormat":"CycloneDX","specVersion":"` + spec + `","version":1,` + extra +
			`"components":[{"type":"library","name":"Flask_Login","version":"0.6.2","purl":"pkg:pypi/Flask_Login@0.6.2"},{"type":"library","name":"internal-thing","version":"1"}]}`
	}
	tests := []struct {
		name, query, body string
		status            int
		want              string // substring of the message, or the host on success
		claimed           string // the claimed host on success
	}{
		{"cdx15_cert_host", "", doc("1.5", ""), 201, "cert-host", ""},
		{"cdx14_metadata_host_is_a_claim", "", doc("1.4", `"metadata":{"properties":[{"name":"sentinel:host","value":"meta-host"}]},`), 201, "cert-host", "meta-host"},
		{"query_host_is_a_claim", "?host=q-host", doc("1.5", `"metadata":{"properties":[{"name":"sentinel:host","value":"meta-host"}]},`), 201, "cert-host", "q-host"},
		{"cdx16_refused", "", doc("1.6", ""), 400, "CycloneDX 1.6 is not accepted", ""},
		{"cdx17_refused", "", doc("1.7", ""), 400, "CycloneDX 1.7 is not accepted", ""},
		{"cdx18_unknown", "", doc("1.8", ""), 400, "specVersion", ""},
		{"xml", "", `<bom xmlns="http://cyclonedx.org/schema/bom/1.5"/>`, 400, "XML", ""},
		{"spdx", "", `{"spdxVersion":"SPDX-2.3","SPDXID":"SPDXRef-DOCUMENT"}`, 400, "SPDX", ""},
		{"not_json", "", `{"bomFormat":`, 400, "not valid JSON", ""},
		{"empty", "", ``, 400, "CycloneDX", ""},
		{"bad_host", "?host=a%20b", doc("1.5", ""), 400, "host", ""},
		{"too_large", "", doc("1.5", `"pad":"`+strings.Repeat("x", 5000)+`",`), 413, "larger than 4096", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, m := e.submitRaw(t, c, tc.query, strings.NewReader(tc.body))
			if st != tc.status {
				t.Fatalf("status %d, want %d: %v", st, tc.status, m)
			}
			if st == 201 {
				claimed, _ := m["claimed_host"].(string)
				if m["host"] != tc.want || claimed != tc.claimed || m["indexed"] != float64(2) {
					t.Errorf("answer %v, want host %q (claimed %q) and 2 indexed", m, tc.want, tc.claimed)
				}
				return
			}
			if msg, _ := m["message"].(string); !strings.Contains(msg, tc.want) {
				t.Errorf("message %q, want it to mention %q", msg, tc.want)
			}
		})
	}
	res, _ := e.s.Inventory.Search(context.Background(), e.acme.ID, "flask-login", "0.6.2")
	if res.Matches != 3 || len(res.Hosts) != 1 || res.Hosts[0] != "cert-host" {
		t.Errorf("search after 3 accepted submissions from one agent: %+v", res)
	}
	res, _ = e.s.Inventory.Search(context.Background(), e.acme.ID, "Internal-Thing", "")
	if res.Matches != 3 {
		t.Errorf("a component without purl is searchable by name: %+v", res)
	}
}

// TestRevokedAgentLargeSBOM: a revoked agent uploading a large SBOM is
// told its certificate was revoked, every time, instead of seeing a reset
// or a broken pipe in the middle of the upload.
func TestRevokedAgentLargeSBOM(t *testing.T) {
	e := newEnv(t, nil)
	home := t.TempDir()
	if _, errOut, code := runAgent(t, home, nil, "enroll", "--agent-server", e.s.AgentURL(), "--token", e.token(t, e.acme)); code != 0 {
		t.Fatalf("enroll: %s", errOut)
	}
	big := filepath.Join(t.TempDir(), "big.cdx.json")
	if err := os.WriteFile(big, sbomtest.Generate(20_000, 600, 9), 0o644); err != nil {
		t.Fatal(err)
	}
	var agents struct{ Data []struct{ ID string } }
	e.api(t, "GET", "/v1/agents", e.adminKey, &agents)
	if st := e.api(t, "POST", "/v1/agents/"+agents.Data[0].ID+"/revoke", e.adminKey, nil); st != 200 {
		t.Fatalf("revoke: %d", st)
	}
	for i := range 5 {
		_, errOut, code := runAgent(t, home, []string{"SENTINEL_API_KEY=" + e.acmeKey}, "submit", big)
		if code != 1 || !strings.Contains(errOut, "this agent's certificate was revoked") {
			t.Errorf("attempt %d: exit %d %q", i+1, code, errOut)
		}
	}
}

// TestSubmitOfficialVectors submits the CycloneDX specification's own 1.5
// test vectors (internal/sbom/testdata/cyclonedx-spec-tests): every
// invalid one is refused with 400 and the schema's first errors (path and
// reason), and none of them is kept; every valid one is accepted.
func TestSubmitOfficialVectors(t *testing.T) {
	e := newEnv(t, nil)
	c := e.agentClient(t)
	dir := filepath.Join("..", "sbom", "testdata", "cyclonedx-spec-tests", "1.5")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) < 50 {
		t.Fatalf("vectors: %d, %v", len(files), err)
	}
	var valid, invalid int
	for _, f := range files {
		name := filepath.Base(f)
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		st, m := e.submitRaw(t, c, "", bytes.NewReader(body))
		switch {
		case strings.HasPrefix(name, "invalid-"):
			invalid++
			errs, _ := m["errors"].([]any)
			if st != 400 || m["error"] != "invalid_request" {
				t.Errorf("%s: %d %v, want 400", name, st, m)
				continue
			}
			if msg, _ := m["message"].(string); len(errs) == 0 && !strings.Contains(msg, "CycloneDX") {
				t.Errorf("%s: 400 without the schema's errors: %v", name, m)
			}
			for _, x := range errs {
				if d, _ := x.(map[string]any); d["path"] == "" || d["reason"] == "" {
					t.Errorf("%s: an error without path or reason: %v", name, x)
				}
			}
		case strings.HasPrefix(name, "valid-"):
			valid++
			if st != 201 {
				t.Errorf("%s: %d %v, want 201", name, st, m)
			}
		}
	}
	subs, _, err := e.s.DB.ListSubmissions(context.Background(), e.acme.ID, time.Time{}, time.Time{}, sentinel.Page{Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != valid || invalid < 20 {
		t.Errorf("%d submissions kept from %d valid and %d invalid vectors", len(subs), valid, invalid)
	}
	// A refused document leaves nothing behind: the schema check may end
	// after its transaction began, which then rolls back whole.
	var events, audits int
	ctx := context.Background()
	if err := e.s.DB.QueryRow(ctx, `SELECT COUNT(*) FROM events WHERE org_id = $1 AND type = $2`, e.acme.ID, sentinel.EventSBOMSubmitted).Scan(&events); err != nil {
		t.Fatal(err)
	}
	if err := e.s.DB.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE org_id = $1 AND action = 'sbom.submit'`, e.acme.ID).Scan(&audits); err != nil {
		t.Fatal(err)
	}
	if events != valid || audits != valid {
		t.Errorf("%d sbom.submitted events and %d audit entries from %d valid vectors", events, audits, valid)
	}
}
