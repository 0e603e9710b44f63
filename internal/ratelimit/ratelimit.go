// Package ratelimit counts requests per API key and endpoint class in fixed
// windows that start at a key's first request in the window.
//
// Memory is the default for one process. Redis is the shared limiter for
// several replicas: one INCR and, on a window's first request, one PEXPIRE,
// in a single Lua script, so every replica counts against the same number
// with one round trip. We chose Redis over PostgreSQL for this because a
// limiter is written on every request: in PostgreSQL that would be a row
// update per request (WAL, vacuum, lock contention on hot keys) for data that
// is worthless a minute later; Redis keeps it in memory and expires it itself.
package ratelimit

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Result is the outcome of one Allow call, with what the X-RateLimit-*
// headers need.
type Result struct {
	Allowed   bool
	Limit     int
	Remaining int
	// Reset is the time until the window resets.
	Reset time.Duration
}

// Limiter counts one request against key.
type Limiter interface {
	Allow(ctx context.Context, key string, limit int, window time.Duration) (Result, error)
}

func result(count int64, limit int, reset time.Duration) Result {
	rem := limit - int(count)
	if rem < 0 {
		rem = 0
	}
	if reset < 0 {
		reset = 0
	}
	return Result{Allowed: count <= int64(limit), Limit: limit, Remaining: rem, Reset: reset}
}

// Memory is an in-process limiter.
type Memory struct {
	// Now returns the current time; tests replace it.
	Now func() time.Time

	mu      sync.Mutex
	windows map[string]*window
	sweep   time.Time
}

type window struct {
	count int64
	end   time.Time
}

// NewMemory returns an in-process limiter.
func NewMemory() *Memory { return &Memory{Now: time.Now, windows: map[string]*window{}} }

// Allow implements Limiter.
func (m *Memory) Allow(_ context.Context, key string, limit int, win time.Duration) (Result, error) {
	now := m.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if now.After(m.sweep) { // drop finished windows now and then
		for k, w := range m.windows {
			if !now.Before(w.end) {
				delete(m.windows, k)
			}
		}
		m.sweep = now.Add(time.Minute)
	}
	w := m.windows[key]
	if w == nil || !now.Before(w.end) {
		w = &window{end: now.Add(win)}
		m.windows[key] = w
	}
	w.count++
	return result(w.count, limit, w.end.Sub(now)), nil
}

// Redis is a limiter shared by every replica that uses the same server.
type Redis struct {
	Client *redis.Client
	// Prefix namespaces the keys (default "sentinel:rl:").
	Prefix string
}

var allowScript = redis.NewScript(`
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`)

// NewRedis connects to the Redis server at url (redis://host:port/db).
func NewRedis(url string) (*Redis, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	return &Redis{Client: redis.NewClient(opt)}, nil
}

// Allow implements Limiter.
func (r *Redis) Allow(ctx context.Context, key string, limit int, win time.Duration) (Result, error) {
	prefix := r.Prefix
	if prefix == "" {
		prefix = "sentinel:rl:"
	}
	v, err := allowScript.Run(ctx, r.Client, []string{prefix + key}, win.Milliseconds()).Int64Slice()
	if err != nil {
		return Result{}, err
	}
	return result(v[0], limit, time.Duration(v[1])*time.Millisecond), nil
}

// Close closes the Redis client.
func (r *Redis) Close() error { return r.Client.Close() }
