package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/catalog"
	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/mcpserver"
	"github.com/erleah/erleah-agent/metrics"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/server"
	"github.com/erleah/erleah-agent/web"
)

// cmdServe runs the HTTP service until ctx ends (SIGINT or SIGTERM), then
// stops accepting, lets in-flight turns and background evaluations finish
// within SHUTDOWN_GRACE, and returns.
func cmdServe(ctx context.Context, args []string, stderr io.Writer, cfg config, ready func(addr string)) error {
	if len(args) > 0 {
		return usagef("serve takes no arguments; it is configured by the environment")
	}
	if err := cfg.checkServe(); err != nil {
		return err
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
	bgCtx, stopBackground := context.WithCancel(context.Background())
	var bg sync.WaitGroup
	for _, run := range app.background {
		bg.Add(1)
		go func() { defer bg.Done(); run(bgCtx) }()
	}
	select {
	case err := <-errc:
		stopBackground()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	stopBackground() // no new work from the reconciler, the watchers or the realtime trigger
	bg.Wait()
	return app.shutdown(hs, cfg, log)
}

// app is the wired service.
type app struct {
	server     *server.Server
	chat       *chat.Service
	background []func(context.Context) // run until shutdown: catalog watch, reconciler, realtime trigger
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
	eng, err := newIndex(ctx, cfg)
	if err != nil {
		return nil, err
	}
	d, err := data(ctx, cfg, eng, log)
	if err != nil {
		return nil, err
	}
	m := metrics.New()
	router, reg, err := newModel(cfg, log, nil, m.Breaker)
	if err != nil {
		return nil, err
	}
	bank, err := openMemory(ctx, cfg, d.client, log)
	if err != nil {
		return nil, err
	}
	tr, err := newTranslator(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	opts := agentOptions(cfg, !cfg.Reflection, cfg.MaxRetries, tr, log)
	opts.Acknowledge = true
	copts := chat.Options{MaxTurns: cfg.MaxTurns, QueueSize: queueSize(cfg.TurnQueue), TurnTimeout: cfg.TurnTimeout,
		Evaluate: !cfg.EvaluateFeedback, Logger: log, Metrics: m, Store: d.store, ReconcileGrace: cfg.ReconcileWait, AbandonAfter: cfg.abandonAfter(), Instance: instance()}
	sopts := server.Options{Prompts: reg, Models: router,
		APIToken: string(cfg.APIToken), DebugEvents: cfg.DebugEvents, Logger: log, Metrics: m,
		PerIP: server.Rate{PerSecond: cfg.RatePerIP, Burst: cfg.BurstPerIP}, PerUser: server.Rate{PerSecond: cfg.RatePerUser, Burst: cfg.BurstPerUser},
		Ready: map[string]server.Check{"index": d.ready, "search": eng.Ready, "models": modelsReady(router, cfg)}}
	if bank != nil {
		opts.Memory, copts.Memory, sopts.Memory = bank, bank, bank
	}
	svc := chat.New(agent.New(router, m.TimeSearches(eng), opts), d.confs, copts)
	sopts.Turns, sopts.Traces = svc, svc.Traces()
	out := &app{chat: svc, background: d.background}
	mopts := mcpserver.Options{Turns: svc, Engine: eng, Conference: d.confs, APIToken: string(cfg.APIToken), Version: version, Logger: log}
	if d.client != nil {
		out.wireDirectus(&sopts, d.client, cfg, log)
		mopts.Access = mcpserver.DirectusAccess{Client: d.client}
	}
	sopts.MCP = mcpserver.New(mopts)
	sopts.Widget = web.Handler("/widget/")
	out.server = server.New(sopts)
	return out, nil
}

// wireDirectus adds the Directus routes, readiness, the reconciler and, with
// TRIGGER=realtime, the agent's own subscription to new user messages.
func (a *app) wireDirectus(o *server.Options, c *directus.Client, cfg config, log *slog.Logger) {
	o.Inbox, o.WebhookSecret = a.chat, string(cfg.WebhookSecret)
	o.Ready["directus"] = c.Ping
	if cfg.WebhookSecret == "" && cfg.Trigger == "webhook" {
		log.Warn("WEBHOOK_SECRET is not set: the Directus webhook refuses every delivery; the reconciler still answers")
	}
	a.background = append(a.background, func(ctx context.Context) { a.chat.RunReconciler(ctx, cfg.Reconcile) })
	if cfg.Trigger == "realtime" {
		a.background = append(a.background, func(ctx context.Context) { realtimeTrigger(ctx, c, a.chat, log) })
	}
}

// dataSource is where conferences come from and how to watch them.
type dataSource struct {
	confs      func(string) (agent.Conference, bool)
	ready      server.Check
	store      chat.Store
	client     *directus.Client
	background []func(context.Context)
}

// data loads the conferences: from Directus (the source of truth, watched
// for changes) when it is configured, else from DATA_FILE or the demo.
func data(ctx context.Context, cfg config, eng *search.Engine, log *slog.Logger) (dataSource, error) {
	if cfg.DirectusURL == "" {
		b, err := loadBundle(cfg.DataFile)
		if err != nil {
			return dataSource{}, err
		}
		rep, err := eng.Load(ctx, b)
		if err != nil {
			return dataSource{}, fmt.Errorf("index conferences: %w", err)
		}
		rep.Log(log)
		return dataSource{confs: conferenceLookup(b), ready: indexReady(eng, b)}, nil
	}
	c, err := cfg.directusClient()
	if err != nil {
		return dataSource{}, err
	}
	cat := catalog.New(c, eng, log)
	if err := syncWithRetry(ctx, cat, log); err != nil {
		return dataSource{}, err
	}
	log.Info("conferences loaded from Directus", "conferences", cat.Conferences())
	return dataSource{confs: cat.Conference, store: chat.NewDirectusStore(c), client: c,
		ready:      func(context.Context) error { return nonEmpty(cat) },
		background: []func(context.Context){func(ctx context.Context) { _ = cat.Watch(ctx, cfg.Resync) }}}, nil
}

// syncWithRetry loads the catalog, retrying for up to 30 s while Directus
// starts.
func syncWithRetry(ctx context.Context, cat *catalog.Catalog, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for wait := 500 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		err := cat.Sync(ctx)
		if err == nil {
			return nil
		}
		log.Warn("loading conferences from Directus failed; retrying", "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("load conferences from Directus: %w", err)
		case <-time.After(wait):
		}
	}
}

func nonEmpty(cat *catalog.Catalog) error {
	if len(cat.Conferences()) == 0 {
		return errors.New("no conference loaded from Directus")
	}
	return nil
}

// realtimeTrigger subscribes to new user messages and accepts each; after
// every (re)connect it reconciles, since missed events are not replayed.
func realtimeTrigger(ctx context.Context, c *directus.Client, svc *chat.Service, log *slog.Logger) {
	sub := directus.Subscription{UID: "agent-user-messages", Collection: "messages", Event: "create",
		Query: map[string]any{"fields": []string{"id", "conversation", "role"}, "filter": map[string]any{"role": map[string]any{"_eq": "user"}}}}
	err := c.Realtime(ctx, directus.RealtimeOptions{
		Subscriptions: []directus.Subscription{sub},
		PingInterval:  30 * time.Second, // notice a silently dead connection; the reconnect reconciles
		OnEvent: func(e directus.Event) {
			var items []struct{ ID, Conversation, Role string }
			if json.Unmarshal(e.Data, &items) != nil {
				return
			}
			for _, it := range items {
				if _, err := svc.Accept(ctx, chat.Delivery{MessageID: it.ID, ConversationID: it.Conversation, Role: it.Role}); err != nil {
					log.Warn("realtime delivery refused", "message", it.ID, "err", err)
				}
			}
		},
		OnConnect:    func() { go svc.Reconcile(ctx) },
		OnDisconnect: func(err error) { log.Warn("realtime trigger disconnected", "err", err) },
	})
	if err != nil && ctx.Err() == nil {
		log.Error("realtime trigger stopped", "err", err)
	}
}

// instance names this process in message metadata.
// instance names this serve: hostname-pid, and -2, -3… for later serves in
// the same process (tests run several replicas in one), since the name is
// also the owner of the reply leases it takes, which must differ between
// replicas.
func instance() string {
	host, _ := os.Hostname()
	name := fmt.Sprintf("%s-%d", host, os.Getpid())
	if n := serves.Add(1); n > 1 {
		name = fmt.Sprintf("%s-%d", name, n)
	}
	return name
}

var serves atomic.Int64

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
// credentials (without calling the provider) and that none is cooling down
// behind an open circuit breaker. A half-open breaker is ready: its probe
// call is how the model comes back.
func modelsReady(r *llm.Router, cfg config) server.Check {
	return func(context.Context) error {
		open := openBreakers(r)
		for _, m := range r.Models() {
			spec, err := llm.ParseSpec(m.Value)
			if err == nil {
				err = cfg.llmConfig().Check(spec)
			}
			if err != nil {
				return fmt.Errorf("step %s: %w", m.Key, err)
			}
			if b, ok := open[spec.String()]; ok {
				return fmt.Errorf("step %s: model %s is cooling down until %s", m.Key, b.Model, b.OpenUntil.UTC().Format(time.RFC3339))
			}
		}
		return nil
	}
}

// openBreakers returns the open circuit breakers by model.
func openBreakers(r *llm.Router) map[string]llm.BreakerState {
	open := map[string]llm.BreakerState{}
	for _, b := range r.Breakers() {
		if b.State == llm.BreakerOpen {
			open[b.Model] = b
		}
	}
	return open
}

// queueSize maps TURN_QUEUE to chat.Options, where 0 means the default and
// a negative size no queue.
func queueSize(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
