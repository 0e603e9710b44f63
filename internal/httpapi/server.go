// Package httpapi is Sentinel's public HTTP API: routes on the standard
// ServeMux, middleware (request ids, logs, metrics, authentication, scopes,
// rate limits, body limits) and the mapping from domain errors to statuses.
//
// Every route is declared once, as a Route value carrying its method, path,
// scope, rate-limit class and request and response types. The same list
// registers the handlers, generates /openapi.json and drives the tests that
// walk every route for authentication, scope and tenant isolation, so a new
// route cannot skip any of them.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sentinel-sca/sentinel"
	"github.com/sentinel-sca/sentinel/internal/ratelimit"
)

// Rate-limit classes (specification, Limits).
const (
	ClassRead        = "read"         // GET: 600 per minute per key
	ClassWrite       = "write"        // other non-scan writes: 60 per minute per key
	ClassSBOMSubmit  = "sbom_submit"  // 60 per minute per key
	ClassSecrets     = "secrets"      // 60 per minute per key
	ClassWebhookTest = "webhook_test" // 10 per minute per webhook
	ClassScan        = "scan"         // concurrency cap per organization instead
	ClassNone        = ""             // unauthenticated infrastructure routes
)

// Limits per class per minute.
var Limits = map[string]int{
	ClassRead: 600, ClassWrite: 60, ClassSBOMSubmit: 60, ClassSecrets: 60, ClassWebhookTest: 10,
}

// Route is one API operation.
type Route struct {
	Method string
	// Path is a Go 1.22 ServeMux pattern path, e.g. "/v1/api-keys/{id}".
	Path string
	// Scope is the scope a key must hold; "" for public routes (no auth).
	Scope string
	// Class is the rate-limit class; defaults from the method when empty
	// on an authenticated route.
	Class   string
	Summary string
	// Request and Response are zero values of the body types, for OpenAPI.
	Request  any
	Response any
	// Status is the success status (default 200).
	Status int
	// Query lists query parameters, for OpenAPI.
	Query []string
	// Handler serves the request; an error is written as JSON by the
	// server. Handlers that write their own response return nil.
	Handler func(w http.ResponseWriter, r *http.Request) error
}

// Server is the API's http.Handler.
type Server struct {
	// Auth resolves a request's Authorization header to its principal
	// (package keys); routes with a scope need it.
	Auth    Authenticator
	Logger  *slog.Logger
	Limiter ratelimit.Limiter
	// MaxBody bounds JSON request bodies (default 1 MiB); routes that take
	// uploads set their own.
	MaxBody int64
	// Version is reported by /openapi.json and /healthz.
	Version string
	// Ready reports whether the service can serve (for /readyz): the store
	// answers, intel is loaded; nil means always.
	Ready func(ctx context.Context) error
	// ReadyDetail, when set, adds fields to a ready answer (the intel's
	// age).
	ReadyDetail func(ctx context.Context) map[string]any

	mux      *http.ServeMux
	routes   []Route
	patterns []string
	metrics  *metrics
	registry *prometheus.Registry
	once     sync.Once
}

// Handle adds routes. Call before the server serves.
func (s *Server) Handle(rs ...Route) {
	s.init()
	s.handle(rs)
}

func (s *Server) handle(rs []Route) {
	for _, rt := range rs {
		if rt.Status == 0 {
			rt.Status = http.StatusOK
		}
		if rt.Scope != "" && rt.Class == "" {
			rt.Class = ClassWrite
			if rt.Method == http.MethodGet {
				rt.Class = ClassRead
			}
		}
		s.routes = append(s.routes, rt)
		pattern := rt.Method + " " + rt.Path
		s.patterns = append(s.patterns, pattern)
		s.mux.Handle(pattern, s.wrap(rt))
	}
}

// Routes returns every registered route.
func (s *Server) Routes() []Route { s.init(); return append([]Route(nil), s.routes...) }

// Patterns returns every pattern registered on the mux.
func (s *Server) Patterns() []string { s.init(); return append([]string(nil), s.patterns...) }

// Authenticator resolves an Authorization header to a principal.
// Errors: EUNAUTHORIZED.
type Authenticator interface {
	Authenticate(ctx context.Context, authorization string) (*sentinel.Principal, error)
}

