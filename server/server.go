// Package server is the HTTP API of erleah-agent (contract §6): the
// Server-Sent Events stream for developer tools, the Model Context Protocol
// endpoint (/mcp), the attendee chat widget (/widget/), the protected admin
// API for prompts, models and traces, health, readiness and metrics, and the
// Directus routes when a Directus store is configured. It refuses overload politely
// (503 with Retry-After), limits request sizes and rates with bounded memory,
// and never shows a stack trace.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/metrics"
	"github.com/erleah/erleah-agent/prompts"
	"github.com/erleah/erleah-agent/registry"
)

// Turns runs interactive turns.
type Turns interface {
	Ask(ctx context.Context, q chat.Question, obs agent.Observer) (*agent.State, error)
}

// TraceLister reads recent turn traces.
type TraceLister interface {
	List() []chat.Trace
	Get(id string) (chat.Trace, bool)
}

// Prompts is the runtime prompt registry.
type Prompts interface {
	List() []prompts.Prompt
	Get(agent.Step) (prompts.Prompt, error)
	History(agent.Step) []prompts.Prompt
	Set(agent.Step, string) (prompts.Prompt, error)
	Reset(agent.Step) (prompts.Prompt, error)
}

// Models is the runtime model registry.
type Models interface {
	Models() []registry.Entry[string]
	Model(agent.Step) (registry.Entry[string], error)
	SetModel(agent.Step, string) (registry.Entry[string], error)
	ResetModel(agent.Step) (registry.Entry[string], error)
}

// Inbox takes delivered user messages (chat.Service with a Directus store).
type Inbox interface {
	Accept(ctx context.Context, d chat.Delivery) (chat.Accepted, error)
	CanRead(ctx context.Context, token, messageID string) (chat.Message, error)
	// MayWrite checks that a Directus token's holder may write into a
	// conversation (an open stream's proof of access).
	MayWrite(ctx context.Context, token, conversation string) error
}

// Check is a readiness check; it must respect ctx.
type Check func(ctx context.Context) error

// Options configure a Server. Zero values get the defaults shown.
type Options struct {
	Turns         Turns
	Traces        TraceLister
	Prompts       Prompts
	Models        Models
	Memory        Memory // reflection memory: /v1/admin/memory lists and clears it
	Inbox         Inbox  // takes delivered user messages; enables /v1/webhooks/directus and /v1/chat
	WebhookSecret string // the Flow's X-Webhook-Secret; the webhook is off without one
	Ready         map[string]Check
	APIToken      string // protects /v1/chat/stream and enables /v1/admin
	DebugEvents   bool   // step_start / step_end events on the stream
	MaxBody       int64  // request body limit (64 KiB)
	PerIP         Rate   // interactive requests per client address (1/s, burst 10; a zero rate with a burst turns it off)
	PerUser       Rate   // interactive requests per user (0.5/s, burst 5; likewise)
	PerHook       Rate   // webhook deliveries per sender address (200/s, burst 400)
	// BadTokens is how many wrong bearer tokens an address may send before
	// it is locked out of the token-protected routes, one more allowed per
	// refill interval (5, then one a minute).
	BadTokens  Rate
	RateKeys   int // keys each rate limiter remembers (10,000)
	RetryAfter time.Duration
	Logger     *slog.Logger
	Metrics    *metrics.Metrics
	// MCP, when set, serves /mcp (package mcpserver). It checks bearer
	// tokens itself; the server adds the wrong-token lockout and metrics.
	MCP http.Handler
	// Widget, when set, serves the attendee chat widget at /widget/
	// (package web): static files that talk to Directus themselves.
	Widget http.Handler
}

// Server is the HTTP API. Create it with New; it is safe for concurrent use.
type Server struct {
	opts      Options
	mux       *http.ServeMux
	perIP     *rateLimiter
	perUsr    *rateLimiter
	perHook   *rateLimiter
	badTokens *rateLimiter // wrong bearer tokens per address: empty means locked out
	log       *slog.Logger
	m         *metrics.Metrics
}

// New builds the routes.
func New(opts Options) *Server {
	if opts.MaxBody <= 0 {
		opts.MaxBody = 64 << 10
	}
	if opts.PerIP == (Rate{}) {
		opts.PerIP = Rate{PerSecond: 1, Burst: 10}
	}
	if opts.PerUser == (Rate{}) {
		opts.PerUser = Rate{PerSecond: 0.5, Burst: 5}
	}
	if opts.PerHook == (Rate{}) {
		opts.PerHook = Rate{PerSecond: 200, Burst: 400}
	}
	if opts.BadTokens == (Rate{}) {
		opts.BadTokens = Rate{PerSecond: 1.0 / 60, Burst: 5}
	}
	if opts.RateKeys <= 0 {
		opts.RateKeys = 10000
	}
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = 5 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Metrics == nil {
		opts.Metrics = metrics.New()
	}
	s := &Server{opts: opts, mux: http.NewServeMux(), log: opts.Logger, m: opts.Metrics,
		perIP: newRateLimiter(opts.PerIP, opts.RateKeys), perUsr: newRateLimiter(opts.PerUser, opts.RateKeys),
		perHook: newRateLimiter(opts.PerHook, opts.RateKeys), badTokens: newRateLimiter(opts.BadTokens, opts.RateKeys)}
	s.routes()
	return s
}

func (s *Server) routes() {
	s.handle("POST /v1/chat/stream", s.auth(s.limited(s.stream)))
	s.handle("GET /healthz", s.healthz)
	s.handle("GET /readyz", s.readyz)
	s.mux.Handle("GET /metrics", s.m.Handler())
	s.adminRoutes()
	if s.opts.MCP != nil {
		s.mux.Handle("/mcp", s.observe("/mcp", http.HandlerFunc(s.mcp)))
	}
	if s.opts.Widget != nil {
		s.mux.Handle("GET /widget/", s.observe("/widget/", s.opts.Widget))
	}
	if s.opts.Inbox != nil {
		s.handle("POST /v1/webhooks/directus", s.webhook)
		s.handle("POST /v1/chat", s.limited(s.chat))
	}
	s.handle("/", s.noRoute)
}

// noRoute answers what no route takes: 405 with Allow when the path exists
// for other methods, else 404; JSON either way.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		writeError(w, http.StatusNotFound, "no such route: "+r.Method+" "+r.URL.Path)
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeError(w, http.StatusMethodNotAllowed, r.Method+" is not allowed on "+r.URL.Path+"; use "+strings.Join(allow, " or "))
}

// handle registers a handler with the middleware every route gets.
func (s *Server) handle(pattern string, h http.HandlerFunc) {
	s.mux.Handle(pattern, s.observe(pattern, h))
}

// ServeHTTP serves the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// HTTPServer returns an http.Server for the API with timeouts that protect
// it without cutting event streams (the stream handler lifts the write
// deadline for itself).
func (s *Server) HTTPServer(addr string) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}
