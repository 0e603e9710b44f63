package webhooks_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/server"
	"github.com/sentinel-sca/sentinel/internal/store"
	"github.com/sentinel-sca/sentinel/internal/testing/testenv"
	"github.com/sentinel-sca/sentinel/internal/webhooks"
)

// sentineld is a child process running "sentineld serve".
type sentineld struct {
	bin, data, addr string
	log             *os.File
	cmd             *exec.Cmd
}

func (p *sentineld) start(tb testing.TB) {
	tb.Helper()
	p.cmd = exec.Command(p.bin, "serve", "--data", p.data, "--addr", p.addr, "--agent-addr", "127.0.0.1:0",
		"--share-addr", "127.0.0.1:0", "--allow-private-targets", "--log-level", "warn", "--intel-feeds", "off")
	p.cmd.Env = append(os.Environ(), "SENTINEL_MASTER_KEY=") // the key file in --data
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	testenv.WaitFor(tb, 20*time.Second, "sentineld to answer /healthz", func() bool {
		resp, err := http.Get("http://" + p.addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
}

// kill sends SIGKILL: no shutdown code runs.
func (p *sentineld) kill(tb testing.TB) {
	tb.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		tb.Fatal(err)
	}
	_ = p.cmd.Wait()
}

// TestDeliveriesSurviveSIGKILL builds sentineld, runs it as a child process
// on a SQLite data directory, and kills it with SIGKILL again and again
// while the test process commits events into the same store and a receiver
// in the test process takes deliveries. After the last restart every
// committed event must have been delivered (acknowledged with 2xx) at
// least once; repeats are allowed (at least once) but must carry the same
// event id, which the receiver checks by recognising every id.
func TestDeliveriesSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills sentineld; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sentineld")
	build := exec.Command("go", "build", "-o", bin, "github.com/sentinel-sca/sentinel/cmd/sentineld")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	logf, err := os.Create(filepath.Join(dir, "sentineld.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	p := &sentineld{bin: bin, data: filepath.Join(dir, "data"), addr: addr, log: logf}
	p.start(t)
	defer func() {
		if p.cmd.ProcessState == nil {
			p.kill(t)
		}
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			t.Logf("sentineld log (last 4 KiB):\n%s", b[max(0, len(b)-4096):])
		}
	}()

	// The test process shares the SQLite file (WAL allows a second process).
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(p.data, "sentinel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	org, err := server.CreateOrg(ctx, db, "acme", "")
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := server.CreateKey(ctx, db, "acme", "t", []string{sentinel.ScopeWebhooksWrite})
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var requests, repeats int
	var violations []string
	var secret string
	var acked ledger
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc, err := readDelivery(r)
		mu.Lock()
		requests++
		if err != nil {
			violations = append(violations, err.Error())
		}
		if bad := checkHeaders(rc, r.Header.Get("Service-Event"), secret); bad != "" {
			violations = append(violations, bad)
		}
		mu.Unlock()
		time.Sleep(time.Duration(rand.IntN(4)) * time.Millisecond) // so that kills land mid-request
		if acked.ack(rc.EventID) > 1 {
			mu.Lock()
			repeats++
			mu.Unlock()
		}
		w.WriteHeader(200)
	}))
	defer recv.Close()

	var created webhooks.WithSecret
	if code := call(t, "http://"+addr, key, "POST", "/v1/webhooks", map[string]any{"url": recv.URL, "events": []string{"scan.*", "finding.*"}}, &created); code != 201 {
		t.Fatalf("create webhook: %d", code)
	}
	mu.Lock()
	secret = created.Secret
	mu.Unlock()

	var ids []string
	const rounds, perRound = 6, 400
	for round := 0; round < rounds; round++ {
		subjects := make([]string, perRound)
		for i := range subjects {
			subjects[i] = fmt.Sprintf("fnd_r%d_%d", round, i%20)
		}
		ids = append(ids, emitAll(t, db, org, sentinel.EventFindingCreated, subjects, 40, func() {
			time.Sleep(time.Duration(10+rand.IntN(30)) * time.Millisecond)
		})...)
		p.kill(t)
		p.start(t)
	}
	testenv.WaitFor(t, 60*time.Second, "every committed event delivered", func() bool { return acked.count(ids) == len(ids) })

	mu.Lock()
	defer mu.Unlock()
	for _, v := range violations[:min(20, len(violations))] {
		t.Error(v)
	}
	emitted := map[string]bool{}
	for _, id := range ids {
		emitted[id] = true
	}
	acked.mu.Lock()
	for id := range acked.acked {
		if !emitted[id] {
			t.Errorf("received event %s that was never committed", id)
		}
	}
	acked.mu.Unlock()
	t.Logf("%d events over %d SIGKILLs: %d requests, %d repeats of acknowledged events", len(ids), rounds, requests, repeats)
}
