//go:build cluster

package cluster

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/agents/wire"
	"github.com/sentinel-sca/sentinel/internal/testing/sbomtest"
	"github.com/sentinel-sca/sentinel/webhook"
)

// Periods of the periodic jobs under test: short, so that a run of a
// minute covers many of them.
const (
	sweepEvery = 2 * time.Second
	watchEvery = 5 * time.Second
)

// candidates are components with real advisories or end-of-life data in
// internal/intel/testdata; the ones that match there make findings.
var candidates = []string{
	"pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30",
	"pkg:npm/lodash@4.17.15",
	"pkg:npm/jquery@1.12.4",
	"pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1",
	"pkg:pypi/django@3.2.25",
	"pkg:npm/angular@1.8.3",
	"pkg:npm/vue@2.6.14",
	"pkg:golang/stdlib@1.20.1",
	"pkg:composer/wpackagist-plugin/wp-file-manager@6.0",
}

const tomcat = "pkg:maven/org.apache.tomcat.embed/tomcat-embed-core@9.0.30"

// cluster is the system under test and what the harness saw of it.
type cluster struct {
	bin      string
	dir      string
	pg       *postgres
	redisURL string
	environ  []string
	replicas []*replica
	rr       atomic.Uint64
	http     *http.Client
	keys     map[string]string // role -> API key
	shareURL string            // the share site's public base URL (one host for all replicas)
	vuln     []string          // candidates that match

	st     *stats
	outage atomic.Bool // PostgreSQL is away: answers are counted apart
}

