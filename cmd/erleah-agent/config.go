package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/search"
)

// secret is a credential: it prints and logs as "[set]" or "[unset]".
type secret string

func (s secret) String() string {
	if s == "" {
		return "[unset]"
	}
	return "[set]"
}

// LogValue keeps secrets out of logs.
func (s secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// config is the whole environment of contract §7, read once, here only.
type config struct {
	ListenAddr    string        `env:"LISTEN_ADDR" envDefault:"127.0.0.1:8080"`
	PublicURL     string        `env:"PUBLIC_URL"`
	DirectusURL   string        `env:"DIRECTUS_URL"`
	DirectusToken secret        `env:"DIRECTUS_TOKEN"`
	WebhookSecret secret        `env:"WEBHOOK_SECRET"`
	APIToken      secret        `env:"API_TOKEN"`
	DataFile      string        `env:"DATA_FILE"`
	Reflection    bool          `env:"REFLECTION_ENABLED" envDefault:"true"`
	MaxRetries    int           `env:"MAX_RETRY_COUNT" envDefault:"2"`
	TurnTimeout   time.Duration `env:"TURN_TIMEOUT" envDefault:"30s"`
	// A hung model call gives up after 10 s (a streamed one when its first
	// chunk is that late) and a stalled stream after 5 s of silence, leaving
	// the fallback most of the default turn. A stream that keeps producing
	// text is bounded by the idle timeout and the turn only.
	CallTimeout time.Duration `env:"MODEL_CALL_TIMEOUT" envDefault:"10s"`
	StreamIdle  time.Duration `env:"MODEL_STREAM_IDLE_TIMEOUT" envDefault:"5s"`

	Model          string `env:"MODEL"`
	ModelPlan      string `env:"MODEL_PLAN_QUERIES"`
	ModelReflect   string `env:"MODEL_REFLECT_AND_REPLAN"`
	ModelRespond   string `env:"MODEL_GENERATE_RESPONSE"`
	ModelEvaluate  string `env:"MODEL_EVALUATE"`
	ModelAck       string `env:"MODEL_ACKNOWLEDGMENT"`
	AnthropicKey   secret `env:"ANTHROPIC_API_KEY"`
	AnthropicURL   string `env:"ANTHROPIC_BASE_URL"`
	OpenAIKey      secret `env:"OPENAI_API_KEY"`
	OpenAIURL      string `env:"OPENAI_BASE_URL"`
	OllamaURL      string `env:"OLLAMA_URL"`
	Embedder       string `env:"EMBEDDER" envDefault:"hash"`
	EmbedderLevels string `env:"EMBEDDER_LEVELS"`
	SearchBackend  string `env:"SEARCH_BACKEND" envDefault:"memory"`
	WeaviateURL    string `env:"WEAVIATE_URL"`
	WeaviateKey    secret `env:"WEAVIATE_API_KEY"`
	WeaviateGRPC   string `env:"WEAVIATE_GRPC_ADDR"`
	WeaviateClass  string `env:"WEAVIATE_COLLECTION" envDefault:"ErleahEntities"`
	StateDir       string `env:"STATE_DIR"`
	// AllowAnonymous lets serve listen beyond loopback without API_TOKEN:
	// /v1/chat/stream then answers anyone who reaches it.
	AllowAnonymous bool `env:"ALLOW_ANONYMOUS_STREAM" envDefault:"false"`
	Memory         bool `env:"MEMORY_ENABLED" envDefault:"true"`
	// Translate reads questions in other languages in English with
	// Apertium and FreeDict's dictionaries: auto (what is installed), on
	// (Apertium required) or off.
	Translate   string `env:"TRANSLATE" envDefault:"auto"`
	ApertiumBin string `env:"APERTIUM_BIN" envDefault:"apertium"`
	DictDir     string `env:"DICT_DIR" envDefault:"/usr/share/dictd"`

	EvaluateFeedback bool    `env:"EVALUATE_FEEDBACK_ENABLED" envDefault:"false"`
	RegenThreshold   float64 `env:"EVALUATE_REGENERATION_THRESHOLD" envDefault:"0.4"`

	MaxTurns      int           `env:"MAX_TURNS" envDefault:"32"`
	TurnQueue     int           `env:"TURN_QUEUE" envDefault:"64"`
	ShutdownGrace time.Duration `env:"SHUTDOWN_GRACE" envDefault:"25s"`
	DebugEvents   bool          `env:"DEBUG_EVENTS" envDefault:"false"`
	Trigger       string        `env:"TRIGGER" envDefault:"webhook"`
	Reconcile     time.Duration `env:"RECONCILE_INTERVAL" envDefault:"30s"`
	ReconcileWait time.Duration `env:"RECONCILE_GRACE" envDefault:"30s"`
	AbandonAfter  time.Duration `env:"RECONCILE_ABANDON_AFTER"` // default TURN_TIMEOUT + 30s
	Resync        time.Duration `env:"RESYNC_INTERVAL" envDefault:"10m"`
	RatePerIP     float64       `env:"RATE_PER_IP" envDefault:"1"`
	BurstPerIP    float64       `env:"RATE_PER_IP_BURST" envDefault:"10"`
	RatePerUser   float64       `env:"RATE_PER_USER" envDefault:"0.5"`
	BurstPerUser  float64       `env:"RATE_PER_USER_BURST" envDefault:"5"`
	LogLevel      string        `env:"LOG_LEVEL" envDefault:"info"`

	XDGStateHome string `env:"XDG_STATE_HOME"`
	Home         string `env:"HOME"`
}

// loadConfig reads and checks the environment, reporting every bad
// variable in one usage error.
func loadConfig(environ map[string]string) (config, error) {
	var c config
	var problems []string
	failed := map[string]bool{}
	if err := env.ParseWithOptions(&c, env.Options{Environment: environ}); err != nil {
		var agg env.AggregateError
		if !errors.As(err, &agg) {
			return c, usagef("bad environment: %v", err)
		}
		for _, e := range agg.Errors {
			name, msg := describeEnvError(e, environ)
			failed[name] = true
			problems = append(problems, msg)
		}
	}
	for _, p := range c.check() {
		if name, _, _ := strings.Cut(p, "="); !failed[name] {
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return c, usagef("bad environment: %s", strings.Join(problems, "; "))
	}
	return c, nil
}

// describeEnvError names the variable behind a parse error and its value.
func describeEnvError(err error, environ map[string]string) (string, string) {
	var pe env.ParseError
	if !errors.As(err, &pe) {
		return "", err.Error()
	}
	if f, ok := reflect.TypeOf(config{}).FieldByName(pe.Name); ok {
		name := f.Tag.Get("env")
		return name, fmt.Sprintf("%s=%q is not a valid %s", name, environ[name], pe.Type)
	}
	return pe.Name, err.Error()
}

func (c config) check() []string {
	var p []string
	add := func(cond bool, format string, args ...any) {
		if cond {
			p = append(p, fmt.Sprintf(format, args...))
		}
	}
	add(c.MaxRetries < 0 || c.MaxRetries > 5, "MAX_RETRY_COUNT=%d is outside 0..5", c.MaxRetries)
	add(c.TurnTimeout <= 0 || c.TurnTimeout > 10*time.Minute, "TURN_TIMEOUT=%s is outside (0, 10m]", c.TurnTimeout)
	add(c.CallTimeout <= 0 || (c.TurnTimeout > 0 && c.CallTimeout >= c.TurnTimeout),
		"MODEL_CALL_TIMEOUT=%s: want more than 0 and less than TURN_TIMEOUT (%s), to leave the fallback time", c.CallTimeout, c.TurnTimeout)
	add(c.StreamIdle <= 0, "MODEL_STREAM_IDLE_TIMEOUT=%s: want more than 0", c.StreamIdle)
	add(c.RegenThreshold < 0 || c.RegenThreshold > 1, "EVALUATE_REGENERATION_THRESHOLD=%g is outside 0..1", c.RegenThreshold)
	add(c.SearchBackend != "memory" && c.SearchBackend != "weaviate", "SEARCH_BACKEND=%q: want memory or weaviate", c.SearchBackend)
	add(c.Translate != "auto" && c.Translate != "on" && c.Translate != "off", "TRANSLATE=%q: want auto, on or off", c.Translate)
	add(c.SearchBackend == "weaviate" && c.WeaviateURL == "", "SEARCH_BACKEND=weaviate needs WEAVIATE_URL (scripts/weaviate/start.sh starts one)")
	add(c.RatePerIP < 0 || c.BurstPerIP < 1, "RATE_PER_IP=%g / RATE_PER_IP_BURST=%g: want a rate ≥ 0 (0 = off) and a burst ≥ 1", c.RatePerIP, c.BurstPerIP)
	add(c.RatePerUser < 0 || c.BurstPerUser < 1, "RATE_PER_USER=%g / RATE_PER_USER_BURST=%g: want a rate ≥ 0 (0 = off) and a burst ≥ 1", c.RatePerUser, c.BurstPerUser)
	add(c.Trigger != "webhook" && c.Trigger != "realtime", "TRIGGER=%q: want webhook or realtime", c.Trigger)
	add(c.Reconcile < time.Second, "RECONCILE_INTERVAL=%s: want at least 1s", c.Reconcile)
	add(c.ReconcileWait < 0, "RECONCILE_GRACE=%s must not be negative", c.ReconcileWait)
	add(c.AbandonAfter != 0 && c.AbandonAfter < c.TurnTimeout, "RECONCILE_ABANDON_AFTER=%s must be at least TURN_TIMEOUT (%s)", c.AbandonAfter, c.TurnTimeout)
	add(c.Resync < time.Second, "RESYNC_INTERVAL=%s: want at least 1s", c.Resync)
	add(c.MaxTurns < 1 || c.MaxTurns > 10000, "MAX_TURNS=%d is outside 1..10000", c.MaxTurns)
	add(c.TurnQueue < 0 || c.TurnQueue > 100000, "TURN_QUEUE=%d is outside 0..100000", c.TurnQueue)
	add(c.ShutdownGrace < 0 || c.ShutdownGrace > 10*time.Minute, "SHUTDOWN_GRACE=%s is outside 0..10m", c.ShutdownGrace)
	if _, err := c.logLevel(); err != nil {
		p = append(p, err.Error())
	}
	if _, _, err := net.SplitHostPort(c.ListenAddr); err != nil {
		p = append(p, fmt.Sprintf("LISTEN_ADDR=%q is not host:port", c.ListenAddr))
	}
	if _, err := c.stepModels(); err != nil {
		p = append(p, err.Error())
	}
	if _, err := c.embedderSpec(); err != nil {
		p = append(p, err.Error())
	}
	if _, err := c.levels(); err != nil {
		p = append(p, err.Error())
	}
	return p
}

// llmConfig is what the providers need.
func (c config) llmConfig() llm.Config {
	return llm.Config{AnthropicKey: string(c.AnthropicKey), AnthropicBaseURL: c.AnthropicURL,
		OpenAIKey: string(c.OpenAIKey), OpenAIBaseURL: c.OpenAIURL, OllamaURL: c.OllamaURL,
		CallTimeout: c.CallTimeout, StreamIdleTimeout: c.StreamIdle}
}

// stepModels resolves MODEL and MODEL_<STEP> into each step's model.
func (c config) stepModels() (map[agent.Step]llm.Spec, error) {
	lc := c.llmConfig()
	def := lc.DefaultModel()
	var problems []string
	parse := func(name, v string, fallback llm.Spec) llm.Spec {
		if v == "" {
			return fallback
		}
		s, err := llm.ParseSpec(v)
		if err == nil {
			err = lc.Check(s)
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", name, err))
		}
		return s
	}
	def = parse("MODEL", c.Model, def)
	out := map[agent.Step]llm.Spec{
		agent.StepPlan:    parse("MODEL_PLAN_QUERIES", c.ModelPlan, def),
		agent.StepReflect: parse("MODEL_REFLECT_AND_REPLAN", c.ModelReflect, def),
		agent.StepRespond: parse("MODEL_GENERATE_RESPONSE", c.ModelRespond, def),
		agent.StepEval:    parse("MODEL_EVALUATE", c.ModelEvaluate, def),
		agent.StepAck:     parse("MODEL_ACKNOWLEDGMENT", c.ModelAck, def),
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	return out, nil
}

// embedderSpec parses EMBEDDER: "hash" or a provider embedding model.
func (c config) embedderSpec() (llm.Spec, error) {
	if c.Embedder == "hash" {
		return llm.Spec{}, nil
	}
	s, err := llm.ParseSpec(c.Embedder)
	if err != nil || (s.Provider != llm.OpenAI && s.Provider != llm.Ollama) {
		err = errors.New("want hash, openai:<model> or ollama:<model>")
	}
	if err == nil {
		err = c.llmConfig().Check(s)
	}
	if err != nil {
		return s, fmt.Errorf("EMBEDDER=%q: %v", c.Embedder, err)
	}
	return s, nil
}

// levels parses EMBEDDER_LEVELS: "floor,threshold,confident,relaxed,loosest".
func (c config) levels() (search.Calibration, error) {
	if c.EmbedderLevels == "" {
		return search.Calibration{}, nil
	}
	parts := strings.Split(c.EmbedderLevels, ",")
	var v [5]float32
	bad := len(parts) != 5
	for i := 0; !bad && i < 5; i++ {
		f, err := strconv.ParseFloat(strings.TrimSpace(parts[i]), 32)
		bad = err != nil || f < 0 || f > 1
		v[i] = float32(f)
	}
	cal := search.Calibration{FacetFloor: v[0], Threshold: v[1], Confident: v[2], Relaxed: v[3], Loosest: v[4]}
	if bad || !(cal.Loosest <= cal.Relaxed && cal.Relaxed <= cal.Threshold && cal.Threshold <= cal.Confident) {
		return cal, fmt.Errorf("EMBEDDER_LEVELS=%q: want five numbers in 0..1, floor,threshold,confident,relaxed,loosest with loosest ≤ relaxed ≤ threshold ≤ confident", c.EmbedderLevels)
	}
	return cal, nil
}

// checkServe refuses a service that cannot work as configured: Directus
// half configured, or a /v1/chat/stream anyone on the network could use
// (listening beyond loopback needs API_TOKEN, or the explicit
// ALLOW_ANONYMOUS_STREAM=true). ask and eval read bundles, never Directus,
// so only serve checks it.
func (c config) checkServe() error {
	if (c.DirectusURL == "") != (c.DirectusToken == "") {
		return usagef("DIRECTUS_URL and DIRECTUS_TOKEN go together: serve reads conferences and answers messages with the agent's token (erleah-agent directus setup prints it)")
	}
	host, _, _ := net.SplitHostPort(c.ListenAddr)
	ip := net.ParseIP(host)
	loopback := host == "localhost" || ip != nil && ip.IsLoopback()
	if loopback || c.APIToken != "" || c.AllowAnonymous {
		return nil
	}
	return usagef("LISTEN_ADDR=%s is reachable from other machines and API_TOKEN is not set, so /v1/chat/stream "+
		"would answer anyone and write into any conversation: set API_TOKEN, listen on 127.0.0.1, "+
		"or set ALLOW_ANONYMOUS_STREAM=true to accept that", c.ListenAddr)
}

// abandonAfter is RECONCILE_ABANDON_AFTER, by default TURN_TIMEOUT + 30 s.
func (c config) abandonAfter() time.Duration {
	if c.AbandonAfter > 0 {
		return c.AbandonAfter
	}
	return c.TurnTimeout + 30*time.Second
}

// stateDir is where registries and the embedding cache persist.
// directusClient is the client for DIRECTUS_URL with DIRECTUS_TOKEN; a bad
// URL is a usage error.
func (c config) directusClient() (*directus.Client, error) {
	client, err := directus.New(directus.Options{BaseURL: c.DirectusURL, Token: string(c.DirectusToken)})
	if err != nil {
		return nil, usagef("DIRECTUS_URL: %v", err)
	}
	return client, nil
}

func (c config) stateDir() string {
	if c.StateDir != "" {
		return c.StateDir
	}
	if c.XDGStateHome != "" {
		return filepath.Join(c.XDGStateHome, "erleah-agent")
	}
	if c.Home != "" {
		return filepath.Join(c.Home, ".local", "state", "erleah-agent")
	}
	return ".erleah-state"
}

func (c config) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return l, fmt.Errorf("LOG_LEVEL=%q: want debug, info, warn or error", c.LogLevel)
	}
	return l, nil
}

// LogValue is the effective configuration with secrets masked: every
// variable read (named after it, lower case) and the state directory.
func (c config) LogValue() slog.Value {
	v, t := reflect.ValueOf(c), reflect.TypeOf(c)
	attrs := make([]slog.Attr, 0, t.NumField())
	for i := range t.NumField() {
		name := t.Field(i).Tag.Get("env")
		if name == "" || name == "HOME" || name == "XDG_STATE_HOME" || name == "STATE_DIR" {
			continue // the state directory is logged as resolved, below
		}
		val := v.Field(i).Interface()
		if name == "RECONCILE_ABANDON_AFTER" {
			val = c.abandonAfter() // its default follows TURN_TIMEOUT
		}
		if d, ok := val.(time.Duration); ok {
			val = d.String() // "30s", as it is written in the environment
		}
		attrs = append(attrs, slog.Any(strings.ToLower(name), val))
	}
	return slog.GroupValue(append(attrs, slog.String("state_dir", c.stateDir()))...)
}

// publicURL is PUBLIC_URL, or the listen address as an http URL.
func (c config) publicURL() string {
	if c.PublicURL != "" {
		return strings.TrimRight(c.PublicURL, "/")
	}
	return "http://" + c.ListenAddr
}
