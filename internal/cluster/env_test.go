//go:build cluster

package cluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // "pgx" driver
	"github.com/redis/go-redis/v9"
)

// env reads a setting of the harness from the environment.
func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// freePort returns a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// postgres is the harness's own PostgreSQL server: initdb into a temp
// directory, a free port, trust authentication. The machine's shared
// server is never touched.
type postgres struct {
	bin, data, sock, log string
	port                 int
	asPostgres           bool // running as root: initdb and pg_ctl as the postgres user
}

func (p *postgres) cmd(ctx context.Context, name string, args ...string) *exec.Cmd {
	path := filepath.Join(p.bin, name)
	if p.asPostgres {
		return exec.CommandContext(ctx, "runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.CommandContext(ctx, path, args...)
}

func (p *postgres) run(name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := p.cmd(ctx, name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// startPostgres initialises and starts a private server in dir.
func startPostgres(t *testing.T, dir string) *postgres {
	p := &postgres{bin: env("SENTINEL_CLUSTER_PGBIN", "/usr/lib/postgresql/15/bin"), data: filepath.Join(dir, "pgdata"),
		sock: filepath.Join(dir, "pgsock"), log: filepath.Join(dir, "postgres.log"), port: freePort(t)}
	if _, err := os.Stat(filepath.Join(p.bin, "initdb")); err != nil {
		t.Fatalf("no PostgreSQL server binaries in %s (set SENTINEL_CLUSTER_PGBIN): %v", p.bin, err)
	}
	for _, d := range []string{p.data, p.sock} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root.
		p.asPostgres = true
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root needs a postgres user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		for _, f := range []string{p.data, p.sock} {
			if err := os.Chown(f, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(p.log, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p.log, uid, gid); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.run("initdb", "-D", p.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"); err != nil {
		t.Fatal(err)
	}
	// fsync off spares the disk and survives what the harness does (the
	// server process stopped in immediate mode: what was written is in
	// the OS's cache), not a machine crash. synchronous_commit stays on:
	// off, a commit is answered before its WAL leaves the server's memory,
	// and an immediate stop loses it, which is not what is under test.
	conf := fmt.Sprintf("port = %d\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '%s'\nmax_connections = 300\n"+
		"fsync = off\nfull_page_writes = off\nshared_buffers = 64MB\n", p.port, p.sock)
	f, err := os.OpenFile(filepath.Join(p.data, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(conf)
	f.Close()
	if err := p.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.run("pg_ctl", "-D", p.data, "-m", "immediate", "stop") })
	db, err := sql.Open("pgx", p.dsn("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE DATABASE sentinel`); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p *postgres) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", p.port, db)
}

func (p *postgres) start() error {
	return p.run("pg_ctl", "-D", p.data, "-l", p.log, "-w", "-t", "60", "start")
}

// stop stops the server at once, as a crash or a failover would: open
// connections break, new ones are refused.
func (p *postgres) stop() error {
	return p.run("pg_ctl", "-D", p.data, "-m", "immediate", "-w", "stop")
}

// replica is one sentineld serve process. Its addresses stay the same
// across restarts, as a load balancer's backends do.
type replica struct {
	n                 int
	api, agent, share string // host:port
	dir               string
	args              []string
	environ           []string
	mu                sync.Mutex
	cmd               *exec.Cmd
	exited            chan struct{}
	alive             atomic.Bool
	starts, kills     atomic.Int32
}

func (r *replica) URL() string      { return "http://" + r.api }
func (r *replica) AgentURL() string { return "https://" + r.agent }

// start runs the process and waits until /healthz answers.
func (r *replica) start(t *testing.T, bin string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	logf, err := os.OpenFile(filepath.Join(r.dir, "sentineld.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, r.args...)
	cmd.Env = r.environ
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return err
	}
	r.cmd, r.exited = cmd, make(chan struct{})
	exited := r.exited
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(exited)
	}()
	r.starts.Add(1)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("replica %d exited during start (see %s)", r.n, filepath.Join(r.dir, "sentineld.log"))
		default:
		}
		resp, err := http.Get(r.URL() + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				r.alive.Store(true)
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("replica %d did not answer /healthz within 60 s", r.n)
}

// kill ends the process with SIGKILL: no graceful shutdown, leases and
// in-flight requests are left as a crash leaves them.
func (r *replica) kill() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.alive.Store(false)
	if r.cmd != nil && r.cmd.Process != nil {
		_ = r.cmd.Process.Signal(syscall.SIGKILL)
		<-r.exited
		r.kills.Add(1)
	}
}

// stop ends the process gracefully (SIGTERM).
func (r *replica) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.alive.Store(false)
	if r.cmd != nil && r.cmd.Process != nil {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-r.exited:
		case <-time.After(15 * time.Second):
			_ = r.cmd.Process.Signal(syscall.SIGKILL)
			<-r.exited
		}
	}
}

// buildSentineld returns the sentineld binary: SENTINEL_CLUSTER_BIN when
// set (scripts/cluster builds it once), else one built into dir.
func buildSentineld(t *testing.T, dir string) string {
	if b := os.Getenv("SENTINEL_CLUSTER_BIN"); b != "" {
		return b
	}
	bin := filepath.Join(dir, "sentineld")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/sentineld")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build sentineld: %v\n%s", err, out)
	}
	return bin
}

// cli runs a sentineld command against the shared database and returns
// its last line of output.
func (c *cluster) cli(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Env = c.environ
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("sentineld %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// flushRedis empties the harness's own Redis database, and only it.
func flushRedis(t *testing.T, url string) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("Redis at %s: %v", url, err)
	}
	if err := c.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// isDialError reports whether a request never reached the server (the
// replica is down): it is safe to send it to another.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