func TestCluster(t *testing.T) {
	duration, err := time.ParseDuration(env("SENTINEL_CLUSTER_DURATION", "45s"))
	if err != nil {
		t.Fatalf("SENTINEL_CLUSTER_DURATION: %v", err)
	}
	dir, err := os.MkdirTemp("", "sentinel-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("SENTINEL_CLUSTER_KEEP") != "" {
			fmt.Printf("harness files kept in %s (replica logs: replica-*/sentineld.log)\n", dir)
			return
		}
		os.RemoveAll(dir)
	})
	c := &cluster{dir: dir, redisURL: env("SENTINEL_CLUSTER_REDIS_URL", "redis://127.0.0.1:6379/11"), keys: map[string]string{},
		st: newStats()}
	c.http = &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32, IdleConnTimeout: 30 * time.Second},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	step := func(format string, args ...any) {
		fmt.Printf("%s  "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, args...)...)
	}

	step("building sentineld and starting a private PostgreSQL in %s", dir)
	c.bin = buildSentineld(t, dir)
	c.pg = startPostgres(t, dir)
	flushRedis(t, c.redisURL)
	t.Cleanup(func() { flushRedis(t, c.redisURL) })
	c.environ = append(os.Environ(), "SENTINEL_DATABASE_URL="+c.pg.dsn("sentinel"), "SENTINEL_MASTER_KEY="+randomHex(32),
		"SENTINEL_REDIS_URL="+c.redisURL)
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	testdata := filepath.Join(root, "internal", "intel", "testdata")

	step("migrating, creating the organization and keys, importing intel (OSV and end-of-life; KEV comes later)")
	c.cli(t, "migrate")
	c.cli(t, "admin", "create-org", "--slug", "cluster", "--name", "Cluster harness")
	for _, m := range []string{"scans", "sbom_submissions"} {
		c.cli(t, "admin", "set-meter", "--org", "cluster", "--meter", m, "--limit", "unlimited")
	}
	for _, role := range []string{"admin", "gate", "updates", "bundles", "reads", "probe0", "probe1", "probe2", "agents"} {
		c.keys[role] = c.cli(t, "admin", "create-key", "--org", "cluster", "--scopes", "*", "--name", role)
	}
	c.cli(t, "intel", "sync", "--osv", filepath.Join(testdata, "osv"), "--eol", filepath.Join(testdata, "eol"))

	step("starting 3 replicas")
	c.shareURL = fmt.Sprintf("http://127.0.0.1:%d", freePort(t)) // the load balancer's share address
	for i := range 3 {
		r := &replica{n: i, api: fmt.Sprintf("127.0.0.1:%d", freePort(t)), agent: fmt.Sprintf("127.0.0.1:%d", freePort(t)),
			share: fmt.Sprintf("127.0.0.1:%d", freePort(t)), dir: filepath.Join(dir, fmt.Sprintf("replica-%d", i)), environ: c.environ}
		if err := os.MkdirAll(r.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		r.args = []string{"serve", "--data", r.dir, "--addr", r.api, "--agent-addr", r.agent, "--share-addr", r.share,
			"--share-url", c.shareURL, "--intel-feeds", "off", "--allow-private-targets", "--log-level", "warn",
			"--sweep-interval", sweepEvery.String(), "--watch-interval", watchEvery.String()}
		if err := r.start(t, c.bin); err != nil {
			t.Fatal(err)
		}
		c.replicas = append(c.replicas, r)
	}
	t.Cleanup(func() {
		for _, r := range c.replicas {
			r.stop()
		}
	})

	ctx := context.Background()
	c.vuln = c.matching(t)
	step("%d of %d candidate components have advisories or end-of-life data: %s", len(c.vuln), len(candidates), strings.Join(c.vuln, " "))
	if len(c.vuln) < 4 {
		t.Fatalf("too few matching components to drive findings")
	}

	rcv := newReceiver(t)
	hooks := rcv.register(t, c, 2)
	var startSeq int64
	c.sql(t).QueryRow(`SELECT COALESCE(MAX(seq), 0) FROM events`).Scan(&startSeq)
	agents := c.enroll(t, 4)
	step("enrolled %d agents over the agent listeners; webhooks %s -> %s (failing half the time)", len(agents), strings.Join(hooks, ", "), rcv.url)

	// Load, faults, then checks.
	step("load for %s: SBOM submissions (mutual TLS), gate calls, finding updates, bundles and share sessions; replicas killed with SIGKILL; PostgreSQL restarted once", duration)
	lctx, stopLoad := context.WithTimeout(ctx, duration)
	var wg sync.WaitGroup
	subs := &submissions{byID: map[string]string{}}
	for i, a := range agents {
		wg.Add(1)
		go func() { defer wg.Done(); c.submitLoop(lctx, a, i, subs) }()
	}
	wg.Add(4)
	go func() { defer wg.Done(); c.gateLoop(lctx) }()
	go func() { defer wg.Done(); c.updateLoop(lctx) }()
	share := &shareStats{}
	go func() { defer wg.Done(); c.bundleLoop(lctx, share) }()
	fault := &pgFault{}
	go func() { defer wg.Done(); c.chaos(lctx, t, duration, fault) }()
	wg.Wait()
	stopLoad()
	for _, r := range c.replicas {
		if !r.alive.Load() {
			if err := r.start(t, c.bin); err != nil {
				t.Fatal(err)
			}
		}
	}

	step("load over; checking that rate limits hold across replicas")
	rl := c.rateLimit(t)

	step("importing the KEV catalog with sentineld intel sync; waiting for every replica to see it")
	intelLag := c.intelVisible(t, filepath.Join(testdata, "kev", "known_exploited_vulnerabilities.json"))

	step("waiting for every event to reach both webhooks")
	drainStart := time.Now()
	events := c.drain(t, rcv, startSeq)
	drained := time.Since(drainStart)

	// Checks.
	var failures []string
	fail := func(format string, args ...any) {
		failures = append(failures, fmt.Sprintf(format, args...))
	}
	db := c.sql(t)
	stored, dupFindings, liveMismatch := c.checkSubmissions(t, db, subs, fail)
	deliveredOnce, redelivered, orderViolations, missing := rcv.check(events, hooks, fail)
	periodic := c.checkPeriodic(t, db, fault.down, fail)
	failedJobs := c.failedJobs(t, db)
	if n := failedJobs["findings.reconcile"]; n > 0 {
		fail("%d reconcile jobs failed for good", n)
	}
	if !rl.ok {
		fail("rate limit: %s", rl.detail)
	}
	for i, d := range intelLag {
		if d > time.Second || d < 0 {
			fail("replica %d saw the intel sync after %s (limit 1 s)", i, d)
		}
	}
	if share.opened.Load() == 0 || share.crossOK.Load() != share.opened.Load() {
		fail("share sessions: %d opened, %d worked on another replica", share.opened.Load(), share.crossOK.Load())
	}
	if fault.recovered <= 0 {
		fail("the service did not recover after the PostgreSQL restart")
	}
	s := c.st.snapshot()
	if s.status500 > 0 {
		fail("%d answers were 500: %s", s.status500, strings.Join(s.samples500, "; "))
	}
	if s.timeouts > 0 {
		fail("%d requests hung past the client's 15 s timeout", s.timeouts)
	}
	if s.outage[500] > 0 || s.outageTimeouts > 0 {
		fail("while PostgreSQL was away: %d answers were 500, %d hung", s.outage[500], s.outageTimeouts)
	}
	if s.outage[503] == 0 {
		fail("no 503 while PostgreSQL was away")
	}
	for op, m := range s.ops {
		if strings.HasSuffix(op, "(503 without Retry-After)") || op == "gate (wrong verdict)" {
			fail("%s: %d times", op, m[-1])
		}
	}
	if rcv.badSignatures.Load() > 0 {
		fail("%d webhook deliveries failed signature verification", rcv.badSignatures.Load())
	}

	// Figures.
	kills := 0
	for _, r := range c.replicas {
		kills += int(r.kills.Load())
	}
	fmt.Printf("\n==== Sentinel cluster harness: 3 replicas, one PostgreSQL, one Redis; %s of load ====\n", duration)
	fmt.Printf("requests accepted (2xx)         %d of %d answered (%s)\n", s.accepted, s.answered, s.byOp())
	fmt.Printf("SBOM submissions answered 201   %d, all stored: %v (%d stored in all, incl. answers lost to kills)\n", len(subs.byID), stored == len(subs.byID), subs.storedTotal)
	fmt.Printf("duplicate findings              %d (findings differing from the host's live SBOM: %d)\n", dupFindings, liveMismatch)
	fmt.Printf("events                          %d, delivered to each of %d webhooks at least once: %d deliveries; missing %d\n", len(events), len(hooks), deliveredOnce, missing)
	fmt.Printf("redeliveries (at-least-once)    %d; receiver answered 500 to %d attempts; per-subject order violations %d\n", redelivered, rcv.failed.Load(), orderViolations)
	fmt.Printf("periodic jobs                   %s\n", periodic)
	fmt.Printf("failed jobs                     %v\n", failedJobs)
	fmt.Printf("rate limit across replicas      %s\n", rl.detail)
	fmt.Printf("share sessions                  %d opened on one replica, %d used on another, %d bundles downloaded from a third\n", share.opened.Load(), share.crossOK.Load(), share.downloads.Load())
	fmt.Printf("intel sync visible after        %s (replicas 0, 1, 2)\n", fmtDurations(intelLag))
	fmt.Printf("replica kills survived          %d (SIGKILL, restarted each time)\n", kills)
	fmt.Printf("PostgreSQL restart              down %s; during it %d answers 503, %d answers 500, %d other, %d hung; recovered %s after it was back\n",
		fault.down.Round(time.Millisecond), s.outage[503], s.outage[500], s.outageOther(), s.outageTimeouts, fault.recovered.Round(time.Millisecond))
	fmt.Printf("answers 500 / hung requests     %d / %d; connection errors (killed replicas) %d\n", s.status500, s.timeouts, s.transport)
	fmt.Printf("drain (deliveries to finish)    %s\n", drained.Round(time.Millisecond))
	if len(failures) > 0 {
		fmt.Printf("FAILED CHECKS:\n  - %s\n", strings.Join(failures, "\n  - "))
		t.Fail()
	} else {
		fmt.Printf("all checks passed\n")
	}
}