func (s *Server) init() {
	s.once.Do(func() {
		s.mux = http.NewServeMux()
		if s.Logger == nil {
			s.Logger = slog.New(slog.DiscardHandler)
		}
		if s.Limiter == nil {
			s.Limiter = ratelimit.NewMemory()
		}
		if s.MaxBody == 0 {
			s.MaxBody = 1 << 20
		}
		s.registry = prometheus.NewRegistry()
		s.metrics = newMetrics(s.registry)
		s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			s.WriteError(w, r, sentinel.Errorf(sentinel.ENOTFOUND, "no route for %s %s; see /openapi.json", r.Method, r.URL.Path))
		})
		s.handle(s.baseRoutes())
	})
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.init()
	ctx := withRequestID(r.Context(), r.Header.Get("X-Request-Id"))
	w.Header().Set("X-Request-Id", requestID(ctx))
	s.mux.ServeHTTP(w, r.WithContext(ctx))
}

func (s *Server) baseRoutes() []Route {
	return []Route{
		{Method: "GET", Path: "/healthz", Summary: "Liveness: the process serves HTTP.", Response: map[string]string{},
			Handler: func(w http.ResponseWriter, r *http.Request) error {
				WriteJSON(w, 200, map[string]string{"status": "ok", "version": s.Version})
				return nil
			}},
		{Method: "GET", Path: "/readyz", Summary: "Readiness: the store answers and advisories are loaded (503 says why not); the intel's age.", Response: map[string]any{},
			Handler: func(w http.ResponseWriter, r *http.Request) error {
				ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
				defer cancel()
				var err error
				if s.Ready != nil {
					err = s.Ready(ctx)
				}
				if err != nil {
					return sentinel.Errorf(sentinel.EUNAVAILABLE, "not ready: %v", err)
				}
				body := map[string]any{}
				if s.ReadyDetail != nil {
					body = s.ReadyDetail(ctx)
				}
				body["status"] = "ready"
				WriteJSON(w, 200, body)
				return nil
			}},
		{Method: "GET", Path: "/metrics", Summary: "Prometheus metrics.",
			Handler: func(w http.ResponseWriter, r *http.Request) error {
				promhttp.HandlerFor(s.registry, promhttp.HandlerOpts{}).ServeHTTP(w, r)
				return nil
			}},
		{Method: "GET", Path: "/openapi.json", Summary: "This API's OpenAPI 3.1 document.", Response: map[string]any{},
			Handler: func(w http.ResponseWriter, r *http.Request) error {
				WriteJSON(w, 200, s.OpenAPI())
				return nil
			}},
	}
}

// statusWriter records the status for logs and metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = 200
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// wrap builds one route's middleware chain: recover, log and measure,
// authenticate, rate-limit, check the scope, then the handler.
func (s *Server) wrap(rt Route) http.Handler {
	label := rt.Method + " " + rt.Path
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		w := &statusWriter{ResponseWriter: rw}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.Logger.Error("handler panicked", "request_id", requestID(r.Context()), "route", label, "panic", v)
				if w.status == 0 {
					s.WriteError(w, r, sentinel.Errorf(sentinel.EINTERNAL, "internal error"))
				}
			}
			d := time.Since(start)
			s.metrics.observe(label, w.status, d)
			if rt.Scope != "" || w.status >= 400 {
				attrs := []slog.Attr{slog.String("request_id", requestID(r.Context())), slog.String("method", r.Method),
					slog.String("path", r.URL.Path), slog.Int("status", w.status), slog.Duration("duration", d)}
				if p := PrincipalFromContext(r.Context()); p != nil {
					attrs = append(attrs, slog.String("org", p.OrgSlug), slog.String("key", p.KeyID))
				}
				s.Logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
			}
		}()
		if rt.Scope == "" {
			// Public routes (health, metrics, OpenAPI) count as reads per
			// remote address: every response carries the rate-limit headers.
			if !s.limit(w, r, Route{Class: ClassRead}, nil) {
				return
			}
			if err := rt.Handler(w, r); err != nil {
				s.WriteError(w, r, err)
			}
			return
		}
		// Nothing an API key reads may sit in a cache: several answers
		// carry a secret shown once (a new key, a webhook secret, a
		// bundle's password, an enrollment token).
		w.Header().Set("Cache-Control", "no-store")
		p, authErr := s.authenticate(r)
		if !s.limit(w, r, rt, p) {
			return
		}
		if authErr != nil {
			s.WriteError(w, r, authErr)
			return
		}
		if !p.Has(rt.Scope) {
			s.WriteError(w, r, scopeError(p, rt.Scope))
			return
		}
		r = r.WithContext(NewContextWithPrincipal(r.Context(), p))
		if err := rt.Handler(w, r); err != nil {
			s.WriteError(w, r, err)
		}
	})
}

