package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/metrics"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/server"
)

// cmdServe runs the HTTP service until ctx ends (SIGINT or SIGTERM), then
// stops accepting, lets in-flight turns and background evaluations finish
// within SHUTDOWN_GRACE, and returns.
func cmdServe(ctx context.Context, args []string, stderr io.Writer, cfg config, ready func(addr string)) error {
	if len(args) > 0 {
		return usagef("serve takes no arguments; it is configured by the environment")
	}
	level, _ := cfg.logLevel()
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	log.Info("starting", "version", version, "config", cfg)
	app, err := build(ctx, cfg, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.ListenAddr, err)
	}
	hs := app.server.HTTPServer(cfg.ListenAddr)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String())
	if ready != nil {
		ready(ln.Addr().String())
	}
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	return app.shutdown(hs, cfg, log)
}

// app is the wired service.
type app struct {
	server *server.Server
	chat   *chat.Service
}

func (a *app) shutdown(hs *http.Server, cfg config, log *slog.Logger) error {
	log.Info("shutting down", "grace", cfg.ShutdownGrace.String())
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace)
	defer cancel()
	err := hs.Shutdown(ctx) // stops accepting; waits for requests, streams included
	if cerr := a.chat.Shutdown(ctx); err == nil {
		err = cerr
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("shutdown incomplete", "err", err)
		return nil // the process still exits cleanly; what was cut is logged
	}
	log.Info("stopped")
	return nil
}

// build wires the service from the configuration.
func build(ctx context.Context, cfg config, log *slog.Logger) (*app, error) {
	b, err := loadBundle(cfg.DataFile)
	if err != nil {
		return nil, err
	}
	eng, err := newEngine(ctx, cfg, b)
	if err != nil {
		return nil, fmt.Errorf("index conferences: %w", err)
	}
	router, reg, err := newModel(cfg, log)
	if err != nil {
		return nil, err
	}
	m := metrics.New()
	opts := agentOptions(cfg, !cfg.Reflection, cfg.MaxRetries, log)
	opts.Acknowledge = true
	a := agent.New(router, m.TimeSearches(eng), opts)
	svc := chat.New(a, conferenceLookup(b), chat.Options{MaxTurns: cfg.MaxTurns, QueueSize: cfg.TurnQueue,
		TurnTimeout: cfg.TurnTimeout, Evaluate: !cfg.EvaluateFeedback, Logger: log, Metrics: m})
	srv := server.New(server.Options{Turns: svc, Traces: svc.Traces(), Prompts: reg, Models: router,
		APIToken: string(cfg.APIToken), DebugEvents: cfg.DebugEvents, Logger: log, Metrics: m,
		PerIP: server.Rate{PerSecond: cfg.RatePerIP, Burst: cfg.BurstPerIP}, PerUser: server.Rate{PerSecond: cfg.RatePerUser, Burst: cfg.BurstPerUser},
		Ready: map[string]server.Check{"index": indexReady(eng, b), "models": modelsReady(router, cfg)}})
	return &app{server: srv, chat: svc}, nil
}

// indexReady checks that every conference of the bundle is searchable.
func indexReady(eng *search.Engine, b *conference.Bundle) server.Check {
	return func(context.Context) error {
		for _, id := range b.ConferenceIDs() {
			if eng.Lexicon(id) == nil {
				return fmt.Errorf("conference %s is not indexed", id)
			}
		}
		return nil
	}
}

// modelsReady checks that every step's model is usable with the configured
// credentials (without calling the provider).
func modelsReady(r *llm.Router, cfg config) server.Check {
	return func(context.Context) error {
		for _, m := range r.Models() {
			spec, err := llm.ParseSpec(m.Value)
			if err == nil {
				err = cfg.llmConfig().Check(spec)
			}
			if err != nil {
				return fmt.Errorf("step %s: %w", m.Key, err)
			}
		}
		return nil
	}
}