func fmtDurations(ds []time.Duration) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Round(time.Millisecond).String())
	}
	return strings.Join(out, ", ")
}

// sql opens the shared database for the checks.
func (c *cluster) sql(t *testing.T) *sql.DB {
	db, err := sql.Open("pgx", c.pg.dsn("sentinel"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// ---- requests ----

// next returns the next live replica, round robin: the harness is the
// load balancer.
func (c *cluster) next() *replica {
	for range 2 * len(c.replicas) {
		r := c.replicas[c.rr.Add(1)%uint64(len(c.replicas))]
		if r.alive.Load() {
			return r
		}
	}
	return c.replicas[c.rr.Add(1)%uint64(len(c.replicas))]
}

// call sends one API request as op with key to rep (nil: the next live
// replica; a request that could not connect goes to the next one) and
// decodes a 2xx answer into out. It returns the status, 0 when there was
// no answer.
func (c *cluster) call(ctx context.Context, op string, rep *replica, method, path, key string, body, out any) (int, []byte) {
	var data []byte
	if body != nil {
		data, _ = json.Marshal(body)
	}
	for attempt := 0; ; attempt++ {
		r := rep
		if r == nil {
			r = c.next()
		}
		req, _ := http.NewRequestWithContext(ctx, method, r.URL()+path, bytes.NewReader(data))
		req.Header.Set("Authorization", "ApiKey "+key)
		req.Header.Set("Content-Type", "application/json")
		status, b, err := c.do(op, req)
		if err != nil && isDialError(err) && rep == nil && attempt < 3 {
			continue
		}
		if status/100 == 2 && out != nil {
			_ = json.Unmarshal(b, out)
		}
		return status, b
	}
}

// do sends req and records the outcome under op.
func (c *cluster) do(op string, req *http.Request) (int, []byte, error) {
	return c.doWith(c.http, op, req)
}

func (c *cluster) doWith(cl *http.Client, op string, req *http.Request) (int, []byte, error) {
	resp, err := cl.Do(req)
	if err != nil {
		if req.Context().Err() == nil {
			c.st.record(op, 0, nil, err, c.outage.Load())
		}
		return 0, nil, err
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	c.st.record(op, resp.StatusCode, b, nil, c.outage.Load())
	if resp.StatusCode == 503 && resp.Header.Get("Retry-After") == "" && !strings.Contains(string(b), "Not ready yet") {
		c.st.record(op+" (503 without Retry-After)", -1, b, nil, false)
	}
	return resp.StatusCode, b, nil
}

// matching asks the service which candidates have advisories or
// end-of-life data.
func (c *cluster) matching(t *testing.T) []string {
	var mr sentinel.MatchResponse
	if st, b := c.call(context.Background(), "match", nil, "POST", "/v1/sca/match", c.keys["admin"], map[string]any{"purls": candidates}, &mr); st != 200 {
		t.Fatalf("match: %d %s", st, b)
	}
	var out []string
	for _, r := range mr.Results {
		if len(r.Matches) > 0 || (r.EOL != nil && r.EOL.EOL) {
			out = append(out, r.Purl)
		}
	}
	return out
}

// ---- agents ----

type agent struct {
	host string
	key  string
	cl   *http.Client
}

// enroll enrolls n hosts the way sentinel enroll does: a one-time token
// from the API, the listener's CA checked against the token's pin, a CSR,
// and a client certificate back.
func (c *cluster) enroll(t *testing.T, n int) []*agent {
	var out []*agent
	for i := range n {
		var tr wire.TokenResponse
		if st, b := c.call(context.Background(), "enrollment token", nil, "POST", "/v1/agent/enrollment-tokens", c.keys["admin"], struct{}{}, &tr); st != 201 {
			t.Fatalf("enrollment token: %d %s", st, b)
		}
		tok, err := wire.ParseEnrollmentToken(tr.Token)
		if err != nil {
			t.Fatal(err)
		}
		pinned := &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{
			NextProtos: []string{wire.EnrollProto, "http/1.1"}, InsecureSkipVerify: true,
			VerifyConnection: func(cs tls.ConnectionState) error {
				for _, crt := range cs.PeerCertificates[1:] {
					if sha256.Sum256(crt.Raw) == tok.CAFingerprint {
						return nil
					}
				}
				return errors.New("the listener's chain lacks the pinned CA")
			}}}}
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		host := fmt.Sprintf("host-%d", i)
		csr, _ := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: host}}, key)
		body, _ := json.Marshal(wire.EnrollRequest{Token: tr.Token, CSR: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: csr}))})
		r := c.replicas[i%len(c.replicas)]
		req, _ := http.NewRequest("POST", r.AgentURL()+wire.PathEnroll, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		st, b, err := c.doWith(pinned, "enroll", req)
		if err != nil || st != 201 {
			t.Fatalf("enroll %s: %d %s %v", host, st, b, err)
		}
		var er wire.EnrollResponse
		if err := json.Unmarshal(b, &er); err != nil {
			t.Fatal(err)
		}
		kd, _ := x509.MarshalPKCS8PrivateKey(key)
		cert, err := tls.X509KeyPair([]byte(er.Certificate), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd}))
		if err != nil {
			t.Fatal(err)
		}
		roots := x509.NewCertPool()
		roots.AppendCertsFromPEM([]byte(er.ServerCA))
		// One API key per agent: submissions are limited to 60 a minute
		// per key, across replicas.
		k := c.cli(t, "admin", "create-key", "--org", "cluster", "--scopes", "sca:submit,sca:read", "--name", host)
		out = append(out, &agent{host: host, key: k, cl: &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{
			TLSClientConfig: &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: roots}}}})
	}
	return out
}