// authenticate returns the request's principal: the one ServeAs gave, or
// the API key of its Authorization header.
func (s *Server) authenticate(r *http.Request) (*sentinel.Principal, error) {
	if p, ok := r.Context().Value(servedAsKey).(*sentinel.Principal); ok && p != nil {
		return p, nil
	}
	return s.Auth.Authenticate(r.Context(), r.Header.Get("Authorization"))
}

// scopeError is the 403 of a principal that lacks scope: an API key's, or
// a portal user's, whose role decides its scopes.
func scopeError(p *sentinel.Principal, scope string) error {
	msg := "this API key lacks the scope " + scope + "; create a key that holds it"
	if strings.HasPrefix(p.KeyID, sentinel.PrefixUser) {
		msg = "your role lacks the scope " + scope + "; ask an administrator of the organization for a role that holds it"
	}
	return &sentinel.Error{Code: sentinel.EFORBIDDEN, Scope: scope, Message: msg}
}

// ServeAs serves r in process on behalf of p, a principal its caller has
// already authenticated (the portal's signed-in user): r goes through the
// same route, rate limit, scope check, handler and error mapping as an API
// request with an API key, only without an Authorization header. The
// context key that carries p is unexported, so nothing that arrives from
// the network can set it. This is how the portal stays one more client of
// the API rather than a second set of rules (docs/design.md, The portal).
func (s *Server) ServeAs(w http.ResponseWriter, r *http.Request, p *sentinel.Principal) {
	s.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), servedAsKey, p)))
}

// limit counts the request and sets the X-RateLimit-* headers that every
// response carries. It answers 429 itself and returns false when over.
// Unauthenticated requests are counted per remote address, so guessing keys
// is rate-limited too.
func (s *Server) limit(w http.ResponseWriter, r *http.Request, rt Route, p *sentinel.Principal) bool {
	class := rt.Class
	if class == ClassScan {
		return true // the concurrency cap applies instead; see scans
	}
	limit := Limits[class]
	who := "ip:" + remoteHost(r)
	if p != nil {
		who = p.KeyID
	}
	key := class + ":" + who
	if class == ClassWebhookTest {
		key = class + ":" + r.PathValue("id")
	}
	res, err := s.Limiter.Allow(r.Context(), key, limit, time.Minute)
	if err != nil {
		// A limiter outage must not take the API down: log and let it pass.
		s.Logger.Error("rate limiter failed; request allowed", "err", err)
		res = ratelimit.Result{Allowed: true, Limit: limit, Remaining: limit, Reset: time.Minute}
	}
	SetRateLimitHeaders(w.Header(), res.Limit, res.Remaining, res.Reset)
	if !res.Allowed {
		s.WriteError(w, r, sentinel.Errorf(sentinel.ERATELIMITED, "rate limit of %d requests per minute for this endpoint class exceeded; wait at least 30 seconds", limit))
		return false
	}
	return true
}

// Metrics.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(reg *prometheus.Registry) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sentinel_http_requests_total", Help: "HTTP requests by route and status."}, []string{"route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sentinel_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}}, []string{"route"}),
	}
	reg.MustRegister(m.requests, m.duration, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observe(route string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}

// Registry returns the Prometheus registry, so other parts can add metrics.
func (s *Server) Registry() *prometheus.Registry { s.init(); return s.registry }

// SetRateLimitHeaders sets the three X-RateLimit-* headers, spelled exactly
// as the specification writes them (Header.Set would canonicalise the case
// to X-Ratelimit-*; HTTP does not care, but a careless client might).
func SetRateLimitHeaders(h http.Header, limit, remaining int, reset time.Duration) {
	h["X-RateLimit-Limit"] = []string{strconv.Itoa(limit)}
	h["X-RateLimit-Remaining"] = []string{strconv.Itoa(remaining)}
	h["X-RateLimit-Reset"] = []string{strconv.Itoa(int((reset + time.Second - 1) / time.Second))}
}