// submissions are the ones answered 201: id -> host.
type submissions struct {
	mu          sync.Mutex
	byID        map[string]string
	storedTotal int
}

// sbom is a CycloneDX 1.5 document: sbomtest's generated components plus
// some of the vulnerable ones.
func (c *cluster) sbom(r *mrand.Rand) []byte {
	var doc map[string]any
	_ = json.Unmarshal(sbomtest.Generate(12, 16, r.Uint64()), &doc)
	comps, _ := doc["components"].([]any)
	for _, p := range c.vuln {
		if r.IntN(2) == 0 {
			continue
		}
		name, version, _ := strings.Cut(p[strings.LastIndex(p, "/")+1:], "@")
		comps = append(comps, map[string]any{"type": "library", "bom-ref": p, "name": name, "version": version, "purl": p})
	}
	doc["components"] = comps
	b, _ := json.Marshal(doc)
	return b
}

func (c *cluster) submitLoop(ctx context.Context, a *agent, i int, subs *submissions) {
	r := mrand.New(mrand.NewPCG(uint64(i), 7))
	tick := time.NewTicker(1100 * time.Millisecond) // under the 60 a minute of the agent's key
	defer tick.Stop()
	for ctx.Err() == nil {
		body := c.sbom(r)
		for attempt := 0; attempt < 3; attempt++ {
			rep := c.next()
			req, _ := http.NewRequestWithContext(ctx, "POST", rep.AgentURL()+wire.PathSubmit, bytes.NewReader(body))
			req.Header.Set("Authorization", "ApiKey "+a.key)
			req.Header.Set("Content-Type", "application/vnd.cyclonedx+json")
			st, b, err := c.doWith(a.cl, "sbom submit", req)
			if err != nil && isDialError(err) {
				continue
			}
			if st == 201 {
				var sr wire.SubmitResponse
				_ = json.Unmarshal(b, &sr)
				subs.mu.Lock()
				subs.byID[sr.ID] = sr.Host
				subs.mu.Unlock()
			}
			break
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
}

func (c *cluster) gateLoop(ctx context.Context) {
	for ctx.Err() == nil {
		var gr sentinel.GateResponse
		st, _ := c.call(ctx, "gate", nil, "POST", "/v1/sca/gate", c.keys["gate"], map[string]any{"project": "cluster", "purls": c.vuln}, &gr)
		if st == 200 && gr.ExitCode != 70 && gr.ExitCode != 71 {
			c.st.record("gate (wrong verdict)", -1, []byte(strconv.Itoa(gr.ExitCode)), nil, false)
		}
		sleep(ctx, 300*time.Millisecond)
	}
}

func (c *cluster) updateLoop(ctx context.Context) {
	n := 0
	for ctx.Err() == nil {
		var list struct {
			Data []sentinel.Finding `json:"data"`
		}
		if st, _ := c.call(ctx, "findings list", nil, "GET", "/v1/findings?limit=100", c.keys["reads"], nil, &list); st == 200 && len(list.Data) > 0 {
			f := list.Data[mrand.IntN(len(list.Data))]
			n++
			c.call(ctx, "finding update", nil, "PATCH", "/v1/findings/"+f.ID, c.keys["updates"], map[string]any{"owner": fmt.Sprintf("team-%d", n%5)}, nil)
		}
		sleep(ctx, 1100*time.Millisecond) // under 60 writes a minute
	}
}

type shareStats struct{ opened, crossOK, downloads atomic.Int32 }

// bundleLoop issues a bundle, opens its share session on one replica and
// uses the session on the others.
func (c *cluster) bundleLoop(ctx context.Context, s *shareStats) {
	noRedirect := &http.Client{Timeout: 15 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for ctx.Err() == nil {
		sleep(ctx, 4*time.Second)
		var br struct {
			ShareURL string `json:"share_url"`
			Password string `json:"password"`
		}
		if st, _ := c.call(ctx, "bundle issue", nil, "POST", "/v1/sca/bundles", c.keys["bundles"], map[string]any{"window_days": 30, "description": "cluster"}, &br); st != 201 {
			continue
		}
		u, err := url.Parse(br.ShareURL)
		if err != nil {
			continue
		}
		// The share URL names the load balancer; the harness sends each
		// request to a replica of its choice, with the public Host.
		at := func(r *replica, method, path string, body io.Reader) *http.Request {
			req, _ := http.NewRequestWithContext(ctx, method, "http://"+r.share+path, body)
			req.Host = u.Host
			return req
		}
		a := c.next()
		req := at(a, "POST", u.Path, strings.NewReader(url.Values{"password": {br.Password}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := noRedirect.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		var session *http.Cookie
		for _, ck := range resp.Cookies() {
			if ck.Name == "sentinel_share_session" && ck.Value != "" {
				session = ck
			}
		}
		c.st.record("share unlock", resp.StatusCode, nil, nil, c.outage.Load())
		if resp.StatusCode != http.StatusSeeOther || session == nil {
			continue
		}
		s.opened.Add(1)
		// The session on another replica: the bundle's page, not the
		// form. A 503 (PostgreSQL away) or a replica that is down is asked
		// again; the password form instead of the page is the verdict.
		ok, verdict := false, false
		for deadline := time.Now().Add(30 * time.Second); !verdict && time.Now().Before(deadline); {
			b := c.other(a)
			req, _ := http.NewRequest("GET", "http://"+b.share+u.Path, nil)
			req.Host = u.Host
			req.AddCookie(session)
			st, body, err := c.doWith(noRedirect, "share page", req)
			if err == nil && st == 200 {
				// The bundle's page (ready, or still being built), not the
				// password form that a request without a session gets.
				ok, verdict = !strings.Contains(string(body), `name="password"`), true
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		if !ok {
			if verdict {
				c.st.record("share session not shared", -1, nil, nil, false)
			} else {
				c.st.record("share page (no answer within 30 s)", -1, nil, nil, false)
				s.opened.Add(-1) // no verdict either way
			}
			continue
		}
		s.crossOK.Add(1)
		for try := 0; try < 20 && ctx.Err() == nil; try++ {
			req := at(c.next(), "GET", u.Path+"/download", nil)
			req.AddCookie(session)
			st, body, err := c.doWith(noRedirect, "share download", req)
			if err == nil && st == 200 && bytes.HasPrefix(body, []byte("PK")) {
				s.downloads.Add(1)
				break
			}
			sleep(ctx, 500*time.Millisecond)
		}
	}
}

// other returns a live replica other than r when there is one.
func (c *cluster) other(r *replica) *replica {
	for range 6 {
		if o := c.next(); o != r {
			return o
		}
	}
	return c.next()
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// ---- faults ----

type pgFault struct {
	down      time.Duration // stop to start
	recovered time.Duration // start to every replica answering again
}

// chaos kills a replica with SIGKILL every few seconds and restarts it,
// and restarts PostgreSQL once, at 40% of the run.
func (c *cluster) chaos(ctx context.Context, t *testing.T, duration time.Duration, f *pgFault) {
	pgAt := time.Now().Add(duration * 4 / 10)
	pgDone := false
	r := mrand.New(mrand.NewPCG(42, 42))
	for ctx.Err() == nil {
		sleep(ctx, time.Duration(3000+r.IntN(2500))*time.Millisecond)
		if ctx.Err() != nil {
			return
		}
		if !pgDone && time.Now().After(pgAt) {
			pgDone = true
			c.restartPostgres(t, f)
			continue
		}
		victim := c.replicas[r.IntN(len(c.replicas))]
		fmt.Printf("%s  SIGKILL replica %d\n", time.Now().Format("15:04:05.000"), victim.n)
		victim.kill()
		sleep(ctx, time.Duration(500+r.IntN(2000))*time.Millisecond)
		if err := victim.start(t, c.bin); err != nil {
			t.Errorf("restart replica %d: %v", victim.n, err)
			return
		}
		fmt.Printf("%s  replica %d back\n", time.Now().Format("15:04:05.000"), victim.n)
	}
}

// restartPostgres stops PostgreSQL (immediate mode: connections break),
// probes every replica while it is away, starts it again and measures how
// long until every replica answers an authenticated read again.
func (c *cluster) restartPostgres(t *testing.T, f *pgFault) {
	fmt.Printf("%s  PostgreSQL stop (immediate)\n", time.Now().Format("15:04:05.000"))
	c.outage.Store(true)
	stopAt := time.Now()
	if err := c.pg.stop(); err != nil {
		t.Errorf("stop PostgreSQL: %v", err)
	}
	// Probe every replica while the database is away: 503, never 500 or a hang.
	pctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
	var wg sync.WaitGroup
	for i, r := range c.replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pctx.Err() == nil {
				c.call(pctx, "probe (PostgreSQL away)", r, "GET", "/v1/findings?limit=1", c.keys[fmt.Sprintf("probe%d", i)], nil, nil)
				c.call(pctx, "probe (PostgreSQL away)", r, "GET", "/readyz", "", nil, nil)
				sleep(pctx, 200*time.Millisecond)
			}
		}()
	}
	wg.Wait()
	cancel()
	if err := c.pg.start(); err != nil {
		t.Fatalf("start PostgreSQL: %v", err)
	}
	up := time.Now()
	f.down = up.Sub(stopAt)
	fmt.Printf("%s  PostgreSQL started again after %s\n", up.Format("15:04:05.000"), f.down.Round(time.Millisecond))
	c.outage.Store(false)
	deadline := up.Add(60 * time.Second)
	for time.Now().Before(deadline) {
		ok := true
		for i, r := range c.replicas {
			if !r.alive.Load() {
				continue
			}
			st, _ := c.call(context.Background(), "probe (recovery)", r, "GET", "/v1/findings?limit=1", c.keys[fmt.Sprintf("probe%d", i)], nil, nil)
			rd, _ := c.call(context.Background(), "probe (recovery)", r, "GET", "/readyz", "", nil, nil)
			ok = ok && st == 200 && rd == 200
		}
		if ok {
			f.recovered = time.Since(up)
			fmt.Printf("%s  every replica answers again, %s after PostgreSQL came back\n", time.Now().Format("15:04:05.000"), f.recovered.Round(time.Millisecond))
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ---- after the load ----

type rateLimitResult struct {
	ok     bool
	detail string
}

// rateLimit sends 61 writes with a new key, round robin across the
// replicas: the 61st must be 429 whichever replica answers it.
func (c *cluster) rateLimit(t *testing.T) rateLimitResult {
	key := c.cli(t, "admin", "create-key", "--org", "cluster", "--scopes", "*", "--name", "rate-limit")
	var list struct {
		Data []sentinel.Finding `json:"data"`
	}
	if st, b := c.call(context.Background(), "findings list", nil, "GET", "/v1/findings?limit=1", c.keys["reads"], nil, &list); st != 200 || len(list.Data) == 0 {
		return rateLimitResult{false, fmt.Sprintf("no finding to update: %d %s", st, b)}
	}
	codes := map[int]int{}
	var last int
	for i := range 61 {
		r := c.replicas[i%len(c.replicas)]
		last, _ = c.call(context.Background(), "rate-limit write", r, "PATCH", "/v1/findings/"+list.Data[0].ID, key, map[string]any{"owner": "rate-limit"}, nil)
		codes[last]++
	}
	res := rateLimitResult{ok: codes[200] == 60 && last == 429,
		detail: fmt.Sprintf("61 writes with a new key, round robin over 3 replicas: %d answered 200, the 61st %d (replica %d)", codes[200], last, 60%len(c.replicas))}
	return res
}

// intelVisible imports the KEV catalog with the command line and returns,
// per replica, how long after the command ended its match API reported
// Ghostcat as known-exploited.
func (c *cluster) intelVisible(t *testing.T, kev string) []time.Duration {
	c.cli(t, "intel", "sync", "--kev", kev)
	done := time.Now()
	out := make([]time.Duration, len(c.replicas))
	var wg sync.WaitGroup
	for i, r := range c.replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = -1
			for time.Since(done) < 10*time.Second {
				var mr sentinel.MatchResponse
				if st, _ := c.call(context.Background(), "match (intel visibility)", r, "POST", "/v1/sca/match", c.keys[fmt.Sprintf("probe%d", i)],
					map[string]any{"purls": []string{tomcat}}, &mr); st == 200 {
					for _, res := range mr.Results {
						for _, m := range res.Matches {
							if m.KEV {
								out[i] = time.Since(done)
								return
							}
						}
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	return out
}

// event is one event from the outbox.
type event struct {
	id, typ, subject string
	seq              int64
}

// drain waits until the background work is done (no reconcile or watch
// job pending) and every event since startSeq reached every webhook, and
// returns those events.
func (c *cluster) drain(t *testing.T, rcv *receiver, startSeq int64) []event {
	db := c.sql(t)
	deadline := time.Now().Add(4 * time.Minute)
	var events []event
	for time.Now().Before(deadline) {
		var pending int
		_ = db.QueryRow(`SELECT COUNT(*) FROM jobs WHERE state IN ('available', 'running') AND kind IN ('findings.reconcile', 'sbom.watch.sync')`).Scan(&pending)
		var unfanned int
		_ = db.QueryRow(`SELECT COUNT(*) FROM events WHERE NOT fanned_out`).Scan(&unfanned)
		events = events[:0]
		rows, err := db.Query(`SELECT id, type, subject, seq FROM events WHERE seq > $1 ORDER BY seq`, startSeq)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var e event
			_ = rows.Scan(&e.id, &e.typ, &e.subject, &e.seq)
			events = append(events, e)
		}
		rows.Close()
		if pending == 0 && unfanned == 0 && rcv.hasAll(events) {
			return events
		}
		time.Sleep(500 * time.Millisecond)
	}
	return events
}

// checkSubmissions checks that every submission answered 201 is stored,
// that no finding exists twice, and that each host's open findings are
// exactly those of its live (newest) submission's components.
func (c *cluster) checkSubmissions(t *testing.T, db *sql.DB, subs *submissions, fail func(string, ...any)) (stored, dups, mismatch int) {
	ids := map[string]bool{}
	rows, err := db.Query(`SELECT id FROM sbom_submissions`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		ids[id] = true
	}
	rows.Close()
	subs.storedTotal = len(ids)
	for id := range subs.byID {
		if ids[id] {
			stored++
		} else {
			fail("submission %s was answered 201 but is not stored", id)
		}
	}
	_ = db.QueryRow(`SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT COUNT(*) AS n FROM findings GROUP BY org_id, asset_id, purl, advisory_id HAVING COUNT(*) > 1) d`).Scan(&dups)
	var created int
	_ = db.QueryRow(`SELECT COALESCE(SUM(n - 1), 0) FROM (SELECT COUNT(*) AS n FROM events WHERE type = 'finding.created' GROUP BY subject HAVING COUNT(*) > 1) d`).Scan(&created)
	if dups > 0 || created > 0 {
		fail("%d duplicate findings, %d findings created more than once", dups, created)
	}
	dups += created
	// Purls that make findings at all.
	vuln := map[string]bool{}
	rows, _ = db.Query(`SELECT DISTINCT purl FROM findings`)
	for rows.Next() {
		var p string
		_ = rows.Scan(&p)
		vuln[p] = true
	}
	rows.Close()
	rows, err = db.Query(`SELECT l.host, l.source_id FROM inventory_live l`)
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]string{}
	for rows.Next() {
		var h, s string
		_ = rows.Scan(&h, &s)
		live[h] = s
	}
	rows.Close()
	for host, sub := range live {
		want := map[string]bool{}
		rs, _ := db.Query(`SELECT DISTINCT purl FROM inventory WHERE submission_id = $1`, sub)
		for rs.Next() {
			var p string
			_ = rs.Scan(&p)
			if vuln[p] {
				want[p] = true
			}
		}
		rs.Close()
		got := map[string]bool{}
		rs, _ = db.Query(`SELECT DISTINCT f.purl FROM findings f JOIN assets a ON a.id = f.asset_id
			WHERE a.name = $1 AND f.source = 'sbom' AND f.status IN ('open', 'accepted')`, host)
		for rs.Next() {
			var p string
			_ = rs.Scan(&p)
			got[p] = true
		}
		rs.Close()
		for p := range want {
			if !got[p] {
				mismatch++
				fail("host %s: %s is in its live SBOM %s but has no open finding", host, p, sub)
			}
		}
		for p := range got {
			if !want[p] {
				mismatch++
				fail("host %s: open finding for %s, which its live SBOM %s does not have", host, p, sub)
			}
		}
	}
	return stored, dups, mismatch
}

// checkPeriodic checks from the jobs table that each periodic job was
// enqueued at most once per period, and in every period but those while
// PostgreSQL was down (skipped by design, not made up later) and a few
// whose previous run was still going.
func (c *cluster) checkPeriodic(t *testing.T, db *sql.DB, down time.Duration, fail func(string, ...any)) string {
	var parts []string
	for _, p := range []struct {
		name  string
		every time.Duration
	}{{"findings.sweep", sweepEvery}, {"sbom.watch", watchEvery}} {
		var next int64
		if err := db.QueryRow(`SELECT next_run FROM periodic_jobs WHERE name = $1`, p.name).Scan(&next); err != nil {
			fail("periodic job %s was never scheduled: %v", p.name, err)
			continue
		}
		rows, err := db.Query(`SELECT created_at, state FROM jobs WHERE kind = $1 ORDER BY created_at`, p.name)
		if err != nil {
			t.Fatal(err)
		}
		perPeriod := map[int64]int{}
		states := map[string]int{}
		var first, last int64
		for rows.Next() {
			var at int64
			var state string
			_ = rows.Scan(&at, &state)
			step := p.every.Milliseconds()
			k := (at - next) / step
			if (at-next)%step < 0 {
				k--
			}
			perPeriod[k]++
			states[state]++
			if first == 0 {
				first = k
			}
			last = k
		}
		rows.Close()
		twice := 0
		for _, n := range perPeriod {
			if n > 1 {
				twice++
			}
		}
		if twice > 0 {
			fail("%s: %d periods enqueued the job more than once", p.name, twice)
		}
		if states["failed"] > 0 {
			fail("%s: %d runs failed", p.name, states["failed"])
		}
		span := last - first + 1
		if missed, allowed := int(span)-len(perPeriod), int(down/p.every)+3; missed > allowed {
			fail("%s: no run in %d of %d periods (at most %d expected with PostgreSQL down %s)", p.name, missed, span, allowed, down.Round(time.Second))
		}
		parts = append(parts, fmt.Sprintf("%s every %s: %d runs in %d periods, none twice (%v)", p.name, p.every, len(perPeriod), span, states))
	}
	return strings.Join(parts, "; ")
}

func (c *cluster) failedJobs(t *testing.T, db *sql.DB) map[string]int {
	out := map[string]int{}
	rows, err := db.Query(`SELECT kind, COUNT(*) FROM jobs WHERE state = 'failed' GROUP BY kind`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		_ = rows.Scan(&k, &n)
		out[k] = n
	}
	return out
}

// ---- statistics ----

type stats struct {
	mu             sync.Mutex
	ops            map[string]map[int]int
	transport      int
	timeouts       int
	outage         map[int]int
	outageTimeouts int
	samples500     []string
}

func newStats() *stats { return &stats{ops: map[string]map[int]int{}, outage: map[int]int{}} }

func (s *stats) record(op string, status int, body []byte, err error, outage bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			s.timeouts++
			if outage {
				s.outageTimeouts++
			}
		} else {
			s.transport++
		}
		return
	}
	if s.ops[op] == nil {
		s.ops[op] = map[int]int{}
	}
	s.ops[op][status]++
	if status < 0 {
		return // a harness observation, not an answer
	}
	if outage {
		s.outage[status]++
	}
	if status == 500 && len(s.samples500) < 5 {
		s.samples500 = append(s.samples500, op+": "+strings.TrimSpace(string(body)))
	}
}

type snapshot struct {
	accepted, answered, status500, timeouts, transport, outageTimeouts int
	outage                                                             map[int]int
	ops                                                                map[string]map[int]int
	samples500                                                         []string
}

func (s *stats) snapshot() snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := snapshot{timeouts: s.timeouts, transport: s.transport, outageTimeouts: s.outageTimeouts, outage: map[int]int{},
		ops: map[string]map[int]int{}, samples500: slices.Clone(s.samples500)}
	for k, v := range s.outage {
		out.outage[k] = v
	}
	for op, m := range s.ops {
		out.ops[op] = map[int]int{}
		for st, n := range m {
			out.ops[op][st] = n
			if st < 0 {
				continue
			}
			out.answered += n
			if st/100 == 2 || st == 303 {
				out.accepted += n
			}
			if st == 500 {
				out.status500 += n
			}
		}
	}
	return out
}

func (s snapshot) outageOther() int {
	n := 0
	for st, k := range s.outage {
		if st != 503 && st != 500 {
			n += k
		}
	}
	return n
}

func (s snapshot) byOp() string {
	ops := make([]string, 0, len(s.ops))
	for op := range s.ops {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	var parts []string
	for _, op := range ops {
		sts := make([]int, 0, len(s.ops[op]))
		for st := range s.ops[op] {
			sts = append(sts, st)
		}
		sort.Ints(sts)
		var codes []string
		for _, st := range sts {
			label := strconv.Itoa(st)
			if st < 0 {
				label = "seen"
			}
			codes = append(codes, fmt.Sprintf("%s:%d", label, s.ops[op][st]))
		}
		parts = append(parts, op+" "+strings.Join(codes, " "))
	}
	return "\n    " + strings.Join(parts, "\n    ")
}

// ---- the webhook receiver ----

// receiver is a loopback webhook endpoint that answers 500 to half of the
// attempts (at most twice in a row for one event, so that the run ends),
// verifies every signature, and records what it accepted.
type receiver struct {
	url           string
	mu            sync.Mutex
	secrets       map[string]string         // hook path -> secret
	fails         map[string]int            // hook + event -> failures answered
	got           map[string]map[string]int // hook path -> event id -> accepted deliveries
	order         map[string][]string       // hook path -> event ids in the order first accepted
	failed        atomic.Int32
	badSignatures atomic.Int32
	paths         []string
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{secrets: map[string]string{}, fails: map[string]int{}, got: map[string]map[string]int{}, order: map[string][]string{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rc.url = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(rc.serve)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	secret := rc.secrets[r.URL.Path]
	rc.mu.Unlock()
	if err := webhook.Verify(secret, r.Header.Get(webhook.HeaderSignature), body, 5*time.Minute); err != nil {
		rc.badSignatures.Add(1)
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var env struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(body, &env)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	k := r.URL.Path + " " + env.ID
	if rc.got[r.URL.Path][env.ID] == 0 && rc.fails[k] < 2 && mrand.IntN(2) == 0 {
		rc.fails[k]++
		rc.failed.Add(1)
		http.Error(w, "failing on purpose", http.StatusInternalServerError)
		return
	}
	if rc.got[r.URL.Path] == nil {
		rc.got[r.URL.Path] = map[string]int{}
	}
	if rc.got[r.URL.Path][env.ID] == 0 {
		rc.order[r.URL.Path] = append(rc.order[r.URL.Path], env.ID)
	}
	rc.got[r.URL.Path][env.ID]++
	w.WriteHeader(http.StatusNoContent)
}

// register creates n webhooks subscribed to every event.
func (rc *receiver) register(t *testing.T, c *cluster, n int) []string {
	var ids []string
	for i := range n {
		path := fmt.Sprintf("/hook/%d", i)
		var wh struct {
			ID     string `json:"id"`
			Secret string `json:"secret"`
		}
		if st, b := c.call(context.Background(), "webhook create", nil, "POST", "/v1/webhooks", c.keys["admin"],
			map[string]any{"url": rc.url + path, "events": []string{"*"}, "description": "cluster harness"}, &wh); st != 201 {
			t.Fatalf("create webhook: %d %s", st, b)
		}
		rc.mu.Lock()
		rc.secrets[path] = wh.Secret
		rc.paths = append(rc.paths, path)
		rc.mu.Unlock()
		ids = append(ids, wh.ID)
	}
	return ids
}

func (rc *receiver) hasAll(events []event) bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, p := range rc.paths {
		for _, e := range events {
			if rc.got[p][e.id] == 0 {
				return false
			}
		}
	}
	return true
}

// check compares what the receiver accepted with the outbox: every event
// at least once per webhook, and for each subject (a finding) the events
// first accepted in the order they were written.
func (rc *receiver) check(events []event, hooks []string, fail func(string, ...any)) (delivered, redelivered, violations, missing int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	bySeq := map[string]event{}
	for _, e := range events {
		bySeq[e.id] = e
	}
	for _, p := range rc.paths {
		for _, e := range events {
			switch n := rc.got[p][e.id]; {
			case n == 0:
				missing++
			default:
				delivered++
				redelivered += n - 1
			}
		}
		last := map[string]int64{}
		for _, id := range rc.order[p] {
			e, ok := bySeq[id]
			if !ok || e.subject == "" {
				continue
			}
			if e.seq < last[e.subject] {
				violations++
				if violations <= 5 {
					fail("%s: event %s (%s, seq %d) of %s accepted after a later one", p, e.id, e.typ, e.seq, e.subject)
				}
			}
			last[e.subject] = max(last[e.subject], e.seq)
		}
	}
	if missing > 0 {
		fail("%d event deliveries never succeeded (of %d events x %d webhooks)", missing, len(events), len(hooks))
	}
	return delivered, redelivered, violations, missing
}
